-- Events: arenas and Swiss. rules and clock are the server's JSON;
-- password_hash is an argon2id hash ('' for an open event), never the
-- password; creator is '' for the house's scheduled events; winners is a
-- JSON array of identities; ends is NULL until a started arena has an end.
CREATE TABLE tournaments (
	id              text PRIMARY KEY,
	kind            text NOT NULL,
	name            text NOT NULL,
	description     text NOT NULL DEFAULT '',
	game            text NOT NULL,
	rules           bytea,
	clock           bytea,
	rated           boolean NOT NULL,
	starts          timestamptz NOT NULL,
	ends            timestamptz,
	minutes         integer NOT NULL DEFAULT 0,
	rounds          integer NOT NULL DEFAULT 0,
	seats           integer NOT NULL,
	password_hash   text NOT NULL DEFAULT '',
	min_rated_games integer NOT NULL DEFAULT 0,
	creator         text NOT NULL DEFAULT '',
	creator_name    text NOT NULL DEFAULT '',
	max_players     integer NOT NULL DEFAULT 0,
	status          text NOT NULL,
	round           integer NOT NULL DEFAULT 0,
	winners         text NOT NULL DEFAULT '[]',
	created         timestamptz NOT NULL
);
CREATE INDEX tournaments_by_status ON tournaments (status, starts);
CREATE INDEX tournaments_by_creator ON tournaments (creator, created);

-- The players of an event with their standing; left_event is set once
-- they left or were withdrawn (they keep their points).
CREATE TABLE tournament_entrants (
	tournament text NOT NULL,
	identity   text NOT NULL,
	name       text NOT NULL,
	points     integer NOT NULL DEFAULT 0,
	games      integer NOT NULL DEFAULT 0,
	streak     integer NOT NULL DEFAULT 0,
	forfeits   integer NOT NULL DEFAULT 0,
	byes       integer NOT NULL DEFAULT 0,
	left_event boolean NOT NULL DEFAULT false,
	rating     double precision NOT NULL DEFAULT 0,
	guest      boolean NOT NULL DEFAULT false,
	joined     timestamptz NOT NULL,
	PRIMARY KEY (tournament, identity)
);

-- A Swiss's rounds, each with the pairing made for it (JSON), so that a
-- restart or another node plays the same pairing rather than making
-- another.
CREATE TABLE tournament_rounds (
	tournament text NOT NULL,
	number     integer NOT NULL,
	pairing    text NOT NULL,
	started    timestamptz NOT NULL,
	PRIMARY KEY (tournament, number)
);

-- An event's games: players is a JSON array of identities in seat order,
-- points their points in the event's units (NULL while under way).
CREATE TABLE tournament_games (
	tournament text NOT NULL,
	table_id   text NOT NULL,
	round      integer NOT NULL DEFAULT 0,
	players    text NOT NULL,
	points     text,
	started    timestamptz NOT NULL,
	ended      timestamptz,
	PRIMARY KEY (tournament, table_id)
);
