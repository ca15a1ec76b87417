import type { Generated } from 'kysely';
import type { AccessChange, TokenRevocation } from '../domain/people';

/**
 * Termwise's tables as both stores hold them (the SQLite migrations in migrations/, the PostgreSQL
 * baseline in postgres/): what the repositories' typed queries read and write. A test compares
 * this with both stores' columns.
 */

/** A department of the campus (a laptop holds one, id 1). */
export interface DepartmentsTable {
  id: Generated<number>;
  code: string;
  name: string;
  /** JSON list of the server's campus names it plans for; null: all of them. */
  campuses: string | null;
  created_at: string;
}

export interface CoursesTable {
  department_id: number;
  code: string;
  name: string;
  prefix: string;
  number: string;
  type: string | null;
  study_plan: string | null;
  prerequisites: string | null;
  course_level: number;
}

export interface OfferingsTable {
  id: Generated<number>;
  department_id: number;
  year: number;
  semester: string;
  campus: string;
  course_code: string;
  total_enrolled: number;
  passed_count: number;
  failed_count: number;
  is_offered: number;
  created_at: string;
}

/** An instructor of the campus: one calendar, whichever departments they teach for. */
export interface DoctorsTable {
  id: Generated<number>;
  name: string;
  name_key: string;
  available_days: string | null;
  available_time: string | null;
}

/** A department an instructor teaches for, and the courses they may teach there (JSON list). */
export interface DepartmentDoctorsTable {
  department_id: number;
  doctor_id: number;
  allowed_courses: Generated<string>;
}

export interface ModelsTable {
  id: Generated<number>;
  department_id: number;
  campus: string;
  model_version: string;
  trained_at: string;
  samples: number;
  positives: number;
  roc_auc: number | null;
  f1: number | null;
  threshold: number;
  features: string;
  duration_ms: number;
  classifier: Uint8Array;
  regressor: Uint8Array | null;
  adjustments: string | null;
  demand_features: string | null;
  left_out_terms: string | null;
}

export interface PredictionRunsTable {
  id: Generated<number>;
  department_id: number;
  run_name: string;
  target_year: number;
  target_semester: string;
  target_campus: string;
  model_version: string;
  created_at: string;
  parameters: string;
  caveats: string | null;
  term_notes: string | null;
}

export interface PredictionEntriesTable {
  run_id: number;
  position: number;
  course_code: string;
  course_name: string;
  prefix: string;
  types: string;
  confidence: number;
  offer_score: number;
  offer: number;
  predicted_enrollment: number;
  latent_demand: number;
  bottleneck_score: number;
  projected_sections: number;
  reasons: string;
  enrollment_low: number | null;
  enrollment_high: number | null;
  section_size: Generated<number>;
  staff_decision: 'offer' | 'skip' | null;
  staff_sections: number | null;
  staff_reason: string | null;
  decided_at: string | null;
}

export interface SettingsTable {
  department_id: number;
  key: string;
  value: string;
}

export interface TermPartsTable {
  id: Generated<number>;
  department_id: number;
  year: number;
  semester: string;
  code: string;
  name: string;
  start_date: string | null;
  end_date: string | null;
}

export interface ScheduleEntriesTable {
  id: Generated<number>;
  department_id: number;
  year: number | null;
  semester: string | null;
  course_code: string;
  section_name: string;
  day: string;
  start_time: string;
  start_min: number;
  duration_mins: number;
  room: Generated<string>;
  room_key: string | null;
  part_of_term: Generated<string>;
  joint_group: string | null;
  campus: string | null;
  created_at: string;
  /** The meeting's id across stores (a laptop's copy and the campus server's name it alike). */
  uid: string;
}

export interface ScheduleEntryDoctorsTable {
  entry_id: number;
  doctor_id: number;
  position: number;
  role: Generated<string>;
}

