-- A meeting of a joint group reads the group's other members on every write and read of it: an
-- index finds them without scanning the term. On the label alone, so that it never looks like a
-- way into a term's meetings to a query planner. (Written for both stores: SQLite and PostgreSQL.)
CREATE INDEX schedule_entries_joint ON schedule_entries (joint_group);
