import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import FullCalendar from '@fullcalendar/react';
import timeGridPlugin from '@fullcalendar/timegrid';
import interactionPlugin, { type DateClickArg, type EventResizeDoneArg } from '@fullcalendar/interaction';
import type { CalendarOptions, DayHeaderMountArg, EventApi, EventClickArg, EventContentArg, EventDropArg, EventInput, EventMountArg } from '@fullcalendar/core';
import { DAY_NAMES } from '../../../core/domain/days';
import { availabilityWindow } from '../../../core/domain/teaching';
import { describeMeeting, type OtherBooking } from '../lib/resource-rows';
import { MAX_DRAWN_PER_SLOT, weekEvents } from '../lib/calendar-events';
import { widestTextWidth } from '../lib/text-width';
import { useElementSize } from '@mantine/hooks';
import { dateOfLetter, hhmm, letterOfDate, minutesOf, REFERENCE_MONDAY, shiftPattern, timeOfDate } from '../lib/week';
import { messageOf } from '../api/errors';
import { useScheduleView } from '../stores/schedule';
import { updateEntry } from '../controllers/timetable';
import { useCampusList } from '../controllers/catalog';
import type { Doctor, Entry } from '../api/wire';
import { labelBlock, WeekEventContent } from './WeekEventContent';
import type { DraftBlock } from '../lib/draft-review';

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

/** The time axis at the left of the week, the days shown (Monday–Saturday), and a block's text size and chrome (border, padding). */
const TIME_AXIS_PX = 56;
const SHOWN_DAYS = 6;
const BLOCK_FONT_PX = 11;
const BLOCK_CHROME_PX = 8;

/**
 * How many blocks side by side leave each its course code in full, from the width of a day (in
 * steps of 8 px: a resize within a step lays nothing out again) and the codes measured on a canvas.
 * Hidden (another view shown), the calendar keeps the width it last had.
 */
function useColumnsThatFit() {
  const { ref: observed, width } = useElementSize<HTMLDivElement>();
  // Read once as the week mounts: the size observer's first answer comes a frame or more later, and a
  // large term drawn before it was drawn unfolded, then laid out again folded. Until it is read (the
  // week's first commit), no section is drawn: the page often mounts with the term's sections in hand.
  const [widthAtMount, setWidthAtMount] = useState(0);
  const sizeRef = useCallback(
    (element: HTMLDivElement | null): void => {
      if (element !== null) setWidthAtMount((known) => known || element.clientWidth);
      observed(element);
    },
    [observed],
  );
  const lastWidth = useRef(0);
  if (width > 0) lastWidth.current = width;
  else if (lastWidth.current === 0) lastWidth.current = widthAtMount;
  const dayWidth = Math.floor(Math.max(0, lastWidth.current - TIME_AXIS_PX) / SHOWN_DAYS / 8) * 8;
  const columnsThatFit = useMemo(() => {
    if (dayWidth === 0) return undefined;
    const font = `bold ${BLOCK_FONT_PX}px ${getComputedStyle(document.body).fontFamily}`;
    // FullCalendar keeps a margin at the right of each day (2.5 %) and 2 px at its left.
    const usable = dayWidth * 0.975 - 2;
    return (codes: readonly string[]): number => Math.floor(usable / (widestTextWidth(codes, font) + BLOCK_CHROME_PX));
  }, [dayWidth]);
  return { sizeRef, columnsThatFit, measured: lastWidth.current > 0 };
}

/**
 * The calendar's events: the sections and an auto-fill draft's (folded where crowded, by one rule,
 * the draft's in its pattern), and the filtered instructor's available hours as bands (read as the
 * conflict rules read them). Recomputed only when those change, so FullCalendar does not re-lay out
 * every event on unrelated updates.
 */
