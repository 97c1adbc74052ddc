-- When each session or identity token (table_id '') was last used, noted
-- at most once a day; NULL until noted, or until the next sweep of the
-- sessions stamps it with the sweep's time. An account's session unused
-- for long ends (store.Players.ExpireSessions).
ALTER TABLE credentials ADD COLUMN used timestamptz;

CREATE INDEX credentials_by_use ON credentials(used) WHERE table_id = '';
