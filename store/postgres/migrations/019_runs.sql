-- The server's runs on this database: when each started and the last time
-- it was known to be running, so that the clocks of the games in play
-- stand still between one run and the next (a single server; the nodes of
-- a cluster do not use it).
CREATE TABLE runs (
	id      bigserial PRIMARY KEY,
	started timestamptz NOT NULL,
	alive   timestamptz NOT NULL
);
