-- The lines of standalone chat rooms, those that belong to no table (a
-- tournament's), by the room's name ("tournament:ID").
CREATE TABLE chat_rooms (
	room     text NOT NULL,
	seq      integer NOT NULL,
	identity text NOT NULL,
	name     text NOT NULL,
	account  boolean NOT NULL DEFAULT false,
	text     text NOT NULL,
	at       timestamptz NOT NULL,
	PRIMARY KEY (room, seq)
);

-- The writers a room's moderators muted in it.
CREATE TABLE chat_room_mutes (
	room     text NOT NULL,
	identity text NOT NULL,
	PRIMARY KEY (room, identity)
);
