-- PostgreSQL's form of 0022_untimed_section_uid.sql.
ALTER TABLE unscheduled_sections ADD COLUMN uid TEXT COLLATE "C";
UPDATE unscheduled_sections SET uid = replace(gen_random_uuid()::text, '-', '');
CREATE UNIQUE INDEX unscheduled_sections_uid ON unscheduled_sections (uid);
