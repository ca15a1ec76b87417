import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore, type Core } from '../../core/index';
import { openStore } from '../../core/db/store';
import { refreshStatistics } from '../../core/db/versions';
import { DATA_TABLES } from '../../core/db/tables';
import { formatHHMM, parseHHMM } from '../../core/domain/time';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { createDatabase, createTemplateDatabase, startThrowawayPostgres, type PostgresServer } from '../helpers/postgres';
import type { ReadJob } from './http-read-client';
import { percentile, record, timed } from './report';
import { runClient, runWriters } from './clients';

/**
 * Issue 37: a campus on one PostgreSQL database behind two server processes — 20 departments of
 * 300 sections each in a shared pool of 500 rooms, every department with its own 25 instructors.
 * Twenty writers (one per department, each on a connection of its own, half on each server) book sections in the
 * shared rooms at once; the registrar reads the campus week of the whole pool from another process.
 */
const DEPARTMENTS = 20;
const SECTIONS = 300;
const ROOMS = 500;
const INSTRUCTORS = 25;
const TERM = { year: 2031, semester: 'Fall' } as const;
const TOKEN = 'bench-campus-token-0123456789abcdef0123456789';

const code = (d: number): string => `D${String(d + 1).padStart(2, '0')}`;
const room = (i: number): string => `Campus Room ${i}`;
/** A department's course prefix: letters, as course codes have. */
const prefix = (d: number): string => `D${String.fromCharCode(65 + d)}X`;

/**
 * A department's term: 300 sections in its 25 rooms of the pool, 12 slots each (MW or TR, 08:00 to
 * 15:30), each of its 25 instructors teaching one section a slot: nothing clashes.
 */
function departmentListing(d: number): string {
  const lines = ['Course,Section,Days,Start Time,Duration,Room,Instructor,Term'];
  for (let s = 0; s < SECTIONS; s++) {
    const slot = Math.floor(s / 25);
    const days = slot % 2 === 0 ? 'MW' : 'TR';
    const start = 8 * 60 + Math.floor(slot / 2) * 90;
    lines.push(
      [
        `${prefix(d)}${100 + (s % 100)}`,
        String(Math.floor(s / 100) + 1),
        days,
        formatHHMM(start),
        '75',
        room(d * 25 + (s % 25)),
        `Dr. ${code(d)} ${s % INSTRUCTORS}`,
        `${TERM.semester} ${TERM.year}`,
      ].join(','),
    );
  }
  return lines.join('\n');
}

const inDepartment = (d: number) => ({ caller: 'script' as const, department: code(d) });

async function seed(core: Core): Promise<number[][]> {
  for (let d = 0; d < DEPARTMENTS; d++) await core.run('departments-create', { code: code(d), name: `Department ${d + 1}` });
  const rooms = ['name,capacity,campus', ...Array.from({ length: ROOMS }, (_, i) => `${room(i)},60,Beirut`)].join('\n');
  await core.run('rooms-upload', { file: { filename: 'rooms.csv', content: new TextEncoder().encode(rooms) } });
  const instructors: number[][] = [];
  for (let d = 0; d < DEPARTMENTS; d++) {
    const file = { filename: 'term.csv', content: new TextEncoder().encode(departmentListing(d)) };
    const imported = (await core.runUnchecked('schedule-import', { file, ...TERM, dry_run: false, conflicts: 'skip' }, inDepartment(d))) as {
      meetings: number;
    };
    if (imported.meetings !== SECTIONS) throw new Error(`${code(d)}: ${imported.meetings} of ${SECTIONS} sections imported`);
    const doctors = (await core.runUnchecked('doctors-list', {}, inDepartment(d))) as { id: number }[];
    instructors.push(doctors.map((doctor) => doctor.id));
  }
  return instructors;
}

/**
 * Writer d books 50 new sections in the evening (from 17:00, when the seeded terms are over; each
 * round later than the last) in 200 rooms of the pool, with its department's instructors: writers
 * often want one room at one time.
 */
