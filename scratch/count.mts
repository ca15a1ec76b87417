import pg from 'pg';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startThrowawayPostgres, createDatabase } from '/work/main/test/helpers/postgres';
import { createCore } from '/work/main/core/index';

const server = await startThrowawayPostgres();
const db = await createDatabase(server.adminUrl);
const core = await createCore({ dataDir: mkdtempSync(join(tmpdir(), 'cnt-')), databaseUrl: db.url });
let n = 0;
const seen: string[] = [];
const orig = pg.Client.prototype.query;
(pg.Client.prototype as any).query = function (...args: any[]) {
  n++;
  const q = typeof args[0] === 'string' ? args[0] : args[0]?.text ?? args[0]?.name;
  seen.push(String(q).slice(0, 140).replace(/\s+/g, ' '));
  return (orig as any).apply(this, args);
};
for (let i = 0; i < 3; i++) {
  n = 0; seen.length = 0;
  await core.runUnchecked('schedule-create', { year: 2031, semester: 'Fall', course_code: `CSC${100 + i}`, section_name: '1', doctor_id: 0, day: 'MW', start_time: `${9 + i}:00`.padStart(5, '0'), duration_mins: 50, room: 'Hall 1' }, { caller: 'script' });
  console.log('booking', i, 'queries', n);
  if (i === 2) for (const s of seen) console.log('  ', s);
}
await core.close();
await db.drop();
await server.stop();
