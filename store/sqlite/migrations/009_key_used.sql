-- When the SSH door last signed an account in with each key (0: never),
-- so that its owner can see a key in use they did not expect.
ALTER TABLE ssh_keys ADD COLUMN used INTEGER NOT NULL DEFAULT 0;
