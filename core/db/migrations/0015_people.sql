-- The people of a campus server: each signs in with a login and a password (kept as a memory-hard
-- hash), and is the registrar (every department) or a scheduler or viewer of one department.
-- Scripts act for a person with personal tokens (kept as digests; shown once). A laptop has none:
-- its user, and the server's own token, act as the registrar.
CREATE TABLE people (
  id              INTEGER PRIMARY KEY,
  login           TEXT NOT NULL,
  login_key       TEXT NOT NULL UNIQUE,
  name            TEXT NOT NULL,
  role            TEXT NOT NULL CHECK (role IN ('registrar', 'scheduler', 'viewer')),
  department_id   INTEGER REFERENCES departments (id),
  password_hash   TEXT NOT NULL,
  failed_attempts INTEGER NOT NULL DEFAULT 0,
  locked_until    TEXT,
  disabled_at     TEXT,
  created_at      TEXT NOT NULL,
  CHECK ((role = 'registrar') = (department_id IS NULL))
);

CREATE TABLE api_tokens (
  id           INTEGER PRIMARY KEY,
  person_id    INTEGER NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  label        TEXT NOT NULL,
  token_hash   TEXT NOT NULL UNIQUE,
  created_at   TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at   TEXT
);
CREATE INDEX api_tokens_person ON api_tokens (person_id);
