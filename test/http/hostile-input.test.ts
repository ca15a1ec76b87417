import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertRun } from '../../core/predict/runs-repo';
import { json, loadSample, startTestServer, type TestServer } from '../helpers/server';
import { saveRun } from '../helpers/runs';
import { tablesMark } from '../helpers/table-hashes';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

const detail = async (response: Response): Promise<string> => (await json<{ detail: string }>(response)).detail;

describe('backups built to break the restore', () => {
  let work: string;
  let good: Buffer;
  beforeEach(async () => {
    await loadSample(server);
    await saveRun(server.core.context.db, 'Beirut', [{ code: 'CSC201', enrollment: 40, sections: 1 }]);
    good = Buffer.from(await (await server.api('/data/backup')).arrayBuffer());
    work = mkdtempSync(join(tmpdir(), 'termwise-bad-backup-'));
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  /** The good backup, changed by `tamper` through a plain SQLite connection. */
  const tampered = (tamper: (db: Database.Database) => void): Buffer => {
    const file = join(work, `${Math.random()}.db`);
    writeFileSync(file, good);
    const db = new Database(file);
    tamper(db);
    db.close();
    return readFileSync(file);
  };

  const cases: [string, (db: Database.Database) => void, RegExp][] = [
    [
      'a recursive view',
      (db) => db.exec('CREATE VIEW forever AS WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT x FROM r'),
      /contains a view \("forever"\)/,
    ],
    ['a trigger', (db) => db.exec('CREATE TRIGGER t AFTER INSERT ON courses BEGIN DELETE FROM doctors; END'), /contains a trigger/],
    ['a missing table', (db) => db.exec('DROP TABLE rooms'), /does not have Termwise's tables exactly/],
    ['an extra column', (db) => db.exec('ALTER TABLE courses ADD COLUMN evil TEXT'), /does not have Termwise's tables exactly/],
    ['an extra table', (db) => db.exec('CREATE TABLE extra (x)'), /does not have Termwise's tables exactly/],
    [
      'a broken foreign key',
      (db) => db.exec('PRAGMA foreign_keys = OFF; UPDATE prediction_entries SET run_id = 9999'),
      /refers to rows that are not in it \(table prediction_entries\)|breaks a rule/,
    ],
    [
      'a CHECK violation',
      (db) => db.exec('PRAGMA ignore_check_constraints = ON; UPDATE offerings SET total_enrolled = -5 WHERE rowid = 1'),
      /breaks a rule of Termwise's data/,
    ],
    [
      'a list column that is not JSON',
      (db) => db.exec("UPDATE department_doctors SET allowed_courses = '{not json' WHERE rowid = (SELECT MIN(rowid) FROM department_doctors)"),
      /department_doctors\.allowed_courses of row \d+ is not a list/,
    ],
    [
      'a damaged model',
      (db) =>
        db.exec(
          "INSERT INTO models (department_id, campus, model_version, trained_at, samples, positives, roc_auc, f1, threshold, features, duration_ms, classifier, regressor) VALUES (1, 'Beirut', 'xgb-evil', '2025-01-01', 1, 1, 0.5, 0.5, 0.5, '[]', 1, X'0102030405', NULL)",
        ),
      /damaged trained model \(Beirut xgb-evil\)/,
    ],
    ['a different migration history', (db) => db.exec("UPDATE schema_migrations SET checksum = 'x' WHERE version = 1"), /different version of Termwise/],
    [
      'text in a number column',
      (db) => db.exec("UPDATE offerings SET total_enrolled = 'many' WHERE rowid = 1"),
      /offerings\.total_enrolled of row 1 holds text where a whole number belongs/,
    ],
    [
      'a count no course has',
      (db) => db.exec('UPDATE offerings SET total_enrolled = 5000000 WHERE rowid = 1'),
      /offerings\.total_enrolled of row 1 is not a count of students/,
    ],
    [
      'a part of term on a date that does not exist',
      (db) =>
        db.exec(
          "INSERT INTO term_parts (department_id, year, semester, code, name, start_date, end_date) VALUES (1, 2025, 'Summer', 'S1', 'x', '2025-02-30', '2025-03-30')",
        ),
      /term_parts\.start_date of row \d+ is not a date YYYY-MM-DD/,
    ],
    [
      'a confidence above 1',
      (db) => db.exec('UPDATE prediction_entries SET confidence = 7'),
      /prediction_entries\.confidence of row \d+ is not a share \(0–1\)/,
    ],
    [
      'a meeting time that is not a time',
      (db) =>
        db.exec(
          "INSERT INTO schedule_entries (department_id, year, semester, course_code, section_name, day, start_time, start_min, duration_mins, room, created_at) VALUES (1, 2025, 'Fall', 'CSC201', '1', 'MW', 'noon', 720, 60, 'TBD', '2025-01-01')",
        ),
      /schedule_entries\.start_time of row \d+ is not a time HH:MM/,
    ],
  ];

  for (const [name, tamper, expected] of cases) {
    it(`refuses a backup with ${name}, quickly, changing nothing`, async () => {
      const before = await tablesMark(server.core.context.db);
      const started = performance.now();
      const response = await server.upload('/data/restore', 'evil.db', tampered(tamper));
      expect(response.status).toBe(400);
      const said = await detail(response);
      expect(said, said).toMatch(expected);
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(await tablesMark(server.core.context.db)).toEqual(before);
    }, 20_000);
  }

  it('trains and plans after refusing a backup with text in a number column (no stored value it cannot read)', async () => {
    const refused = await server.upload(
      '/data/restore',
      'evil.db',
      tampered((db) => db.exec("UPDATE offerings SET total_enrolled = 'many'")),
    );
    expect(refused.status).toBe(400);
    expect((await server.api('/predict/train', { method: 'POST' })).status).toBe(200);
    const run = await server.api('/predict/bulk', {
      method: 'POST',
      json: { run_name: 'after', target_year: 2025, target_semester: 'Fall', target_campus: 'Beirut' },
    });
    expect(run.status).toBe(200);
  }, 30_000);

  it('still restores a good backup after refusing a bad one', async () => {
    await server.upload(
      '/data/restore',
      'evil.db',
      tampered((db) => db.exec('DROP TABLE rooms')),
    );
    const response = await server.upload('/data/restore', 'good.db', good);
    expect(response.status).toBe(200);
  });
});

describe('request bodies a fuzzer found 500s with', () => {
  const deep = (n: number): string => `${'['.repeat(n)}${']'.repeat(n)}`;

  it('refuses JSON nested 100,000 deep in a body, a courses file and an import preview', async () => {
    const body = await server.api('/predict/bulk', { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"run_name": ${deep(100_000)}}` });
    expect(body.status).toBe(400);
    expect(await detail(body)).toMatch(/nested more than 64 levels/);
    const upload = await server.upload('/data/upload/courses', 'c.json', deep(100_000));
    expect(upload.status).toBe(400);
    const preview = await server.upload('/data/preview', 'c.json', deep(100_000), { kind: 'courses' });
    expect(preview.status).toBe(400);
  });

  it('answers 400 for multipart without a boundary, with the wrong one, or cut short', async () => {
    const post = (contentType: string, body: string): Promise<Response> =>
      server.api('/data/upload/rooms', { method: 'POST', headers: { 'content-type': contentType }, body });
    const part = '--b\r\nContent-Disposition: form-data; name="file"; filename="r.csv"\r\nContent-Type: text/csv\r\n\r\nroom,seats\nA,10\n';
    for (const [contentType, body] of [
      ['multipart/form-data', part],
      ['multipart/form-data; boundary=other', `${part}--b--\r\n`],
      ['multipart/form-data; boundary=b', part],
      ['multipart/form-data; boundary=b', '--b\r\nContent-Disposition: form-da'],
    ] as const) {
      const response = await post(contentType, body);
      expect(response.status, `${contentType}: ${body.slice(0, 30)}`).toBe(400);
      expect(await detail(response)).toMatch(/multipart|No file uploaded/);
    }
    expect(await json(await server.api('/scheduler/rooms'))).toEqual([]);
  });

  it('skips offerings rows with counts that are not plausible (1e308 would sum to Infinity)', async () => {
    const response = await server.upload(
      '/data/upload/offerings',
      'o.csv',
      'course_code,year,semester,campus,total_enrolled\nCSC201,2024,Fall,Beirut,1e308\nCSC201,2024,Fall,Beirut,1e308\nCSC201,2024,Fall,Beirut,100001\n',
    );
    expect(response.status).toBe(400);
    expect((await json<{ detail: string }>(response)).detail).toMatch(
      /^Nothing was imported: all 3 rows were skipped for the same reason \(row 2: total count is not a whole number from 0 to 100,000\)$/,
    );
    expect(await json(await server.api('/data/offerings'))).toEqual([]);
  });

  it('refuses 500,000-character section, room, course and doctor names (422), as a file cell would be bounded', async () => {
    const long = 'x'.repeat(500_000);
    const entry = { course_code: 'CSC201', section_name: '1', day: 'MW', start_time: '09:00', duration_mins: 60, room: 'R1' };
    for (const [path, body, field] of [
      ['/scheduler/', { ...entry, section_name: long }, 'section_name'],
      ['/scheduler/', { ...entry, room: long }, 'room'],
      ['/scheduler/', { ...entry, course_code: long }, 'course_code'],
      ['/scheduler/doctors', { name: long }, 'name'],
      ['/scheduler/rooms', { name: long, capacity: 10 }, 'name'],
    ] as const) {
      const response = await server.api(path, { method: 'POST', json: body });
      expect(response.status, `${path} ${field}`).toBe(422);
      const said = await detail(response);
      expect(said).toMatch(new RegExp(`${field}\\)?: must be at most [\\d,]+ characters`));
      expect(said.length).toBeLessThan(1_000);
    }
    expect(await json(await server.api('/scheduler/'))).toEqual([]);
  });

  it('refuses a NUL character in a name in words (422), and drops it from a file cell, never a 500', async () => {
    const nul = await server.api('/scheduler/doctors', { method: 'POST', json: { name: 'Dr. \u0000Nul', allowed_courses: [] } });
    expect(nul.status).toBe(422);
    expect(await detail(nul)).toMatch(/name\)?: must not contain a NUL character/);
    const entry = await server.api('/scheduler/', {
      method: 'POST',
      json: { course_code: 'CSC201', section_name: '1\u0000', day: 'MW', start_time: '09:00', duration_mins: 60, room: 'R1' },
    });
    expect(entry.status).toBe(422);
    for (const [name, content] of [
      ['doctors.json', JSON.stringify({ '\u0000': { allowed_courses: ['CSC201'] }, 'Dr. \u0000Keyed': {}, __proto__x: 5, constructor: 'x' })],
      ['doctors.json', JSON.stringify([{ name: 5, allowed_courses: 7, days: {}, start: [], end: true }, { name: ['a'] }, { name: { x: 1 } }])],
      ['doctors.csv', 'name,allowed_courses\nDr. \u0000Csv,CSC201\n'],
    ] as const) {
      const response = await server.upload('/data/upload/doctors', name, content);
      expect(response.status, `${name}: ${await response.clone().text()}`).toBeLessThan(500);
      expect(await json(response)).toHaveProperty(response.status === 200 ? 'processed' : 'detail');
    }
    const names = (await json<{ name: string }[]>(await server.api('/scheduler/doctors'))).map((d) => d.name);
    expect(names.some((n) => n.includes('\u0000'))).toBe(false);
  });

  it('stores names sent with lone surrogates as well-formed text', async () => {
    const response = await server.api('/scheduler/doctors', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"Dr. \\ud800Half","allowed_courses":[]}',
    });
    expect(response.status).toBe(200);
    expect((await json<{ name: string }>(response)).name).toBe('Dr. \uFFFDHalf');
  });
});

describe('loops and exports', () => {
  it('auto-fills after a section named "1e30" (not a section number), naming new sections 1, 2', async () => {
    await server.api('/scheduler/doctors', { method: 'POST', json: { name: 'Dr. A', allowed_courses: ['CSC201'] } });
    await server.api('/scheduler/rooms', { method: 'POST', json: { name: 'R1', capacity: 50 } });
    const created = await server.api('/scheduler/', {
      method: 'POST',
      json: { course_code: 'CSC201', section_name: '1e30', doctor_id: 0, day: 'S', start_time: '08:00', duration_mins: 60, room: 'TBD' },
    });
    expect(created.status).toBe(200);
    const runId = await saveRun(server.core.context.db, 'Beirut', [{ code: 'CSC201', enrollment: 60, sections: 2 }]);
    const started = performance.now();
    const response = await server.api('/scheduler/auto', { method: 'POST', json: { run_id: runId, time_budget_ms: 500 } });
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(5_000);
    const result = await json<{ placed: { section_name: string }[]; unplaced: { section_name: string }[] }>(response);
    expect([...result.placed, ...result.unplaced].map((s) => s.section_name).sort()).toEqual(['1', '2']);
  });

  it('writes formula-like cells of a run as text in the CSV export, and strips characters XML cannot hold from the XLSX', async () => {
    const formula = '=HYPERLINK("http://evil.example","click")';
    const runId = await insertRun(
      server.core.context.db,
      1,
      {
        run_name: 'x',
        target_year: 2025,
        target_semester: 'Fall',
        target_campus: 'Beirut',
        model_version: 'test',
        caveats: [],
        term_notes: [],
        created_at: new Date().toISOString(),
        entries: [formula, '@SUM(A1:A9)', '+1+1', '-2', 'Bad\uFFFFName\u0001'].map((name, i) => ({
          course_code: `CSC20${i}`,
          course_name: name,
          prefix: 'CSC',
          types: ['core'],
          confidence: 0.9,
          offer_score: 90,
          offer: true,
          predicted_enrollment: 30,
          enrollment_low: 20,
          enrollment_high: 40,
          latent_demand: 0,
          bottleneck_score: 0,
          projected_sections: 1,
          section_size: 40,
          reasons: [],
        })),
      },
      {},
    );
    const csv = await (await server.api(`/predict/runs/${runId}/export?format=csv`)).text();
    expect(csv).toContain(`"'${formula.replace(/"/g, '""')}"`);
    expect(csv).toContain("'@SUM(A1:A9)");
    expect(csv).toContain("'+1+1");
    expect(csv).not.toMatch(/,=HYPERLINK|,"=HYPERLINK|,@SUM/);
    const xlsx = new Uint8Array(await (await server.api(`/predict/runs/${runId}/export?format=xlsx`)).arrayBuffer());
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(xlsx) as never);
    const names = book.worksheets[0]?.getColumn(3).values.slice(2);
    expect(names).toContain('BadName');
    expect(names).toContain(formula);

    await server.api('/scheduler/', {
      method: 'POST',
      json: { course_code: 'CSC201', section_name: '1', doctor_id: 0, day: 'M', start_time: '09:00', duration_mins: 60, room: 'Room\uFFFF 1' },
    });
    const timetable = new ExcelJS.Workbook();
    await timetable.xlsx.load(Buffer.from(await (await server.api('/scheduler/export')).arrayBuffer()) as never);
    expect(timetable.worksheets[0]?.getRow(2).getCell(7).value).toBe('Room 1');
  });
});
