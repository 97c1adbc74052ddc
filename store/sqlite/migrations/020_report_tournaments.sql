-- A report may be about a line of an event's chat: the event, '' for a
-- report about none (every report made before). A reporter reports a
-- player about a table, or about an event, once: the uniqueness takes
-- the event in, and SQLite changes a table's UNIQUE only by rebuilding
-- it.
CREATE TABLE reports_new (
	id         TEXT PRIMARY KEY,
	reporter   TEXT NOT NULL,
	subject    TEXT NOT NULL,
	reason     TEXT NOT NULL,
	text       TEXT NOT NULL,
	table_id   TEXT NOT NULL,
	tournament TEXT NOT NULL DEFAULT '',
	seq        INTEGER NOT NULL DEFAULT 0,
	status     TEXT NOT NULL,
	created    INTEGER NOT NULL,
	closed     INTEGER NOT NULL DEFAULT 0,
	closed_by  TEXT NOT NULL DEFAULT '',
	UNIQUE (reporter, subject, table_id, tournament)
);
INSERT INTO reports_new (id, reporter, subject, reason, text, table_id, seq, status, created, closed, closed_by)
	SELECT id, reporter, subject, reason, text, table_id, seq, status, created, closed, closed_by FROM reports;
DROP TABLE reports;
ALTER TABLE reports_new RENAME TO reports;
CREATE INDEX reports_queue ON reports (status, created);
