-- When the SSH door last signed an account in with each key (NULL:
-- never), so that its owner can see a key in use they did not expect.
ALTER TABLE ssh_keys ADD COLUMN used timestamptz;
