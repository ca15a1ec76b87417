import { memo, useMemo, useState } from 'react';
import { Badge, Button, Card, Group, List, ScrollArea, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import type { AutofillResult } from '../api/wire';
import type { DraftShown } from '../controllers/scheduler';
import { REVIEW_SORTS, shownRows, type ReviewRow, type ReviewSort } from '../lib/draft-review';
import { useDraftReview } from '../stores/draft-review';

/** How a draft's row reads its place: "MWF 09:00 (60 min) in Hall 2". */
const when = (m: { day: string; start_time: string; duration_mins: number; room: string }): string =>
  `${m.day} ${m.start_time} (${m.duration_mins} min) in ${m.room}`;

const SHOWN: { value: DraftShown; label: string }[] = [
  { value: 'both', label: 'Draft and timetable' },
  { value: 'draft', label: 'Draft alone' },
  { value: 'timetable', label: 'Timetable alone' },
];

export interface DraftReview {
  rows: readonly ReviewRow[];
  shown: DraftShown;
  onShow: (shown: DraftShown) => void;
}

/**
 * A draft under review, of any source: what it places or moves, one row per section (moved meetings
 * with where they were), each checked to keep or unchecked to leave out (off the calendar too);
 * rows filtered and sorted by course, instructor, room or time (an unchecked row's blocks dimmed on the week); what it could not place, with why;
 * and Apply (the checked rows, all or nothing) or Discard.
 */
export function AutofillPreview({
  result,
  review,
  applying,
  onApply,
  onDiscard,
  readOnly,
}: {
  result: AutofillResult;
  review: DraftReview;
  applying: boolean;
  onApply: () => void;
  onDiscard: () => void;
  /** Why the draft is only reviewed here (no Apply). */
  readOnly?: string | undefined;
}) {
  const { rows } = review;
  // Which rows staff unchecked: this review's own state (stores/draft-review), so a toggle redraws the row and its blocks only.
  const left = useDraftReview((st) => st.left);
  const onToggle = useDraftReview((st) => st.toggle);
  const [filter, setFilter] = useState('');
  const [sort, setSort] = useState<ReviewSort>('course');
  const listed = useMemo(() => shownRows(rows, filter, sort), [rows, filter, sort]);
  const kept = rows.filter((r) => !left.has(r.key)).length;
  const unplaced = unplacedRows(result);
  return (
    <Card withBorder data-testid="autofill-summary" bg="var(--mantine-color-blue-light)" className="tw-no-print">
      <Stack gap={6}>
        <Group justify="space-between" align="start">
          <DraftFigures result={result} unplaced={unplaced.length} />
          <DraftActions readOnly={readOnly} kept={kept} of={rows.length} applying={applying} onApply={onApply} onDiscard={onDiscard} />
        </Group>
        <ReviewControls filter={filter} onFilter={setFilter} sort={sort} onSort={setSort} review={review} />
        <ScrollArea h={200}>
          <Stack gap={2} data-testid="autofill-review" role="group" aria-label="The draft's sections: uncheck those to leave out">
            {listed.map((row) => (
              <ReviewLine key={row.key} row={row} checked={!left.has(row.key)} onToggle={onToggle} />
            ))}
            {listed.length === 0 && (
              <Text size="xs" c="dimmed">
                {rows.length === 0 ? 'Nothing to place or move.' : 'No row matches.'}
              </Text>
            )}
          </Stack>
          {unplaced.length > 0 && <UnplacedList unplaced={unplaced} />}
        </ScrollArea>
      </Stack>
    </Card>
  );
}

/** Apply (the rows kept, of all) and Discard; or, where the draft is only reviewed, why, and Close. */
function DraftActions(props: { readOnly: string | undefined; kept: number; of: number; applying: boolean; onApply: () => void; onDiscard: () => void }) {
  return props.readOnly !== undefined ? (
    <Group>
      <Text size="sm" data-testid="autofill-read-only">
        {props.readOnly}
      </Text>
      <Button variant="default" onClick={props.onDiscard} data-testid="autofill-close">
        Close
      </Button>
    </Group>
  ) : (
    <Group>
      <Button variant="default" onClick={props.onDiscard}>
        Discard
      </Button>
      <Button onClick={props.onApply} loading={props.applying} disabled={props.kept === 0} data-testid="autofill-apply">
        {props.kept === props.of ? 'Apply' : `Apply ${props.kept} of ${props.of}`}
      </Button>
    </Group>
  );
}

/** The review's rows found by course, instructor or room, their order, and what the week shows. */
function ReviewControls(props: {
  filter: string;
  onFilter: (filter: string) => void;
  sort: ReviewSort;
  onSort: (sort: ReviewSort) => void;
  review: DraftReview;
}) {
  return (
    <Group gap="xs" align="end">
      <TextInput
        size="xs"
        label="Find a course, instructor or room"
        value={props.filter}
        onChange={(e) => props.onFilter(e.currentTarget.value)}
        w={240}
        data-testid="autofill-filter"
      />
      <Select
        size="xs"
        label="Sort by"
        data={[...REVIEW_SORTS]}
        value={props.sort}
        onChange={(v) => props.onSort(v ?? 'course')}
        allowDeselect={false}
        w={150}
        data-testid="autofill-sort"
      />
      <SegmentedControl
        size="xs"
        data={SHOWN}
        value={props.review.shown}
        onChange={(v) => props.review.onShow(v)}
        aria-label="What the week shows"
        data-testid="autofill-shown"
      />
    </Group>
  );
}

type UnplacedRow = { key: string; course_code: string; section_name: string; reason: string };

/** What a draft could not place (a run's sections) or leaves as it is (a term's meetings), each keyed for its row. */
function unplacedRows(result: AutofillResult): UnplacedRow[] {
  return result.source === 'run'
    ? result.unplaced.map((u) => ({ ...u, key: `${u.course_code}-${u.section_name}` }))
    : result.unplaced.map((u) => ({ ...u, key: `${u.untimed ? 'untimed' : 'meeting'}-${u.id}` }));
}

/** The draft's headline (what it places or moves, and what it could not), a run's plan against the term, its clashes and the solver's figures. */
function DraftFigures({ result, unplaced }: { result: AutofillResult; unplaced: number }) {
  const headline =
    result.source === 'run'
      ? `Draft: places ${result.placed.length} of ${result.placed.length + result.unplaced.length} sections`
      : result.source === 'unscheduled'
        ? `Draft: gives ${result.placed.length} of ${result.placed.length + result.unplaced.length} sections without a time a time`
        : `Draft: moves ${result.moved.length} meeting${result.moved.length === 1 ? '' : 's'}${result.locked > 0 ? ` (${result.locked} locked kept)` : ''}`;
  const figures =
    result.source === 'run'
      ? `Preference penalty ${result.score.soft.total} (lower is better) · searched for ${(result.duration_ms / 1000).toFixed(1)} s`
      : `Preference penalty ${result.score.soft.total} (lower is better) · ${result.moves.toLocaleString('en-US')} moves in ${(result.duration_ms / 1000).toFixed(1)} s`;
  return (
    <Stack gap={4}>
      <Text fw={600}>
        {headline}
        {unplaced > 0 ? `; ${unplaced} ${result.source === 'run' ? 'could not be placed' : 'stay as they are'} (reasons below)` : ''}
      </Text>
      {result.source === 'run' && <PlanCounts plan={result.plan} notes={result.notes} />}
      <Group gap="xs">
        <Badge color={result.score.hard_violations === 0 ? 'green' : 'red'} variant="light">
          {result.score.hard_violations === 0 ? 'No new clashes' : `${result.score.hard_violations} clashes`}
        </Badge>
        <details className="tw-details">
          <summary>Solver figures</summary>
          {figures}
        </details>
      </Group>
    </Stack>
  );
}

/**
 * One row of a draft's review: a plain checkbox and its label (hundreds are drawn at once, and only
 * the one toggled draws again).
 */
const ReviewLine = memo(function ReviewLine({ row, checked, onToggle }: { row: ReviewRow; checked: boolean; onToggle: (key: string, keep: boolean) => void }) {
  return (
    <label className="tw-review-row">
      <input type="checkbox" checked={checked} onChange={(e) => onToggle(row.key, e.currentTarget.checked)} data-testid={`autofill-row-${row.key}`} />
      <span>
        <b>
          {row.course_code} §{row.section_name}
        </b>{' '}
        {when(row)}
        {row.doctors.length > 0 ? ` with ${row.doctors.map((d) => d.name).join(', ')}` : ''}
        {row.was ? `, was ${when(row.was)}` : ''}
      </span>
    </label>
  );
});

/** A run's plan against the term: per course, the sections asked, those the term has, those drafted; and what to know first. */
function PlanCounts({
  plan,
  notes,
}: {
  plan: readonly { course_code: string; planned: number; existing: number; drafted: number }[];
  notes: readonly string[];
}) {
  const had = plan.filter((c) => c.existing > 0);
  return (
    <Stack gap={2} data-testid="autofill-plan">
      {notes.map((note) => (
        <Text key={note} size="sm" c="orange.8" fw={600}>
          {note}
        </Text>
      ))}
      {had.length > 0 && (
        <Text size="xs">
          The term has some of the plan already; only the rest is drafted:{' '}
          {had.map((c) => `${c.course_code} ${c.planned} planned, ${c.existing} there, ${c.drafted} new`).join(' · ')}
        </Text>
      )}
    </Stack>
  );
}

/** What a draft could not place, each with the reason in words. */
function UnplacedList({ unplaced }: { unplaced: UnplacedRow[] }) {
  return (
    <List size="xs" data-testid="autofill-unplaced">
      {unplaced.map((u) => (
        <List.Item key={u.key}>
          <b>
            {u.course_code} §{u.section_name}
          </b>
          : {u.reason}
        </List.Item>
      ))}
    </List>
  );
}
