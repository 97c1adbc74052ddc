-- A report may be about a line of an event's chat: the event, '' for a
-- report about none (every report made before). A reporter reports a
-- player about a table, or about an event, once.
ALTER TABLE reports ADD COLUMN tournament text NOT NULL DEFAULT '';
ALTER TABLE reports DROP CONSTRAINT reports_reporter_subject_table_id_key;
ALTER TABLE reports ADD CONSTRAINT reports_once UNIQUE (reporter, subject, table_id, tournament);
