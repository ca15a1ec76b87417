import { z } from 'zod';
import { defineDesktopOnlyHandlers, defineHandlers, handler } from '../registry';
import { boundedText, flagField, jsonCountField, yearField } from '../input-fields';
import { LIMITS } from '../domain/bounds';
import { CHANGE_OPERATIONS } from '../domain/meeting-changes';
import { changeIdField, meetingStateSchema, meetingUidField, revisionField, semesterField, termSchema } from '../timetable';
import { changesSince, markPublished, publishChanges, rebaseOnServer, syncStatus } from './service';

/** A term's revision in a JSON body: a number, never null, true, [] or "" read as one. */
const revisionNumber = jsonCountField('a revision number');
/** A store's own id (a laptop's base names the server's). */
const storeIdField = z.string({ error: 'must be a server id' }).regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a server id');
/** The side a person keeps in a conflict. */
const conflictSide = z.enum(['mine', 'theirs'], { error: 'must be mine or theirs' });
const keepMineError = 'must be a meeting id, or {meeting_uid, seen_change_id}: the server version the person kept theirs over';
/** Changes one publish or fetch carries at most. */
const MAX_PUBLISHED_CHANGES = 5_000;

/** Campus sync's operations a server serves: a laptop's publish and fetch. */
export const campusSyncHandlers = defineHandlers({
  'schedule-publish-changes': handler(
    z.object({
      year: yearField,
      semester: semesterField,
      base_revision: revisionNumber,
      key: z.string({ error: 'an idempotency key is required' }).regex(/^[A-Za-z0-9_.:-]{8,100}$/, 'must be 8–100 letters, digits, ., :, - or _'),
      changes: z
        .array(
          z
            .object({
              meeting_uid: meetingUidField,
              after: meetingStateSchema.nullable(),
              operation: z.enum(CHANGE_OPERATIONS, { error: 'must be an operation' }).default('edit'),
              at: boundedText(40).default(''),
            })
            .refine((c) => c.after === null || c.after.uid === c.meeting_uid, { message: 'after.uid must be the meeting_uid' }),
          { error: 'must be a list of changes' },
        )
        .max(MAX_PUBLISHED_CHANGES, `at most ${MAX_PUBLISHED_CHANGES} changes at once`),
      keep_mine: z
        .array(z.union([meetingUidField, z.object({ meeting_uid: meetingUidField, seen_change_id: changeIdField.nullable() })], { error: keepMineError }))
        .max(MAX_PUBLISHED_CHANGES)
        .default([]),
      dry_run: flagField.default(false),
    }),
    "Publish changes made elsewhere (a laptop's, since the server revision its copy is based on): each is replayed through the checked write path on the current term, all or nothing. A meeting also changed here since the base is a conflict, listed with both versions, unless keep_mine names it (with the server version the person saw: a later one is a new conflict); an idempotency key, bound to the person, the term and the changes, makes a retried publish apply once",
    (ctx, input) => publishChanges(ctx, input),
    { writes: (input) => (input.dry_run ? [] : ['timetable', 'doctors']) },
  ),
  'schedule-changes-since': handler(
    z.object({
      year: yearField,
      semester: semesterField,
      since_revision: revisionField.optional(),
      base_server: storeIdField.optional(),
      base_department: boundedText(LIMITS.nameChars).optional(),
    }),
    "What a laptop fetches: each meeting changed since a revision (every meeting without one, or when the revision, base_server or base_department is not this server's as it is now: then `reset`), as it is now in the term it is in (null: deleted), with who changed it last; with this server's id and the department",
    (ctx, input) => changesSince(ctx, input),
  ),
});

/**
 * The desktop app's own copy of a campus term: its base on the server, its changes not yet published,
 * bringing the server's changes in. Only the desktop app's table holds them (core/handlers.ts): a
 * server never mounts them.
 */
export const laptopSyncHandlers = defineDesktopOnlyHandlers({
  'schedule-sync-status': handler(
    termSchema,
    "This computer's copy of a campus term: the server revision it is based on, and its changes not yet published",
    (ctx, term) => syncStatus(ctx, term),
  ),
  'schedule-sync-rebase': handler(
    z.object({
      year: yearField,
      semester: semesterField,
      server: z.object({
        year: yearField,
        semester: semesterField,
        revision: revisionNumber,
        complete: z.boolean({ error: 'must be true or false' }),
        meetings: z
          .array(
            z.object({
              meeting_uid: meetingUidField,
              state: meetingStateSchema.nullable(),
              change: z
                .object({ who: boundedText(LIMITS.nameChars + 120), at: boundedText(40), summary: boundedText(), id: changeIdField.optional() })
                .nullable(),
            }),
          )
          .max(MAX_PUBLISHED_CHANGES),
        server_id: storeIdField.optional(),
        department: boundedText(LIMITS.nameChars).optional(),
        reset: z.boolean({ error: 'must be true or false' }).optional(),
      }),
      choices: z
        .record(
          meetingUidField,
          z.union([conflictSide, z.object({ choice: conflictSide, seen_change_id: changeIdField.nullable() })], {
            error: 'must be mine or theirs, or {choice, seen_change_id}',
          }),
        )
        .default({}),
      dry_run: flagField.default(false),
    }),
    "Bring the campus server's changes since this copy's base into it, keeping this computer's unpublished changes on top; a meeting changed on both sides is a conflict until chosen (mine or theirs). All or nothing",
    (ctx, input) => rebaseOnServer(ctx, input),
    { writes: (input) => (input.dry_run ? [] : ['timetable', 'doctors']) },
  ),
  'schedule-sync-published': handler(
    z.object({ year: yearField, semester: semesterField, through: z.number({ error: 'must be a change id' }).int().min(0) }),
    "Mark this computer's changes up to a change id as published to the campus server",
    (ctx, input) => markPublished(ctx, input),
    { writes: ['timetable'] },
  ),
});
