-- What staff know of a planned term that the history cannot tell: an instructor away (leave,
-- sabbatical), a course newly approved, a course retired. Recommendations for the term use them.
CREATE TABLE term_notes (
  id          INTEGER PRIMARY KEY,
  year        INTEGER NOT NULL,
  semester    TEXT NOT NULL,
  kind        TEXT NOT NULL CHECK (kind IN ('instructor_away', 'course_new', 'course_retired')),
  doctor_id   INTEGER REFERENCES doctors (id) ON DELETE CASCADE,
  course_code TEXT,
  reason      TEXT,
  created_at  TEXT NOT NULL,
  CHECK ((kind = 'instructor_away') = (doctor_id IS NOT NULL)),
  CHECK ((kind = 'instructor_away') = (course_code IS NULL))
);
CREATE UNIQUE INDEX term_notes_once ON term_notes (year, semester, kind, IFNULL(doctor_id, 0), IFNULL(course_code, ''));
-- The notes a run took into account, in words (JSON list; NULL for runs saved before).
ALTER TABLE prediction_runs ADD COLUMN term_notes TEXT;
