import { spawn } from 'node:child_process';
import { distinctMeetsWith, oneRoomOneSlot, plainListing, repeatedRowsManyInstructors } from '../fixtures/hostile-listings';
import { withServeProcess, type ServeProcess } from '../helpers/serve-process';
import { sampleFile } from '../helpers/server';
import { percentile, record, timed } from './report';

const withServer = <T>(work: (server: ServeProcess) => Promise<T>): Promise<T> => withServeProcess('termwise-bench-reliability-', work);

async function upload(
  server: ServeProcess,
  path: string,
  filename: string,
  content: string | Uint8Array,
  fields: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([typeof content === 'string' ? content : Buffer.from(content)]), filename);
  const response = await fetch(new URL(path.slice(1), server.url), { method: 'POST', headers: { authorization: `Bearer ${server.token}` }, body: form });
  return { status: response.status, text: await response.text() };
}

/** Runs `work` while a monitoring script in another process polls GET /health; answers its latencies too. */
async function whileProbing<T>(server: ServeProcess, work: () => Promise<T>): Promise<{ result: T; health: number[] }> {
  const probe = spawn(process.execPath, ['--import', 'tsx', 'test/bench/health-probe.ts', server.url], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  probe.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => probe.on('exit', () => resolve()));
  await new Promise((resolve) => setTimeout(resolve, 1_500)); // the probe is up and polling
  const result = await work();
  probe.stdin.end();
  await exited;
  return { result, health: JSON.parse(output || '[]') as number[] };
}

/** Issue 26: nothing a file or a second caller does stalls or breaks the server. */
export async function benchReliability(): Promise<void> {
  console.log('Reliability (npm run serve in its own process; /health polled every 10 ms by a script in a third process)');
  await withServer(async (server) => {
    const listing = plainListing(20_000);
    const { result, health } = await whileProbing(server, () =>
      timed(() => upload(server, '/scheduler/import', 'big.csv', listing, { year: '2030', semester: 'Fall', dry_run: 'false' })),
    );
    const answer = JSON.parse(result.result.text) as { meetings?: number };
    record({
      name: 'import 20,000 rows (own room and instructor each), applied',
      value: result.ms / 1000,
      unit: 's',
      target: 5,
      note: `HTTP ${result.result.status}, ${answer.meetings ?? 0} meetings stored, ${(listing.length / 1e6).toFixed(1)} MB`,
    });
    record({
      name: 'GET /health while it imports: p99',
      value: percentile(health, 99),
      unit: 'ms',
      target: 50,
      note: `median ${percentile(health, 50).toFixed(1)} ms over ${health.length} requests`,
    });
  });

  const hostile: [string, string, Record<string, string>, number][] = [
    ['4,000 sections in one room and slot', oneRoomOneSlot(4_000), {}, 2],
    ['2,000 sections each "meeting with" another group, conflicts=flag', distinctMeetsWith(2_000), { conflicts: 'flag' }, 10],
    ['4,000 sections each "meeting with" another group, conflicts=flag', distinctMeetsWith(4_000), { conflicts: 'flag' }, 2],
    ['one meeting on 16,000 rows, another instructor each', repeatedRowsManyInstructors(16_000), {}, 10],
  ];
  await withServer(async (server) => {
    for (const [name, csv, fields, target] of hostile) {
      const run = await timed(() => upload(server, '/scheduler/import', 'hostile.csv', csv, { year: '2030', semester: 'Fall', ...fields }));
      record({
        name: `import ${name}`,
        value: run.ms / 1000,
        unit: 's',
        target: run.result.status === 413 ? 2 : target,
        note: `HTTP ${run.result.status}, ${(run.result.text.length / 1e3).toFixed(0)} kB answer`,
      });
    }
    const peak = server.peakMemoryMb();
    if (peak !== null) record({ name: 'server peak memory through the hostile listings', value: peak, unit: 'MB', target: 500 });
  });

  await withServer(async (server) => {
    for (const [path, file] of [
      ['/data/upload/courses', 'courses.json'],
      ['/data/upload/offerings', 'offerings.csv'],
    ] as const)
      await upload(server, path, file, sampleFile(file));
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => fetch(new URL('predict/train', server.url), { method: 'POST', headers: { authorization: `Bearer ${server.token}` } })),
    );
    const failed = answers.filter((a) => a.status >= 500).length;
    const versions = new Set(await Promise.all(answers.map(async (a) => ((await a.json()) as { model_version?: string }).model_version)));
    record({
      name: '10 trainings asked for at once: answers 5xx',
      value: failed,
      unit: 'answers',
      target: 0,
      note: `${versions.size} model version(s) among the answers`,
    });
  });

  await withServer(async (server) => {
    const n = 1_200;
    const courses = Array.from({ length: n }, (_, i) => ({
      code: `BIG${1000 + i}`,
      name: `Course ${i}`,
      type: 'core',
      study_plan: 'Big Program — Year 1, Fall',
    }));
    await upload(server, '/data/upload/courses', 'big.json', JSON.stringify(courses));
    const lines = ['Course,Section,Days,Start Time,End Time,Room', ...courses.map((c, i) => `${c.code},A,MWF,09:00,10:00,Room ${i}`)];
    await upload(server, '/scheduler/import', 'big.csv', lines.join('\n'), { year: '2030', semester: 'Fall', dry_run: 'false' });
    const read = (): Promise<{ ms: number; result: string }> =>
      timed(async () =>
        (await fetch(new URL('scheduler/?year=2030&semester=Fall', server.url), { headers: { authorization: `Bearer ${server.token}` } })).text(),
      );
    const first = await read();
    const again: number[] = [];
    for (let k = 0; k < 10; k++) again.push((await read()).ms);
    record({
      name: `GET /scheduler/ of a term with a ${n.toLocaleString('en')}-course study plan in one slot, first read`,
      value: first.ms / 1000,
      unit: 's',
      target: 1,
      note: `${(first.result.length / 1e6).toFixed(1)} MB answer, ${((n * (n - 1)) / 2).toLocaleString('en')} conflicting pairs`,
    });
    record({
      name: 'the same, read again (kept until a write)',
      value: percentile(again, 50) / 1000,
      unit: 's',
      target: 1,
      note: `p99 ${(percentile(again, 99) / 1000).toFixed(3)} s`,
    });
    const peak = server.peakMemoryMb();
    if (peak !== null) record({ name: 'server peak memory with that term', value: peak, unit: 'MB' });
  });
}