/** A section without a time (a registrar's online or arranged row): its instructors as a JSON list of ids. */
export interface UnscheduledSectionsTable {
  id: Generated<number>;
  department_id: number;
  year: number;
  semester: string;
  course_code: string;
  section_name: string;
  doctor_ids: string;
  part_of_term: string;
  joint_group: string | null;
  room: string | null;
  campus: string;
  kind: string | null;
  created_at: string;
  /** The section's id across stores (the meetings' space). */
  uid: string;
}

/** A meeting staff locked: auto-fill never moves it. */
export interface ScheduleEntryLocksTable {
  entry_id: number;
  locked_at: string;
}

export interface ScheduleClashesTable {
  entry_id: number;
  other_id: number;
  detail: string;
}

/** A room of the campus pool (department_id null, any department books it) or of one department. */
export interface RoomsTable {
  id: Generated<number>;
  name: string;
  name_key: string;
  capacity: number | null;
  campus: string | null;
  department_id: number | null;
}

export interface ConfirmedTermsTable {
  department_id: number;
  campus: string;
  year: number;
  semester: string;
  confirmed_at: string;
}

export interface TermNotesTable {
  id: Generated<number>;
  department_id: number;
  year: number;
  semester: string;
  kind: string;
  doctor_id: number | null;
  course_code: string | null;
  reason: string | null;
  created_at: string;
}

/** A person of a campus server, with their role and (unless the registrar) their department. */
export interface PeopleTable {
  id: Generated<number>;
  login: string;
  login_key: string;
  name: string;
  role: 'registrar' | 'scheduler' | 'viewer';
  department_id: number | null;
  password_hash: string;
  failed_attempts: Generated<number>;
  locked_until: string | null;
  disabled_at: string | null;
  created_at: string;
}

/** A personal token a script acts for its person with (only its digest is kept). */
export interface ApiTokensTable {
  id: Generated<number>;
  person_id: number;
  label: string;
  token_hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** Who revoked it, in words as they were named then. */
  revoked_by: string | null;
  revoked_because: TokenRevocation | null;
}

/** A department's term revision: how many changes were recorded for it. */
export interface TermRevisionsTable {
  department_id: number;
  year: number;
  semester: string;
  revision: number;
}

/** One meeting a write changed: who, when, the operation, and its values before and after (JSON). */
export interface ScheduleChangesTable {
  id: Generated<number>;
  department_id: number;
  year: number;
  semester: string;
  revision: number;
  batch: string;
  operation: string;
  meeting_uid: string;
  course_code: string;
  section_name: string;
  person_id: number | null;
  token_label: string | null;
  caller: string;
  changed_at: string;
  before_value: string | null;
  after_value: string | null;
  origin: Generated<string>;
}

/** A laptop's copy of a campus term: the server revision it is based on and the last local change on the server. */
export interface SyncBasesTable {
  department_id: number;
  year: number;
  semester: string;
  base_revision: number;
  published_through: number;
  synced_at: string;
  /** The server the base came from (its own id), and the department it was fetched for (its code). */
  server_id: string | null;
  server_department: string | null;
}

/** This store's own id (one row), which a laptop's sync base names; a restore gives a new one. */
export interface StoreIdentityTable {
  singleton: number;
  store_id: string;
}

/** A write's answer kept under its client's idempotency key. */
export interface IdempotencyKeysTable {
  key: string;
  department_id: number;
  operation: string;
  response: string;
  created_at: string;
  /** What the key was sent for: the person (null: the server's token or this computer), the term, a digest of the request. */
  person_id: number | null;
  year: number | null;
  semester: string | null;
  request_digest: string | null;
}

/** Sign-in attempts per client address in the current window (shared by every server process). */
export interface SignInAddressesTable {
  address: string;
  window_start: string;
  attempts: number;
}

/** A browser session (digests of its cookie id and key); `person_id` null: the registrar by the one-time link. */
export interface BrowserSessionsTable {
  id_digest: string;
  key_digest: string;
  person_id: number | null;
  created_at: string;
  last_seen_at: string;
  /** Set when a change to the person's access ended it (kept so that its page is told why). */
  ended_because?: AccessChange | null;
}

