-- State that every server process on one database shares, so that any process serves any request
-- (a campus runs several behind one address): browser sessions, one-time sign-in links and auto-fill
-- drafts. Secrets are kept as digests only: a copy of the store opens no session and no link.

-- A browser session: the digests of its cookie id and of its key; who it acts for (a person, or null
-- for the registrar signed in by the server's one-time link); when it began and was last used.
CREATE TABLE browser_sessions (
  id_digest    TEXT PRIMARY KEY,
  key_digest   TEXT NOT NULL,
  person_id    INTEGER,
  created_at   TEXT NOT NULL,
  last_seen_at TEXT NOT NULL
);
CREATE INDEX browser_sessions_person ON browser_sessions (person_id);

-- The server's one-time sign-in links not used yet (each works once, for a few minutes).
CREATE TABLE sign_in_links (
  digest    TEXT PRIMARY KEY,
  issued_at TEXT NOT NULL
);

-- Auto-fill drafts made in the background: the process making one writes its progress (and a
-- heartbeat) here, any process reads it, asks it to stop (`cancel_asked`) or applies it once.
CREATE TABLE autofill_drafts (
  id            TEXT PRIMARY KEY,
  department_id INTEGER NOT NULL,
  year          INTEGER NOT NULL,
  semester      TEXT NOT NULL,
  source        TEXT NOT NULL,
  status        TEXT NOT NULL,
  progress      TEXT NOT NULL,
  draft         TEXT,
  error         TEXT,
  applied       INTEGER,
  cancel_asked  INTEGER NOT NULL DEFAULT 0,
  made_at       TEXT NOT NULL,
  heartbeat_at  TEXT NOT NULL
);
CREATE INDEX autofill_drafts_department ON autofill_drafts (department_id, made_at);
