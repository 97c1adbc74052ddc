-- The lines of standalone chat rooms, those that belong to no table (a
-- tournament's), by the room's name ("tournament:ID"); at is nanoseconds;
-- account is 1 when the writer had an account.
CREATE TABLE chat_rooms (
	room     TEXT NOT NULL,
	seq      INTEGER NOT NULL,
	identity TEXT NOT NULL,
	name     TEXT NOT NULL,
	account  INTEGER NOT NULL DEFAULT 0,
	text     TEXT NOT NULL,
	at       INTEGER NOT NULL,
	PRIMARY KEY (room, seq)
) WITHOUT ROWID;

-- The writers a room's moderators muted in it.
CREATE TABLE chat_room_mutes (
	room     TEXT NOT NULL,
	identity TEXT NOT NULL,
	PRIMARY KEY (room, identity)
) WITHOUT ROWID;