/** The server's one-time sign-in links not used yet (digests). */
export interface SignInLinksTable {
  digest: string;
  issued_at: string;
}

/** An auto-fill draft made in the background (its progress, result and state as JSON text). */
export interface AutofillDraftsTable {
  id: string;
  department_id: number;
  year: number;
  semester: string;
  source: string;
  status: string;
  progress: string;
  draft: string | null;
  error: string | null;
  applied: number | null;
  cancel_asked: Generated<number>;
  made_at: string;
  heartbeat_at: string;
}

export interface SchemaMigrationsTable {
  version: number;
  name: string;
  checksum: string;
  applied_at: string;
}

/** Kysely's Migrator's record of the migrations it ran, by name (core/db/migrate). */
export interface KyselyMigrationTable {
  name: string;
  timestamp: string;
}

/** The row Kysely's Migrator keeps for its lock. */
export interface KyselyMigrationLockTable {
  id: string;
  is_locked: Generated<number>;
}

export interface Tables {
  departments: DepartmentsTable;
  department_doctors: DepartmentDoctorsTable;
  courses: CoursesTable;
  offerings: OfferingsTable;
  doctors: DoctorsTable;
  models: ModelsTable;
  prediction_runs: PredictionRunsTable;
  prediction_entries: PredictionEntriesTable;
  settings: SettingsTable;
  term_parts: TermPartsTable;
  schedule_entries: ScheduleEntriesTable;
  schedule_entry_doctors: ScheduleEntryDoctorsTable;
  schedule_clashes: ScheduleClashesTable;
  schedule_entry_locks: ScheduleEntryLocksTable;
  unscheduled_sections: UnscheduledSectionsTable;
  rooms: RoomsTable;
  confirmed_terms: ConfirmedTermsTable;
  term_notes: TermNotesTable;
  people: PeopleTable;
  api_tokens: ApiTokensTable;
  term_revisions: TermRevisionsTable;
  schedule_changes: ScheduleChangesTable;
  sync_bases: SyncBasesTable;
  idempotency_keys: IdempotencyKeysTable;
  store_identity: StoreIdentityTable;
  sign_in_addresses: SignInAddressesTable;
  browser_sessions: BrowserSessionsTable;
  sign_in_links: SignInLinksTable;
  autofill_drafts: AutofillDraftsTable;
  schema_migrations: SchemaMigrationsTable;
  kysely_migration: KyselyMigrationTable;
  kysely_migration_lock: KyselyMigrationLockTable;
}

/**
 * Every data table, parents before the tables that refer to them: the order a restore fills them
 * in (and empties them in reverse). The migrations' own record is not data.
 */
export const DATA_TABLES = [
  'departments',
  'courses',
  'offerings',
  'doctors',
  'department_doctors',
  'models',
  'prediction_runs',
  'prediction_entries',
  'settings',
  'term_parts',
  'schedule_entries',
  'schedule_entry_doctors',
  'schedule_clashes',
  'schedule_entry_locks',
  'rooms',
  'unscheduled_sections',
  'confirmed_terms',
  'term_notes',
  'people',
  'api_tokens',
  'term_revisions',
  'schedule_changes',
  'sync_bases',
  'idempotency_keys',
  'sign_in_addresses',
] as const satisfies readonly (keyof Tables)[];

export type DataTable = (typeof DATA_TABLES)[number];

/**
 * The server's running state, shared by its processes: browser sessions, sign-in links, auto-fill
 * drafts, the store's own id. Not data: a backup leaves them out and a restore keeps them (the
 * store's id it renews).
 */
export const STATE_TABLES = ['browser_sessions', 'sign_in_links', 'autofill_drafts', 'store_identity'] as const satisfies readonly Exclude<
  keyof Tables,
  DataTable
>[];
