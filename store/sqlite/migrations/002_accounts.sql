-- Accounts, ratings, rating history, and an index of each identity's
-- finished games.

-- An account is an identity with a unique name and a password. key is
-- the name folded to lower case (account.Key), so that names differing
-- only in case are one name; name keeps the owner's spelling.
CREATE TABLE accounts (
	identity TEXT PRIMARY KEY REFERENCES identities(id),
	name     TEXT NOT NULL,
	key      TEXT NOT NULL UNIQUE,
	hash     TEXT NOT NULL,
	created  INTEGER NOT NULL
);

-- One rating per identity and pool (a game, or a game's mode).
CREATE TABLE ratings (
	identity   TEXT NOT NULL REFERENCES identities(id),
	pool       TEXT NOT NULL,
	rating     REAL NOT NULL,
	rd         REAL NOT NULL,
	volatility REAL NOT NULL,
	games      INTEGER NOT NULL,
	updated    INTEGER NOT NULL,
	PRIMARY KEY (identity, pool)
) WITHOUT ROWID;

CREATE INDEX ratings_board ON ratings(pool, rating);

-- Every finished game of every identity that sat at it, written in the
-- transaction that stores the game's end. result is "win", "loss" or
-- "draw"; NULL for games that ended before this migration (the server
-- reads it from the record). For rated games, rating and rd are the
-- player's after the game, before_rating the rating before it, and
-- rated_games how many rated games of the pool the player had then.
CREATE TABLE player_games (
	identity      TEXT NOT NULL,
	table_id      TEXT NOT NULL,
	seat          INTEGER NOT NULL,
	game          TEXT NOT NULL,
	pool          TEXT NOT NULL DEFAULT '',
	result        TEXT,
	ended         INTEGER NOT NULL,
	before_rating REAL,
	rating        REAL,
	rd            REAL,
	rated_games   INTEGER,
	PRIMARY KEY (identity, table_id)
) WITHOUT ROWID;

CREATE INDEX player_games_by_end ON player_games(identity, ended, table_id);
CREATE INDEX player_games_by_game ON player_games(identity, game, ended, table_id);

-- The finished games stored before this migration, from their tables'
-- seats.
INSERT OR IGNORE INTO player_games (identity, table_id, seat, game, ended)
SELECT json_extract(s.value, '$.identity'), t.id, CAST(s.key AS INTEGER), t.game, t.updated
FROM tables t, json_each(CAST(t.meta AS TEXT), '$.seats') s
WHERE t.status = 'finished' AND json_extract(s.value, '$.identity') IS NOT NULL
	AND json_extract(s.value, '$.identity') != '';
