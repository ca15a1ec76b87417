/**
 * What other features may use of the timetable (besides its repo): the term in force, the
 * conflict rules, the checked write of one meeting, cohorts, and the entry fields other forms reuse.
 */
export { bookingConflicts, meetTogether, type Booking, type ConflictRules, type DoctorAvailability } from './conflicts';
export { courseCohorts, termCurriculumConflictCount } from './curriculum-check';
export { dayPatternField, durationField, startTimeField, termFields, type ScheduleEntry } from './schema';
export { insertCheckedEntry } from './service';
export { changeOf, meetingStates, newMeetingUid, recordTermChanges, untimedStates } from './history';
export { removeUntimedSections } from './untimed';
export { instructorAliases } from './entry-values';
export { currentTerm, partsByCode, termForWrite, termOf, travelMinutes } from './terms';
export { termLocks } from './locks';
export { campusTerm } from './term-bookings';
export { termClashes, withoutNewClashes } from './recheck';
