-- Reports of players to the moderators, open until one closes them. A
-- reporter reports a player about a table once.
CREATE TABLE reports (
	id        TEXT PRIMARY KEY,
	reporter  TEXT NOT NULL,
	subject   TEXT NOT NULL,
	reason    TEXT NOT NULL,
	text      TEXT NOT NULL,
	table_id  TEXT NOT NULL,
	status    TEXT NOT NULL,
	created   INTEGER NOT NULL,
	closed    INTEGER NOT NULL DEFAULT 0,
	closed_by TEXT NOT NULL DEFAULT '',
	UNIQUE (reporter, subject, table_id)
);
CREATE INDEX reports_queue ON reports (status, created);

-- Who holds the moderator role (given on the server's machine only).
CREATE TABLE moderators (
	identity TEXT PRIMARY KEY
);

-- Until when a moderator kept an identity out of every chat.
CREATE TABLE chat_bans (
	identity TEXT PRIMARY KEY,
	until    INTEGER NOT NULL
);

-- Everything moderators did, with who, whom, when and why.
CREATE TABLE moderation_log (
	seq            INTEGER PRIMARY KEY AUTOINCREMENT,
	moderator      TEXT NOT NULL,
	moderator_name TEXT NOT NULL,
	action         TEXT NOT NULL,
	subject        TEXT NOT NULL,
	subject_name   TEXT NOT NULL,
	detail         TEXT NOT NULL,
	reason         TEXT NOT NULL,
	at             INTEGER NOT NULL
);
