-- The ownership of live tables among the nodes of a cluster:
-- one row per table ever leased. epoch counts the table's owners; every
-- fenced write of a move or a table checks it under a share lock of this
-- row, so a takeover (which updates the row) waits for the old owner's
-- write in flight, and the old owner's writes after it are refused.
-- expires is by the database's clock.
CREATE TABLE table_leases (
	table_id text PRIMARY KEY,
	owner    text NOT NULL,
	epoch    bigint NOT NULL,
	expires  timestamptz NOT NULL
);

-- The expired leases, for a node looking for tables to take over.
CREATE INDEX table_leases_expires ON table_leases(expires);
