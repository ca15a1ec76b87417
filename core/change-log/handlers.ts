import { z } from 'zod';
import { defineHandlers, handler } from '../registry';
import { changeIdField, courseCodeField, meetingUidField, revisionField, sectionNameField, termFields } from '../timetable';
import { HISTORY_PAGE, termHistory, termRevisionOf, undoChanges } from './service';

/** A batch of changes (one write) as history names it. */
const batchField = z.string({ error: 'must be a batch id' }).regex(/^[A-Za-z0-9-]{1,64}$/, 'must be a batch id');

const termQuery = z.object(termFields);

/** The change log's operations: a term's history, its revision, and undo. */
export const changeLogHandlers = defineHandlers({
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
});
