import { z } from 'zod';
import { defineHandlers, handler } from '../registry';
import { createEntrySchema, entryIdField, partCodeField, patchEntrySchema, semesterField, termFields, termSchema } from './schema';
import { yearField } from '../input-fields';
import { copyTerm, createEntry, patchEntry, removeEntry, termEntries } from './service';
import { unscheduledSections } from './unscheduled';
import { MAX_TRAVEL_MINUTES, partsOf, removePart, timetableSettings, timetableTerms } from './terms';
import { savePart, updateTimetableSettings } from './timetable-settings';
import { exportTimetable } from './export-formats';
import { readIsoDate } from '../domain/parts';
import { boundedText, campusName, countField, flagField, jsonCountField } from '../input-fields';
import { campusWeek } from './campus-week';
import { uploadedFileSchema } from '../import/files';
import { INSTRUCTOR_ROLES } from '../domain/roles';
import { LIMITS, parseBoundedJson } from '../domain/bounds';
import { importTimetable } from './import';
import { termCohorts } from './curriculum-check';
import { timetableRooms } from './rooms';
import { HISTORY_PAGE, termHistory, termRevisionOf, undoChanges } from './undo';
import { changesSince, markPublished, publishChanges, rebaseOnServer, syncStatus } from './sync';
import { courseCodeField, meetingStateSchema, meetingUidField, sectionNameField } from './schema';
import { CHANGE_OPERATIONS } from '../domain/meeting-changes';

/** A term's revision as a client names it: a whole number (in a query string, its digits). */
const revisionField = countField('a revision number');
/** A term's revision in a JSON body: a number, never null, true, [] or "" read as one. */
const revisionNumber = jsonCountField('a revision number');
/** A recorded change's id. */
const changeIdField = jsonCountField('a change id', 1);
/** A store's own id (a laptop's base names the server's). */
const storeIdField = z.string({ error: 'must be a server id' }).regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a server id');
/** The side a person keeps in a conflict. */
const conflictSide = z.enum(['mine', 'theirs'], { error: 'must be mine or theirs' });
const keepMineError = 'must be a meeting id, or {meeting_uid, seen_change_id}: the server version the person kept theirs over';
/** A batch of changes (one write) as history names it. */
const batchField = z.string({ error: 'must be a batch id' }).regex(/^[A-Za-z0-9-]{1,64}$/, 'must be a batch id');
/** Changes one publish or fetch carries at most. */
const MAX_PUBLISHED_CHANGES = 5_000;

const termQuery = z.object(termFields);

const isoDate = z
  .string({ error: 'must be a date YYYY-MM-DD' })
  .transform((v, ctx) => readIsoDate(v) ?? (ctx.addIssue({ code: 'custom', message: 'must be a date YYYY-MM-DD' }), z.NEVER))
  .nullable()
  .default(null);

