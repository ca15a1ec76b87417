-- Timetable import: instructor roles and clashes kept on purpose.

-- Which instructors of a meeting are conflict-checked: 'teaches' (checked for availability and
-- double-booking), 'coordinates' or 'assists' (listed, not checked), as registrars list course
-- coordinators on many parallel sections at once.
ALTER TABLE schedule_entry_doctors ADD COLUMN role TEXT NOT NULL DEFAULT 'teaches'
  CHECK (role IN ('teaches', 'coordinates', 'assists'));

-- Clashes an import stored on purpose (conflicts=flag), shown as a warning on both entries until
-- either one is changed or removed.
CREATE TABLE schedule_clashes (
  entry_id INTEGER NOT NULL REFERENCES schedule_entries (id) ON DELETE CASCADE,
  other_id INTEGER NOT NULL REFERENCES schedule_entries (id) ON DELETE CASCADE,
  detail   TEXT NOT NULL,
  PRIMARY KEY (entry_id, other_id, detail)
);
CREATE INDEX schedule_clashes_other ON schedule_clashes (other_id);

-- Rooms found in an imported timetable are known before anyone counted their seats: capacity may
-- be unknown (NULL) until staff set it.
CREATE TABLE rooms_v6 (
  id       INTEGER PRIMARY KEY,
  name     TEXT NOT NULL,
  name_key TEXT NOT NULL UNIQUE,
  capacity INTEGER CHECK (capacity IS NULL OR capacity > 0),
  campus   TEXT
);
INSERT INTO rooms_v6 (id, name, name_key, capacity, campus) SELECT id, name, name_key, capacity, campus FROM rooms;
DROP TABLE rooms;
ALTER TABLE rooms_v6 RENAME TO rooms;
