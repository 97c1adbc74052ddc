-- The engines' analysis of a finished game, kept beside its
-- record so that it is computed once, not again after a restart. Filed
-- under the version of the analysis object that made it.
CREATE TABLE analyses (
	table_id TEXT NOT NULL REFERENCES tables(id),
	version  INTEGER NOT NULL,
	body     BLOB NOT NULL,
	PRIMARY KEY (table_id, version)
) WITHOUT ROWID;
