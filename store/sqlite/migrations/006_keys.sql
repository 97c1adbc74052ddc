-- The accounts' SSH public keys: the SSH door signs in the
-- account whose key the client proves it holds. fingerprint is the key's
-- SHA-256 fingerprint ("SHA256:…"); key the authorized_keys form without
-- the comment. A key belongs to one account at most.
CREATE TABLE ssh_keys (
	fingerprint TEXT PRIMARY KEY,
	identity    TEXT NOT NULL REFERENCES identities(id),
	key         TEXT NOT NULL,
	comment     TEXT NOT NULL DEFAULT '',
	added       INTEGER NOT NULL
) WITHOUT ROWID;

CREATE INDEX ssh_keys_by_identity ON ssh_keys(identity, added);

-- A deleted account's keys go with it, in the same transaction.
CREATE TRIGGER ssh_keys_account_deleted AFTER DELETE ON accounts
BEGIN
	DELETE FROM ssh_keys WHERE identity = OLD.identity;
END;
