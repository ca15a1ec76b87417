import { useEffect, useMemo, useState } from 'react';
import { call, transport, type Args, type Result } from '../api/client';
import { messageOf } from '../api/errors';
import { patchLive, useLive, writeSent } from '../api/live';
import type { DecisionChange, Run, RunEntry, RunRequest } from '../api/wire';
import { notifyError } from '../lib/notify';
import { useDraft } from '../lib/use-draft';
import { useCampusList } from './catalog';
import { usePredictView } from '../stores/predict';
import { useProgress } from '../stores/progress';
import { codePrefixes } from '../../../core/domain/codes';
import type { QuotaCategory } from '../../../core/domain/quotas';
import { compareRuns } from '../../../core/domain/run-comparison';
import { campusTermLabel } from '../../../core/domain/terms';
import type { PlannedSemester } from '../../../core/domain/terms';

/** A run's name when staff gave none: its campus and term. */
export function defaultRunName(r: { target_campus: string; target_semester: string; target_year: number }): string {
  return campusTermLabel(r.target_campus, { year: r.target_year, semester: r.target_semester });
}

export type TargetSemester = PlannedSemester;
export interface Cohorts {
  new_freshman: number;
  new_sophomores: number;
  new_masters: number;
}
/** The grid's filters: a prefix, a course type, and offer/skip/all. */
export interface RunFilters {
  prefix: string | null;
  type: string | null;
  decision: 'all' | 'offer' | 'skip';
}

const NO_RUNS: Run[] = [];
const NO_CATEGORIES: QuotaCategory[] = [];
const targetOf = (next: { year: number; semester: TargetSemester }): { year: number | string; semester: TargetSemester } => ({
  year: next.year,
  semester: next.semester,
});
const slotsOf = (found: { categories: QuotaCategory[] }): Record<string, number> => Object.fromEntries(found.categories.map((c) => [c.key, c.count]));
/** Without any history there is no next term to propose: this year's Fall. */
const WITHOUT_HISTORY = { year: new Date().getFullYear(), semester: 'Fall' as const };

/** What the next run asks for: the target term (the history's next until changed), its name, incoming cohorts and quotas. */
function useRunRequest(campus: string) {
  // The target term proposed by the history (the term after its latest), until staff change it.
  const next = useLive('predict-next-term', {});
  const target = useDraft(next.data ?? (next.error ? WITHOUT_HISTORY : null), targetOf);
  const [name, setName] = useState('');
  const [cohorts, setCohorts] = useState<Cohorts>({ new_freshman: 0, new_sophomores: 0, new_masters: 0 });
  const [useQuotas, setUseQuotas] = useState(false);
  // The department's categories at the campus (its profile's, else its catalog's), each with its usual count.
  const found = useLive('predict-quota-categories', campus === '' ? null : { campus });
  // Each campus has its own categories: counts edited for one do not carry over to another.
  const slots = useDraft(found.data, slotsOf, campus);
  const categories = found.data?.categories ?? NO_CATEGORIES;
  const year = target.values?.year ?? '';
  const semester = target.values?.semester ?? 'Fall';
  return {
    year,
    semester,
    setYear: (value: number | string) => target.edit({ year: value }),
    setSemester: (value: TargetSemester) => target.edit({ semester: value }),
    name,
    setName,
    cohorts,
    setCohorts,
    useQuotas,
    setUseQuotas,
    categories,
    slots: slots.values ?? {},
    setSlot: (key: string, count: number) => slots.edit({ [key]: count }),
    /** The run to ask for, or null while the year is not a number. */
    request: (): RunRequest | null =>
      typeof year !== 'number'
        ? null
        : {
            run_name: name.trim() || defaultRunName({ target_campus: campus, target_semester: semester, target_year: year }),
            target_year: year,
            target_semester: semester,
            target_campus: campus,
            ...cohorts,
            use_quotas: useQuotas,
            // With quotas, the campus's categories with their counts (until they are read, every category with its usual count).
            ...(useQuotas && categories.length > 0 ? { slots: Object.fromEntries(categories.map((c) => [c.key, slots.values?.[c.key] ?? c.count])) } : {}),
          },
  };
}

/** Training every campus model: under way (with its progress, from the core's events) or its result. */
function useTraining(campusCount: number) {
  const training = usePredictView((s) => s.training);
  const trainResult = usePredictView((s) => s.trainResult);
  const progress = useProgress((s) => s.byKey);
  const trainProgress = Object.values(progress).filter((p) => p.task === 'train');
  return {
    training,
    trainPercent:
      trainProgress.length > 0 ? Math.round(trainProgress.filter((p) => p.campus).reduce((sum, p) => sum + p.percent, 0) / Math.max(1, campusCount)) : 0,
    trainResult,
    train: trainModels,
  };
}

