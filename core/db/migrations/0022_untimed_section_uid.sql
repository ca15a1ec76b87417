-- A section without a time keeps one id across stores too (`uid`, from the same space as the meetings'):
-- its changes are recorded, undone, published and fetched as a meeting's are, and a section auto-fill
-- gives a time keeps its id as the meeting it becomes.
ALTER TABLE unscheduled_sections ADD COLUMN uid TEXT;
UPDATE unscheduled_sections SET uid = lower(hex(randomblob(16)));
CREATE UNIQUE INDEX unscheduled_sections_uid ON unscheduled_sections (uid);