function useWeekEvents(
  shown: readonly Entry[],
  availabilityOf: Doctor | undefined,
  draft: readonly DraftBlock[],
  columnsThatFit: ((codes: readonly string[]) => number) | undefined,
  taken: readonly OtherBooking[],
): EventInput[] {
  return useMemo(() => {
    // Other departments' meetings in the shared room or with the shared instructor shown: taken, never moved or opened.
    const others: EventInput[] = taken.flatMap((o, i) =>
      [...o.day]
        .filter((letter) => letter in DAY_NAMES)
        .map((letter) => ({
          id: `taken:${i}:${letter}`,
          title: `${o.label}, ${DAY_NAMES[letter as keyof typeof DAY_NAMES]} ${hhmm(o.start)}–${hhmm(o.end)}`,
          start: `${dateOfLetter(letter as keyof typeof DAY_NAMES)}T${hhmm(o.start)}`,
          end: `${dateOfLetter(letter as keyof typeof DAY_NAMES)}T${hhmm(o.end)}`,
          editable: false,
          classNames: ['tw-taken'],
          extendedProps: { taken: true, label: o.label },
        })),
    );
    const window = availabilityOf ? availabilityWindow(availabilityOf) : null;
    const availability: EventInput[] = window
      ? window.days.map((letter) => ({
          start: `${dateOfLetter(letter)}T${hhmm(window.start)}`,
          end: `${dateOfLetter(letter)}T${hhmm(Math.min(window.end, 24 * 60 - 1))}`,
          display: 'background',
          backgroundColor: '#8ce99a',
        }))
      : [];
    return [...weekEvents([...shown, ...draft], MAX_DRAWN_PER_SLOT, columnsThatFit), ...others, ...availability];
  }, [shown, availabilityOf, draft, columnsThatFit, taken]);
}

/**
 * A dragged or stretched block written through the core (conflict-checked): a refusal puts it
 * back and is shown on it. Handlers keep their identity between renders: FullCalendar redraws
 * every event when one changes.
 */
function useCalendarMoves(entriesById: ReadonlyMap<number, Entry>) {
  const refuse = useScheduleView((s) => s.refuse);
  const write = useCallback(
    async (id: number, patch: { day?: string; start_time?: string; duration_mins?: number }, revert: () => void): Promise<void> => {
      try {
        await updateEntry({ entry_id: id, ...patch });
      } catch (e) {
        revert();
        refuse(id, messageOf(e));
      }
    },
    [refuse],
  );
  const onDrop = useCallback(
    (info: EventDropArg): void => {
      const id = Number(info.event.groupId);
      const entry = entriesById.get(id);
      if (!entry || !info.event.start) return info.revert();
      void write(id, { day: shiftPattern(entry.day, info.delta.days), start_time: timeOfDate(info.event.start) }, info.revert);
    },
    [entriesById, write],
  );
  const onResize = useCallback(
    (info: EventResizeDoneArg): void => {
      const { start, end } = info.event;
      if (!start || !end) return info.revert();
      void write(Number(info.event.groupId), { duration_mins: Math.round((end.getTime() - start.getTime()) / 60000) }, info.revert);
    },
    [write],
  );
  return { onDrop, onResize };
}

/**
 * Screen readers and hover read the whole meeting, whatever the block's width lets it show: its
 * current day, time, room and instructors, from the data (set on mount and again on every render
 * of the block's content, so a move, a resize or an edit is read at once).
 */
function useBlockLabels(entriesById: ReadonlyMap<number, Entry>) {
  return useCallback(
    (event: EventApi): string => {
      const hidden = event.extendedProps.hiddenLabels as string[] | undefined;
      if (hidden) return `${hidden.length} more sections: ${hidden.join(', ')}. Press Enter to list them.`;
      const draft = event.extendedProps.draft as DraftBlock | undefined;
      if (draft && event.start && event.end)
        return `Draft, not stored: ${describeMeeting([draft], letterOfDate(event.start), minutesOf(timeOfDate(event.start)), minutesOf(timeOfDate(event.end)))}`;
      const ids = (event.extendedProps.jointEntries as number[] | undefined) ?? [Number(event.groupId)];
      const members = ids.map((id) => entriesById.get(id)).filter((e): e is Entry => e !== undefined);
      const { start, end } = event;
      if (members.length === 0 || !start || !end) return event.title;
      return describeMeeting(members, letterOfDate(start), minutesOf(timeOfDate(start)), minutesOf(timeOfDate(end)));
    },
    [entriesById],
  );
}

