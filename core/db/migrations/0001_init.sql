-- Catalog: one row per course code (cross-listed codes such as CSC463/BIF463 are one course).
CREATE TABLE courses (
  code          TEXT PRIMARY KEY,
  name          TEXT NOT NULL,
  prefix        TEXT NOT NULL,
  number        TEXT NOT NULL,
  type          TEXT,
  study_plan    TEXT,
  prerequisites TEXT,
  course_level  INTEGER NOT NULL
);

-- Historical offerings: one record per course, year, semester and campus.
CREATE TABLE offerings (
  id             INTEGER PRIMARY KEY,
  year           INTEGER NOT NULL,
  semester       TEXT NOT NULL CHECK (semester IN ('Fall', 'Spring', 'Summer')),
  campus         TEXT NOT NULL,
  course_code    TEXT NOT NULL,
  total_enrolled INTEGER NOT NULL CHECK (total_enrolled >= 0),
  passed_count   INTEGER NOT NULL CHECK (passed_count >= 0),
  failed_count   INTEGER NOT NULL CHECK (failed_count >= 0),
  is_offered     INTEGER NOT NULL CHECK (is_offered IN (0, 1)),
  created_at     TEXT NOT NULL,
  UNIQUE (course_code, year, semester, campus)
);
CREATE INDEX offerings_campus_term ON offerings (campus, year, semester);

-- Faculty ("doctors").
CREATE TABLE doctors (
  id              INTEGER PRIMARY KEY,
  name            TEXT NOT NULL,
  name_key        TEXT NOT NULL UNIQUE,
  allowed_courses TEXT NOT NULL DEFAULT '[]',
  available_days  TEXT,
  available_time  TEXT
);
