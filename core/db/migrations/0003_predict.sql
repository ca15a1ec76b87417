-- Trained campus models: the boosters themselves and how well they did on held-out terms.
CREATE TABLE models (
  id            INTEGER PRIMARY KEY,
  campus        TEXT NOT NULL,
  model_version TEXT NOT NULL,
  trained_at    TEXT NOT NULL,
  samples       INTEGER NOT NULL,
  positives     INTEGER NOT NULL,
  roc_auc       REAL,
  f1            REAL,
  threshold     REAL NOT NULL,
  features      TEXT NOT NULL,
  duration_ms   INTEGER NOT NULL,
  classifier    BLOB NOT NULL,
  regressor     BLOB,
  UNIQUE (campus, model_version)
);

-- Saved prediction runs and their per-course entries.
CREATE TABLE prediction_runs (
  id              INTEGER PRIMARY KEY,
  run_name        TEXT NOT NULL,
  target_year     INTEGER NOT NULL,
  target_semester TEXT NOT NULL CHECK (target_semester IN ('Fall', 'Spring')),
  target_campus   TEXT NOT NULL,
  model_version   TEXT NOT NULL,
  created_at      TEXT NOT NULL,
  parameters      TEXT NOT NULL
);
CREATE INDEX prediction_runs_campus ON prediction_runs (target_campus, id);

CREATE TABLE prediction_entries (
  run_id               INTEGER NOT NULL REFERENCES prediction_runs (id) ON DELETE CASCADE,
  position             INTEGER NOT NULL,
  course_code          TEXT NOT NULL,
  course_name          TEXT NOT NULL,
  prefix               TEXT NOT NULL,
  types                TEXT NOT NULL,
  confidence           REAL NOT NULL,
  offer_score          REAL NOT NULL,
  offer                INTEGER NOT NULL,
  predicted_enrollment INTEGER NOT NULL,
  latent_demand        INTEGER NOT NULL,
  bottleneck_score     INTEGER NOT NULL,
  projected_sections   INTEGER NOT NULL,
  reasons              TEXT NOT NULL,
  PRIMARY KEY (run_id, position)
);
