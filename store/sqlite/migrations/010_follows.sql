-- Follows and blocks between accounts: kind is 'follow' or 'block', and
-- from_id has that relation to to_id since created (Unix nanoseconds).
-- The second index answers "who follows (or blocks) this player".
CREATE TABLE relations (
	kind    TEXT NOT NULL,
	from_id TEXT NOT NULL,
	to_id   TEXT NOT NULL,
	created INTEGER NOT NULL,
	PRIMARY KEY (kind, from_id, to_id)
) WITHOUT ROWID;
CREATE INDEX relations_to ON relations (kind, to_id);
