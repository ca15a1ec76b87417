-- Sections without a time: a registrar's row with no days or time (online, arranged), kept with its
-- instructors, part of term, joint group and the room it lists, until auto-fill or staff give it a
-- time. One row per section of a term (a section's untimed rows are one).
CREATE TABLE unscheduled_sections (
  id            INTEGER PRIMARY KEY,
  department_id INTEGER NOT NULL REFERENCES departments (id),
  year          INTEGER NOT NULL,
  semester      TEXT NOT NULL,
  course_code   TEXT NOT NULL,
  section_name  TEXT NOT NULL,
  -- The instructors who teach it, first one first: a JSON list of doctor ids.
  doctor_ids    TEXT NOT NULL DEFAULT '[]',
  part_of_term  TEXT NOT NULL DEFAULT '1',
  joint_group   TEXT,
  room          TEXT,
  campus        TEXT NOT NULL,
  kind          TEXT,
  created_at    TEXT NOT NULL,
  UNIQUE (department_id, year, semester, course_code, section_name)
);