function bookings(d: number, instructors: readonly number[], round: number): unknown[] {
  return Array.from({ length: 50 }, (_, j) => {
    const slot = j % 6;
    return {
      ...TERM,
      course_code: `${prefix(d)}${500 + j}`,
      section_name: String(round + 1),
      day: slot % 2 === 0 ? 'MW' : 'TR',
      start_time: formatHHMM(17 * 60 + Math.floor(slot / 2) * 65 + round * 200),
      duration_mins: 60,
      room: room((d * 37 + j * 11) % 200),
      doctor_id: instructors[j % instructors.length] ?? 0,
    };
  });
}

interface Interval {
  key: string;
  day: string;
  start: number;
  end: number;
}

/** How many intervals overlap one of the same key on a day they share (each day letter apart). */
function overlapping(intervals: readonly Interval[]): number {
  const byKeyAndDay = new Map<string, Interval[]>();
  for (const interval of intervals)
    for (const day of interval.day) {
      const key = `${interval.key} ${day}`;
      byKeyAndDay.set(key, [...(byKeyAndDay.get(key) ?? []), interval]);
    }
  let count = 0;
  for (const list of byKeyAndDay.values()) {
    list.sort((a, b) => a.start - b.start);
    let latestEnd = -1;
    for (const interval of list) {
      if (interval.start < latestEnd) count++;
      latestEnd = Math.max(latestEnd, interval.end);
    }
  }
  return count;
}

