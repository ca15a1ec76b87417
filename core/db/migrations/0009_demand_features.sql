-- The features a model's demand regressor reads, now a subset of the offer classifier's (JSON list).
-- NULL for models trained before, whose regressor read every feature: they are trained again.
ALTER TABLE models ADD COLUMN demand_features TEXT;
