-- Timetables per term, with parts of term, several instructors, joint sections and campuses.

-- Settings kept with the data: the current timetable term, the travel time between campuses.
CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

-- Parts of term (summer halves, eight-week courses); the whole term, code '1', needs no row.
CREATE TABLE term_parts (
  id         INTEGER PRIMARY KEY,
  year       INTEGER NOT NULL,
  semester   TEXT NOT NULL,
  code       TEXT NOT NULL,
  name       TEXT NOT NULL,
  start_date TEXT,
  end_date   TEXT,
  UNIQUE (year, semester, code),
  CHECK (start_date IS NULL OR end_date IS NULL OR start_date <= end_date)
);

-- The timetable: one row per meeting. Entries from before terms existed get the current term and
-- their campus when Termwise next starts (year, semester and campus are NULL until then).
ALTER TABLE schedule_entries RENAME TO schedule_entries_v4;

CREATE TABLE schedule_entries (
  id            INTEGER PRIMARY KEY,
  year          INTEGER,
  semester      TEXT,
  course_code   TEXT NOT NULL,
  section_name  TEXT NOT NULL,
  day           TEXT NOT NULL,
  start_time    TEXT NOT NULL,
  start_min     INTEGER NOT NULL,
  duration_mins INTEGER NOT NULL CHECK (duration_mins BETWEEN 5 AND 600),
  room          TEXT NOT NULL DEFAULT 'TBD',
  -- The room compared trimmed and case-insensitively; NULL for TBD (never conflicts).
  room_key      TEXT,
  part_of_term  TEXT NOT NULL DEFAULT '1',
  joint_group   TEXT,
  campus        TEXT,
  created_at    TEXT NOT NULL,
  CHECK (start_min + duration_mins <= 1440)
);

INSERT INTO schedule_entries (id, course_code, section_name, day, start_time, start_min, duration_mins, room, room_key, campus, created_at)
  SELECT e.id, e.course_code, e.section_name, e.day, e.start_time, e.start_min, e.duration_mins, e.room, e.room_key,
         (SELECT r.campus FROM rooms r WHERE r.name_key = e.room_key), e.created_at
  FROM schedule_entries_v4 e;

-- Each meeting's instructors, in order (position 0 is the contract's doctor_id).
CREATE TABLE schedule_entry_doctors (
  entry_id  INTEGER NOT NULL REFERENCES schedule_entries (id) ON DELETE CASCADE,
  doctor_id INTEGER NOT NULL REFERENCES doctors (id) ON DELETE CASCADE,
  position  INTEGER NOT NULL,
  PRIMARY KEY (entry_id, doctor_id)
);

INSERT INTO schedule_entry_doctors (entry_id, doctor_id, position)
  SELECT id, doctor_id, 0 FROM schedule_entries_v4 WHERE doctor_id IN (SELECT id FROM doctors);

DROP TABLE schedule_entries_v4;

CREATE INDEX schedule_entries_term ON schedule_entries (year, semester);
CREATE INDEX schedule_entries_room ON schedule_entries (year, semester, room_key);
CREATE INDEX schedule_entries_section ON schedule_entries (year, semester, course_code, section_name);
CREATE INDEX schedule_entry_doctors_doctor ON schedule_entry_doctors (doctor_id);
