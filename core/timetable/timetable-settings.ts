import type { CoreContext } from '../context';
import { fieldError } from '../domain/errors';
import { describePart, type PartOfTerm } from '../domain/parts';
import { termLabel, type Term } from '../domain/terms';
import { writeSetting } from '../db/settings';
import { upsertPart } from './repo';
import { inTransaction } from '../db/transactions';
import { takeLocks } from '../db/locks';
import { termLocks, timetableLock } from './locks';
import { withoutNewClashes } from './recheck';
import { CURRENT_TERM, partsOf, termAsked, timetableSettings, travelMinutes, TRAVEL_MINUTES, type TimetableSettings } from './terms';

/**
 * Changes to a term's settings that move meetings in time (a part of term's dates, the travel time
 * between campuses): each is refused when it would make stored meetings clash (see recheck.ts).
 */

export async function updateTimetableSettings(
  ctx: CoreContext,
  change: { current_term?: Term | undefined; travel_minutes?: number | undefined },
): Promise<TimetableSettings> {
  await inTransaction(ctx.db, async (db) => {
    const tx = { ...ctx, db };
    if (change.current_term) await writeSetting(db, ctx.department, CURRENT_TERM, { year: change.current_term.year, semester: change.current_term.semester });
    const travel = change.travel_minutes;
    // The travel time moves every term's rule at once: no meeting is written meanwhile.
    if (travel !== undefined) await takeLocks(db, timetableLock());
    if (travel !== undefined && travel !== (await travelMinutes(tx))) {
      await withoutNewClashes(tx, `Setting the travel time between campuses to ${travel} minutes`, () =>
        writeSetting(db, ctx.department, TRAVEL_MINUTES, travel),
      );
    }
  });
  return timetableSettings(ctx);
}

/** Adds or changes a part of term (the current term's unless named), refusing dates that would make a clash. */
export async function savePart(ctx: CoreContext, asked: Partial<Term>, part: PartOfTerm): Promise<PartOfTerm[]> {
  const term = await termAsked(ctx, asked);
  if ((part.start_date === null) !== (part.end_date === null))
    throw fieldError(part.start_date === null ? 'start_date' : 'end_date', 'give both dates, or neither when they are not known');
  if (part.start_date !== null && part.end_date !== null && part.start_date > part.end_date)
    throw fieldError('end_date', `must not be before start_date (${part.start_date})`);
  await inTransaction(ctx.db, async (db) => {
    // The part's dates move every meeting in it: no meeting of the term is written meanwhile.
    await takeLocks(db, termLocks([term]));
    await withoutNewClashes({ ...ctx, db }, `Setting ${describePart(part)} of ${termLabel(term)}`, () => upsertPart(db, ctx.department, term, part), [term]);
  });
  return partsOf(ctx, term);
}
