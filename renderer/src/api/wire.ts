import type { Args, Result } from './client';

/** The shapes the screens read and send, named once from the core's handlers. */
export type Course = Result<'courses-list'>[number];
export type Offering = Result<'offerings-list'>[number];
export type Doctor = Result<'doctors-list'>[number];
export type Room = Result<'rooms-list'>[number];
export type IncompleteTerm = Result<'offerings-incomplete-terms'>[number];
export type UploadResult = Result<'courses-upload'>;
export type Metrics = Result<'dashboard-metrics'>;

export type Entry = Result<'schedule-list'>[number];
export type NewEntry = Args<'schedule-create'>;
export type EntryPatch = Args<'schedule-update'>;
export type TimetableSettings = Result<'schedule-settings'>;

/** An auto-fill draft (a run's new sections, or a term's meetings moved) and what asks for one. */
export type AutofillResult = Result<'schedule-autofill'>;
export type AutofillRequest = Omit<Args<'schedule-autofill'>, 'dry_run' | 'year' | 'semester'>;
export type DraftPlacement = Extract<AutofillResult, { source: 'run' }>['placed'][number];

export type Run = Result<'predict-bulk'>;
export type RunEntry = Run['entries'][number];
export type TrainResult = Result<'predict-train'>;
export type RunRequest = Args<'predict-bulk'>;
export type DecisionChange = Omit<Args<'predict-run-decide'>, 'run_id' | 'course_code'>;

export type { ImportKind } from '../../../core/domain/import-kinds';
export type { Term } from '../../../core/domain/terms';
export type { PartOfTerm } from '../../../core/domain/parts';
export type { Campus } from '../../../core/domain/campuses';
