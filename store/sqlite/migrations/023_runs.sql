-- The server's runs on this database: when each started and the last time
-- it was known to be running, so that the clocks of the games in play
-- stand still between one run and the next.
CREATE TABLE runs (
	id      INTEGER PRIMARY KEY,
	started INTEGER NOT NULL,
	alive   INTEGER NOT NULL
);
