import { sql } from 'kysely';
import type { Db } from '../../core/db/store';
import { isPostgres } from '../../core/db/transactions';

/**
 * Makes the store refuse a third meeting with the error `message`, as a full disk would: a write
 * that stores several meetings must then store none. Either store (a trigger in each one's language).
 */
export async function failThirdMeeting(db: Db, message: string): Promise<void> {
  if (isPostgres(db)) {
    await sql`CREATE FUNCTION fail_third() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF (SELECT COUNT(*) FROM schedule_entries) >= 2 THEN RAISE EXCEPTION '%', ${sql.lit(message)}; END IF;
        RETURN NEW;
      END $$`.execute(db);
    await sql`CREATE TRIGGER fail_third BEFORE INSERT ON schedule_entries FOR EACH ROW EXECUTE FUNCTION fail_third()`.execute(db);
    return;
  }
  await sql`CREATE TRIGGER fail_third BEFORE INSERT ON schedule_entries WHEN (SELECT COUNT(*) FROM schedule_entries) >= 2 BEGIN SELECT RAISE(ABORT, ${sql.lit(message)}); END`.execute(
    db,
  );
}
