-- Reports of players to the moderators, open until one closes them. A
-- reporter reports a player about a table once.
CREATE TABLE reports (
	id        text PRIMARY KEY,
	reporter  text NOT NULL,
	subject   text NOT NULL,
	reason    text NOT NULL,
	text      text NOT NULL,
	table_id  text NOT NULL,
	status    text NOT NULL,
	created   timestamptz NOT NULL,
	closed    timestamptz,
	closed_by text NOT NULL DEFAULT '',
	UNIQUE (reporter, subject, table_id)
);
CREATE INDEX reports_queue ON reports (status, created);

-- Who holds the moderator role (given on the server's machine only).
CREATE TABLE moderators (
	identity text PRIMARY KEY
);

-- Until when a moderator kept an identity out of every chat.
CREATE TABLE chat_bans (
	identity text PRIMARY KEY,
	until    timestamptz NOT NULL
);

-- Everything moderators did, with who, whom, when and why.
CREATE TABLE moderation_log (
	seq            bigserial PRIMARY KEY,
	moderator      text NOT NULL,
	moderator_name text NOT NULL,
	action         text NOT NULL,
	subject        text NOT NULL,
	subject_name   text NOT NULL,
	detail         text NOT NULL,
	reason         text NOT NULL,
	at             timestamptz NOT NULL
);
