-- Meetings staff locked: auto-fill takes them as they are (never moves them) when it improves or
-- rebuilds a term. A row per locked meeting, gone with the meeting. (Both stores: SQLite and PostgreSQL.)
CREATE TABLE schedule_entry_locks (
  entry_id  INTEGER PRIMARY KEY REFERENCES schedule_entries (id) ON DELETE CASCADE,
  locked_at TEXT NOT NULL
);
