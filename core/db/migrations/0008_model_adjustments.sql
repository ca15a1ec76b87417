-- What turns a model's raw outputs into a run's figures, learnt on its held-out terms (JSON):
-- the confidence calibration and the demand interval bounds. NULL for models trained before.
ALTER TABLE models ADD COLUMN adjustments TEXT;
