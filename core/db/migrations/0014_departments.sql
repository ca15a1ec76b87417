-- A campus of departments on one server. Every department keeps its own catalog, history, models,
-- runs, settings, parts of term, term notes and timetable; instructors and rooms belong to the
-- campus (an instructor teaches for the departments that list them; a room is in the campus pool,
-- department_id NULL, or belongs to one department). A laptop is one department: id 1, which
-- every existing row joins.
CREATE TABLE departments (
  id         INTEGER PRIMARY KEY,
  code       TEXT NOT NULL UNIQUE,
  name       TEXT NOT NULL,
  -- The campuses it plans for (JSON list of the server's campus names); NULL: all of them.
  campuses   TEXT,
  created_at TEXT NOT NULL
);
INSERT INTO departments (id, code, name, campuses, created_at) VALUES (1, 'main', 'Department', NULL, '2026-01-01T00:00:00.000Z');

CREATE TABLE courses_v14 (
  department_id INTEGER NOT NULL DEFAULT 1 REFERENCES departments (id),
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
INSERT INTO courses_v14 (department_id, code, name, prefix, number, type, study_plan, prerequisites, course_level)
  SELECT 1, code, name, prefix, number, type, study_plan, prerequisites, course_level FROM courses;
DROP TABLE courses;
ALTER TABLE courses_v14 RENAME TO courses;

CREATE TABLE offerings_v14 (
  id             INTEGER PRIMARY KEY,
  department_id  INTEGER NOT NULL DEFAULT 1 REFERENCES departments (id),
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
INSERT INTO offerings_v14 (id, department_id, year, semester, campus, course_code, total_enrolled, passed_count, failed_count, is_offered, created_at)
  SELECT id, 1, year, semester, campus, course_code, total_enrolled, passed_count, failed_count, is_offered, created_at FROM offerings;
DROP TABLE offerings;
ALTER TABLE offerings_v14 RENAME TO offerings;
CREATE INDEX offerings_campus_term ON offerings (department_id, campus, year, semester);

-- Which departments an instructor teaches for, and the courses they may teach there.
CREATE TABLE department_doctors (
  department_id   INTEGER NOT NULL REFERENCES departments (id),
  doctor_id       INTEGER NOT NULL REFERENCES doctors (id) ON DELETE CASCADE,
  allowed_courses TEXT NOT NULL DEFAULT '[]',
  PRIMARY KEY (department_id, doctor_id)
);
INSERT INTO department_doctors (department_id, doctor_id, allowed_courses) SELECT 1, id, allowed_courses FROM doctors;
CREATE INDEX department_doctors_doctor ON department_doctors (doctor_id);
ALTER TABLE doctors DROP COLUMN allowed_courses;

CREATE TABLE models_v14 (
  id              INTEGER PRIMARY KEY,
  department_id   INTEGER NOT NULL DEFAULT 1 REFERENCES departments (id),
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
INSERT INTO models_v14 (id, department_id, campus, model_version, trained_at, samples, positives, roc_auc, f1, threshold, features, duration_ms, classifier, regressor, adjustments, demand_features, left_out_terms)
  SELECT id, 1, campus, model_version, trained_at, samples, positives, roc_auc, f1, threshold, features, duration_ms, classifier, regressor, adjustments, demand_features, left_out_terms FROM models;
DROP TABLE models;
ALTER TABLE models_v14 RENAME TO models;

ALTER TABLE prediction_runs ADD COLUMN department_id INTEGER NOT NULL DEFAULT 1;
DROP INDEX prediction_runs_campus;
CREATE INDEX prediction_runs_campus ON prediction_runs (department_id, target_campus, id);

CREATE TABLE settings_v14 (
  department_id INTEGER NOT NULL DEFAULT 1 REFERENCES departments (id),
  key           TEXT NOT NULL,
  value         TEXT NOT NULL,
  PRIMARY KEY (department_id, key)
);
INSERT INTO settings_v14 (department_id, key, value) SELECT 1, key, value FROM settings;
DROP TABLE settings;
ALTER TABLE settings_v14 RENAME TO settings;

CREATE TABLE term_parts_v14 (
  id            INTEGER PRIMARY KEY,
  department_id INTEGER NOT NULL DEFAULT 1 REFERENCES departments (id),
  year          INTEGER NOT NULL,
  semester      TEXT NOT NULL,
  code          TEXT NOT NULL,
  name          TEXT NOT NULL,
  start_date    TEXT,
  end_date      TEXT,
  UNIQUE (department_id, year, semester, code),
  CHECK (start_date IS NULL OR end_date IS NULL OR start_date <= end_date)
);
INSERT INTO term_parts_v14 (id, department_id, year, semester, code, name, start_date, end_date)
  SELECT id, 1, year, semester, code, name, start_date, end_date FROM term_parts;
DROP TABLE term_parts;
ALTER TABLE term_parts_v14 RENAME TO term_parts;

ALTER TABLE schedule_entries ADD COLUMN department_id INTEGER NOT NULL DEFAULT 1;
DROP INDEX schedule_entries_section;
CREATE INDEX schedule_entries_section ON schedule_entries (year, semester, department_id, course_code, section_name);
CREATE INDEX schedule_entries_department ON schedule_entries (department_id, year, semester);

ALTER TABLE rooms ADD COLUMN department_id INTEGER REFERENCES departments (id);

CREATE TABLE confirmed_terms_v14 (
  department_id INTEGER NOT NULL DEFAULT 1 REFERENCES departments (id),
  campus        TEXT NOT NULL,
  year          INTEGER NOT NULL,
  semester      TEXT NOT NULL,
  confirmed_at  TEXT NOT NULL,
  PRIMARY KEY (department_id, campus, year, semester)
);
INSERT INTO confirmed_terms_v14 (department_id, campus, year, semester, confirmed_at) SELECT 1, campus, year, semester, confirmed_at FROM confirmed_terms;
DROP TABLE confirmed_terms;
ALTER TABLE confirmed_terms_v14 RENAME TO confirmed_terms;

ALTER TABLE term_notes ADD COLUMN department_id INTEGER NOT NULL DEFAULT 1;
DROP INDEX term_notes_once;
CREATE UNIQUE INDEX term_notes_once ON term_notes (department_id, year, semester, kind, IFNULL(doctor_id, 0), IFNULL(course_code, ''));
