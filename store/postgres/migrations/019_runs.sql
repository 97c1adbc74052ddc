-- The servers' runs on this database (a single server's, or each node's
-- of a cluster): when each started and the last time it was known to be
-- running, so that the clocks of the games in play stand still while no
-- server ran.
CREATE TABLE runs (
	id      bigserial PRIMARY KEY,
	started timestamptz NOT NULL,
	alive   timestamptz NOT NULL
);
