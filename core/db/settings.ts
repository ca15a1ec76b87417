import type { Db } from './store';
import { prepared } from './prepared';
import { mapRead, readAlone, type PendingRead } from './read-together';

/** Settings kept with the data (and so in backups): one JSON value per key. */
export async function readSetting(db: Db, department: number, key: string): Promise<unknown> {
  return (await readSettings(db, department, [key])).get(key);
}

const settingsByKeys = prepared((db: Db, department: number, keys: string[]) =>
  db.selectFrom('settings').select(['key', 'value']).where('department_id', '=', department).where('key', 'in', keys),
);

/** Several settings in one read, by key (unset and damaged ones absent). */
export async function readSettings(db: Db, department: number, keys: readonly string[]): Promise<Map<string, unknown>> {
  return readAlone(db, settingsRead(db, department, keys));
}

/** readSettings, to be read with other reads (see readTogether). */
export function settingsRead(db: Db, department: number, keys: readonly string[]): PendingRead<Map<string, unknown>> {
  return mapRead(settingsByKeys.read(db, department, [...keys]), settingValues);
}

function settingValues(rows: readonly { key: string; value: string }[]): Map<string, unknown> {
  const values = new Map<string, unknown>();
  for (const row of rows) {
    try {
      values.set(row.key, JSON.parse(row.value) as unknown);
    } catch {
      // A damaged value (e.g. from an edited backup) reads as unset.
    }
  }
  return values;
}

export async function writeSetting(db: Db, department: number, key: string, value: unknown): Promise<void> {
  await db
    .insertInto('settings')
    .values({ department_id: department, key, value: JSON.stringify(value) })
    .onConflict((oc) => oc.columns(['department_id', 'key']).doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })))
    .execute();
}
