import loadHighs from 'highs';
import { availabilityConflicts, doctorConflicts, roomConflicts, simpleBooking, type Booking } from '../../core/timetable/conflicts';
import { type Slot, STANDARD_SLOTS } from '../../core/autofill/grid';
import { sessionsOverlap, roomKey } from '../../core/domain/meetings';
import { type DoctorAvailability, campusTerm, currentTerm } from '../../core/timetable';
import type { CoreContext } from '../../core/context';
import { run as loadRun } from '../../core/predict';
import { listDoctors } from '../../core/faculty/repo';
import { declaredRooms } from '../../core/rooms/repo';
import { allowedCourseList, mayTeach } from '../../core/domain/teaching';

/** A run's new sections to place at standard times, as the integer programme sees them. */
export interface PlacementProblem {
  sections: { size: number; allowedDoctors: number[] }[];
  instructors: Map<number, DoctorAvailability & { load: number }>;
  rooms: { name: string; key: string; capacity: number }[];
  slots: Slot[];
  existing: Booking[];
  maxSectionsPerDoctor: number;
  campus: string;
}

/** The placement problem of a run's plan in the current term (instructors' loads counted in meetings, as an upper bound). */
export async function placementProblem(ctx: CoreContext, runId: number, maxSectionsPerDoctor: number): Promise<PlacementProblem> {
  const run = await loadRun(ctx, runId);
  const { ownBookings, taken } = await campusTerm(ctx, await currentTerm(ctx));
  const existing = [...ownBookings, ...taken];
  const doctors = await listDoctors(ctx.db, ctx.department);
  const sections = run.entries
    .filter((e) => e.planned_offer)
    .flatMap((e) =>
      Array.from({ length: e.planned_sections }, () => ({
        size: Math.max(1, Math.ceil(e.predicted_enrollment / e.planned_sections)),
        allowedDoctors: doctors.filter((d) => mayTeach(allowedCourseList(d), e.course_code)).map((d) => d.id),
      })),
    );
  return {
    sections,
    instructors: new Map(doctors.map((d) => [d.id, { ...d, load: existing.filter((b) => b.doctor_ids.includes(d.id)).length }])),
    rooms: (await declaredRooms(ctx.db, ctx.department))
      .filter((r) => r.campus === null || r.campus === run.target_campus)
      .map((r) => ({ name: r.name, key: roomKey(r.name) ?? r.name.toLowerCase(), capacity: r.capacity })),
    slots: STANDARD_SLOTS,
    existing,
    maxSectionsPerDoctor,
    campus: run.target_campus,
  };
}

/**
 * The evaluation the auto-fill issue asks for: the same placement problem as an integer
 * programme for HiGHS (WebAssembly). x[s,t,d] = section s at time t with instructor d, for
 * combinations that pass availability and existing bookings. Rooms are counted per time with
 * nested capacity thresholds (Hall's condition, exact because a room fits every smaller
 * section). Objective: as many sections placed as possible. Soft goals are left out.
 */
export async function solveWithHighs(problem: PlacementProblem): Promise<{ placed: number; seconds: number; status: string; variables: number }> {
  const started = performance.now();
  const bookingsOf = (pred: (b: Booking) => boolean): Booking[] => problem.existing.filter(pred);
  const probe = (slot: Slot, room: { name: string; key: string } | null): Booking =>
    simpleBooking({
      course_code: '',
      section_name: '',
      doctor_ids: [],
      day: slot.day,
      start: slot.start,
      duration: slot.duration,
      room: room?.name ?? 'TBD',
      roomKey: room?.key ?? null,
      campus: problem.campus,
    });
  const vars: { name: string; s: number; t: number; d: number; size: number }[] = [];
  problem.sections.forEach((section, s) => {
    problem.slots.forEach((slot, t) => {
      for (const d of section.allowedDoctors) {
        const doctor = problem.instructors.get(d);
        if (!doctor || doctor.load >= problem.maxSectionsPerDoctor) continue;
        if (
          availabilityConflicts(doctor, slot).length > 0 ||
          doctorConflicts(
            doctor,
            probe(slot, null),
            bookingsOf((b) => b.doctor_ids.includes(d)),
          ).length > 0
        )
          continue;
        vars.push({ name: `x_${s}_${t}_${d}`, s, t, d, size: section.size });
      }
    });
  });
  const rows: string[] = [];
  const group = <K>(key: (v: (typeof vars)[number]) => K): Map<K, typeof vars> => {
    const map = new Map<K, typeof vars>();
    for (const v of vars) map.set(key(v), [...(map.get(key(v)) ?? []), v]);
    return map;
  };
  for (const [s, vs] of group((v) => v.s)) rows.push(` sec${s}: ${vs.map((v) => v.name).join(' + ')} <= 1`);
  for (const [key, vs] of group((v) => `${v.d}_${v.t}`)) if (vs.length > 1) rows.push(` doc${key}: ${vs.map((v) => v.name).join(' + ')} <= 1`);
  problem.slots.forEach((a, t) =>
    problem.slots.forEach((b, u) => {
      if (u <= t || !sessionsOverlap(a, b)) return;
      for (const [d, vs] of group((v) => v.d)) {
        const both = vs.filter((v) => v.t === t || v.t === u);
        if (both.length > 1) rows.push(` ovl${d}_${t}_${u}: ${both.map((v) => v.name).join(' + ')} <= 1`);
      }
    }),
  );
  for (const [d, vs] of group((v) => v.d))
    rows.push(` load${d}: ${vs.map((v) => v.name).join(' + ')} <= ${problem.maxSectionsPerDoctor - (problem.instructors.get(d)?.load ?? 0)}`);
  problem.slots.forEach((slot, t) => {
    const free = problem.rooms.filter(
      (r) =>
        roomConflicts(
          probe(slot, r),
          problem.existing.filter((b) => b.roomKey === r.key),
        ).length === 0,
    );
    const here = vars.filter((v) => v.t === t);
    for (const z of [...new Set(here.map((v) => v.size))]) {
      const needing = here.filter((v) => v.size >= z);
      rows.push(` room${t}_${z}: ${needing.map((v) => v.name).join(' + ')} <= ${free.filter((r) => r.capacity >= z).length}`);
    }
  });
  const model = `Maximize\n obj: ${vars.map((v) => v.name).join(' + ') || '0 x_none'}\nSubject To\n${rows.join('\n')}\nBinary\n ${vars.map((v) => v.name).join(' ')}\nEnd\n`;
  const highs = await loadHighs();
  const result = highs.solve(model, { output_flag: false, time_limit: 60 });
  const placed = Object.entries(result.Columns).filter(
    ([name, column]) => name.startsWith('x_') && Math.round((column as { Primal: number }).Primal) === 1,
  ).length;
  return { placed, seconds: (performance.now() - started) / 1000, status: result.Status, variables: vars.length };
}
