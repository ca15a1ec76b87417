import type { CoreContext } from '../context';
import { fieldError } from '../domain/errors';
import { describePart, type PartOfTerm } from '../domain/parts';
import { termLabel, type Term } from '../domain/terms';
import { writeSetting } from '../system/settings-repo';
import { upsertPart } from './repo';
import { withoutNewClashes } from './recheck';
import { CURRENT_TERM, partsOf, timetableSettings, travelMinutes, TRAVEL_MINUTES, type TimetableSettings } from './terms';

/**
 * Changes to a term's settings that move meetings in time (a part of term's dates, the travel time
 * between campuses): each is refused when it would make stored meetings clash (see recheck.ts).
 */

export function updateTimetableSettings(ctx: CoreContext, change: { current_term?: Term | undefined; travel_minutes?: number | undefined }): TimetableSettings {
  ctx.db
    .transaction(() => {
      if (change.current_term) writeSetting(ctx.db, CURRENT_TERM, { year: change.current_term.year, semester: change.current_term.semester });
      const travel = change.travel_minutes;
      if (travel !== undefined && travel !== travelMinutes(ctx)) {
        withoutNewClashes(ctx, `Setting the travel time between campuses to ${travel} minutes`, () => writeSetting(ctx.db, TRAVEL_MINUTES, travel));
      }
    })
    .immediate();
  return timetableSettings(ctx);
}

export function savePart(ctx: CoreContext, term: Term, part: PartOfTerm): PartOfTerm[] {
  if ((part.start_date === null) !== (part.end_date === null)) throw fieldError(part.start_date === null ? 'start_date' : 'end_date', 'give both dates, or neither when they are not known');
  if (part.start_date !== null && part.end_date !== null && part.start_date > part.end_date) throw fieldError('end_date', `must not be before start_date (${part.start_date})`);
  ctx.db.transaction(() => withoutNewClashes(ctx, `Setting ${describePart(part)} of ${termLabel(term)}`, () => upsertPart(ctx.db, term, part), [term])).immediate();
  return partsOf(ctx, term);
}
