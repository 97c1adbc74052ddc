-- Invite codes: six characters read aloud that stand for a
-- table. The primary key makes a code unique; a code stays here, reserved,
-- until its table has been finished for 30 days (invite.Reserve), and is
-- only then given to another table (see Write).
CREATE TABLE invite_codes (
	code     TEXT PRIMARY KEY,
	table_id TEXT NOT NULL UNIQUE REFERENCES tables(id)
) WITHOUT ROWID;
