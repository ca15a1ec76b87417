import { memo, useCallback, useEffect, useMemo, useRef } from 'react';
import FullCalendar from '@fullcalendar/react';
import timeGridPlugin from '@fullcalendar/timegrid';
import interactionPlugin, { type DateClickArg, type EventResizeDoneArg } from '@fullcalendar/interaction';
import type { CalendarOptions, DayHeaderMountArg, EventApi, EventClickArg, EventContentArg, EventDropArg, EventInput, EventMountArg } from '@fullcalendar/core';
import { DAY_NAMES } from '../../../core/domain/days';
import { availabilityWindow } from '../../../core/domain/teaching';
import { WHOLE_TERM_CODE } from '../../../core/domain/parts';
import { describeMeeting, instructorsOf } from '../lib/resource-rows';
import { MAX_DRAWN_PER_SLOT, weekEvents } from '../lib/calendar-events';
import { textWidth } from '../lib/text-width';
import { useElementSize } from '@mantine/hooks';
import { colourOf, dateOfLetter, hhmm, leadInstructor, letterOfDate, minutesOf, REFERENCE_MONDAY, shiftPattern, timeOfDate } from '../lib/week';
import { messageOf } from '../api/errors';
import { updateEntry, useScheduleView } from '../stores/schedule';
import { useCampusList } from '../stores/catalog';
import type { Doctor, Entry } from '../api/wire';
import type { AutofillResult } from './AutofillPanel';

/**
 * Options that never change, defined once: FullCalendar re-processes every event when an option's
 * identity changes, so fresh arrays and objects on each render would cost a full re-layout.
 */
const CALENDAR_OPTIONS = {
  plugins: [timeGridPlugin, interactionPlugin],
  initialView: 'timeGridWeek',
  initialDate: REFERENCE_MONDAY,
  headerToolbar: false,
  dayHeaderFormat: { weekday: 'long' },
  hiddenDays: [0],
  firstDay: 1,
  slotMinTime: '07:00:00',
  slotMaxTime: '22:00:00',
  slotDuration: '00:30:00',
  slotLabelFormat: { hour: '2-digit', minute: '2-digit', hour12: false },
  // Our event content shows no time; skipping FullCalendar's time text saves a formatter per event.
  displayEventTime: false,
  // Side by side, never drawn over one another: a section under another cannot be read or clicked.
  slotEventOverlap: false,
  // "+N sections" blocks (extendedProps.overflow = 1) are placed after, so to the right of, the sections drawn beside them.
  eventOrder: 'overflow,start,-duration,title',
  snapDuration: '00:15:00',
  allDaySlot: false,
  editable: true,
  // Crowded times are folded by weekEvents into counted "+N sections" blocks: the calendar's only overflow mechanism.
  eventDurationEditable: true,
  // The whole day at once, the page scrolling with the weekday header kept in view: no scroller
  // inside the page (hours hidden under a second scrollbar) and nothing cut off when printed.
  height: 'auto',
  stickyHeaderDates: true,
  // Column headers are announced as weekdays, not as the dates of the reference week the pattern is drawn on.
  dayHeaderDidMount: (arg: DayHeaderMountArg) => arg.el.querySelector('a')?.setAttribute('aria-label', DAY_NAMES[letterOfDate(arg.date)]),
} satisfies CalendarOptions;

export type DraftPlacement = AutofillResult['placed'][number];

/** The time axis at the left of the week, the days shown (Monday–Saturday), and a block's text size and chrome (border, padding). */
const TIME_AXIS_PX = 56;
const SHOWN_DAYS = 6;
const BLOCK_FONT_PX = 11;
const BLOCK_CHROME_PX = 8;

/** A block's accessible name and hover text. */
function labelBlock(block: HTMLElement | null, label: string): void {
  if (!block) return;
  if (block.getAttribute('aria-label') !== label) block.setAttribute('aria-label', label);
  if (block.getAttribute('title') !== label) block.setAttribute('title', label);
}

/**
 * The week of the shown sections: drag to move, stretch to lengthen (each conflict-checked by the
 * core, a refusal put back and explained on the block), click free time to start a section there.
 * Crowded times fold into counted "+N sections" blocks; an instructor's availability is a band;
 * an auto-fill draft is drawn in a preview style.
 */
