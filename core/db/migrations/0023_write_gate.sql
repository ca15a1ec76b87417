-- One revision counter per department's term on every store: term_revisions, advanced by the write
-- gate with each change it records. Brought in line with the history already recorded.
INSERT INTO term_revisions (department_id, year, semester, revision)
  SELECT department_id, year, semester, MAX(revision) FROM schedule_changes WHERE true GROUP BY department_id, year, semester
  ON CONFLICT (department_id, year, semester) DO UPDATE SET revision = MAX(term_revisions.revision, excluded.revision);

-- A laptop's sync base names the server it came from (the server's own id) and the department it was
-- fetched for: another server, or another department, starts afresh.
ALTER TABLE sync_bases ADD COLUMN server_id TEXT;
ALTER TABLE sync_bases ADD COLUMN server_department TEXT;

-- An idempotency key is kept with what it was sent for: the person, the term and a digest of the body.
ALTER TABLE idempotency_keys ADD COLUMN person_id INTEGER;
ALTER TABLE idempotency_keys ADD COLUMN year INTEGER;
ALTER TABLE idempotency_keys ADD COLUMN semester TEXT;
ALTER TABLE idempotency_keys ADD COLUMN request_digest TEXT;
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

-- This store's own id, which a laptop's sync base names. Not part of a backup: a restore gives the store
-- a new one, so every laptop based on the store as it was fetches its terms whole again.
CREATE TABLE store_identity (
  singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
  store_id  TEXT NOT NULL
);
INSERT INTO store_identity (singleton, store_id) VALUES (1, lower(hex(randomblob(16))));
