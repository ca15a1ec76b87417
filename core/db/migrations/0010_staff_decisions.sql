-- Staff decisions on a run's courses: offer or skip, the number of sections, and why. The model's
-- own decision (offer, projected_sections) stays beside it; NULL where staff have not decided.
ALTER TABLE prediction_entries ADD COLUMN staff_decision TEXT CHECK (staff_decision IN ('offer', 'skip'));
ALTER TABLE prediction_entries ADD COLUMN staff_sections INTEGER CHECK (staff_sections BETWEEN 1 AND 1000);
ALTER TABLE prediction_entries ADD COLUMN staff_reason TEXT;
ALTER TABLE prediction_entries ADD COLUMN decided_at TEXT;
