-- When each session or identity token (table_id '') was last used, in
-- nanoseconds since 1970, noted at most once a day; 0 until noted, or
-- until the next sweep of the sessions stamps it with the sweep's time.
-- An account's session unused for long ends (store.Players.ExpireSessions).
ALTER TABLE credentials ADD COLUMN used INTEGER NOT NULL DEFAULT 0;

CREATE INDEX credentials_by_use ON credentials(used) WHERE table_id = '';

-- An identity's credentials are found by its id (its sessions, to end
-- them; all, to delete them) without reading every seat's token.
CREATE INDEX credentials_by_identity ON credentials(identity);
