import type { Db } from '../db/store';
import { inBatches, readInBatches } from '../db/batches';
import type { Term } from '../domain/terms';
import type { EntryRow } from './repo';

/**
 * Sections without a time (a registrar's online or arranged rows): what they keep until they are
 * given a time — their instructors, part of term, joint group, the room they list and their campus.
 */
export type UntimedSectionRow = Pick<
  EntryRow,
  'id' | 'uid' | 'department_id' | 'year' | 'semester' | 'course_code' | 'section_name' | 'doctor_ids' | 'part_of_term' | 'joint_group' | 'campus'
> & {
  /** The room the listing gives it (the room it needs); null when none. */
  room: string | null;
  /** What the listing calls it ("Online", "Independent Study"); null when it does not say. */
  kind: string | null;
};

export type UntimedSectionValues = Omit<UntimedSectionRow, 'id'>;

const COLUMNS = [
  'id',
  'department_id',
  'year',
  'semester',
  'course_code',
  'section_name',
  'doctor_ids',
  'part_of_term',
  'joint_group',
  'room',
  'campus',
  'kind',
  'uid',
] as const;

const readIds = (text: string): number[] => {
  const parsed: unknown = JSON.parse(text);
  return Array.isArray(parsed) ? parsed.filter((id): id is number => Number.isInteger(id)) : [];
};

type StoredRow = Omit<UntimedSectionRow, 'semester' | 'doctor_ids'> & { semester: string; doctor_ids: string };
const fromRow = (r: StoredRow): UntimedSectionRow => ({ ...r, semester: r.semester as Term['semester'], doctor_ids: readIds(r.doctor_ids) });

/** A department's sections without a time in a term, by course and section. */
export async function listUntimedSections(db: Db, department: number, term: Term): Promise<UntimedSectionRow[]> {
  const rows = await db
    .selectFrom('unscheduled_sections')
    .select(COLUMNS)
    .where('department_id', '=', department)
    .where('year', '=', term.year)
    .where('semester', '=', term.semester)
    .orderBy('course_code')
    .orderBy('section_name')
    .execute();
  return rows.map(fromRow);
}

/** The department's sections without a time that hold these ids. */
export async function untimedSectionsByUids(db: Db, department: number, uids: readonly string[]): Promise<UntimedSectionRow[]> {
  if (uids.length === 0) return [];
  const rows = await readInBatches([...new Set(uids)], (batch) =>
    db.selectFrom('unscheduled_sections').select(COLUMNS).where('department_id', '=', department).where('uid', 'in', batch).execute(),
  );
  return rows.map(fromRow);
}

/** Gives a section without a time the id another store knows it by (a first fetch). */
export async function setUntimedSectionUid(db: Db, department: number, id: number, uid: string): Promise<void> {
  await db.updateTable('unscheduled_sections').set({ uid }).where('id', '=', id).where('department_id', '=', department).execute();
}

/** Stores sections without a time; a section already listed is replaced (a listing imported again), keeping its id. */
export async function upsertUntimedSections(db: Db, sections: readonly UntimedSectionValues[], createdAt: string): Promise<void> {
  await inBatches([...sections], async (batch) => {
    for (const s of batch) {
      const values = { ...s, doctor_ids: JSON.stringify(s.doctor_ids), created_at: createdAt };
      await db
        .insertInto('unscheduled_sections')
        .values(values)
        .onConflict((oc) =>
          oc.columns(['department_id', 'year', 'semester', 'course_code', 'section_name']).doUpdateSet({
            doctor_ids: values.doctor_ids,
            part_of_term: values.part_of_term,
            joint_group: values.joint_group,
            room: values.room,
            campus: values.campus,
            kind: values.kind,
          }),
        )
        .execute();
    }
  });
}

/** Removes sections without a time (given one now); answers how many were removed. */
export async function deleteUntimedSections(db: Db, department: number, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .deleteFrom('unscheduled_sections')
    .where('department_id', '=', department)
    .where('id', 'in', [...ids])
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
