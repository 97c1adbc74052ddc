-- The password reset link last mailed to a confirmed address: the hash
-- of its token (NULL when none waits) and when it was mailed (it
-- expires).
ALTER TABLE emails ADD COLUMN reset_hash bytea UNIQUE;
ALTER TABLE emails ADD COLUMN reset_sent timestamptz;