export interface WeekCalendarProps {
  shown: readonly Entry[];
  entriesById: ReadonlyMap<number, Entry>;
  /** The filtered instructor, whose available hours are drawn as bands. */
  availabilityOf: Doctor | undefined;
  /** An auto-fill draft's sections staff keep checked. */
  draft: readonly DraftBlock[];
  /** Starts a section at free time clicked; null where the reader may not write (nothing moves either). */
  onCreate: ((letter: string, time: string) => void) | null;
  /** One section opens for editing; several (a joint block, a "+N sections" block) are listed. */
  onOpen: (entryIds: readonly number[]) => void;
  /** Kept mounted but not shown while another view is: switching back costs no new calendar. */
  hidden?: boolean;
  /** Other departments' meetings in the room, or with the instructor, the week is filtered to. */
  taken?: readonly OtherBooking[];
}

const NOTHING_TAKEN: readonly OtherBooking[] = [];
/** What the week draws until its width is read: nothing (the same lists each time). */
const NO_ENTRIES_YET: readonly Entry[] = [];
const NO_DRAFT_YET: readonly DraftBlock[] = [];

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
  taken = NOTHING_TAKEN,
}: WeekCalendarProps) {
  const refusal = useScheduleView((s) => s.refusal);
  const campusCount = useCampusList().length;
  const { sizeRef, columnsThatFit, measured } = useColumnsThatFit();
  const calendarRef = useRef<FullCalendar>(null);
  // Shown again, FullCalendar measures its columns anew (they had no size while hidden).
  useEffect(() => {
    if (!hidden) calendarRef.current?.getApi().updateSize();
  }, [hidden]);
  const events = useWeekEvents(measured ? shown : NO_ENTRIES_YET, availabilityOf, measured ? draft : NO_DRAFT_YET, columnsThatFit, taken);
  const { onDrop, onResize } = useCalendarMoves(entriesById);
  const labelOf = useBlockLabels(entriesById);
  const onDateClick = useCallback((info: DateClickArg): void => onCreate?.(letterOfDate(info.date), timeOfDate(info.date)), [onCreate]);
  const onEventMount = useCallback((arg: EventMountArg): void => labelBlock(arg.el, labelOf(arg.event)), [labelOf]);
  const onEventClick = useCallback(
    (info: EventClickArg): void => {
      // A draft's section is reviewed in the draft's list, not opened (it is not stored yet); another department's is not ours to open.
      if (info.event.extendedProps.draft || info.event.extendedProps.taken) return;
      const listed = (info.event.extendedProps.hiddenEntries ?? info.event.extendedProps.jointEntries) as number[] | undefined;
      onOpen((listed ?? [Number(info.event.groupId)]).filter((id) => id > 0));
    },
    [onOpen],
  );
  const renderEvent = useCallback(
    // Availability bands are backgrounds: no entry text on them.
    (arg: EventContentArg) =>
      arg.event.display === 'background' ? null : arg.event.extendedProps.taken ? (
        <span className="tw-taken-label" data-testid="week-taken">
          {String(arg.event.extendedProps.label)}
        </span>
      ) : (
        <WeekEventContent arg={arg} entriesById={entriesById} label={labelOf(arg.event)} campusCount={campusCount} refusal={refusal} />
      ),
    [entriesById, campusCount, refusal, labelOf],
  );

  return (
    <div ref={sizeRef} style={hidden ? { display: 'none' } : undefined}>
      {/* Drawn once its width is known (read as it mounts, before the first paint): drawn before, a large term was laid out twice. */}
      {(columnsThatFit !== undefined || hidden) && (
        <FullCalendar
          ref={calendarRef}
          {...CALENDAR_OPTIONS}
          events={events}
          editable={onCreate !== null}
          dateClick={onDateClick}
          eventClick={onEventClick}
          eventDrop={onDrop}
          eventResize={onResize}
          eventContent={renderEvent}
          eventDidMount={onEventMount}
        />
      )}
    </div>
  );
});
