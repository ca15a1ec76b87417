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
export { sectionOverlapNote, simpleBooking, type Clash } from './conflicts';
export { describeCurriculumConflict, forEachCurriculumConflict, type CurriculumCourse } from './curriculum';
export { groupLookup } from './curriculum-check';
export { meetingCampus } from './entry-values';
export { lockTermsOfMeetings } from './gate';
export { termLocks } from './locks';
export { CrossListing, crossListedInNote, proposeJointGroups, readMeetsWith, sameMeetingRows, unionOfDays, type TogetherMeeting } from './meeting-together';
export { changeOf, changesInWords, meetingState, meetingStates, parseState, recordChangesByTerm, recordTermChanges, untimedStates } from './record-changes';
export { applyMeetingState, applyTogether, instructorsById, instructorsByName } from './replay';
export {
  MAX_DURATION,
  MAX_INSTRUCTORS,
  MIN_DURATION,
  changeIdField,
  courseCodeField,
  meetingStateSchema,
  meetingUidField,
  revisionField,
  sectionNameField,
  semesterField,
  termSchema,
} from './schema';
export { deleteTermMeetings, termEntries } from './service';
export { ComparisonBudget, TermBook } from './term-book';
export { termAsked, termForWrite } from './terms';
export { removeUntimedSections, storeUntimedSections, type UntimedInput } from './untimed';
export { giveMeetingUid, giveSectionUid, storeClashes, storePart } from './rows-for-others';
