-- Terms staff confirmed complete although they list far fewer courses than the campus's usual terms.
CREATE TABLE confirmed_terms (
  campus       TEXT NOT NULL,
  year         INTEGER NOT NULL,
  semester     TEXT NOT NULL,
  confirmed_at TEXT NOT NULL,
  PRIMARY KEY (campus, year, semester)
);
-- The terms a model was trained without (JSON list of "campus|year|semester"; NULL for models
-- trained before: none left out). A model trained on another set is trained again before use.
ALTER TABLE models ADD COLUMN left_out_terms TEXT;
-- What a run could not take into account, in words (JSON list; NULL for runs saved before).
ALTER TABLE prediction_runs ADD COLUMN caveats TEXT;
