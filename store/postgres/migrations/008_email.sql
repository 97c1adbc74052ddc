-- The e-mail address an account gave, with the kinds of mail its owner
-- agreed to. A row exists only once the owner asked for mail; the tokens
-- of the links mailed to it are kept as hashes. Deleting the account
-- deletes the row in the same transaction (ON DELETE CASCADE).
CREATE TABLE emails (
	identity    text PRIMARY KEY REFERENCES accounts(identity) ON DELETE CASCADE,
	address     text NOT NULL,
	verified    boolean NOT NULL DEFAULT false,
	your_move   boolean NOT NULL DEFAULT false,
	game_end    boolean NOT NULL DEFAULT false,
	challenge   boolean NOT NULL DEFAULT false,
	verify_hash bytea UNIQUE,
	verify_sent timestamptz,
	updated     timestamptz NOT NULL
);

-- The hashes of the unsubscribe links' tokens, one for each message
-- mailed (only the hash is kept, so each message carries its own); they
-- go with the address.
CREATE TABLE email_unsubscribes (
	hash     bytea PRIMARY KEY,
	identity text NOT NULL REFERENCES emails(identity) ON DELETE CASCADE,
	created  timestamptz NOT NULL
);

CREATE INDEX email_unsubscribes_by_identity ON email_unsubscribes(identity, created);
