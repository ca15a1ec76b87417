import { memo, useState, type CSSProperties, type MouseEvent } from 'react';
import { SegmentedControl } from '@mantine/core';
import { DAY_NAMES, type DayLetter } from '../../../core/domain/days';
import { formatHHMM } from '../../../core/domain/time';
import { VIEW_DAYS, VIEW_END, VIEW_START, type ResourceKind, type ResourceMeeting, type ResourceRow } from '../lib/resource-rows';
import { usePrinting } from '../lib/use-printing';
import { useWindowedRows, WindowedTableRows } from './WindowedRows';
import { byText } from '../lib/text-order';

const LANE_HEIGHT = 22;
/** The view's scrolling box (.tw-resource-scroll): its height on screen. */
const SCROLL_HEIGHT = 720;
/**
 * Views of up to this many rows are drawn whole; longer ones (a large department's hundreds of
 * instructors) draw the rows in view, and every row when printed.
 */
const DRAWN_WHOLE_ROWS = 200;
const SPAN = VIEW_END - VIEW_START;
const DAY_RULER_HOURS = Array.from({ length: 15 }, (_, i) => 7 + i);
const percentOf = (minutes: number): number => ((Math.min(Math.max(minutes, VIEW_START), VIEW_END) - VIEW_START) / SPAN) * 100;

/** Where a meeting sits on a day's line: from its start to its end, in its lane. */
function segmentPlace(m: ResourceMeeting): CSSProperties {
  return {
    left: `${percentOf(m.start)}%`,
    width: `${Math.max(0.8, percentOf(m.end) - percentOf(m.start))}%`,
    top: 2 + m.lane * LANE_HEIGHT,
    height: LANE_HEIGHT - 2,
  };
}

/** A row's name and its days: the whole week lists each day's meetings; one day places them on a line. */
function ResourceRowCells({
  row,
  days,
  kind,
  onOpen,
  onCreate,
  startAt,
}: {
  row: ResourceRow;
  days: readonly DayLetter[];
  kind: ResourceKind;
  onOpen: (entryIds: number[]) => void;
  onCreate: ((rowKey: string, letter: DayLetter, time: string) => void) | null;
  startAt: (rowKey: string, letter: DayLetter) => (event: MouseEvent<HTMLDivElement>) => void;
}) {
  return (
    <>
      <th scope="row" className="tw-resource-name">
        <div className="tw-resource-label" title={row.label}>
          {row.label}
        </div>
        <div className="tw-resource-count">{row.sections === 1 ? '1 section' : `${row.sections} sections`}</div>
      </th>
      {days.map((letter) =>
        days.length > 1 ? (
          <DayListCell key={letter} meetings={row.meetings.filter((m) => m.letter === letter)} onOpen={onOpen} />
        ) : (
          <td key={letter}>
            <div
              className="tw-lanes"
              style={{ height: row.lanes * LANE_HEIGHT + 4 }}
              onClick={startAt(row.key, letter)}
              title={onCreate === null ? undefined : `Free time: click to add a section ${kind === 'room' ? 'in' : 'for'} ${row.label} on ${DAY_NAMES[letter]}`}
            >
              {row.meetings
                .filter((m) => m.letter === letter)
                .map((m) => (
                  <DaySegment key={m.key} meeting={m} onOpen={onOpen} />
                ))}
            </div>
          </td>
        ),
      )}
    </>
  );
}

/** A day of the whole week: its meetings listed by time, every course code in full; another department's is taken, nothing to open. */
function DayListCell({ meetings, onOpen }: { meetings: readonly ResourceMeeting[]; onOpen: (entryIds: number[]) => void }) {
  return (
    <td className="tw-cell-list">
      {[...meetings]
        .sort((a, b) => a.start - b.start || byText(a.label, b.label))
        .map((m) =>
          m.other ? (
            <span key={m.key} className="tw-item tw-item-other" title={m.description} data-testid="resource-taken">
              {`${formatHHMM(m.start)}–${formatHHMM(m.end)} ${m.label}`}
            </span>
          ) : (
            <button
              type="button"
              key={m.key}
              className={m.curriculum ? 'tw-item tw-item-curriculum' : 'tw-item'}
              title={m.description}
              aria-label={m.description}
              data-testid="resource-meeting"
              data-entries={m.entryIds.join(',')}
              onClick={() => onOpen(m.entryIds)}
            >
              {`${formatHHMM(m.start)}–${formatHHMM(m.end)} `}
              <b className="tw-code" data-testid="meeting-code">
                {m.code}
              </b>
              {m.label.slice(m.code.length)}
            </button>
          ),
        )}
    </td>
  );
}

