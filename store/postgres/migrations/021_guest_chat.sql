-- An account may take chat at its tables from players with accounts only
-- (no_guest_chat true); every account takes it from guests too until it
-- says otherwise.
ALTER TABLE presence_settings ADD COLUMN no_guest_chat boolean NOT NULL DEFAULT false;