export const scheduleHandlers = defineHandlers({
  'rooms-list': handler(z.object({}), 'Rooms with their seats; rooms used by the timetable but not declared have capacity null', (ctx) => timetableRooms(ctx)),
  'campus-week': handler(
    z.object({ ...termFields, room: boundedText(200).trim().min(1).optional(), campus: campusName.optional() }),
    "The campus view of a term's week (the current term unless given): the rooms the caller books (every room for the registrar), or one room, with every department's meetings in them; another department's shown as booked unless the caller may read it",
    (ctx, input) => campusWeek(ctx, input),
  ),
  'schedule-list': handler(
    termQuery,
    "A term's timetable entries (the current term unless year and semester are given), each with its instructors",
    (ctx, term) => termEntries(ctx, term),
  ),
  'schedule-create': handler(createEntrySchema, 'Add a timetable entry (conflict-checked)', (ctx, input) => createEntry(ctx, input), {
    writes: ['timetable'],
  }),
  'schedule-update': handler(patchEntrySchema, 'Change a timetable entry (conflict-checked)', (ctx, input) => patchEntry(ctx, input), {
    writes: ['timetable'],
  }),
  'schedule-delete': handler(z.object({ entry_id: entryIdField }), 'Remove a timetable entry', (ctx, { entry_id }) => removeEntry(ctx, entry_id), {
    writes: ['timetable'],
  }),
  'schedule-export': handler(
    z.object({
      ...termFields,
      format: z.enum(['xlsx', 'csv', 'ics'], { error: 'must be xlsx, csv or ics' }).default('xlsx'),
      details: flagField.default(false),
      doctor_id: z.coerce.number({ error: 'must be a doctor id' }).int('must be a doctor id').positive('must be a doctor id').optional(),
    }),
    "A term's timetable (the current term unless year and semester are given): the registrar's XLSX sheet (details adds term, part of term, joint group and campus), a CSV listing the timetable import reads back, or one instructor's weekly timetable as iCalendar (format=ics&doctor_id=N)",
    (ctx, input) => exportTimetable(ctx, input),
  ),
  'schedule-import': handler(
    z.object({
      file: uploadedFileSchema,
      ...termFields,
      campus: campusName.optional(),
      dry_run: flagField.default(true),
      conflicts: z.enum(['skip', 'flag'], { error: 'must be skip or flag' }).default('skip'),
      roles: z
        .union([z.string().transform((text) => parseBoundedJson(text, 'roles')), z.record(z.string(), z.unknown())])
        .pipe(
          z.record(z.string().max(LIMITS.nameChars), z.enum(INSTRUCTOR_ROLES, { error: `must be ${INSTRUCTOR_ROLES.join(', ')}` }), {
            error: 'must be an object of instructor name → role',
          }),
        )
        .optional(),
    }),
    "Bring a registrar's section listing (CSV or XLSX, one row per meeting) into the timetable: a dry run by default, then applied in one transaction",
    (ctx, input) => importTimetable(ctx, input),
    { writes: (input) => (input.dry_run ? [] : ['timetable', 'catalog', 'doctors', 'rooms']) },
  ),
  'schedule-publish': handler(
    z.object({
      file: uploadedFileSchema,
      year: yearField,
      semester: semesterField,
      campus: campusName.optional(),
      dry_run: flagField.default(false),
      replace: flagField.refine((v) => v, {
        message: 'must be true: a listing replaces the whole term (to publish changes without replacing, use POST /scheduler/terms/publish-changes)',
      }),
      base_revision: revisionField,
    }),
    "Replace a department's term with a whole listing (a script's CSV), naming the revision it replaces (refused in words if the term changed since): checked against every department's bookings and refused whole, with every clash listed, when any meeting clashes; else it replaces the department's meetings of the term in one transaction",
    (ctx, { replace: _replace, ...input }) => importTimetable(ctx, { ...input, conflicts: 'skip', replace: true }),
    { writes: (input) => (input.dry_run ? [] : ['timetable', 'catalog', 'doctors', 'rooms']) },
  ),
  'schedule-history': handler(
    z.object({
      ...termFields,
      course_code: courseCodeField.optional(),
      section_name: sectionNameField.optional(),
      person_id: z.coerce.number({ error: 'must be a person id' }).int('must be a person id').positive('must be a person id').optional(),
      meeting_uid: meetingUidField.optional(),
      since_revision: revisionField.optional(),
      batch: batchField.optional(),
      limit: z.coerce
        .number({ error: 'must be a number' })
        .int('must be a whole number')
        .min(1, 'must be at least 1')
        .max(HISTORY_PAGE, `must be at most ${HISTORY_PAGE}`)
        .optional(),
    }),
    "A term's change history (the current term unless given), newest first: who changed which meeting, when, how, and its values before and after; filtered by section, person, meeting, batch or since a revision",
    (ctx, input) => termHistory(ctx, input),
  ),
  'schedule-revision': handler(termQuery, "A term's revision: how many changes were recorded for it (the current term unless given)", (ctx, term) =>
    termRevisionOf(ctx, term),
  ),
  'schedule-undo': handler(
    z.object({
      change_id: changeIdField.optional(),
      batch: batchField.optional(),
    }),
    'Undo one change, or one batch of changes (an import, an apply, a publish), through the checked write path; refused in words when a later change touched the same meeting or a rule refuses',
    (ctx, input) => undoChanges(ctx, input),
    { writes: ['timetable'] },
  ),
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
  'schedule-sync-status': handler(
    termSchema,
    "This computer's copy of a campus term: the server revision it is based on, and its changes not yet published",
    (ctx, term) => syncStatus(ctx, term),
    { access: 'this-computer' },
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
    { writes: (input) => (input.dry_run ? [] : ['timetable', 'doctors']), access: 'this-computer' },
  ),
  'schedule-sync-published': handler(
    z.object({ year: yearField, semester: semesterField, through: z.number({ error: 'must be a change id' }).int().min(0) }),
    "Mark this computer's changes up to a change id as published to the campus server",
    (ctx, input) => markPublished(ctx, input),
    { writes: ['timetable'], access: 'this-computer' },
  ),
  'schedule-settings': handler(z.object({}), 'The current timetable term and the travel time between campuses', (ctx) => timetableSettings(ctx)),
  'schedule-settings-update': handler(
    z.object({
      current_term: termSchema.optional(),
      travel_minutes: z
        .number({ error: 'must be a whole number of minutes' })
        .int('must be a whole number of minutes')
        .min(0, 'must be at least 0')
        .max(MAX_TRAVEL_MINUTES, `must be at most ${MAX_TRAVEL_MINUTES}`)
        .optional(),
    }),
    'Choose the current timetable term and the travel time between campuses',
    (ctx, change) => updateTimetableSettings(ctx, change),
    { writes: ['timetable', 'settings'] },
  ),
  'schedule-terms': handler(z.object({}), 'The current term and every term that has a timetable', (ctx) => timetableTerms(ctx)),
  'schedule-terms-copy': handler(
    z.object({
      from: termSchema,
      to: termSchema,
      keep_instructors: z.boolean({ error: 'must be true or false' }).default(true),
      keep_rooms: z.boolean({ error: 'must be true or false' }).default(true),
    }),
    "Copy one term's timetable into another, conflict-checked; answers what was copied and what was not, with reasons",
    (ctx, input) => copyTerm(ctx, input),
    { writes: ['timetable'] },
  ),
  'schedule-cohorts': handler(
    termQuery,
    "The student cohorts (curriculum groups) of a term's timetable, each with its courses (the current term unless year and semester are given)",
    (ctx, term) => termCohorts(ctx, term),
  ),
  'schedule-unscheduled': handler(
    termQuery,
    "A term's sections without a time (a registrar's online or arranged rows), with their instructors, part of term, joint group and listed room (the current term unless year and semester are given)",
    (ctx, term) => unscheduledSections(ctx, term),
  ),
  'schedule-parts': handler(termQuery, "A term's parts of term (the current term unless year and semester are given)", (ctx, term) => partsOf(ctx, term)),
  'schedule-parts-save': handler(
    z.object({
      ...termFields,
      code: partCodeField,
      name: z.string({ error: 'a name is required' }).trim().min(1, 'a name is required').max(80, 'must be at most 80 characters'),
      start_date: isoDate,
      end_date: isoDate,
    }),
    'Add or change a part of term (e.g. S1, the first half of a summer session)',
    (ctx, { year, semester, ...part }) => savePart(ctx, { year, semester }, part),
    { writes: ['timetable'] },
  ),
  'schedule-parts-delete': handler(
    z.object({ ...termFields, code: partCodeField }),
    'Remove a part of term no meeting uses',
    (ctx, { year, semester, code }) => removePart(ctx, { year, semester }, code),
    { writes: ['timetable'] },
  ),
});