/** A meeting on one day's line, from its start to its end in its lane; another department's is taken, nothing to open. */
function DaySegment({ meeting: m, onOpen }: { meeting: ResourceMeeting; onOpen: (entryIds: number[]) => void }) {
  return m.other ? (
    <span className="tw-seg tw-seg-other" style={segmentPlace(m)} title={m.description} data-testid="resource-taken">
      {m.label}
    </span>
  ) : (
    <button
      type="button"
      className={m.curriculum ? 'tw-seg tw-seg-curriculum' : 'tw-seg'}
      style={segmentPlace(m)}
      title={m.description}
      aria-label={m.description}
      data-testid="resource-meeting"
      data-entries={m.entryIds.join(',')}
      onClick={() => onOpen(m.entryIds)}
    >
      {m.label}
    </button>
  );
}

/**
 * Rooms (or instructors) × the week. The whole week lists each day's meetings by time in its cell
 * (time, then the course code in full and the section), so every code reads on screen and in print;
 * one day at a time places the meetings on a line from 07:00 to 22:00, free time as empty space
 * where a click starts a section. A meeting is a button (the rest on hover, focus and for screen readers).
 * Drawn again only when its rows or callbacks change: a term's week is thousands of buttons.
 */
export const ResourceWeek = memo(function ResourceWeek({
  kind,
  rows,
  onOpen,
  onCreate,
}: {
  kind: ResourceKind;
  rows: ResourceRow[];
  onOpen: (entryIds: number[]) => void;
  /** Starts a section at free time clicked; null where the reader may not write. */
  onCreate: ((rowKey: string, letter: DayLetter, time: string) => void) | null;
}) {
  // The whole week to spot free rooms at a glance; one day across the full width to read every label.
  const [only, setOnly] = useState<string>('week');
  const days = only === 'week' ? VIEW_DAYS : VIEW_DAYS.filter((d) => d === only);
  const printing = usePrinting();
  const windowed = useWindowedRows(rows.length, {
    maxHeight: SCROLL_HEIGHT,
    rowHeight: days.length > 1 ? 60 : 30,
    drawnWhole: printing ? Infinity : DRAWN_WHOLE_ROWS,
    firstDrawn: printing ? undefined : Math.ceil(SCROLL_HEIGHT / LANE_HEIGHT),
  });
  const startAt = (rowKey: string, letter: DayLetter) => (event: MouseEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget || onCreate === null) return;
    const box = event.currentTarget.getBoundingClientRect();
    const minutes = VIEW_START + ((event.clientX - box.left) / Math.max(1, box.width)) * SPAN;
    onCreate(rowKey, letter, formatHHMM(Math.min(VIEW_END - 60, Math.floor(minutes / 15) * 15)));
  };
  return (
    <div className="tw-resource-scroll" ref={windowed.box}>
      <SegmentedControl
        className="tw-no-print"
        size="xs"
        mb={6}
        value={only}
        onChange={setOnly}
        data={[{ value: 'week', label: 'Whole week' }, ...VIEW_DAYS.map((d) => ({ value: d, label: DAY_NAMES[d] }))]}
        aria-label="Days shown"
        data-testid="view-days"
      />
      <table className="tw-resource-week" data-testid={`view-${kind}`} aria-label={kind === 'room' ? 'Timetable by room' : 'Timetable by instructor'}>
        <ResourceWeekHead kind={kind} days={days} />
        <tbody>
          <WindowedTableRows
            rows={rows}
            windowed={windowed}
            columns={days.length + 1}
            row={(row, at) => (
              <tr key={row.key} data-testid="resource-row" data-key={row.key} data-index={at.index} ref={windowed.measure}>
                <ResourceRowCells row={row} days={days} kind={kind} onOpen={onOpen} onCreate={onCreate} startAt={startAt} />
              </tr>
            )}
          />
        </tbody>
      </table>
      {rows.length === 0 && (
        <p className="tw-resource-empty">
          {kind === 'room' ? 'No rooms yet: add one in the Rooms panel or give a section a room.' : 'No instructors yet: add one with "Add doctor".'}
        </p>
      )}
      <p className="tw-resource-note">
        {days.length > 1
          ? 'Each day lists its meetings by time. Choose one day to see free time as empty space and click it to add a section.'
          : `Times from ${formatHHMM(VIEW_START)} to ${formatHHMM(VIEW_END)}; empty space is free time.`}
      </p>
    </div>
  );
});

/** The view's head: what its rows are, then each day shown (one day alone with its ruler of hours). */
function ResourceWeekHead({ kind, days }: { kind: ResourceKind; days: readonly DayLetter[] }) {
  return (
    <thead>
      <tr>
        <th scope="col" className="tw-resource-name">
          {kind === 'room' ? 'Room' : 'Instructor'}
        </th>
        {days.map((letter) => (
          <th scope="col" key={letter}>
            {DAY_NAMES[letter]}
            {days.length === 1 && (
              <div className="tw-ruler" aria-hidden="true">
                {DAY_RULER_HOURS.map((h) => (
                  <span key={h} style={{ left: `${percentOf(h * 60)}%` }}>
                    {h}
                  </span>
                ))}
              </div>
            )}
          </th>
        ))}
      </tr>
    </thead>
  );
}
