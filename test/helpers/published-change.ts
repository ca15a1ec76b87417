import type { MeetingState } from '../../core/domain/meeting-changes';

/** A meeting a laptop created, as a publish carries it (`POST /scheduler/terms/publish-changes`). */
export function createdOnLaptop(
  uid: string,
  meeting: Pick<MeetingState, 'course_code' | 'section_name' | 'day' | 'start_time'> & Partial<MeetingState>,
): { meeting_uid: string; operation: 'create'; after: MeetingState } {
  return {
    meeting_uid: uid,
    operation: 'create',
    after: { duration_mins: 50, room: 'TBD', part_of_term: '1', joint_group: null, campus: 'Beirut', instructors: [], locked: false, ...meeting, uid },
  };
}
