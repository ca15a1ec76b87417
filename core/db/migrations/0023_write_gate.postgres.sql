-- PostgreSQL's form of 0023_write_gate.sql.
INSERT INTO term_revisions (department_id, year, semester, revision)
  SELECT department_id, year, semester, MAX(revision) FROM schedule_changes GROUP BY department_id, year, semester
  ON CONFLICT (department_id, year, semester) DO UPDATE SET revision = GREATEST(term_revisions.revision, excluded.revision);

ALTER TABLE sync_bases ADD COLUMN server_id TEXT COLLATE "C";
ALTER TABLE sync_bases ADD COLUMN server_department TEXT COLLATE "C";

ALTER TABLE idempotency_keys ADD COLUMN person_id INTEGER;
ALTER TABLE idempotency_keys ADD COLUMN year INTEGER;
ALTER TABLE idempotency_keys ADD COLUMN semester TEXT COLLATE "C";
ALTER TABLE idempotency_keys ADD COLUMN request_digest TEXT COLLATE "C";
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

CREATE TABLE store_identity (
  singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
  store_id  TEXT COLLATE "C" NOT NULL
);
INSERT INTO store_identity (singleton, store_id) VALUES (1, replace(gen_random_uuid()::text, '-', ''));
