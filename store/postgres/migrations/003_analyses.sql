-- The engines' analysis of a finished game, kept beside its
-- record so that it is computed once for every node and every restart.
-- Filed under the version of the analysis object that made it.
CREATE TABLE analyses (
	table_id text NOT NULL REFERENCES tables(id),
	version  integer NOT NULL,
	body     bytea NOT NULL,
	PRIMARY KEY (table_id, version)
);
