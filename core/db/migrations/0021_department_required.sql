-- A row that forgets its department must fail, not join department 1: nine tables had
-- `department_id ... DEFAULT 1` from the days a laptop was one department. SQLite cannot drop a
-- column's default in place, so each table is rebuilt the documented way (new table, copy, drop,
-- rename, indexes again); the runner migrates with foreign keys off and checks them before commit,
-- so the rows that point at these tables (instructors of a meeting, results of a run) are kept.

CREATE TABLE courses_v21 (
  department_id INTEGER NOT NULL REFERENCES departments (id),
  code          TEXT NOT NULL,
  name          TEXT NOT NULL,
  prefix        TEXT NOT NULL,
  number        TEXT NOT NULL,
  type          TEXT,
  study_plan    TEXT,
  prerequisites TEXT,
  course_level  INTEGER NOT NULL,
  PRIMARY KEY (department_id, code)
);
INSERT INTO courses_v21 SELECT * FROM courses;
DROP TABLE courses;
ALTER TABLE courses_v21 RENAME TO courses;

CREATE TABLE offerings_v21 (
  id             INTEGER PRIMARY KEY,
  department_id  INTEGER NOT NULL REFERENCES departments (id),
  year           INTEGER NOT NULL,
  semester       TEXT NOT NULL CHECK (semester IN ('Fall', 'Spring', 'Summer')),
  campus         TEXT NOT NULL,
  course_code    TEXT NOT NULL,
  total_enrolled INTEGER NOT NULL CHECK (total_enrolled >= 0),
  passed_count   INTEGER NOT NULL CHECK (passed_count >= 0),
  failed_count   INTEGER NOT NULL CHECK (failed_count >= 0),
  is_offered     INTEGER NOT NULL CHECK (is_offered IN (0, 1)),
  created_at     TEXT NOT NULL,
  UNIQUE (department_id, course_code, year, semester, campus)
);
INSERT INTO offerings_v21 SELECT * FROM offerings;
DROP TABLE offerings;
ALTER TABLE offerings_v21 RENAME TO offerings;
CREATE INDEX offerings_campus_term ON offerings (department_id, campus, year, semester);

CREATE TABLE models_v21 (
  id              INTEGER PRIMARY KEY,
  department_id   INTEGER NOT NULL REFERENCES departments (id),
  campus          TEXT NOT NULL,
  model_version   TEXT NOT NULL,
  trained_at      TEXT NOT NULL,
  samples         INTEGER NOT NULL,
  positives       INTEGER NOT NULL,
  roc_auc         REAL,
  f1              REAL,
  threshold       REAL NOT NULL,
  features        TEXT NOT NULL,
  duration_ms     INTEGER NOT NULL,
  classifier      BLOB NOT NULL,
  regressor       BLOB,
  adjustments     TEXT,
  demand_features TEXT,
  left_out_terms  TEXT,
  UNIQUE (department_id, campus, model_version)
);
INSERT INTO models_v21 SELECT * FROM models;
DROP TABLE models;
ALTER TABLE models_v21 RENAME TO models;

CREATE TABLE prediction_runs_v21 (
  id              INTEGER PRIMARY KEY,
  run_name        TEXT NOT NULL,
  target_year     INTEGER NOT NULL,
  target_semester TEXT NOT NULL CHECK (target_semester IN ('Fall', 'Spring')),
  target_campus   TEXT NOT NULL,
  model_version   TEXT NOT NULL,
  created_at      TEXT NOT NULL,
  parameters      TEXT NOT NULL
, caveats TEXT, term_notes TEXT, department_id INTEGER NOT NULL);
INSERT INTO prediction_runs_v21 SELECT * FROM prediction_runs;
DROP TABLE prediction_runs;
ALTER TABLE prediction_runs_v21 RENAME TO prediction_runs;
CREATE INDEX prediction_runs_campus ON prediction_runs (department_id, target_campus, id);

CREATE TABLE settings_v21 (
  department_id INTEGER NOT NULL REFERENCES departments (id),
  key           TEXT NOT NULL,
  value         TEXT NOT NULL,
  PRIMARY KEY (department_id, key)
);
INSERT INTO settings_v21 SELECT * FROM settings;
DROP TABLE settings;
ALTER TABLE settings_v21 RENAME TO settings;

CREATE TABLE term_parts_v21 (
  id            INTEGER PRIMARY KEY,
  department_id INTEGER NOT NULL REFERENCES departments (id),
  year          INTEGER NOT NULL,
  semester      TEXT NOT NULL,
  code          TEXT NOT NULL,
  name          TEXT NOT NULL,
  start_date    TEXT,
  end_date      TEXT,
  UNIQUE (department_id, year, semester, code),
  CHECK (start_date IS NULL OR end_date IS NULL OR start_date <= end_date)
);
INSERT INTO term_parts_v21 SELECT * FROM term_parts;
DROP TABLE term_parts;
ALTER TABLE term_parts_v21 RENAME TO term_parts;

CREATE TABLE schedule_entries_v21 (
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
  created_at    TEXT NOT NULL, department_id INTEGER NOT NULL, uid TEXT,
  CHECK (start_min + duration_mins <= 1440)
);
INSERT INTO schedule_entries_v21 SELECT * FROM schedule_entries;
DROP TABLE schedule_entries;
ALTER TABLE schedule_entries_v21 RENAME TO schedule_entries;
CREATE INDEX schedule_entries_room ON schedule_entries (year, semester, room_key);
CREATE INDEX schedule_entries_joint ON schedule_entries (joint_group);
CREATE INDEX schedule_entries_section ON schedule_entries (year, semester, department_id, course_code, section_name);
CREATE INDEX schedule_entries_department ON schedule_entries (department_id, year, semester);
CREATE UNIQUE INDEX schedule_entries_uid ON schedule_entries (uid);

CREATE TABLE confirmed_terms_v21 (
  department_id INTEGER NOT NULL REFERENCES departments (id),
  campus        TEXT NOT NULL,
  year          INTEGER NOT NULL,
  semester      TEXT NOT NULL,
  confirmed_at  TEXT NOT NULL,
  PRIMARY KEY (department_id, campus, year, semester)
);
INSERT INTO confirmed_terms_v21 SELECT * FROM confirmed_terms;
DROP TABLE confirmed_terms;
ALTER TABLE confirmed_terms_v21 RENAME TO confirmed_terms;

CREATE TABLE term_notes_v21 (
  id          INTEGER PRIMARY KEY,
  year        INTEGER NOT NULL,
  semester    TEXT NOT NULL,
  kind        TEXT NOT NULL CHECK (kind IN ('instructor_away', 'course_new', 'course_retired')),
  doctor_id   INTEGER REFERENCES doctors (id) ON DELETE CASCADE,
  course_code TEXT,
  reason      TEXT,
  created_at  TEXT NOT NULL, department_id INTEGER NOT NULL,
  CHECK ((kind = 'instructor_away') = (doctor_id IS NOT NULL)),
  CHECK ((kind = 'instructor_away') = (course_code IS NULL))
);
INSERT INTO term_notes_v21 SELECT * FROM term_notes;
DROP TABLE term_notes;
ALTER TABLE term_notes_v21 RENAME TO term_notes;
CREATE UNIQUE INDEX term_notes_once ON term_notes (department_id, year, semester, kind, IFNULL(doctor_id, 0), IFNULL(course_code, ''));
