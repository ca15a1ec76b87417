/**
 * What other features may use of the timetable (besides its repositories' reads): the term in
 * force, the conflict rules and the curriculum check, the fields other forms reuse, and the ways
 * another feature writes a timetable, each through the timetable's own rules and record: a draft
 * stored (auto-fill), a listing's meetings stored (the import), a recorded version replayed (the
 * change log, campus sync), and the rows of rows-for-others.ts.
 */
export {
  bookingConflicts,
  meetTogether,
  sectionOverlapNote,
  simpleBooking,
  type Booking,
  type Clash,
  type ConflictRules,
  type DoctorAvailability,
} from './conflicts';
export { describeCurriculumConflict, forEachCurriculumConflict, type CurriculumCourse } from './curriculum';
export { courseCohorts, groupLookup, termCurriculumConflictCount } from './curriculum-check';
export {
  MAX_DURATION,
  MAX_INSTRUCTORS,
  MIN_DURATION,
  changeIdField,
  courseCodeField,
  dayPatternField,
  durationField,
  meetingStateSchema,
  meetingUidField,
  revisionField,
  sectionNameField,
  semesterField,
  startTimeField,
  termFields,
  termSchema,
  type ScheduleEntry,
} from './schema';
export { instructorAliases, meetingCampus } from './entry-values';
export { currentTerm, partsByCode, termAsked, termForWrite, termOf, travelMinutes } from './terms';
export { campusTerm, wholeCampusTerm } from './term-bookings';
export { ComparisonBudget, TermBook } from './term-book';
export { termClashes } from './recheck';
export { CrossListing, crossListedInNote, proposeJointGroups, readMeetsWith, sameMeetingRows, unionOfDays, type TogetherMeeting } from './meeting-together';
export { lockTermsOfMeetings } from './gate';
export { termLocks } from './locks';
export { deleteTermMeetings, termEntries } from './service';
export {
  changeOf,
  changesInWords,
  meetingState,
  meetingStates,
  newMeetingUid,
  parseState,
  recordChangesByTerm,
  recordTermChanges,
  untimedStates,
} from './record-changes';
export { applyMeetingState, applyTogether, instructorsById, instructorsByName } from './replay';
export { removeUntimedSections, storeUntimedSections, type UntimedInput } from './untimed-writes';
export { storeTermDraft, type DraftBasis, type DraftToStore } from './draft-store';
export { storeCampusDraft, type CampusDraftToStore } from './campus-draft-store';
export { giveMeetingUid, giveSectionUid, storeListedMeetings, storePart, type PlannedClash } from './rows-for-others';
