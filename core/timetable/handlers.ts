import { z } from 'zod';
import { defineHandlers, handler } from '../registry';
import { createEntrySchema, entryIdField, partCodeField, patchEntrySchema, termFields, termSchema } from './schema';
import { copyTerm, createEntry, patchEntry, removeEntry, termEntries } from './service';
import { untimedSectionsOfTerm } from './untimed-reads';
import { MAX_TRAVEL_MINUTES, partsOf, removePart, timetableSettings, timetableTerms } from './terms';
import { savePart, updateTimetableSettings } from './timetable-settings';
import { readIsoDate } from '../domain/parts';
import { boundedText, campusName } from '../input-fields';
import { campusWeek } from './campus-week';
import { termCohorts } from './curriculum-check';
import { timetableRooms } from './rooms';

const termQuery = z.object(termFields);

const isoDate = z
  .string({ error: 'must be a date YYYY-MM-DD' })
  .transform((v, ctx) => readIsoDate(v) ?? (ctx.addIssue({ code: 'custom', message: 'must be a date YYYY-MM-DD' }), z.NEVER))
  .nullable()
  .default(null);

export const timetableHandlers = defineHandlers({
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
    (ctx, term) => untimedSectionsOfTerm(ctx, term),
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
