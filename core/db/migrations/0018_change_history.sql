-- Every change to a term's timetable is recorded, and a term has a revision each change advances.
-- A meeting keeps one id across stores (`uid`): a laptop's copy and the campus server's name the same
-- meeting alike, so publishing and fetching replay changes instead of replacing a term.
ALTER TABLE schedule_entries ADD COLUMN uid TEXT;
UPDATE schedule_entries SET uid = lower(hex(randomblob(16)));
CREATE UNIQUE INDEX schedule_entries_uid ON schedule_entries (uid);

-- A department's term revision on PostgreSQL: the row its writers take in turn to number their changes
-- (a term's revision is the highest recorded for it; SQLite has one writer at a time and reads that).
CREATE TABLE term_revisions (
  department_id INTEGER NOT NULL REFERENCES departments (id),
  year          INTEGER NOT NULL,
  semester      TEXT NOT NULL,
  revision      INTEGER NOT NULL,
  PRIMARY KEY (department_id, year, semester)
);

-- One row per meeting a write changed: who (a person and the token they used, else the kind of
-- caller), when, the operation, the batch it belongs to (one request), and the meeting's values
-- before and after (JSON; null where it did not exist). `origin` is `local` for a change made here
-- and `server` for one a laptop brought in from the campus server by fetching.
CREATE TABLE schedule_changes (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  department_id INTEGER NOT NULL REFERENCES departments (id),
  year          INTEGER NOT NULL,
  semester      TEXT NOT NULL,
  revision      INTEGER NOT NULL,
  batch         TEXT NOT NULL,
  operation     TEXT NOT NULL,
  meeting_uid   TEXT NOT NULL,
  course_code   TEXT NOT NULL,
  section_name  TEXT NOT NULL,
  person_id     INTEGER,
  token_label   TEXT,
  caller        TEXT NOT NULL,
  changed_at    TEXT NOT NULL,
  before_value  TEXT,
  after_value   TEXT,
  origin        TEXT NOT NULL DEFAULT 'local'
);
CREATE INDEX schedule_changes_term ON schedule_changes (department_id, year, semester, revision);

-- A laptop's copy of a campus term: the server revision it is based on, and the last local change
-- already on the server (later local changes are the ones not yet published).
CREATE TABLE sync_bases (
  department_id INTEGER NOT NULL REFERENCES departments (id),
  year          INTEGER NOT NULL,
  semester      TEXT NOT NULL,
  base_revision INTEGER NOT NULL,
  published_through INTEGER NOT NULL,
  synced_at     TEXT NOT NULL,
  PRIMARY KEY (department_id, year, semester)
);

-- A publish's answer kept under the idempotency key its client sent: the same key again is
-- answered from here, applied once.
CREATE TABLE idempotency_keys (
  key           TEXT NOT NULL,
  department_id INTEGER NOT NULL REFERENCES departments (id),
  operation     TEXT NOT NULL,
  response      TEXT NOT NULL,
  created_at    TEXT NOT NULL,
  PRIMARY KEY (department_id, key)
);
