import { memo, useMemo, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  List,
  Modal,
  NumberInput,
  ScrollArea,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useSavedRuns } from '../controllers/predictions';
import type { AutofillRequest, AutofillResult, Term } from '../api/wire';
import { messageOf } from '../api/errors';
import { ErrorNote } from './ErrorNote';
import { draftForRun, useDraftJob, type DraftRequest } from '../controllers/autofill-draft';
import type { DraftShown } from '../controllers/scheduler';
import { REVIEW_SORTS, shownRows, type ReviewRow, type ReviewSort } from '../lib/draft-review';
import { useDraftReview } from '../stores/draft-review';
import { AUTOFILL_BOUNDS } from '../../../core/domain/autofill';
import { campusTermLabel, termLabel } from '../../../core/domain/terms';

const { timeBudgetMs: BUDGET, maxSectionsPerDoctor: LOAD, seed: SEED, moves: MOVES } = AUTOFILL_BOUNDS;

/** What auto-fill places, as staff choose it. */
const WHAT = [
  { value: 'run', label: "New sections: a prediction run's plan" },
  { value: 'improve', label: "This term's meetings: improve today's timetable" },
  { value: 'rebuild', label: "This term's meetings: rebuild from nothing" },
  { value: 'unscheduled', label: "This term's sections without a time: give each a standard time" },
] as const;
type What = (typeof WHAT)[number]['value'];

/** What each choice places, in a scheduler's words. */
const EXPLAINED: Record<What, string> = {
  run: "Each course of the plan gets the sections it asks for (your decisions, else the model's) less those the term already has; each new section gets an allowed, available instructor, a free room that seats it and a standard time (MWF 60 min, TR 90 min).",
  improve:
    "Every meeting of the term that is not locked may move, a little at a cost: it keeps its instructors, its number of days and its length, and takes a time they are free and a declared room that seats it. Locked meetings and other departments' bookings stay.",
  rebuild:
    "Every meeting of the term that is not locked is placed again from nothing: it keeps its instructors, its number of days and its length, and takes a time they are free and a declared room that seats it. Locked meetings and other departments' bookings stay.",
  unscheduled:
    'Every section of the term without a time (online or arranged in the listing) gets a standard time its instructors are free, in the room it lists or a declared room that seats it (online sections need none).',
};

