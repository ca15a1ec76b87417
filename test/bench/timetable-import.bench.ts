import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import { withServeProcess, type ServeProcess } from '../helpers/serve-process';
import { realDataFile } from '../helpers/real-data';
import { record, timed } from './report';
import type { TimetableImportResult } from '../../core/timetable-import/service';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export async function upload(
  server: ServeProcess,
  filename: string,
  content: string | Uint8Array,
  fields: Record<string, string>,
): Promise<TimetableImportResult> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([typeof content === 'string' ? content : Buffer.from(content)]), filename);
  const response = await fetch(new URL('scheduler/import', server.url), { method: 'POST', headers: { authorization: `Bearer ${server.token}` }, body: form });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`import answered ${response.status}: ${text}`);
  return JSON.parse(text) as TimetableImportResult;
}

const withServer = <T>(work: (server: ServeProcess) => Promise<T>): Promise<T> => withServeProcess('termwise-bench-timetable-import-', work);

/** Summer I (4 weeks), Summer II (8 weeks) and its halves, as staff would enter them before importing. */
export async function setSummerParts(server: ServeProcess, year: number): Promise<void> {
  const parts = [
    ['S1', `${year}-05-15`, `${year}-06-09`],
    ['S2', `${year}-06-12`, `${year}-08-04`],
    ['S2A', `${year}-06-12`, `${year}-07-07`],
    ['S2B', `${year}-07-10`, `${year}-08-04`],
  ];
  for (const [code, start_date, end_date] of parts) {
    await fetch(new URL('scheduler/parts', server.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ year, semester: 'Summer', code, name: `Summer ${code}`, start_date, end_date }),
    });
  }
}

/** Issue 12: importing the real registrar timetables, and a 20,000-row listing made from them. */
export async function benchTimetableImport(): Promise<void> {
  console.log('Timetable import (server in its own process, npm run serve)');
  const files = ['2017-su', '2018-su'].map((name) => ({ name, path: realDataFile(`uiuc-timetable/${name}.csv`) }));
  if (files.some((f) => f.path === null)) return;
  for (const { name, path } of files) {
    const content = readFileSync(path as string);
    const year = Number(name.slice(0, 4));
    const plain = await withServer(async (server) => timed(() => upload(server, `${name}.csv`, content, { dry_run: 'false' })));
    const timedRows = plain.result.meetings + plain.result.conflicts.length;
    const share = (r: TimetableImportResult): string => `${((100 * r.meetings) / (r.meetings + r.conflicts.length)).toFixed(1)} %`;
    record({
      name: `import ${name} (${plain.result.processed.toLocaleString('en')} rows), applied`,
      value: plain.ms / 1000,
      unit: 's',
      target: 1,
      note: `${timedRows} timed meetings: ${plain.result.meetings} stored (${share(plain.result)}), ${plain.result.conflicts.length} conflicts left, ${plain.result.joint_groups.length} joint groups, ${plain.result.roles.length} coordinators; parts of term without dates`,
    });
    const dated = await withServer(async (server) => {
      await setSummerParts(server, year);
      return upload(server, `${name}.csv`, content, { dry_run: 'false' });
    });
    record({
      name: `${name}: timed meetings stored without conflict, summer session dates set first`,
      value: (100 * dated.meetings) / (dated.meetings + dated.conflicts.length),
      unit: '%',
      note: `goal ≥ 95 %; ${dated.conflicts.length} conflicts left, ${dated.joint_groups.length} joint groups`,
    });
  }

  // 20,000 rows: the 2017 listing thirteen times over, each copy with its own subjects, rooms and instructors.
  const parsed = Papa.parse<Record<string, string>>(readFileSync(files[0]?.path as string, 'utf8'), { header: true, skipEmptyLines: true });
  const rows: Record<string, string>[] = [];
  for (let copy = 0; rows.length < 20_000; copy++) {
    const tag = LETTERS.charAt(copy);
    for (const row of parsed.data) {
      if (rows.length >= 20_000) break;
      rows.push({
        ...row,
        Subject: `${row.Subject ?? ''}${tag}`,
        Building: row.Building ? `${row.Building} ${tag}` : '',
        Instructors: (row.Instructors ?? '')
          .split(';')
          .filter(Boolean)
          .map((n) => `${n} ${tag}`)
          .join(';'),
      });
    }
  }
  const big = Papa.unparse(rows);
  const large = await withServer(async (server) => timed(() => upload(server, 'big.csv', big, { dry_run: 'false' })));
  record({
    name: 'import a 20,000-row listing, applied',
    value: large.ms / 1000,
    unit: 's',
    target: 5,
    note: `${large.result.meetings.toLocaleString('en')} meetings stored, ${large.result.conflicts.length} conflicts, ${(big.length / 1e6).toFixed(1)} MB`,
  });
}
