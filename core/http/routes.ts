import type { ServedName } from '../handlers';

/** How a route gathers its handler's arguments from the request. */
export type RouteInput = 'none' | 'json' | 'query' | 'multipart';

export interface RouteSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The REST path, in Fastify's syntax (":name" for a path parameter). */
  path: string;
  operation: ServedName;
  input: RouteInput;
  /** Whether the route answers with a file instead of JSON. */
  file?: boolean;
  /** No bearer token needed. */
  public?: boolean;
  /**
   * A read of work in progress (a draft being made): its answer follows the work, not writes, so
   * screens ask it again while it runs instead of following it as a live read.
   */
  progress?: boolean;
  tag: string;
}

/** Which REST path calls which handler: the whole API surface, in one place. */
export const ROUTES: readonly RouteSpec[] = [
  { method: 'GET', path: '/health', operation: 'health', input: 'none', public: true, tag: 'system' },

  { method: 'GET', path: '/campuses', operation: 'campuses-list', input: 'none', tag: 'system' },
  { method: 'GET', path: '/departments', operation: 'departments-list', input: 'none', tag: 'system' },
  { method: 'GET', path: '/me', operation: 'me', input: 'none', tag: 'system' },
  { method: 'GET', path: '/people', operation: 'people-list', input: 'none', tag: 'system' },
  { method: 'POST', path: '/people', operation: 'people-create', input: 'json', tag: 'system' },
  { method: 'PATCH', path: '/people/:person_id', operation: 'people-update', input: 'json', tag: 'system' },
  { method: 'GET', path: '/people/:person_id/tokens', operation: 'people-tokens-list', input: 'none', tag: 'system' },
  { method: 'DELETE', path: '/people/:person_id/tokens/:token_id', operation: 'people-tokens-revoke', input: 'none', tag: 'system' },
  { method: 'GET', path: '/me/tokens', operation: 'tokens-list', input: 'none', tag: 'system' },
  { method: 'POST', path: '/me/tokens', operation: 'tokens-create', input: 'json', tag: 'system' },
  { method: 'DELETE', path: '/me/tokens/:token_id', operation: 'tokens-revoke', input: 'none', tag: 'system' },
  { method: 'POST', path: '/departments', operation: 'departments-create', input: 'json', tag: 'system' },
  { method: 'PATCH', path: '/departments/:department_id', operation: 'departments-update', input: 'json', tag: 'system' },
  { method: 'GET', path: '/settings', operation: 'settings-info', input: 'none', tag: 'system' },
  { method: 'POST', path: '/settings/token', operation: 'settings-regenerate-token', input: 'none', tag: 'system' },
  { method: 'GET', path: '/data/backup', operation: 'database-backup', input: 'none', file: true, tag: 'data' },
  { method: 'POST', path: '/data/restore', operation: 'database-restore', input: 'multipart', tag: 'data' },
  { method: 'POST', path: '/data/sample', operation: 'sample-load', input: 'none', tag: 'data' },
  { method: 'POST', path: '/data/preview', operation: 'import-preview', input: 'multipart', tag: 'data' },

  { method: 'GET', path: '/data/courses', operation: 'courses-list', input: 'none', tag: 'data' },
  { method: 'GET', path: '/data/offerings', operation: 'offerings-list', input: 'none', tag: 'data' },
  { method: 'POST', path: '/data/upload/courses', operation: 'courses-upload', input: 'multipart', tag: 'data' },
  { method: 'GET', path: '/data/terms/incomplete', operation: 'offerings-incomplete-terms', input: 'none', tag: 'data' },
  { method: 'POST', path: '/data/terms/confirm', operation: 'offerings-confirm-term', input: 'json', tag: 'data' },
  { method: 'POST', path: '/data/upload/offerings', operation: 'offerings-upload', input: 'multipart', tag: 'data' },
  { method: 'POST', path: '/data/upload/doctors', operation: 'doctors-upload', input: 'multipart', tag: 'data' },
  { method: 'POST', path: '/data/upload/rooms', operation: 'rooms-upload', input: 'multipart', tag: 'data' },

  { method: 'GET', path: '/predict/next-term', operation: 'predict-next-term', input: 'none', tag: 'predict' },
  { method: 'POST', path: '/predict/train', operation: 'predict-train', input: 'none', tag: 'predict' },
  { method: 'POST', path: '/predict/bulk', operation: 'predict-bulk', input: 'json', tag: 'predict' },
  { method: 'GET', path: '/predict/quota-categories', operation: 'predict-quota-categories', input: 'query', tag: 'predict' },
  { method: 'GET', path: '/settings/profile', operation: 'profile-get', input: 'none', tag: 'system' },
  { method: 'PATCH', path: '/settings/profile', operation: 'profile-update', input: 'json', tag: 'system' },
  { method: 'GET', path: '/predict/term-notes', operation: 'predict-term-notes', input: 'query', tag: 'predict' },
  { method: 'POST', path: '/predict/term-notes', operation: 'predict-term-note-add', input: 'json', tag: 'predict' },
  { method: 'DELETE', path: '/predict/term-notes/:note_id', operation: 'predict-term-note-delete', input: 'none', tag: 'predict' },
  { method: 'GET', path: '/predict/runs', operation: 'predict-runs', input: 'query', tag: 'predict' },
  { method: 'GET', path: '/predict/runs/:run_id', operation: 'predict-run', input: 'none', tag: 'predict' },
  { method: 'PATCH', path: '/predict/runs/:run_id/entries/:course_code', operation: 'predict-run-decide', input: 'json', tag: 'predict' },
  { method: 'GET', path: '/predict/runs/:run_id/compare', operation: 'predict-run-compare', input: 'query', tag: 'predict' },
  { method: 'GET', path: '/predict/runs/:run_id/export', operation: 'predict-run-export', input: 'query', file: true, tag: 'predict' },

  { method: 'GET', path: '/dashboard/metrics', operation: 'dashboard-metrics', input: 'none', tag: 'dashboard' },

  { method: 'GET', path: '/scheduler/doctors', operation: 'doctors-list', input: 'none', tag: 'scheduler' },
  { method: 'POST', path: '/scheduler/doctors', operation: 'doctors-create', input: 'json', tag: 'scheduler' },
  { method: 'GET', path: '/scheduler/rooms', operation: 'rooms-list', input: 'none', tag: 'scheduler' },
  { method: 'POST', path: '/scheduler/rooms', operation: 'rooms-create', input: 'json', tag: 'scheduler' },
  { method: 'PATCH', path: '/scheduler/rooms/:room_id', operation: 'rooms-update', input: 'json', tag: 'scheduler' },
  { method: 'DELETE', path: '/scheduler/rooms/:room_id', operation: 'rooms-delete', input: 'none', tag: 'scheduler' },
  { method: 'POST', path: '/scheduler/auto', operation: 'schedule-autofill', input: 'json', tag: 'scheduler' },
  { method: 'POST', path: '/scheduler/auto/campus', operation: 'schedule-autofill-campus', input: 'json', tag: 'scheduler' },
  { method: 'GET', path: '/scheduler/auto/campus/drafts', operation: 'schedule-autofill-campus-drafts', input: 'query', tag: 'scheduler' },
  { method: 'POST', path: '/scheduler/auto/campus/drafts', operation: 'schedule-autofill-campus-start', input: 'json', tag: 'scheduler' },
  { method: 'POST', path: '/scheduler/auto/drafts', operation: 'schedule-autofill-start', input: 'json', tag: 'scheduler' },
  { method: 'GET', path: '/scheduler/auto/drafts/:draft_id', operation: 'schedule-autofill-draft', input: 'none', progress: true, tag: 'scheduler' },
  { method: 'POST', path: '/scheduler/auto/drafts/:draft_id/cancel', operation: 'schedule-autofill-cancel', input: 'none', tag: 'scheduler' },
  { method: 'POST', path: '/scheduler/auto/drafts/:draft_id/apply', operation: 'schedule-autofill-apply', input: 'json', tag: 'scheduler' },
  // A dry run's draft (POST /scheduler/auto answers its draft_id), applied the same way.
  { method: 'POST', path: '/scheduler/auto/:draft_id/apply', operation: 'schedule-autofill-apply', input: 'json', tag: 'scheduler' },
  { method: 'GET', path: '/scheduler/export', operation: 'schedule-export', input: 'query', file: true, tag: 'scheduler' },
  { method: 'POST', path: '/scheduler/import', operation: 'schedule-import', input: 'multipart', tag: 'scheduler' },
  { method: 'GET', path: '/scheduler/settings', operation: 'schedule-settings', input: 'none', tag: 'scheduler' },
  { method: 'PATCH', path: '/scheduler/settings', operation: 'schedule-settings-update', input: 'json', tag: 'scheduler' },
  { method: 'GET', path: '/scheduler/terms', operation: 'schedule-terms', input: 'none', tag: 'scheduler' },
  { method: 'POST', path: '/scheduler/terms/copy', operation: 'schedule-terms-copy', input: 'json', tag: 'scheduler' },
  { method: 'GET', path: '/scheduler/campus', operation: 'campus-week', input: 'query', tag: 'scheduler' },
  { method: 'POST', path: '/scheduler/terms/publish', operation: 'schedule-publish', input: 'multipart', tag: 'scheduler' },
  { method: 'POST', path: '/scheduler/terms/publish-changes', operation: 'schedule-publish-changes', input: 'json', tag: 'scheduler' },
  { method: 'GET', path: '/scheduler/terms/changes', operation: 'schedule-changes-since', input: 'query', tag: 'scheduler' },
  { method: 'GET', path: '/scheduler/revision', operation: 'schedule-revision', input: 'query', tag: 'scheduler' },
  { method: 'GET', path: '/scheduler/history', operation: 'schedule-history', input: 'query', tag: 'scheduler' },
  { method: 'POST', path: '/scheduler/history/undo', operation: 'schedule-undo', input: 'json', tag: 'scheduler' },
  { method: 'GET', path: '/scheduler/unscheduled', operation: 'schedule-unscheduled', input: 'query', tag: 'scheduler' },
  { method: 'GET', path: '/scheduler/parts', operation: 'schedule-parts', input: 'query', tag: 'scheduler' },
  { method: 'GET', path: '/scheduler/cohorts', operation: 'schedule-cohorts', input: 'query', tag: 'scheduler' },
  { method: 'POST', path: '/scheduler/parts', operation: 'schedule-parts-save', input: 'json', tag: 'scheduler' },
  { method: 'DELETE', path: '/scheduler/parts/:code', operation: 'schedule-parts-delete', input: 'query', tag: 'scheduler' },
  { method: 'GET', path: '/scheduler/', operation: 'schedule-list', input: 'query', tag: 'scheduler' },
  { method: 'POST', path: '/scheduler/', operation: 'schedule-create', input: 'json', tag: 'scheduler' },
  { method: 'PATCH', path: '/scheduler/:entry_id', operation: 'schedule-update', input: 'json', tag: 'scheduler' },
  { method: 'DELETE', path: '/scheduler/:entry_id', operation: 'schedule-delete', input: 'none', tag: 'scheduler' },
];
