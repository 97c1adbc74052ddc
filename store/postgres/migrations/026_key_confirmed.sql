-- A key pasted on a page proves nothing of whose it is: anyone may paste
-- another player's public key. A key signs in only once its holder has
-- confirmed it through the SSH door. The keys already kept were pasted
-- the same way, so they wait for a confirmation too: each asks its
-- account's password once, at the next sign-in by SSH.
ALTER TABLE ssh_keys ADD COLUMN confirmed boolean NOT NULL DEFAULT false;
