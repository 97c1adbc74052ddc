-- Daily puzzles: the one puzzle of each game and day, and each player's
-- one attempt at it. A day is "YYYY-MM-DD" in UTC.
CREATE TABLE daily_puzzles (
	game    TEXT NOT NULL,
	day     TEXT NOT NULL,
	setup   BLOB NOT NULL,
	created INTEGER NOT NULL,
	PRIMARY KEY (game, day)
) WITHOUT ROWID;

CREATE TABLE daily_attempts (
	game     TEXT NOT NULL,
	day      TEXT NOT NULL,
	identity TEXT NOT NULL,
	name     TEXT NOT NULL,
	account  INTEGER NOT NULL,
	table_id TEXT NOT NULL,
	started  INTEGER NOT NULL,
	finished INTEGER NOT NULL DEFAULT 0,
	solved   INTEGER NOT NULL DEFAULT 0,
	moves    INTEGER NOT NULL DEFAULT 0,
	wrong    INTEGER NOT NULL DEFAULT 0,
	millis   INTEGER NOT NULL DEFAULT 0,
	marks    TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (game, day, identity)
) WITHOUT ROWID;

CREATE INDEX daily_attempts_identity ON daily_attempts (identity, game, day);
