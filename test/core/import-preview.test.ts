import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../core/index';
import { tablesMark } from '../helpers/table-hashes';

let dir: string;
let core: Core;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'termwise-preview-'));
  core = await createCore({ dataDir: dir });
});
afterEach(async () => {
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

const file = (filename: string, text: string): { filename: string; content: Uint8Array } => ({ filename, content: new TextEncoder().encode(text) });

describe('import preview', () => {
  it('shows which column each header maps to, the first rows and what is missing, storing nothing', async () => {
    const before = await tablesMark(core.context.db);
    const preview = await core.run('import-preview', {
      kind: 'offerings',
      file: file('o.csv', 'Course Code,Yr,Enrolled,Notes\nCSC201,2024,40,x\nCSC202,2024,35,y\n'),
    });
    expect(preview.columns).toEqual([
      { header: 'Course Code', field: 'course_code' },
      { header: 'Yr', field: 'year' },
      { header: 'Enrolled', field: expect.any(String) as string },
      { header: 'Notes', field: null },
    ]);
    expect(preview.rows[0]).toEqual(['CSC201', '2024', '40', 'x']);
    expect(preview.total_rows).toBe(2);
    expect(preview.missing).toEqual([]);
    const withoutYear = await core.run('import-preview', { kind: 'offerings', file: file('o.csv', 'course_code,total\nCSC201,4\n') });
    expect(withoutYear.missing).toEqual(['year']);
    expect(await tablesMark(core.context.db)).toEqual(before);
  });

  it('previews a JSON courses file by its fields', async () => {
    const preview = await core.run('import-preview', {
      kind: 'courses',
      file: file('c.json', JSON.stringify([{ code: 'CSC201', name: 'Programming', credits: 3 }])),
    });
    expect(preview.columns.map((c) => c.header)).toEqual(expect.arrayContaining(['code', 'name']));
    expect(preview.total_rows).toBe(1);
  });
});
