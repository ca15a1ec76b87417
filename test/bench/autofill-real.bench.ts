import { readFileSync } from 'node:fs';
import { withServeProcess, type ServeProcess } from '../helpers/serve-process';
import { realDataFile } from '../helpers/real-data';
import { record, timed } from './report';
import { setSummerParts, upload } from './timetable-import.bench';
import type { ScheduleEntry } from '../../core/schedule/schema';
import type { TermAutofillResult } from '../../core/autofill/service';

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

/** Pairs of meetings sharing a room or an instructor at an overlapping time in the same part (joint partners and sections' own aside). */
function overlapsSharing(entries: readonly ScheduleEntry[]): number {
  let count = 0;
  for (const [i, a] of entries.entries())
    for (const b of entries.slice(i + 1)) {
      if (a.part_of_term !== b.part_of_term || (a.joint_group !== null && a.joint_group === b.joint_group)) continue;
      if (a.course_code === b.course_code && a.section_name === b.section_name) continue;
      if (![...a.day].some((d) => b.day.includes(d)) || minutes(a.start_time) >= minutes(b.start_time) + b.duration_mins || minutes(b.start_time) >= minutes(a.start_time) + a.duration_mins) continue;
      const room = a.room !== 'TBD' && a.room.toLowerCase() === b.room.toLowerCase();
      const teacher = a.doctor_ids.some((id) => b.doctor_ids.includes(id));
      if (room || teacher) count++;
    }
  return count;
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
      const run = await timed(() => call<TermAutofillResult>(server, 'scheduler/auto', { method: 'POST', json: { source: 'term', rebuild: true, seed: 1, year, semester: 'Summer', time_budget_ms: BUDGET_MS, dry_run: false } }));
      const rebuilt = await call<ScheduleEntry[]>(server, query);
      const placed = registrar.length - run.result.unplaced.length;
      const note = `${registrar.length} meetings of ${sections} sections, ${parts} parts of term, ${joint} joint groups`;
      record({ name: `${name} rebuilt: meetings placed`, value: (100 * placed) / registrar.length, unit: '%', target: 100, note: `${placed} of ${registrar.length}; ${note}` });
      record({ name: `${name} rebuilt: rule breaks (room or instructor overlaps)`, value: overlapsSharing(rebuilt), unit: '', target: 0, note: `registrar's own timetable: ${overlapsSharing(registrar)}` });
      record({ name: `${name} rebuilt: time`, value: run.ms / 1000, unit: 's', target: 60, note: `${run.result.moves.toLocaleString('en-US')} moves; peak server memory ${server.peakMemoryMb()?.toFixed(0) ?? '?'} MB (${memoryBefore?.toFixed(0) ?? '?'} MB before)` });
      record({ name: `${name} rebuilt: instructors' teaching days`, value: teachingDays(rebuilt), unit: 'days', target: teachingDays(registrar), note: `registrar's: ${teachingDays(registrar)}; rooms kept (the listing gives no seats)` });
      const reasons = new Map<string, number>();
      for (const u of run.result.unplaced) {
        const kind = u.reason.replace(/:.*$/, '').replace(/\d+/g, 'N');
        reasons.set(kind, (reasons.get(kind) ?? 0) + 1);
      }
      for (const [kind, n] of reasons) console.log(`      not placed ×${n}: ${kind}`);
    });
  }
}
