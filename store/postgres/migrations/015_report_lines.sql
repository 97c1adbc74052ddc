-- A report may be about one line of a table's chat: its number, 0 for a
-- report about no line (every report made before).
ALTER TABLE reports ADD COLUMN seq integer NOT NULL DEFAULT 0;