export async function benchCampus(): Promise<void> {
  console.log(
    `A campus: ${DEPARTMENTS} departments × ${SECTIONS} sections, ${ROOMS} shared rooms, one PostgreSQL database behind two server processes (clients in a process of their own)`,
  );
  const given = process.env.TERMWISE_BENCH_DATABASE_URL;
  let postgres: PostgresServer | null = null;
  let adminUrl = given;
  if (!adminUrl) {
    postgres = await startThrowawayPostgres();
    adminUrl = postgres.adminUrl;
    console.log(`  PostgreSQL ${postgres.version}, throwaway server (fsync off: durability is not what is measured)`);
  }
  const dirs = [mkdtempSync(join(tmpdir(), 'termwise-bench-campus-a-')), mkdtempSync(join(tmpdir(), 'termwise-bench-campus-b-'))] as const;
  try {
    const template = await createTemplateDatabase(adminUrl, async (url) =>
      (await openStore({ kind: 'postgres', url }, { migrate: true, poolSize: 1 })).close(),
    );
    const database = await createDatabase(adminUrl, template, 'termwise_bench_campus');
    try {
      const seeding = await createCore({ dataDir: dirs[0], databaseUrl: database.url });
      const seeded = await timed(() => seed(seeding));
      await refreshStatistics(seeding.context.db, DATA_TABLES);
      await seeding.close();
      console.log(`  seeded ${DEPARTMENTS * SECTIONS} meetings in ${(seeded.ms / 1000).toFixed(1)} s`);
      const servers = await Promise.all(dirs.map((dir) => startServeProcess(dir, { TERMWISE_API_TOKEN: TOKEN, TERMWISE_DATABASE_URL: database.url })));
      try {
        const campusPath = `/scheduler/campus?year=${TERM.year}&semester=${TERM.semester}`;
        const week =
          runClient<Record<string, number[]>>(
            'http-read-client',
            { url: (servers[0] as ServeProcess).url, token: TOKEN, paths: [campusPath], warmup: 5, repeats: 40 } satisfies ReadJob,
            dirs[0],
          )[campusPath] ?? [];
        const answer = (await (
          await fetch(new URL(campusPath.slice(1), (servers[1] as ServeProcess).url), { headers: { authorization: `Bearer ${TOKEN}` } })
        ).json()) as { rooms: unknown[]; bookings: unknown[] };
        record({
          name: `campus week of the whole pool (${answer.rooms.length} rooms, ${answer.bookings.length} meetings of ${DEPARTMENTS} departments), GET over HTTP: median`,
          value: percentile(week, 50),
          unit: 'ms',
        });
        record({
          name: 'campus week of the whole pool: p99',
          value: percentile(week, 99),
          unit: 'ms',
          target: 300,
          note: '40 reads after 5 warm-up, one client process, nothing else running',
        });

        // Twenty schedulers at a person's pace (a booking every 500 ms each), then flat out.
        for (const [pace, intervalMs] of [
          ['a booking every 500 ms each', 500],
          ['flat out, one after another', undefined],
        ] as const) {
          const round = intervalMs === undefined ? 1 : 0;
          const { writers, seconds } = await runWriters(
            Array.from({ length: DEPARTMENTS }, (_, d) => ({
              url: (servers[d % 2] as ServeProcess).url,
              token: TOKEN,
              headers: { 'x-termwise-department': code(d) },
              bodies: bookings(d, seeded.result[d] ?? [], round),
              // The round's first five, booked and deleted again before it starts.
              warmup: bookings(d, seeded.result[d] ?? [], round).slice(0, 5),
              // Paced writers are spread over the interval, as people's clicks are.
              offsetMs: intervalMs === undefined ? 0 : Math.round((d * intervalMs) / DEPARTMENTS),
              ...(intervalMs === undefined ? {} : { intervalMs }),
            })),
            dirs[0],
          );
          const answers = writers.flat();
          const stored = answers.filter((a) => a.status === 200).length;
          const refused = answers.filter((a) => a.status === 400).length;
          const latencies = answers.map((a) => a.ms);
          const what = `${DEPARTMENTS} departments writing at once over two server processes, ${pace}`;
          record({
            name: `${what}: 5xx answers`,
            value: answers.filter((a) => a.status >= 500).length,
            unit: '',
            target: 0,
            note: `${answers.length} bookings in ${seconds.toFixed(1)} s: ${stored} stored, ${refused} refused in words (the room taken by another department)`,
          });
          record({ name: `${what}: conflict-checked booking over HTTP, median`, value: percentile(latencies, 50), unit: 'ms' });
          const split = (status: number): string => {
            const of = answers.filter((a) => a.status === status).map((a) => a.ms);
            return `median ${percentile(of, 50).toFixed(1)}, p99 ${percentile(of, 99).toFixed(1)} ms`;
          };
          record({
            name: `${what}: conflict-checked booking over HTTP, p99`,
            value: percentile(latencies, 99),
            unit: 'ms',
            ...(intervalMs === undefined ? {} : { target: 15 }),
            note: `stored: ${split(200)}; refused: ${split(400)}`,
          });
        }

        // No room, and no instructor, is booked twice at overlapping times, across every department.
        const all = (await (
          await fetch(new URL(campusPath.slice(1), (servers[0] as ServeProcess).url), { headers: { authorization: `Bearer ${TOKEN}` } })
        ).json()) as { bookings: { room: string; day: string; start_time: string; end_time: string }[] };
        const roomDoubles = overlapping(
          all.bookings.map((b) => ({ key: b.room, day: b.day, start: parseHHMM(b.start_time) ?? 0, end: parseHHMM(b.end_time) ?? 0 })),
        );
        const taught: Interval[] = [];
        for (let d = 0; d < DEPARTMENTS; d++) {
          const entries = (await (
            await fetch(new URL(`scheduler/?year=${TERM.year}&semester=${TERM.semester}`, (servers[0] as ServeProcess).url), {
              headers: { authorization: `Bearer ${TOKEN}`, 'x-termwise-department': code(d) },
            })
          ).json()) as { day: string; start_time: string; duration_mins: number; doctor_ids: number[] }[];
          for (const e of entries)
            for (const id of e.doctor_ids)
              taught.push({ key: String(id), day: e.day, start: parseHHMM(e.start_time) ?? 0, end: (parseHHMM(e.start_time) ?? 0) + e.duration_mins });
        }
        const doubles = roomDoubles + overlapping(taught);
        record({
          name: 'rooms or instructors booked at overlapping times, across departments',
          value: doubles,
          unit: '',
          target: 0,
          note: `${roomDoubles} rooms, ${doubles - roomDoubles} instructors`,
        });
      } finally {
        for (const server of servers) server.stop();
        await Promise.all(servers.map((s) => s.exited));
      }
    } finally {
      await database.drop();
    }
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await postgres?.stop();
  }
}
