-- The password reset link last mailed to a confirmed address: the hash
-- of its token (NULL when none waits) and when it was mailed
-- (nanoseconds; it expires).
ALTER TABLE emails ADD COLUMN reset_hash BLOB;
ALTER TABLE emails ADD COLUMN reset_sent INTEGER NOT NULL DEFAULT 0;

CREATE UNIQUE INDEX emails_by_reset_hash ON emails(reset_hash);
