-- A renamed or deleted account's chat lines are renamed with it: these
-- find them without reading every line ever written.
CREATE INDEX chat_by_identity ON chat(identity);
CREATE INDEX chat_rooms_by_identity ON chat_rooms(identity);