/** The campus's saved runs (live), the one shown with its filters, the course chosen in it, and the comparison with another. */
function useRunShown(campus: string) {
  const runs = useLive('predict-runs', campus === '' ? null : { campus });
  const runList = runs.data ?? NO_RUNS;
  const pinned = usePredictView((s) => s.shown[campus]);
  const pin = usePredictView((s) => s.show);
  // The run chosen, else the campus's latest, kept from then on: a run saved elsewhere does not replace it.
  const current = runList.find((r) => r.id === pinned) ?? runList[0] ?? null;
  useEffect(() => {
    if (current && current.id !== pinned) pin(campus, current.id);
  }, [current, pinned, pin, campus]);
  const [filters, setFilters] = useState<RunFilters>({ prefix: null, type: null, decision: 'all' });
  const [chosenCourse, setChosenCourse] = useState<string | null>(null);
  const [compareWith, setCompareWith] = useState<string | null>(null);
  const other = runList.find((r) => String(r.id) === compareWith && r.id !== current?.id) ?? null;
  const comparison = useMemo(() => (current && other ? compareRuns(other.entries, current.entries) : null), [current, other]);
  const entries = useMemo(
    () =>
      (current?.entries ?? []).filter(
        (e) =>
          (!filters.prefix || codePrefixes(e.course_code).includes(filters.prefix)) &&
          (!filters.type || e.types.includes(filters.type)) &&
          (filters.decision === 'all' || (filters.decision === 'offer') === e.planned_offer),
      ),
    [current, filters],
  );
  // The prefixes and course types to filter by are the run's own: whatever the department teaches.
  const choices = useMemo(() => {
    const list = current?.entries ?? [];
    const sorted = (values: Iterable<string>): string[] => [...new Set(values)].sort((a, b) => a.localeCompare(b));
    return { prefixes: sorted(list.flatMap((e) => codePrefixes(e.course_code))), types: sorted(list.flatMap((e) => e.types)) };
  }, [current]);
  return {
    runs: runList,
    runsError: runs.error,
    current,
    show: (run: Pick<Run, 'id'>) => pin(campus, run.id),
    entries,
    choices,
    filters,
    setFilters: (patch: Partial<RunFilters>) => setFilters({ ...filters, ...patch }),
    // The chosen course as the run now stands (a decision replaces its entry).
    selected: (chosenCourse !== null && current?.entries.find((e) => e.course_code === chosenCourse)) || null,
    choose: (entry: RunEntry) => setChosenCourse(entry.course_code),
    decidedCount: current?.entries.filter((e) => e.staff_decision !== null).length ?? 0,
    compareWith,
    setCompareWith,
    comparison,
  };
}

/**
 * The Predictions screen's state and actions: the run to ask for (term, campus, cohorts, quotas),
 * training, the campus's saved runs (live), the run shown with its filters, the course chosen in
 * it, and the comparison with another run.
 */
export function usePredictionsPage() {
  const campuses = useCampusList();
  const [chosenCampus, setCampus] = useState<string | null>(null);
  const campus = chosenCampus ?? campuses[0] ?? '';
  const asking = useRunRequest(campus);
  const training = useTraining(campuses.length);
  const shown = useRunShown(campus);
  const running = usePredictView((s) => s.running);
  const taskError = usePredictView((s) => s.error);
  return {
    campuses,
    campus,
    setCampus,
    ...asking,
    ...training,
    ...shown,
    running,
    error: taskError ?? shown.runsError,
    run: async (): Promise<void> => {
      const request = asking.request();
      if (request) await saveRun(request);
    },
    exportRun: async (format: 'xlsx' | 'csv'): Promise<void> => {
      if (!shown.current) return;
      try {
        await transport.saveFile(await call('predict-run-export', { run_id: shown.current.id, format }));
      } catch (e) {
        notifyError(e, 'Export failed');
      }
    },
  };
}

export type PredictionsPageState = ReturnType<typeof usePredictionsPage>;

/** A run with one entry replaced, wherever that run is shown. */
const withEntry =
  (runId: number, entry: RunEntry) =>
  (run: Run): Run =>
    run.id === runId ? { ...run, entries: run.entries.map((e) => (e.course_code === entry.course_code ? entry : e)) } : run;

/** Records staff's decision on one course of a run and shows it at once in every list of runs; throws the refusal. */
export async function decideOnRun(run: Run, courseCode: string, change: DecisionChange): Promise<RunEntry> {
  const sent = writeSent();
  const entry = await call('predict-run-decide', { run_id: run.id, course_code: courseCode, ...change });
  patchLive(sent, 'predict-runs', (runs) => runs.map(withEntry(run.id, entry)));
  patchLive(sent, 'predict-run', withEntry(run.id, entry));
  return entry;
}

/** Retrains every campus's model; the result or refusal stays in the screen's store while staff look elsewhere. */
async function trainModels(): Promise<void> {
  const view = usePredictView.getState();
  view.begin('training');
  let error: string | null = null;
  try {
    view.trained(await call('predict-train', {}));
  } catch (e) {
    error = messageOf(e);
  } finally {
    usePredictView.getState().end('training', error);
  }
}

/** Scores every course for the target term, saves the run and shows it first in its campus's list. */
async function saveRun(request: RunRequest): Promise<void> {
  const view = usePredictView.getState();
  view.begin('running');
  let error: string | null = null;
  try {
    const sent = writeSent();
    const saved = await call('predict-bulk', request);
    patchLive(sent, 'predict-runs', (runs) => [saved, ...runs.filter((r) => r.id !== saved.id)], { campus: saved.target_campus });
    usePredictView.getState().show(saved.target_campus, saved.id);
  } catch (e) {
    error = messageOf(e);
  } finally {
    usePredictView.getState().end('running', error);
  }
}

/** Records what staff know of a planned term; the term's notes show it on the change event. Throws the refusal. */
export async function addTermNote(note: Args<'predict-term-note-add'>): Promise<void> {
  await call('predict-term-note-add', note);
}

/** Removes a term note. Throws the refusal. */
export async function removeTermNote(noteId: number): Promise<void> {
  await call('predict-term-note-delete', { note_id: noteId });
}

/** What staff recorded of a planned term, live (none while no term is chosen). */
export function useTermNotes(term: { year: number; semester: PlannedSemester } | null): Result<'predict-term-notes'> {
  return useLive('predict-term-notes', term).data ?? [];
}

/** The saved prediction runs, newest first, live; loaded only while `wanted`. */
export function useSavedRuns(wanted: boolean): { runs: Result<'predict-runs'>; error: string | null } {
  const listed = useLive('predict-runs', wanted ? {} : null);
  return { runs: listed.data ?? [], error: listed.error };
}
