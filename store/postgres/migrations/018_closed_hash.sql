-- A moderator's closing keeps the account's password hash aside, so that
-- a reopening gives it back; '' for every account closed before, which a
-- reopening leaves without a password.
ALTER TABLE accounts ADD COLUMN closed_hash text NOT NULL DEFAULT '';
