-- Follows and blocks between accounts: kind is 'follow' or 'block', and
-- from_id has that relation to to_id since created. The second index
-- answers "who follows (or blocks) this player".
CREATE TABLE relations (
	kind    text NOT NULL,
	from_id text NOT NULL,
	to_id   text NOT NULL,
	created timestamptz NOT NULL,
	PRIMARY KEY (kind, from_id, to_id)
);
CREATE INDEX relations_to ON relations (kind, to_id);
