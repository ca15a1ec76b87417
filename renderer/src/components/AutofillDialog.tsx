import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Modal, NumberInput, Select, Stack, Text } from '@mantine/core';
import { useSavedRuns } from '../controllers/predictions';
import type { AutofillRequest, AutofillResult, Term } from '../api/wire';
import { messageOf } from '../api/errors';
import { ErrorNote } from './ErrorNote';
import { draftForRun, useDraftJob, type DraftRequest } from '../controllers/autofill-draft';
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

interface AutofillDialogProps {
  opened: boolean;
  term: Term | null;
  onClose: () => void;
  onPreview: (request: AutofillRequest, result: AutofillResult, draftId?: string) => void;
}

/** The search's settings as staff set them: the instructor load, the time budget, and the seed and steps that reproduce a draft. */
function useSearchSettings() {
  const [max, setMax] = useState<number>(LOAD.default);
  const [budget, setBudget] = useState<number>(BUDGET.default);
  const [seed, setSeed] = useState<number>(SEED.default);
  const [moves, setMoves] = useState<number | null>(null);
  return { max, setMax, budget, setBudget, seed, setSeed, moves, setMoves };
}
type SearchSettings = ReturnType<typeof useSearchSettings>;

/**
 * The dialog's controller: what to place, the run (by default the latest of the term on screen, else
 * the latest of all, until staff choose another) and the search's settings; Preview drafts a run's
 * plan at once, or a term's draft in the background (its progress shown, Cancel keeping the best so far).
 */
function useAutofillDialog({ opened, term, onClose, onPreview }: AutofillDialogProps) {
  const [what, setWhat] = useState<What>('run');
  const { runs, error: runsError } = useSavedRuns(opened);
  const [chosenRun, setRunId] = useState<string | null>(null);
  const ofTerm = runs.find((r) => term !== null && r.target_year === term.year && r.target_semester === term.semester);
  const runId = chosenRun ?? ((ofTerm ?? runs[0]) ? String((ofTerm ?? runs[0])?.id) : null);
  const run = runs.find((r) => String(r.id) === runId);
  const settings = useSearchSettings();
  const [choose, setChoose] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const termRequest = (): DraftRequest => ({
    source: what === 'unscheduled' ? 'unscheduled' : 'term',
    rebuild: what === 'rebuild',
    time_budget_ms: settings.budget,
    seed: settings.seed,
    ...(settings.moves === null ? {} : { moves: settings.moves }),
    ...(what === 'unscheduled' && choose ? { choose_instructors: true, max_sections_per_doctor: settings.max } : {}),
  });
  const background = useDraftJob((job, result) => {
    onPreview(termRequest(), result, job.draft_id);
    background.reset();
    onClose();
  });
  const previewRun = async (id: string): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      const request: AutofillRequest = { source: 'run', run_id: Number(id), max_sections_per_doctor: settings.max, time_budget_ms: settings.budget };
      // The draft is for the term on screen.
      onPreview(request, await draftForRun(request, term));
      onClose();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  const preview = async (): Promise<void> => {
    if (what !== 'run') await background.start(termRequest(), term);
    else if (runId) await previewRun(runId);
  };
  return { what, setWhat, runs, runId, setRunId, run, settings, choose, setChoose, busy, background, preview, error: error ?? background.error ?? runsError };
}

