-- Identities, the hashes of their bearer tokens, tables and moves.
CREATE TABLE identities (
	id      TEXT PRIMARY KEY,
	name    TEXT NOT NULL,
	created INTEGER NOT NULL
);

CREATE TABLE credentials (
	hash     BLOB PRIMARY KEY,
	identity TEXT NOT NULL REFERENCES identities(id),
	table_id TEXT NOT NULL DEFAULT '',
	seat     INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

CREATE TABLE tables (
	id      TEXT PRIMARY KEY,
	game    TEXT NOT NULL,
	status  TEXT NOT NULL,
	created INTEGER NOT NULL,
	updated INTEGER NOT NULL,
	meta    BLOB NOT NULL
);

CREATE INDEX tables_status ON tables(status, created);

CREATE TABLE moves (
	table_id TEXT NOT NULL,
	seq      INTEGER NOT NULL,
	seat     INTEGER NOT NULL,
	move     TEXT NOT NULL,
	at       INTEGER NOT NULL,
	PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
