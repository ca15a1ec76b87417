import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore } from '../../core/index';
import { PROFILE_FILE, PROFILE_FILE_TAKEN_IN } from '../../core/profile-config';
import type { QuotaCategory } from '../../core/domain/quotas';
import { startTestServer, json, type TestServer } from '../helpers/server';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

const catalog = [
  { code: 'ECE110', name: 'Intro Elec & Computer Engrg', type: 'core' },
  { code: 'ECE120', name: 'Intro Computing', type: 'core' },
  { code: 'ECE498', name: 'Special Topics', type: 'elective' },
  { code: 'ECE598', name: 'Special Topics (graduate)', type: 'masters' },
  { code: 'PHYS211', name: 'University Physics: Mechanics', type: 'core' },
];
const offerings = (rows: string[]): string => `course_code,year,semester,campus,total_enrolled\n${rows.join('\n')}\n`;
const categories = async (query = ''): Promise<{ campus: string; source: string; categories: QuotaCategory[] }> =>
  json(await server.api(`/predict/quota-categories${query}`));

describe("the department's profile", () => {
  it("derives the quota categories from the catalog's prefixes and types, each with its usual count at the campus", async () => {
    expect((await server.upload('/data/upload/courses', 'courses.json', JSON.stringify(catalog))).status).toBe(200);
    // Four Falls at Beirut: two ECE core courses in each, the elective in one of them.
    const rows = [2021, 2022, 2023, 2024].flatMap((y) => [
      `ECE110,${y},Fall,Beirut,300`,
      `ECE120,${y},Fall,Beirut,200`,
      `PHYS211,${y},Fall,Beirut,400`,
      ...(y === 2024 ? [`ECE498,${y},Fall,Beirut,30`] : []),
    ]);
    expect((await server.upload('/data/upload/offerings', 'o.csv', offerings(rows))).status).toBe(200);
    const found = await categories('?campus=Beirut');
    expect(found).toMatchObject({ campus: 'Beirut', source: 'catalog' });
    expect(found.categories).toEqual([
      { key: 'ece_core', label: 'ECE core', prefix: 'ECE', type: 'core', count: 2 },
      { key: 'ece_elective', label: 'ECE elective', prefix: 'ECE', type: 'elective', count: 0 },
      { key: 'ece_masters', label: 'ECE masters', prefix: 'ECE', type: 'masters', count: 0 },
      { key: 'phys_core', label: 'PHYS core', prefix: 'PHYS', type: 'core', count: 1 },
    ]);
    // Without history at a campus: half of each category's courses.
    expect((await categories('?campus=Byblos')).categories.map((c) => [c.key, c.count])).toEqual([
      ['ece_core', 1],
      ['ece_elective', 1],
      ['ece_masters', 1],
      ['phys_core', 1],
    ]);
  });

  it('keeps categories, seats per section and course sizes set in Settings with the department, and returns to the defaults with null', async () => {
    expect((await server.upload('/data/upload/courses', 'courses.json', JSON.stringify(catalog))).status).toBe(200);
    const change = {
      quota_categories: [
        { prefix: 'phys', type: null, label: 'Physics', count: 3 },
        { prefix: 'ECE', type: 'Core', count: 5 },
      ],
      section_size: 30,
      section_sizes: { PHYS211: 200 },
    };
    const saved = await server.api('/settings/profile', { method: 'PATCH', json: change });
    expect(saved.status, await saved.clone().text()).toBe(200);
    const stored = {
      quota_categories: [
        { prefix: 'PHYS', type: null, label: 'Physics', count: 3 },
        { prefix: 'ECE', type: 'core', count: 5 },
      ],
      section_size: 30,
      section_sizes: { PHYS211: 200 },
    };
    expect(await json(saved)).toEqual(stored);
    expect(await json(await server.api('/settings/profile'))).toEqual(stored);
    // Each department has its own.
    const other = (await json<{ id: number }>(await server.api('/departments', { method: 'POST', json: { code: 'OTHER', name: 'Other' } }))).id;
    expect(await json(await server.api(`/settings/profile?department=${other}`))).toEqual({});
    expect(await categories()).toMatchObject({
      source: 'profile',
      categories: [
        { key: 'phys', label: 'Physics', prefix: 'PHYS', type: null, count: 3 },
        { key: 'ece_core', label: 'ECE core', prefix: 'ECE', type: 'core', count: 5 },
      ],
    });
    // One field at a time; null returns it to the default.
    expect(await json(await server.api('/settings/profile', { method: 'PATCH', json: { quota_categories: null } }))).toEqual({
      section_size: 30,
      section_sizes: { PHYS211: 200 },
    });
    expect((await categories()).source).toBe('catalog');
  });

  it('refuses a bad profile field by field and changes nothing', async () => {
    for (const [body, field] of [
      [{ section_size: 0 }, 'section_size'],
      [{ quota_categories: [{ prefix: 'E1', count: 1 }] }, 'quota_categories.0.prefix'],
      [{ quota_categories: [{ prefix: 'ECE', count: -1 }] }, 'quota_categories.0.count'],
      [{ section_sizes: { PHYS211: 1.5 } }, 'section_sizes.PHYS211'],
      [{ seats: 3 }, ''],
    ] as const) {
      const response = await server.api('/settings/profile', { method: 'PATCH', json: body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect((await json<{ detail: string }>(response)).detail, JSON.stringify(body)).toContain(`Not accepted — ${field}`);
    }
    expect(await json(await server.api('/settings/profile'))).toEqual({});
  });

  it('takes in a profile.json found in the data folder at start as the first department’s, once; one that cannot be used stops start-up naming the problem', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'termwise-profile-'));
    writeFileSync(join(dir, PROFILE_FILE), JSON.stringify({ section_size: 'forty' }));
    await expect(createCore({ dataDir: dir })).rejects.toThrow(`${join(dir, PROFILE_FILE)}: section_size must be a number of seats`);
    writeFileSync(join(dir, PROFILE_FILE), '{"quota_categories": [');
    await expect(createCore({ dataDir: dir })).rejects.toThrow(join(dir, PROFILE_FILE));

    writeFileSync(join(dir, PROFILE_FILE), JSON.stringify({ section_size: 33 }));
    const core = await createCore({ dataDir: dir });
    try {
      expect(await core.run('profile-get', {})).toEqual({ section_size: 33 });
      expect(existsSync(join(dir, PROFILE_FILE))).toBe(false);
      expect(JSON.parse(readFileSync(join(dir, PROFILE_FILE_TAKEN_IN), 'utf8'))).toEqual({ section_size: 33 });
    } finally {
      await core.close();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a quota key that names nothing in the catalog, listing the categories that would do', async () => {
    expect((await server.upload('/data/upload/courses', 'courses.json', JSON.stringify(catalog))).status).toBe(200);
    const response = await server.api('/predict/bulk', {
      method: 'POST',
      json: { run_name: 'x', target_year: 2025, target_semester: 'Fall', target_campus: 'Beirut', slots: { csc_core: 3 } },
    });
    expect(response.status).toBe(422);
    expect((await json<{ detail: string }>(response)).detail).toBe(
      'Not accepted — slots: "csc_core" is not a quota category of this department (ece_core, ece_elective, ece_masters, phys_core, or a prefix such as "ece")',
    );
  });
});
