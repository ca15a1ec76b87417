-- A session ended by a change to its person's access (a new password, a new role or department) is kept,
-- with why, until its time runs out: the page it served is told why it was signed out.
ALTER TABLE browser_sessions ADD COLUMN ended_because TEXT COLLATE "C";

-- A personal token's revocation is recorded: who revoked it (in words, as they were named then) and why
-- (its owner or the registrar revoked it, or a new password revoked every token of its person).
ALTER TABLE api_tokens ADD COLUMN revoked_by TEXT COLLATE "C";
ALTER TABLE api_tokens ADD COLUMN revoked_because TEXT COLLATE "C";
