-- What turns a model's raw outputs into a run's figures, learnt on its held-out terms (JSON):
-- the confidence calibration and the demand interval bounds. NULL for models trained before.
ALTER TABLE models ADD COLUMN adjustments TEXT;

-- Each recommendation's 80 % enrollment range (NULL for runs saved before there was one) and the
-- seats per section its projected sections were worked out with (every earlier run used 40).
ALTER TABLE prediction_entries ADD COLUMN enrollment_low INTEGER;
ALTER TABLE prediction_entries ADD COLUMN enrollment_high INTEGER;
ALTER TABLE prediction_entries ADD COLUMN section_size INTEGER NOT NULL DEFAULT 40;
