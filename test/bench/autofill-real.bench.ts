import { readFileSync } from 'node:fs';
import { withServeProcess, type ServeProcess } from '../helpers/serve-process';
import { realDataFile } from '../helpers/real-data';
import { record, timed } from './report';
import { setSummerParts, upload } from './timetable-import.bench';
import type { ScheduleEntry } from '../../core/timetable/schema';
import type { TermAutofillResult } from '../../core/autofill/service';
import { termClashes, type Booking, type DoctorAvailability } from '../../core/timetable';
import { bookingOfEntry } from './entry-bookings';
import type { PartOfTerm } from '../../core/domain/parts';

/**
 * Issue 38: a real summer term rebuilt by auto-fill. The registrar's listing is imported (summer
 * session dates set first), then every meeting's time is cleared and the term is rebuilt from
 * nothing (source "term", rebuild), keeping sections, meeting shapes, instructors, parts of term and
 * joint groups. The listing gives no seats, so each meeting keeps its room (no room is declared).
 * Compared with the registrar's own timetable: meetings placed, rule breaks, instructors' teaching days.
 */

const BUDGET_MS = 60_000;

const minutes = (t: string): number => Number(t.slice(0, 2)) * 60 + Number(t.slice(3));

/** Instructors' teaching days summed over instructors (a day counted once per instructor and part). */
function teachingDays(entries: readonly ScheduleEntry[]): number {
  const days = new Map<number, Set<string>>();
  for (const e of entries) for (const id of e.doctor_ids) for (const d of e.day) days.set(id, (days.get(id) ?? new Set()).add(`${e.part_of_term}|${d}`));
  return [...days.values()].reduce((sum, set) => sum + set.size, 0);
}

/** The write path's rules (conflicts.ts) on a whole term: clashes among its meetings, each pair once. */
async function ruleBreaks(server: ServeProcess, entries: readonly ScheduleEntry[], term: { year: number; semester: string }): Promise<number> {
  const parts = new Map((await call<PartOfTerm[]>(server, `scheduler/parts?year=${term.year}&semester=${term.semester}`)).map((p) => [p.code, p]));
  const doctors = new Map((await call<DoctorAvailability[]>(server, 'scheduler/doctors')).map((d) => [d.id, d]));
  const { travel_minutes } = await call<{ travel_minutes: number }>(server, 'scheduler/settings');
  const bookings: Booking[] = entries.map((e) => bookingOfEntry(e, parts, 1));
  return termClashes(bookings, [], doctors, { travelMinutes: travel_minutes }).size;
}

/** Two meetings of different sections meet together: the same part of term, a common day, overlapping minutes. */
function together(a: ScheduleEntry, b: ScheduleEntry): boolean {
  if (a.part_of_term !== b.part_of_term || ![...a.day].some((d) => b.day.includes(d))) return false;
  const start = (e: ScheduleEntry): number => minutes(e.start_time);
  return start(a) < start(b) + b.duration_mins && start(b) < start(a) + a.duration_mins;
}

/**
 * Joint groups the rebuild split: a pair of its sections' meetings that met together in the
 * registrar's timetable no longer does. A meeting is followed by its id (a rebuild moves meetings in
 * place, and may give one another day pattern of its shape: MTWR at 09:00 becoming TWRF at 11:00),
 * by its section, day pattern and length where its id is gone.
 */
function splitJointGroups(registrar: readonly ScheduleEntry[], rebuilt: readonly ScheduleEntry[]): string[] {
  const key = (e: ScheduleEntry): string => `${e.course_code}|${e.section_name}|${e.day}|${e.duration_mins}|${e.part_of_term}`;
  const byId = new Map(rebuilt.map((e) => [e.id, e]));
  const byKey = new Map<string, ScheduleEntry[]>();
  for (const e of rebuilt) byKey.set(key(e), [...(byKey.get(key(e)) ?? []), e]);
  const now = (e: ScheduleEntry): ScheduleEntry[] => {
    const same = byId.get(e.id);
    return same === undefined ? (byKey.get(key(e)) ?? []) : [same];
  };
  const split = new Set<string>();
  const grouped = registrar.filter((e) => e.joint_group !== null);
  for (const a of grouped)
    for (const b of grouped) {
      if (a.id >= b.id || a.joint_group !== b.joint_group || `${a.course_code}|${a.section_name}` === `${b.course_code}|${b.section_name}` || !together(a, b))
        continue;
      const nowA = now(a);
      const nowB = now(b);
      if (nowA.length > 0 && nowB.length > 0 && !nowA.some((x) => nowB.some((y) => together(x, y)))) split.add(a.joint_group as string);
    }
  return [...split];
}

