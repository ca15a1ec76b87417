import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, DATABASE_FILE, type Core } from '../../core/index';
import { CAMPUS_FILE } from '../../core/campus-config';
import { CampusList, DEFAULT_CAMPUSES } from '../../core/domain/campuses';
import { SAMPLE_DIR } from '../../core/sample/paths';
import { CoreError } from '../../core/domain/errors';

let dir: string;
const cores: Core[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'termwise-campuses-'));
});
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
  rmSync(dir, { recursive: true, force: true });
});

async function coreWith(campusFile: unknown): Promise<Core> {
  writeFileSync(join(dir, CAMPUS_FILE), typeof campusFile === 'string' ? campusFile : JSON.stringify(campusFile));
  const core = await createCore({ dataDir: dir });
  cores.push(core);
  return core;
}

const file = (filename: string, text: string): { filename: string; content: Uint8Array } => ({ filename, content: new TextEncoder().encode(text) });

async function refusal(promise: Promise<unknown>): Promise<CoreError> {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CoreError);
  return error as CoreError;
}

describe('campuses from configuration', () => {
  it('defaults to Beirut and Byblos, reading the usual loose spellings', async () => {
    const core = await createCore({ dataDir: dir });
    cores.push(core);
    expect(await core.run('campuses-list', {})).toEqual(['Beirut', 'Byblos']);
    const campuses = new CampusList(DEFAULT_CAMPUSES);
    expect(['BEY', 'beirut campus', 'Jbeil', ' byblos ', 'BYB'].map((text) => campuses.normalise(text))).toEqual([
      'Beirut',
      'Beirut',
      'Byblos',
      'Byblos',
      'Byblos',
    ]);
    expect(campuses.normalise('Tripoli')).toBeNull();
  });

  it("uses the data folder's campuses.json for imports, training, runs and rooms", async () => {
    const core = await coreWith({ campuses: ['Urbana', { name: 'Chicago', aliases: ['UIC'] }] });
    expect(await core.run('campuses-list', {})).toEqual(['Urbana', 'Chicago']);

    // The sample history, moved to the configured campuses: Beirut rows become Urbana, Byblos rows "UIC".
    const sample = readFileSync(join(SAMPLE_DIR, 'offerings.csv'), 'utf8')
      .replaceAll('\r\n', '\n')
      .replaceAll(',Beirut,', ',Urbana,')
      .replaceAll(',Byblos,', ',UIC,');
    await core.run('courses-upload', { file: { filename: 'courses.json', content: new Uint8Array(readFileSync(join(SAMPLE_DIR, 'courses.json'))) } });
    const history = await core.run('offerings-upload', { file: file('offerings.csv', `${sample}CSC201,2024,Fall,Beirut,40,30,10,true\n`) });
    expect(history.processed).toBeGreaterThan(1000);
    expect(history.skipped).toBe(1);
    expect(history.warnings.join('\n')).toContain('campus "Beirut" is not Urbana or Chicago');
    const stored = JSON.parse((await core.run('offerings-list', {})).jsonText) as { campus: string }[];
    expect(new Set(stored.map((o) => o.campus))).toEqual(new Set(['Urbana', 'Chicago']));

    // A file without a campus column goes under the first configured campus.
    await core.run('offerings-upload', { file: file('one.csv', 'course_code,year,semester,total_enrolled\nCSC201,2030,Fall,12\n') });
    const added = (JSON.parse((await core.run('offerings-list', {})).jsonText) as { year: number; campus: string }[]).filter((o) => o.year === 2030);
    expect(added.map((o) => o.campus)).toEqual(['Urbana']);

    const trained = await core.run('predict-train', {});
    expect(Object.keys(trained.campuses)).toEqual(['Urbana', 'Chicago']);
    expect(trained.campuses.Chicago?.samples).toBeGreaterThan(0);
    const run = await core.run('predict-bulk', { run_name: 'Plan', target_year: 2031, target_semester: 'Spring', target_campus: 'chicago' });
    expect(run.target_campus).toBe('Chicago');

    const wrong = await refusal(core.run('predict-bulk', { run_name: 'Plan', target_year: 2031, target_semester: 'Spring', target_campus: 'Beirut' }));
    expect(wrong.code).toBe('validation');
    expect(wrong.details?.fields).toEqual([{ field: 'target_campus', message: 'must be Urbana or Chicago' }]);
    expect((await refusal(core.run('rooms-create', { name: 'Hall', capacity: 30, campus: 'Byblos' }))).details?.fields?.[0]?.field).toBe('campus');
    expect(await core.run('rooms-create', { name: 'Hall', capacity: 30, campus: 'UIC' })).toMatchObject({ campus: 'Chicago' });

    const sampleLoad = await refusal(core.run('sample-load', {}));
    expect(sampleLoad.code).toBe('invalid');
    expect(sampleLoad.message).toContain('this installation plans for Urbana or Chicago');
  });

  it('refuses to start on a campus file it cannot use, naming the file and the problem', async () => {
    await expect(coreWith('{"campuses": [')).rejects.toThrow(/campuses\.json: .*JSON/);
    await expect(coreWith([])).rejects.toThrow(/campuses\.json: at least one campus is needed/);
    await expect(coreWith(['Main', { name: 'North', aliases: ['main'] }])).rejects.toThrow(/"main" names both Main and North/);
    await expect(coreWith(Array.from({ length: 21 }, (_, i) => `Campus ${i}`))).rejects.toThrow(/at most 20 campuses/);
    await expect(coreWith({ campuses: [{ label: 'x' }] })).rejects.toThrow(/expected a list of campus names/);
  });

  it.skipIf(process.platform === 'win32')(
    'refuses at once a campus file that is a named pipe or a link to an endless device, and a database that is not a file',
    async () => {
      const pipe = join(dir, CAMPUS_FILE);
      execFileSync('mkfifo', [pipe]);
      await expect(createCore({ dataDir: dir })).rejects.toThrow(/campuses\.json: not a regular file/);
      rmSync(pipe);
      symlinkSync('/dev/zero', pipe);
      await expect(createCore({ dataDir: dir })).rejects.toThrow(/campuses\.json: not a regular file/);
      rmSync(pipe);
      execFileSync('mkfifo', [join(dir, DATABASE_FILE)]);
      await expect(createCore({ dataDir: dir })).rejects.toThrow(/termwise\.db: not a regular file/);
    },
  );
});
