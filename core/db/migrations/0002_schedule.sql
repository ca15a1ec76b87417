-- The weekly timetable: one row per section session pattern.
CREATE TABLE schedule_entries (
  id            INTEGER PRIMARY KEY,
  course_code   TEXT NOT NULL,
  section_name  TEXT NOT NULL,
  doctor_id     INTEGER REFERENCES doctors (id) ON DELETE SET NULL,
  day           TEXT NOT NULL,
  start_time    TEXT NOT NULL,
  start_min     INTEGER NOT NULL,
  duration_mins INTEGER NOT NULL CHECK (duration_mins BETWEEN 5 AND 600),
  room          TEXT NOT NULL DEFAULT 'TBD',
  -- The room compared trimmed and case-insensitively; NULL for TBD (never conflicts).
  room_key      TEXT,
  created_at    TEXT NOT NULL,
  CHECK (start_min + duration_mins <= 1440)
);
CREATE INDEX schedule_entries_doctor ON schedule_entries (doctor_id);
CREATE INDEX schedule_entries_room ON schedule_entries (room_key);