async function call<T>(server: ServeProcess, path: string, init: { method?: string; json?: unknown } = {}): Promise<T> {
  const response = await fetch(new URL(path, server.url), {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

export async function benchAutofillReal(): Promise<void> {
  console.log(`Auto-fill rebuilding a real summer term (server in its own process, budget ${BUDGET_MS / 1000} s, seed 1)`);
  for (const name of ['2017-su', '2018-su']) {
    const path = realDataFile(`uiuc-timetable/${name}.csv`);
    if (path === null) return;
    const year = Number(name.slice(0, 4));
    await withServeProcess('termwise-bench-autofill-real-', async (server) => {
      await setSummerParts(server, year);
      await upload(server, `${name}.csv`, readFileSync(path), { dry_run: 'false' });
      const query = `scheduler/?year=${year}&semester=Summer`;
      const registrar = await call<ScheduleEntry[]>(server, query);
      const sections = new Set(registrar.map((e) => `${e.course_code}|${e.section_name}`)).size;
      const joint = new Set(registrar.flatMap((e) => (e.joint_group === null ? [] : [e.joint_group]))).size;
      const parts = new Set(registrar.map((e) => e.part_of_term)).size;
      const memoryBefore = server.peakMemoryMb();
      const run = await timed(() =>
        call<TermAutofillResult>(server, 'scheduler/auto', {
          method: 'POST',
          json: { source: 'term', rebuild: true, seed: 1, year, semester: 'Summer', time_budget_ms: BUDGET_MS, dry_run: false },
        }),
      );
      const rebuilt = await call<ScheduleEntry[]>(server, query);
      const placed = registrar.length - run.result.unplaced.length;
      const note = `${registrar.length} meetings of ${sections} sections, ${parts} parts of term, ${joint} joint groups`;
      record({
        name: `${name} rebuilt: meetings placed`,
        value: (100 * placed) / registrar.length,
        unit: '%',
        target: 100,
        note: `${placed} of ${registrar.length}; ${note}`,
      });
      const term = { year, semester: 'Summer' };
      record({
        name: `${name} rebuilt: hard rule breaks (the write path's checks)`,
        value: await ruleBreaks(server, rebuilt, term),
        unit: '',
        target: 0,
        note: `registrar's own timetable as imported: ${await ruleBreaks(server, registrar, term)}`,
      });
      record({
        name: `${name} rebuilt: time`,
        value: run.ms / 1000,
        unit: 's',
        target: 60,
        note: `${run.result.moves.toLocaleString('en-US')} moves; peak server memory ${server.peakMemoryMb()?.toFixed(0) ?? '?'} MB (${memoryBefore?.toFixed(0) ?? '?'} MB before)`,
      });
      record({
        name: `${name} rebuilt: instructors' teaching days`,
        value: teachingDays(rebuilt),
        unit: 'days',
        target: teachingDays(registrar),
        note: `registrar's: ${teachingDays(registrar)}; rooms kept (the listing gives no seats)`,
      });
      const split = splitJointGroups(registrar, rebuilt);
      record({
        name: `${name} rebuilt: joint groups no longer meeting together`,
        value: split.length,
        unit: '',
        target: 0,
        note: `of ${joint}${split.length > 0 ? `: ${split.slice(0, 5).join(', ')}${split.length > 5 ? ', …' : ''}` : ''}`,
      });
      const reasons = new Map<string, number>();
      for (const u of run.result.unplaced) {
        const kind = u.reason.replace(/\d+/g, 'N');
        reasons.set(kind, (reasons.get(kind) ?? 0) + 1);
      }
      for (const [kind, n] of reasons) console.log(`      not placed ×${n}: ${kind}`);
    });
  }
}
