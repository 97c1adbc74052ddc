-- The e-mail address an account gave, with the kinds of mail its owner
-- agreed to (your_move, game_end, challenge). A row exists only once the
-- owner asked for mail; the tokens of the links mailed to it are kept as
-- hashes. verify_sent is when the pending confirmation link was mailed
-- (nanoseconds; it expires).
CREATE TABLE emails (
	identity    TEXT PRIMARY KEY REFERENCES identities(id),
	address     TEXT NOT NULL,
	verified    INTEGER NOT NULL DEFAULT 0,
	your_move   INTEGER NOT NULL DEFAULT 0,
	game_end    INTEGER NOT NULL DEFAULT 0,
	challenge   INTEGER NOT NULL DEFAULT 0,
	verify_hash BLOB UNIQUE,
	verify_sent INTEGER NOT NULL DEFAULT 0,
	updated     INTEGER NOT NULL
) WITHOUT ROWID;

-- The hashes of the unsubscribe links' tokens, one for each message
-- mailed (only the hash is kept, so each message carries its own).
CREATE TABLE email_unsubscribes (
	hash     BLOB PRIMARY KEY,
	identity TEXT NOT NULL,
	created  INTEGER NOT NULL
) WITHOUT ROWID;

CREATE INDEX email_unsubscribes_by_identity ON email_unsubscribes(identity, created);

-- A forgotten address takes its tokens with it, and a deleted account
-- its address, in the same transaction.
CREATE TRIGGER emails_deleted AFTER DELETE ON emails
BEGIN
	DELETE FROM email_unsubscribes WHERE identity = OLD.identity;
END;

CREATE TRIGGER emails_account_deleted AFTER DELETE ON accounts
BEGIN
	DELETE FROM emails WHERE identity = OLD.identity;
END;
