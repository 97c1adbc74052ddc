-- The guests the SSH door remembers: the guest identity a public key
-- under a login (key: the fingerprint and the login) or a resume code last
-- played as, so that a guest who comes back through any server plays as
-- the same guest. No token is kept: the door is given a new one each time.
CREATE TABLE ssh_guests (
	key      text PRIMARY KEY,
	name     text NOT NULL,
	identity text NOT NULL REFERENCES identities(id),
	used     timestamptz NOT NULL
);

CREATE INDEX ssh_guests_by_used ON ssh_guests(used);
CREATE INDEX ssh_guests_by_identity ON ssh_guests(identity);
