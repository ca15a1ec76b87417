-- A meeting of a joint group reads the group's other members on every write and read of it: an
-- index finds them without scanning the term. (Written for both stores: SQLite and PostgreSQL.)
CREATE INDEX schedule_entries_joint ON schedule_entries (year, semester, joint_group);
