import type { CoreContext } from '../context';
import type { Term } from '../domain/terms';
import { doctorsById } from '../faculty/repo';
import { listUntimedSections, type UntimedSectionRow } from './untimed-repo';
import { termAsked } from './terms';

/** A section without a time as reads answer it: its instructors named. */
export interface UntimedSectionAnswer extends Omit<UntimedSectionRow, 'department_id' | 'doctor_ids'> {
  doctors: { id: number; name: string }[];
}

/** A term's sections without a time (a registrar's online or arranged rows; the current term unless named), by course and section. */
export async function untimedSectionsOfTerm(ctx: CoreContext, asked: Partial<Term>): Promise<UntimedSectionAnswer[]> {
  const term = await termAsked(ctx, asked);
  const sections = await listUntimedSections(ctx.db, ctx.department, term);
  const doctors = await doctorsById(ctx.db, ctx.department, new Set(sections.flatMap((s) => s.doctor_ids)));
  return sections.map(({ department_id: _department, doctor_ids, ...section }) => ({
    ...section,
    doctors: doctor_ids.flatMap((id) => {
      const doctor = doctors.get(id);
      return doctor ? [{ id, name: doctor.name }] : [];
    }),
  }));
}
