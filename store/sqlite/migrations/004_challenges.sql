-- Challenges between accounts, and each account's presence setting.
CREATE TABLE challenges (
	id        TEXT PRIMARY KEY,
	from_id   TEXT NOT NULL,
	to_id     TEXT NOT NULL,
	game      TEXT NOT NULL,
	rules     BLOB,
	rated     INTEGER NOT NULL,
	status    TEXT NOT NULL,
	table_id  TEXT NOT NULL DEFAULT '',
	created   INTEGER NOT NULL,
	expires   INTEGER NOT NULL
);
CREATE INDEX challenges_from ON challenges (from_id, status);
CREATE INDEX challenges_to ON challenges (to_id, status);

CREATE TABLE presence_settings (
	identity TEXT PRIMARY KEY,
	hidden   INTEGER NOT NULL
) WITHOUT ROWID;