export const WeekCalendar = memo(function WeekCalendar({
  shown,
  entriesById,
  availabilityOf,
  draft,
  onCreate,
  onOpen,
  hidden = false,
}: {
  shown: readonly Entry[];
  entriesById: ReadonlyMap<number, Entry>;
  /** The filtered instructor, whose available hours are drawn as bands. */
  availabilityOf: Doctor | undefined;
  draft: readonly DraftPlacement[];
  onCreate: (letter: string, time: string) => void;
  /** One section opens for editing; several (a joint block, a "+N sections" block) are listed. */
  onOpen: (entryIds: readonly number[]) => void;
  /** Kept mounted but not shown while another view is: switching back costs no new calendar. */
  hidden?: boolean;
}) {
  const refusal = useScheduleView((s) => s.refusal);
  const refuse = useScheduleView((s) => s.refuse);
  const campusCount = useCampusList().length;
  // The width of a day, in steps of 8 px (a resize within a step lays nothing out again).
  const { ref: sizeRef, width } = useElementSize();
  // Hidden (another view shown), the calendar keeps the width it last had: nothing is laid out again.
  const lastWidth = useRef(0);
  if (width > 0) lastWidth.current = width;
  const dayWidth = Math.floor(Math.max(0, lastWidth.current - TIME_AXIS_PX) / SHOWN_DAYS / 8) * 8;
  const calendarRef = useRef<FullCalendar>(null);
  // Shown again, FullCalendar measures its columns anew (they had no size while hidden).
  useEffect(() => {
    if (!hidden) calendarRef.current?.getApi().updateSize();
  }, [hidden]);
  const columnsThatFit = useMemo(() => {
    if (dayWidth === 0) return undefined;
    const font = `bold ${BLOCK_FONT_PX}px ${getComputedStyle(document.body).fontFamily}`;
    // FullCalendar keeps a margin at the right of each day (2.5 %) and 2 px at its left.
    const usable = dayWidth * 0.975 - 2;
    return (codes: readonly string[]): number => Math.floor(usable / (Math.max(...codes.map((c) => textWidth(c, font))) + BLOCK_CHROME_PX));
  }, [dayWidth]);
  // Recomputed only when entries or filters change, so FullCalendar does not re-lay out every event on unrelated updates.
  const events = useMemo(() => {
    // The filtered instructor's available hours, read as the conflict rules read them.
    const window = availabilityOf ? availabilityWindow(availabilityOf) : null;
    const availability: EventInput[] = window
      ? window.days.map((letter) => ({
          start: `${dateOfLetter(letter)}T${hhmm(window.start)}`,
          end: `${dateOfLetter(letter)}T${hhmm(Math.min(window.end, 24 * 60 - 1))}`,
          display: 'background',
          backgroundColor: '#8ce99a',
        }))
      : [];
    const preview: EventInput[] = draft.flatMap((p, i) =>
      [...p.day].map((letter) => ({
        id: `draft-${i}:${letter}`,
        title: `${p.course_code} §${p.section_name} (draft)`,
        start: `${dateOfLetter(letter)}T${p.start_time}`,
        end: `${dateOfLetter(letter)}T${hhmm(minutesOf(p.start_time) + p.duration_mins)}`,
        classNames: ['tw-preview'],
        editable: false,
        backgroundColor: 'transparent',
        borderColor: colourOf(leadInstructor(p)),
        textColor: 'inherit',
        extendedProps: { draft: p },
      })),
    );
    return [...weekEvents(shown, MAX_DRAWN_PER_SLOT, columnsThatFit), ...availability, ...preview];
  }, [shown, availabilityOf, draft, columnsThatFit]);

  // Handlers keep their identity between renders: FullCalendar redraws every event when one changes.
  const onDateClick = useCallback((info: DateClickArg): void => onCreate(letterOfDate(info.date), timeOfDate(info.date)), [onCreate]);
  /**
   * Screen readers and hover read the whole meeting, whatever the block's width lets it show: its
   * current day, time, room and instructors, from the data (set on mount and again on every render
   * of the block's content, so a move, a resize or an edit is read at once).
   */
  const labelOf = useCallback(
    (event: EventApi): string => {
      const hidden = event.extendedProps.hiddenLabels as string[] | undefined;
      if (hidden) return `${hidden.length} more sections: ${hidden.join(', ')}. Press Enter to list them.`;
      const ids = (event.extendedProps.jointEntries as number[] | undefined) ?? [Number(event.groupId)];
      const members = ids.map((id) => entriesById.get(id)).filter((e): e is Entry => e !== undefined);
      const start = event.start;
      const end = event.end;
      if (members.length === 0 || !start || !end) return event.title;
      return describeMeeting(members, letterOfDate(start), minutesOf(timeOfDate(start)), minutesOf(timeOfDate(end)));
    },
    [entriesById],
  );
  const onEventMount = useCallback((arg: EventMountArg): void => labelBlock(arg.el, labelOf(arg.event)), [labelOf]);
  const onEventClick = useCallback(
    (info: EventClickArg): void => {
      const listed = (info.event.extendedProps.hiddenEntries ?? info.event.extendedProps.jointEntries) as number[] | undefined;
      onOpen(listed ?? [Number(info.event.groupId)]);
    },
    [onOpen],
  );
  const onDrop = useCallback(
    async (info: EventDropArg): Promise<void> => {
      const id = Number(info.event.groupId);
      const entry = entriesById.get(id);
      if (!entry || !info.event.start) return info.revert();
      try {
        await updateEntry({ entry_id: id, day: shiftPattern(entry.day, info.delta.days), start_time: timeOfDate(info.event.start) });
      } catch (e) {
        info.revert();
        refuse(id, messageOf(e));
      }
    },
    [entriesById, refuse],
  );
  const onResize = useCallback(
    async (info: EventResizeDoneArg): Promise<void> => {
      const id = Number(info.event.groupId);
      if (!info.event.start || !info.event.end) return info.revert();
      try {
        await updateEntry({ entry_id: id, duration_mins: Math.round((info.event.end.getTime() - info.event.start.getTime()) / 60000) });
      } catch (e) {
        info.revert();
        refuse(id, messageOf(e));
      }
    },
    [refuse],
  );
  const onDropHandler = useCallback((info: EventDropArg) => void onDrop(info), [onDrop]);
  const onResizeHandler = useCallback((info: EventResizeDoneArg) => void onResize(info), [onResize]);
  const renderEvent = useCallback(
    (arg: EventContentArg) => {
      // Availability bands are backgrounds: no entry text on them.
      if (arg.event.display === 'background') return null;
      const label = labelOf(arg.event);
      const relabel = (node: HTMLElement | null): void => labelBlock(node?.closest<HTMLElement>('.fc-event') ?? null, label);
      const hidden = arg.event.extendedProps.hiddenEntries as number[] | undefined;
      if (hidden) {
        return (
          <div ref={relabel} data-testid="slot-more" data-count={hidden.length} style={{ fontSize: 11, padding: 2 }}>
            <b>+{hidden.length} sections</b>
            <div>click to list</div>
          </div>
        );
      }
      const placement = arg.event.extendedProps.draft as DraftPlacement | undefined;
      if (placement) {
        return (
          <div className="tw-preview-content" style={{ overflow: 'hidden', fontSize: 11, lineHeight: 1.2 }}>
            <b>{arg.event.title}</b>
            <div>{placement.doctors.map((d) => d.name).join(', ')}</div>
            <div>{placement.room}</div>
          </div>
        );
      }
      const id = Number(arg.event.groupId);
      const entry = entriesById.get(id);
      const part = entry && entry.part_of_term !== WHOLE_TERM_CODE ? ` · part ${entry.part_of_term}` : '';
      const code = entry && arg.event.title.startsWith(entry.course_code) ? entry.course_code : '';
      return (
        <div ref={relabel} className="tw-event" data-testid={`event-${id}`} data-entry-id={id}>
          {/* The course code in full, then the section and the rest as space allows. */}
          <b>
            <span className="tw-code" data-testid="event-code">
              {code}
            </span>
            {arg.event.title.slice(code.length)}
          </b>
          <div>{instructorsOf(entry)}</div>
          <div>
            {entry?.room}
            {campusCount > 1 && entry ? ` · ${entry.campus}` : ''}
            {part}
          </div>
          {entry && entry.curriculum_conflicts.length > 0 && (
            <div className="tw-event-curriculum" data-testid="event-curriculum" title={entry.warnings.filter((w) => w.startsWith('Curriculum')).join('\n')}>
              Clashes for students with {entry.curriculum_conflicts.join(', ')}
            </div>
          )}
          {refusal?.entryId === id && (
            <div className="tw-event-error" role="alert" data-testid="event-refusal">
              {refusal.message}
            </div>
          )}
        </div>
      );
    },
    [entriesById, campusCount, refusal, labelOf],
  );

  return (
    <div ref={sizeRef} style={hidden ? { display: 'none' } : undefined}>
      <FullCalendar
        ref={calendarRef}
        {...CALENDAR_OPTIONS}
        events={events}
        dateClick={onDateClick}
        eventClick={onEventClick}
        eventDrop={onDropHandler}
        eventResize={onResizeHandler}
        eventContent={renderEvent}
        eventDidMount={onEventMount}
      />
    </div>
  );
});
