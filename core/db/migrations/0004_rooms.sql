-- Teaching rooms with their seats, per campus (NULL campus: usable from either).
CREATE TABLE rooms (
  id       INTEGER PRIMARY KEY,
  name     TEXT NOT NULL,
  name_key TEXT NOT NULL UNIQUE,
  capacity INTEGER NOT NULL CHECK (capacity > 0),
  campus   TEXT
);
