/**
 * What other features may use of the timetable (besides its repo's reads): the term in force, the
 * conflict rules, cohorts, the entry fields other forms reuse, and the one way another feature
 * writes a timetable: a draft stored through the timetable's own rules (storeTermDraft).
 */
export { bookingConflicts, meetTogether, type Booking, type ConflictRules, type DoctorAvailability } from './conflicts';
export { courseCohorts, termCurriculumConflictCount } from './curriculum-check';
export { dayPatternField, durationField, startTimeField, termFields, type ScheduleEntry } from './schema';
export { newMeetingUid } from './record-changes';
export { instructorAliases } from './entry-values';
export { currentTerm, partsByCode, termOf, travelMinutes } from './terms';
export { campusTerm, wholeCampusTerm } from './term-bookings';
export { termClashes } from './recheck';
export { storeTermDraft, type DraftBasis, type DraftToStore } from './draft-store';
export { storeCampusDraft, type CampusDraftToStore } from './campus-draft-store';
