-- Events: arenas and Swiss. rules and clock are the server's JSON;
-- password_hash is an argon2id hash ('' for an open event), never the
-- password; creator is '' for the house's scheduled events; winners is a
-- JSON array of identities. Times are nanoseconds (ends is 0 until a
-- started arena has an end).
CREATE TABLE tournaments (
	id              TEXT PRIMARY KEY,
	kind            TEXT NOT NULL,
	name            TEXT NOT NULL,
	description     TEXT NOT NULL DEFAULT '',
	game            TEXT NOT NULL,
	rules           BLOB,
	clock           BLOB,
	rated           INTEGER NOT NULL,
	starts          INTEGER NOT NULL,
	ends            INTEGER NOT NULL DEFAULT 0,
	minutes         INTEGER NOT NULL DEFAULT 0,
	rounds          INTEGER NOT NULL DEFAULT 0,
	seats           INTEGER NOT NULL,
	password_hash   TEXT NOT NULL DEFAULT '',
	min_rated_games INTEGER NOT NULL DEFAULT 0,
	creator         TEXT NOT NULL DEFAULT '',
	creator_name    TEXT NOT NULL DEFAULT '',
	max_players     INTEGER NOT NULL DEFAULT 0,
	status          TEXT NOT NULL,
	round           INTEGER NOT NULL DEFAULT 0,
	winners         TEXT NOT NULL DEFAULT '[]',
	created         INTEGER NOT NULL
);
CREATE INDEX tournaments_by_status ON tournaments (status, starts);
CREATE INDEX tournaments_by_creator ON tournaments (creator, created);

-- The players of an event with their standing; left_event is 1 once they
-- left or were withdrawn (they keep their points).
CREATE TABLE tournament_entrants (
	tournament TEXT NOT NULL,
	identity   TEXT NOT NULL,
	name       TEXT NOT NULL,
	points     INTEGER NOT NULL DEFAULT 0,
	games      INTEGER NOT NULL DEFAULT 0,
	streak     INTEGER NOT NULL DEFAULT 0,
	forfeits   INTEGER NOT NULL DEFAULT 0,
	byes       INTEGER NOT NULL DEFAULT 0,
	left_event INTEGER NOT NULL DEFAULT 0,
	rating     REAL NOT NULL DEFAULT 0,
	guest      INTEGER NOT NULL DEFAULT 0,
	joined     INTEGER NOT NULL,
	PRIMARY KEY (tournament, identity)
) WITHOUT ROWID;

-- A Swiss's rounds, each with the pairing made for it (JSON), so that a
-- restart plays the same pairing rather than making another.
CREATE TABLE tournament_rounds (
	tournament TEXT NOT NULL,
	number     INTEGER NOT NULL,
	pairing    TEXT NOT NULL,
	started    INTEGER NOT NULL,
	PRIMARY KEY (tournament, number)
) WITHOUT ROWID;

-- An event's games: players is a JSON array of identities in seat order,
-- points their points in the event's units (NULL while under way).
CREATE TABLE tournament_games (
	tournament TEXT NOT NULL,
	table_id   TEXT NOT NULL,
	round      INTEGER NOT NULL DEFAULT 0,
	players    TEXT NOT NULL,
	points     TEXT,
	started    INTEGER NOT NULL,
	ended      INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (tournament, table_id)
) WITHOUT ROWID;