/** "Auto-fill…": choose what to place and options, then preview the draft before applying it. */
export function AutofillDialog({
  opened,
  term,
  onClose,
  onPreview,
}: {
  opened: boolean;
  term: Term | null;
  onClose: () => void;
  onPreview: (request: AutofillRequest, result: AutofillResult, draftId?: string) => void;
}) {
  const [what, setWhat] = useState<What>('run');
  const { runs, error: runsError } = useSavedRuns(opened);
  const [chosenRun, setRunId] = useState<string | null>(null);
  // The latest run of the term on screen (else the latest of all) until staff choose another.
  const ofTerm = runs.find((r) => term !== null && r.target_year === term.year && r.target_semester === term.semester);
  const runId = chosenRun ?? ((ofTerm ?? runs[0]) ? String((ofTerm ?? runs[0])?.id) : null);
  const run = runs.find((r) => String(r.id) === runId);
  const otherTerm = run !== undefined && term !== null && (run.target_year !== term.year || run.target_semester !== term.semester);
  const [max, setMax] = useState<number>(LOAD.default);
  const [budget, setBudget] = useState<number>(BUDGET.default);
  const [seed, setSeed] = useState<number>(SEED.default);
  const [moves, setMoves] = useState<number | null>(null);
  const [choose, setChoose] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const termRequest = (): DraftRequest => ({
    source: what === 'unscheduled' ? 'unscheduled' : 'term',
    rebuild: what === 'rebuild',
    time_budget_ms: budget,
    seed,
    ...(moves === null ? {} : { moves }),
    ...(what === 'unscheduled' && choose ? { choose_instructors: true, max_sections_per_doctor: max } : {}),
  });
  const background = useDraftJob((job, result) => {
    onPreview(termRequest(), result, job.draft_id);
    background.reset();
    onClose();
  });
  const preview = async (): Promise<void> => {
    if (what !== 'run') {
      // A term's draft is made in the background: its progress shows, and Cancel keeps the best draft so far.
      await background.start(termRequest(), term);
      return;
    }
    if (!runId) return;
    setBusy(true);
    setError(null);
    try {
      const request: AutofillRequest = { source: 'run', run_id: Number(runId), max_sections_per_doctor: max, time_budget_ms: budget };
      // The draft is for the term on screen.
      const result = await draftForRun(request, term);
      onPreview(request, result);
      onClose();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  const progress = background.job?.progress;
  return (
    <Modal opened={opened} onClose={onClose} title="Auto-fill">
      <Stack gap="xs" data-testid="autofill-dialog">
        <Select
          label="What to place"
          data={[...WHAT]}
          value={what}
          onChange={(v) => setWhat(WHAT.find((w) => w.value === v)?.value ?? 'run')}
          allowDeselect={false}
          data-testid="autofill-source"
        />
        {what === 'run' && (
          <Select
            label="Run"
            data={runs.map((r) => ({
              value: String(r.id),
              label: `${r.run_name} — ${campusTermLabel(r.target_campus, { year: r.target_year, semester: r.target_semester })} (${r.entries.filter((e) => e.planned_offer).length} courses in the plan)`,
            }))}
            value={runId}
            onChange={setRunId}
            data-testid="autofill-run"
            nothingFoundMessage="Run a prediction first"
          />
        )}
        {what === 'run' && otherTerm && run && term && (
          <Alert color="yellow" data-testid="autofill-other-term">
            This run plans {termLabel({ year: run.target_year, semester: run.target_semester })}; you are viewing {termLabel(term)}. Its sections will be
            drafted into {termLabel(term)}, the term on screen. To plan {termLabel({ year: run.target_year, semester: run.target_semester })}, switch the
            Scheduler to it first.
          </Alert>
        )}
        <Group grow>
          {(what === 'run' || (what === 'unscheduled' && choose)) && (
            <NumberInput label="Max sections per instructor" min={LOAD.min} max={LOAD.max} value={max} onChange={(v) => setMax(Number(v) || LOAD.min)} />
          )}
          <NumberInput
            label="Search for up to (seconds)"
            description="Longer can place more sections"
            min={BUDGET.min / 1000}
            max={BUDGET.max / 1000}
            step={1}
            decimalScale={1}
            value={budget / 1000}
            onChange={(v) => setBudget(Math.round(Number(v) * 1000) || BUDGET.default)}
          />
        </Group>
        {what !== 'run' && (
          // The search's own settings, for reproducing a draft someone else made: closed unless opened.
          <details data-testid="autofill-advanced">
            <summary>
              <Text span size="sm">
                Advanced (for reproducing a draft)
              </Text>
            </summary>
            <Group grow mt="xs">
              <NumberInput
                label="Draft number"
                description="The same number and length give the same draft"
                min={SEED.min}
                max={SEED.max}
                value={seed}
                onChange={(v) => setSeed(Number(v) || SEED.default)}
                data-testid="autofill-seed"
              />
              <NumberInput
                label="Length of the search (steps)"
                description="Blank: as long as the term needs"
                min={MOVES.min}
                max={MOVES.max}
                step={10_000}
                value={moves ?? ''}
                onChange={(v) => setMoves(v === '' ? null : Number(v))}
                data-testid="autofill-moves"
              />
            </Group>
          </details>
        )}
        {what === 'unscheduled' && (
          <Checkbox
            label="Choose their instructors (among those who may teach each course, within their hours and limit)"
            checked={choose}
            onChange={(e) => setChoose(e.currentTarget.checked)}
            data-testid="autofill-choose-instructors"
          />
        )}
        <Text size="xs" c="dimmed">
          {EXPLAINED[what]} Nothing is stored until you apply the preview.
        </Text>
        {background.running && progress && (
          <Group justify="space-between" data-testid="autofill-progress" role="status">
            <Text size="sm">
              {progress.phase === 'optimization'
                ? `Improving: all ${progress.classes} placed, best penalty so far ${progress.best_total ?? '…'}`
                : `Placing: ${progress.placed} of ${progress.classes} placed, ${progress.hard_left} still to place`}
            </Text>
            <Button size="xs" variant="default" onClick={() => void background.cancel()} data-testid="autofill-cancel">
              Cancel (keep the best so far)
            </Button>
          </Group>
        )}
        <ErrorNote message={error ?? background.error ?? runsError} />
        <Group justify="flex-end">
          <Button onClick={() => void preview()} loading={busy || background.running} disabled={what === 'run' && !runId} data-testid="autofill-preview">
            Preview
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

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
  const unplaced =
    result.source === 'run'
      ? result.unplaced.map((u) => ({ ...u, key: `${u.course_code}-${u.section_name}` }))
      : result.unplaced.map((u) => ({ ...u, key: `${u.untimed ? 'untimed' : 'meeting'}-${u.id}` }));
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
    <Card withBorder data-testid="autofill-summary" bg="var(--mantine-color-blue-light)" className="tw-no-print">
      <Stack gap={6}>
        <Group justify="space-between" align="start">
          <Stack gap={4}>
            <Text fw={600}>
              {headline}
              {unplaced.length > 0 ? `; ${unplaced.length} ${result.source === 'run' ? 'could not be placed' : 'stay as they are'} (reasons below)` : ''}
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
          {readOnly !== undefined ? (
            <Group>
              <Text size="sm" data-testid="autofill-read-only">
                {readOnly}
              </Text>
              <Button variant="default" onClick={onDiscard} data-testid="autofill-close">
                Close
              </Button>
            </Group>
          ) : (
            <Group>
              <Button variant="default" onClick={onDiscard}>
                Discard
              </Button>
              <Button onClick={onApply} loading={applying} disabled={kept === 0} data-testid="autofill-apply">
                {kept === rows.length ? 'Apply' : `Apply ${kept} of ${rows.length}`}
              </Button>
            </Group>
          )}
        </Group>
        <Group gap="xs" align="end">
          <TextInput
            size="xs"
            label="Find a course, instructor or room"
            value={filter}
            onChange={(e) => setFilter(e.currentTarget.value)}
            w={240}
            data-testid="autofill-filter"
          />
          <Select
            size="xs"
            label="Sort by"
            data={[...REVIEW_SORTS]}
            value={sort}
            onChange={(v) => setSort(v ?? 'course')}
            allowDeselect={false}
            w={150}
            data-testid="autofill-sort"
          />
          <SegmentedControl
            size="xs"
            data={SHOWN}
            value={review.shown}
            onChange={(v) => review.onShow(v)}
            aria-label="What the week shows"
            data-testid="autofill-shown"
          />
        </Group>
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

/** What a draft could not place, each with the reason in words. */
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

function UnplacedList({ unplaced }: { unplaced: { key: string; course_code: string; section_name: string; reason: string }[] }) {
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
