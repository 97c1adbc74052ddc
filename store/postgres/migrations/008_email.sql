-- The e-mail address an account gave, with the kinds of mail its owner
-- agreed to. A row exists only once the owner asked for mail; the tokens
-- of the links mailed to it are kept as hashes. Deleting the account
-- deletes the row in the same transaction (ON DELETE CASCADE).
CREATE TABLE emails (
	identity         text PRIMARY KEY REFERENCES accounts(identity) ON DELETE CASCADE,
	address          text NOT NULL,
	verified         boolean NOT NULL DEFAULT false,
	your_move        boolean NOT NULL DEFAULT false,
	game_end         boolean NOT NULL DEFAULT false,
	challenge        boolean NOT NULL DEFAULT false,
	verify_hash      bytea UNIQUE,
	verify_sent      timestamptz,
	unsubscribe_hash bytea NOT NULL UNIQUE,
	updated          timestamptz NOT NULL
);