/** "Auto-fill…": choose what to place and options, then preview the draft before applying it. */
export function AutofillDialog(props: AutofillDialogProps) {
  const dialog = useAutofillDialog(props);
  const { what, settings, background } = dialog;
  return (
    <Modal opened={props.opened} onClose={props.onClose} title="Auto-fill">
      <Stack gap="xs" data-testid="autofill-dialog">
        <Select
          label="What to place"
          data={[...WHAT]}
          value={what}
          onChange={(v) => dialog.setWhat(WHAT.find((w) => w.value === v)?.value ?? 'run')}
          allowDeselect={false}
          data-testid="autofill-source"
        />
        {what === 'run' && <RunChoice dialog={dialog} term={props.term} />}
        <Group grow>
          {(what === 'run' || (what === 'unscheduled' && dialog.choose)) && (
            <NumberInput
              label="Max sections per instructor"
              min={LOAD.min}
              max={LOAD.max}
              value={settings.max}
              onChange={(v) => settings.setMax(Number(v) || LOAD.min)}
            />
          )}
          <NumberInput
            label="Search for up to (seconds)"
            description="Longer can place more sections"
            min={BUDGET.min / 1000}
            max={BUDGET.max / 1000}
            step={1}
            decimalScale={1}
            value={settings.budget / 1000}
            onChange={(v) => settings.setBudget(Math.round(Number(v) * 1000) || BUDGET.default)}
          />
        </Group>
        {what !== 'run' && <ReproducingFields settings={settings} />}
        {what === 'unscheduled' && (
          <Checkbox
            label="Choose their instructors (among those who may teach each course, within their hours and limit)"
            checked={dialog.choose}
            onChange={(e) => dialog.setChoose(e.currentTarget.checked)}
            data-testid="autofill-choose-instructors"
          />
        )}
        <Text size="xs" c="dimmed">
          {EXPLAINED[what]} Nothing is stored until you apply the preview.
        </Text>
        {background.running && background.job?.progress && <DraftProgress progress={background.job.progress} onCancel={() => void background.cancel()} />}
        <ErrorNote message={dialog.error} />
        <Group justify="flex-end">
          <Button
            onClick={() => void dialog.preview()}
            loading={dialog.busy || background.running}
            disabled={what === 'run' && !dialog.runId}
            data-testid="autofill-preview"
          >
            Preview
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The run whose plan is drafted, and a plain word when it plans another term than the one on screen. */
function RunChoice({ dialog, term }: { dialog: ReturnType<typeof useAutofillDialog>; term: Term | null }) {
  const { run } = dialog;
  const planned = run && { year: run.target_year, semester: run.target_semester };
  const otherTerm = planned !== undefined && term !== null && (planned.year !== term.year || planned.semester !== term.semester);
  return (
    <>
      <Select
        label="Run"
        data={dialog.runs.map((r) => ({
          value: String(r.id),
          label: `${r.run_name} — ${campusTermLabel(r.target_campus, { year: r.target_year, semester: r.target_semester })} (${r.entries.filter((e) => e.planned_offer).length} courses in the plan)`,
        }))}
        value={dialog.runId}
        onChange={dialog.setRunId}
        data-testid="autofill-run"
        nothingFoundMessage="Run a prediction first"
      />
      {otherTerm && planned && term && (
        <Alert color="yellow" data-testid="autofill-other-term">
          This run plans {termLabel(planned)}; you are viewing {termLabel(term)}. Its sections will be drafted into {termLabel(term)}, the term on screen. To
          plan {termLabel(planned)}, switch the Scheduler to it first.
        </Alert>
      )}
    </>
  );
}

/** The search's own settings, for reproducing a draft someone else made: closed unless opened. */
function ReproducingFields({ settings }: { settings: SearchSettings }) {
  return (
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
          value={settings.seed}
          onChange={(v) => settings.setSeed(Number(v) || SEED.default)}
          data-testid="autofill-seed"
        />
        <NumberInput
          label="Length of the search (steps)"
          description="Blank: as long as the term needs"
          min={MOVES.min}
          max={MOVES.max}
          step={10_000}
          value={settings.moves ?? ''}
          onChange={(v) => settings.setMoves(v === '' ? null : Number(v))}
          data-testid="autofill-moves"
        />
      </Group>
    </details>
  );
}

type DraftJobProgress = NonNullable<NonNullable<ReturnType<typeof useDraftJob>['job']>['progress']>;

/** A term's draft while it is made: how far it has got, and Cancel, which keeps the best draft so far. */
function DraftProgress({ progress, onCancel }: { progress: DraftJobProgress; onCancel: () => void }) {
  return (
    <Group justify="space-between" data-testid="autofill-progress" role="status">
      <Text size="sm">
        {progress.phase === 'optimization'
          ? `Improving: all ${progress.classes} placed, best penalty so far ${progress.best_total ?? '…'}`
          : `Placing: ${progress.placed} of ${progress.classes} placed, ${progress.hard_left} still to place`}
      </Text>
      <Button size="xs" variant="default" onClick={onCancel} data-testid="autofill-cancel">
        Cancel (keep the best so far)
      </Button>
    </Group>
  );
}
