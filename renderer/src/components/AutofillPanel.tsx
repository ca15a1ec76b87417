import { useState } from 'react';
import { Badge, Button, Card, Checkbox, Group, List, Modal, NumberInput, ScrollArea, Select, Stack, Text } from '@mantine/core';
import { call } from '../api/client';
import { useLive } from '../api/live';
import type { AutofillRequest, AutofillResult, Term } from '../api/wire';
import { messageOf } from '../api/errors';
import { ErrorNote } from './ErrorNote';
import { useDraftJob, type DraftRequest } from '../controllers/autofill-draft';
import type { DraftSelection } from '../controllers/scheduler';
import { AUTOFILL_BOUNDS } from '../../../core/domain/autofill';
import { campusTermLabel } from '../../../core/domain/terms';

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
  run: "Every section of the plan (your decisions, else the model's) gets an allowed, available instructor, a free room that seats it and a standard time (MWF 60 min, TR 90 min).",
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
  const listed = useLive('predict-runs', opened ? {} : null);
  const runs = listed.data ?? [];
  const [chosenRun, setRunId] = useState<string | null>(null);
  // The latest run until staff choose another.
  const runId = chosenRun ?? (runs[0] ? String(runs[0].id) : null);
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
      const result = await call('schedule-autofill', { ...request, dry_run: true, ...term });
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
          <Group grow>
            <NumberInput
              label="Seed"
              description="The same seed and moves give the same draft"
              min={SEED.min}
              max={SEED.max}
              value={seed}
              onChange={(v) => setSeed(Number(v) || SEED.default)}
            />
            <NumberInput
              label="Moves"
              description="Blank: 400 per meeting"
              min={MOVES.min}
              max={MOVES.max}
              step={10_000}
              value={moves ?? ''}
              onChange={(v) => setMoves(v === '' ? null : Number(v))}
              data-testid="autofill-moves"
            />
          </Group>
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
        <ErrorNote message={error ?? background.error ?? listed.error} />
        <Group justify="flex-end">
          <Button onClick={() => void preview()} loading={busy || background.running} disabled={what === 'run' && !runId} data-testid="autofill-preview">
            Preview
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The draft's summary, its unplaced sections with reasons, and Apply / Discard. */
export function AutofillPreview({
  result,
  applying,
  onApply,
  onDiscard,
}: {
  result: AutofillResult;
  applying: boolean;
  onApply: (kept?: DraftSelection) => void;
  onDiscard: () => void;
}) {
  if (result.source !== 'run') return <TermDraftPreview result={result} applying={applying} onApply={onApply} onDiscard={onDiscard} />;
  return (
    <Card withBorder data-testid="autofill-summary" bg="var(--mantine-color-blue-light)">
      <Group justify="space-between" align="start">
        <Stack gap={4}>
          <Text fw={600}>
            Draft: placed {result.placed.length} of {result.placed.length + result.unplaced.length} sections
            {result.unplaced.length > 0 ? ` (${result.unplaced.length} could not be placed, reasons below)` : ''}
          </Text>
          <Group gap="xs">
            <Badge color={result.score.hard_violations === 0 ? 'green' : 'red'} variant="light">
              {result.score.hard_violations === 0 ? 'No clashes' : `${result.score.hard_violations} clashes`}
            </Badge>
            <details className="tw-details">
              <summary>Solver figures</summary>
              Preference penalty {result.score.soft.total} (lower is better) · searched for {(result.duration_ms / 1000).toFixed(1)} s
            </details>
          </Group>
          {result.unplaced.length > 0 && (
            <ScrollArea h={110}>
              <UnplacedList unplaced={result.unplaced.map((u) => ({ ...u, key: `${u.course_code}-${u.section_name}` }))} />
            </ScrollArea>
          )}
        </Stack>
        <Group>
          <Button variant="default" onClick={onDiscard}>
            Discard
          </Button>
          <Button onClick={() => onApply()} loading={applying} disabled={result.placed.length === 0} data-testid="autofill-apply">
            Apply
          </Button>
        </Group>
      </Group>
    </Card>
  );
}

