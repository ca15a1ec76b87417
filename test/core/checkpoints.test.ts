import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { openSqliteFile as openDatabase, type SqliteHandle as Db } from '../../core/db/sqlite-store';
import { AUTOCHECKPOINT_PAGES, checkpointWhenIdle } from '../../core/db/checkpoints';

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'termwise-checkpoint-'));
  db = openDatabase(join(dir, 'c.db'));
  db.exec('CREATE TABLE t (x)');
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

it('checkpoints the write-ahead log once writes pause, not inside a burst of writes', async () => {
  const checkpoints = checkpointWhenIdle(db, 30);
  expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(AUTOCHECKPOINT_PAGES);
  const pragma = vi.spyOn(db, 'pragma');
  for (let i = 0; i < 20; i++) {
    db.prepare('INSERT INTO t VALUES (?)').run(i);
    checkpoints.wrote();
  }
  expect(pragma).not.toHaveBeenCalled();
  await new Promise((resolve) => setTimeout(resolve, 80));
  expect(pragma).toHaveBeenCalledTimes(1);
  expect(pragma).toHaveBeenCalledWith('wal_checkpoint(PASSIVE)');
  // Every frame of the log is in the database now.
  const [state] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
  expect(state?.checkpointed).toBe(state?.log);
  checkpoints.stop();
});
