-- Each table's chat, in both channels, and who muted which channel.
-- (Clocks need no table: a table's clock is one of its rules, and its
-- deadlines follow from the stored times of its start and moves.)
CREATE TABLE chat (
	table_id TEXT NOT NULL,
	seq      INTEGER NOT NULL,
	channel  TEXT NOT NULL,
	identity TEXT NOT NULL,
	name     TEXT NOT NULL,
	seat     INTEGER NOT NULL,
	text     TEXT NOT NULL,
	at       INTEGER NOT NULL,
	PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;

CREATE TABLE chat_mutes (
	table_id TEXT NOT NULL,
	identity TEXT NOT NULL,
	channel  TEXT NOT NULL,
	PRIMARY KEY (table_id, identity, channel)
) WITHOUT ROWID;