/** A term's draft: the meetings it moves (each with where it was) and the sections it places, each kept or left out by staff; what stays, with why. */
function TermDraftPreview({
  result,
  applying,
  onApply,
  onDiscard,
}: {
  result: Exclude<AutofillResult, { source: 'run' }>;
  applying: boolean;
  onApply: (kept?: DraftSelection) => void;
  onDiscard: () => void;
}) {
  const when = (m: { day: string; start_time: string; duration_mins: number; room: string }): string =>
    `${m.day} ${m.start_time} (${m.duration_mins} min) in ${m.room}`;
  // Rows staff unchecked: left out of Apply (a meeting stays where it is, a section without a time).
  const [left, setLeft] = useState<ReadonlySet<string>>(new Set());
  const toggle = (key: string, keep: boolean): void =>
    setLeft((now) => {
      const next = new Set(now);
      if (keep) next.delete(key);
      else next.add(key);
      return next;
    });
  const meetings = result.moved.filter((m) => !left.has(`m${m.id}`)).map((m) => m.id);
  const sections = result.placed.filter((p) => !left.has(`s${p.id}`)).map((p) => p.id);
  const rows = [
    ...result.placed.map((p) => ({
      key: `s${p.id}`,
      label: `${p.course_code} §${p.section_name}`,
      text: `${when(p)}${p.instructors.length > 0 ? ` with ${p.instructors.join(', ')}` : ''}`,
    })),
    ...result.moved.map((m) => ({ key: `m${m.id}`, label: `${m.course_code} §${m.section_name}`, text: `${when(m)}, was ${when(m.was)}` })),
  ];
  const kept = meetings.length + sections.length;
  return (
    <Card withBorder data-testid="autofill-summary" bg="var(--mantine-color-blue-light)">
      <Group justify="space-between" align="start">
        <Stack gap={4}>
          <Text fw={600}>
            {result.source === 'unscheduled'
              ? `Draft: gives ${result.placed.length} of ${result.placed.length + result.unplaced.length} sections without a time a time`
              : `Draft: moves ${result.moved.length} meeting${result.moved.length === 1 ? '' : 's'}${result.locked > 0 ? ` (${result.locked} locked kept)` : ''}`}
            {result.unplaced.length > 0 ? `; ${result.unplaced.length} stay as they are (reasons below)` : ''}
          </Text>
          <Group gap="xs">
            <Badge color="green" variant="light">
              No new clashes
            </Badge>
            <details className="tw-details">
              <summary>Solver figures</summary>
              Preference penalty {result.score.soft.total} (lower is better) · {result.moves.toLocaleString('en-US')} moves in{' '}
              {(result.duration_ms / 1000).toFixed(1)} s
            </details>
          </Group>
          <ScrollArea h={180}>
            <Stack gap={2} data-testid="autofill-review">
              {rows.map((row) => (
                <Checkbox
                  key={row.key}
                  size="xs"
                  checked={!left.has(row.key)}
                  onChange={(e) => toggle(row.key, e.currentTarget.checked)}
                  data-testid={`autofill-row-${row.key}`}
                  label={
                    <span>
                      <b>{row.label}</b> {row.text}
                    </span>
                  }
                />
              ))}
            </Stack>
            {result.unplaced.length > 0 && (
              <UnplacedList unplaced={result.unplaced.map((u) => ({ ...u, key: `${u.untimed ? 'untimed' : 'meeting'}-${u.id}` }))} />
            )}
          </ScrollArea>
        </Stack>
        <Group>
          <Button variant="default" onClick={onDiscard}>
            Discard
          </Button>
          <Button
            onClick={() => onApply(kept === rows.length ? undefined : { meetings, sections })}
            loading={applying}
            disabled={kept === 0}
            data-testid="autofill-apply"
          >
            {kept === rows.length ? 'Apply' : `Apply ${kept} of ${rows.length}`}
          </Button>
        </Group>
      </Group>
    </Card>
  );
}

/** What a draft could not place, each with the reason in words. */
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
