-- Everything the SQLite store holds (store/sqlite/migrations 001-007),
-- in PostgreSQL's types: times are timestamptz (to the microsecond),
-- opaque descriptions bytea, flags boolean.

-- Identities, the hashes of their bearer tokens, tables and moves.
CREATE TABLE identities (
	id      text PRIMARY KEY,
	name    text NOT NULL,
	created timestamptz NOT NULL
);

CREATE TABLE credentials (
	hash     bytea PRIMARY KEY,
	identity text NOT NULL REFERENCES identities(id),
	table_id text NOT NULL DEFAULT '',
	seat     integer NOT NULL DEFAULT 0
);

CREATE INDEX credentials_identity ON credentials(identity);

CREATE TABLE tables (
	id      text PRIMARY KEY,
	game    text NOT NULL,
	status  text NOT NULL,
	created timestamptz NOT NULL,
	updated timestamptz NOT NULL,
	meta    bytea NOT NULL
);

CREATE INDEX tables_status ON tables(status, created);
-- The live tables, read at every start and by every takeover.
CREATE INDEX tables_live ON tables(id) WHERE status <> 'finished';

-- A table's accepted moves; (table_id, seq) refuses a move stored twice.
CREATE TABLE moves (
	table_id text NOT NULL,
	seq      integer NOT NULL,
	seat     integer NOT NULL,
	move     text NOT NULL,
	at       timestamptz NOT NULL,
	PRIMARY KEY (table_id, seq)
);

-- Accounts: an identity with a unique name (key: folded to lower case)
-- and a password hash.
CREATE TABLE accounts (
	identity text PRIMARY KEY REFERENCES identities(id),
	name     text NOT NULL,
	key      text NOT NULL UNIQUE,
	hash     text NOT NULL,
	created  timestamptz NOT NULL
);

-- One rating per identity and pool (a game, or a game's mode).
CREATE TABLE ratings (
	identity   text NOT NULL REFERENCES identities(id),
	pool       text NOT NULL,
	rating     double precision NOT NULL,
	rd         double precision NOT NULL,
	volatility double precision NOT NULL,
	games      integer NOT NULL,
	updated    timestamptz NOT NULL,
	PRIMARY KEY (identity, pool)
);

CREATE INDEX ratings_board ON ratings(pool, rating);

-- Every finished game of every identity that sat at it, written in the
-- transaction that stores the game's end. For rated games, rating and rd
-- are the player's after the game, before_rating the rating before it,
-- and rated_games how many rated games of the pool the player had then.
CREATE TABLE player_games (
	identity      text NOT NULL,
	table_id      text NOT NULL,
	seat          integer NOT NULL,
	game          text NOT NULL,
	pool          text NOT NULL DEFAULT '',
	result        text,
	ended         timestamptz NOT NULL,
	before_rating double precision,
	rating        double precision,
	rd            double precision,
	rated_games   integer,
	PRIMARY KEY (identity, table_id)
);

CREATE INDEX player_games_by_end ON player_games(identity, ended, table_id);
CREATE INDEX player_games_by_game ON player_games(identity, game, ended, table_id);

-- Each table's chat, in both channels, and who muted which channel.
CREATE TABLE chat (
	table_id text NOT NULL,
	seq      integer NOT NULL,
	channel  text NOT NULL,
	identity text NOT NULL,
	name     text NOT NULL,
	seat     integer NOT NULL,
	text     text NOT NULL,
	at       timestamptz NOT NULL,
	PRIMARY KEY (table_id, seq)
);

CREATE TABLE chat_mutes (
	table_id text NOT NULL,
	identity text NOT NULL,
	channel  text NOT NULL,
	PRIMARY KEY (table_id, identity, channel)
);

-- Challenges between accounts, and each account's presence setting.
CREATE TABLE challenges (
	id       text PRIMARY KEY,
	from_id  text NOT NULL,
	to_id    text NOT NULL,
	game     text NOT NULL,
	rules    bytea,
	rated    boolean NOT NULL,
	status   text NOT NULL,
	table_id text NOT NULL DEFAULT '',
	created  timestamptz NOT NULL,
	expires  timestamptz NOT NULL
);

CREATE INDEX challenges_from ON challenges(from_id, status);
CREATE INDEX challenges_to ON challenges(to_id, status);

CREATE TABLE presence_settings (
	identity text PRIMARY KEY,
	hidden   boolean NOT NULL
);

-- Daily puzzles: the one puzzle of each game and day ("YYYY-MM-DD", UTC),
-- and each player's one attempt at it.
CREATE TABLE daily_puzzles (
	game    text NOT NULL,
	day     text NOT NULL,
	setup   bytea NOT NULL,
	created timestamptz NOT NULL,
	PRIMARY KEY (game, day)
);

CREATE TABLE daily_attempts (
	game     text NOT NULL,
	day      text NOT NULL,
	identity text NOT NULL,
	name     text NOT NULL,
	account  boolean NOT NULL,
	table_id text NOT NULL,
	started  timestamptz NOT NULL,
	finished boolean NOT NULL DEFAULT false,
	solved   boolean NOT NULL DEFAULT false,
	moves    integer NOT NULL DEFAULT 0,
	wrong    integer NOT NULL DEFAULT 0,
	millis   bigint NOT NULL DEFAULT 0,
	marks    text NOT NULL DEFAULT '',
	PRIMARY KEY (game, day, identity)
);

CREATE INDEX daily_attempts_identity ON daily_attempts(identity, game, day);

-- The accounts' SSH public keys; a key belongs to one account at most.
-- DeleteAccount deletes an account's keys in its transaction.
CREATE TABLE ssh_keys (
	fingerprint text PRIMARY KEY,
	identity    text NOT NULL REFERENCES identities(id),
	key         text NOT NULL,
	comment     text NOT NULL DEFAULT '',
	added       timestamptz NOT NULL
);

CREATE INDEX ssh_keys_by_identity ON ssh_keys(identity, added);

-- Invite codes: a code stays reserved until its table has been finished
-- for invite.Reserve, and is only then given to another table.
CREATE TABLE invite_codes (
	code     text PRIMARY KEY,
	table_id text NOT NULL UNIQUE REFERENCES tables(id)
);
