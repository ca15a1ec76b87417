-- A row that forgets its department must fail, not join department 1 (see the SQLite file).
ALTER TABLE courses ALTER COLUMN department_id DROP DEFAULT;
ALTER TABLE offerings ALTER COLUMN department_id DROP DEFAULT;
ALTER TABLE models ALTER COLUMN department_id DROP DEFAULT;
ALTER TABLE prediction_runs ALTER COLUMN department_id DROP DEFAULT;
ALTER TABLE settings ALTER COLUMN department_id DROP DEFAULT;
ALTER TABLE term_parts ALTER COLUMN department_id DROP DEFAULT;
ALTER TABLE schedule_entries ALTER COLUMN department_id DROP DEFAULT;
ALTER TABLE confirmed_terms ALTER COLUMN department_id DROP DEFAULT;
ALTER TABLE term_notes ALTER COLUMN department_id DROP DEFAULT;
