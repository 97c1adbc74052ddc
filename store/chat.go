package store

import (
	"context"
	"time"
)

// ChatMessage is one message of a table's chat. Chat is kept beside the
// table, never in its record: it carries nothing of the game.
type ChatMessage struct {
	Table string
	// Seq numbers a table's messages from 1, in the order they were
	// accepted, across both channels.
	Seq int
	// Channel is "players" or "spectators".
	Channel  string
	Identity string
	// Name is the writer's name as shown when the message was written,
	// or as their account was renamed (or deleted) since.
	Name string
	// Seat is the writer's seat, or -1 for a spectator.
	Seat int
	Text string
	At   time.Time
}

// Mute says that an identity does not want a channel of a table's chat.
type Mute struct {
	Table    string
	Identity string
	Channel  string
}

// Chats persists the chat of tables and who muted it.
type Chats interface {
	// AddChat stores message m; a Seq already stored for its table is
	// refused with ErrConflict.
	AddChat(ctx context.Context, m ChatMessage) error
	// Chat returns up to limit messages of table id with Seq after
	// since, oldest first.
	Chat(ctx context.Context, id string, since, limit int) ([]ChatMessage, error)
	// LastChat returns the Seq of table id's last message (0: none).
	LastChat(ctx context.Context, id string) (int, error)
	// SetMute mutes (or, with muted false, unmutes) m's channel for m's
	// identity.
	SetMute(ctx context.Context, m Mute, muted bool) error
	// Mutes returns every mute of table id.
	Mutes(ctx context.Context, id string) ([]Mute, error)
}

// RoomLine is one line of a standalone chat room: one that belongs to no
// table (a tournament's), named by its owner ("tournament:ID").
type RoomLine struct {
	Room string
	// Seq numbers a room's lines from 1, in the order they were accepted.
	Seq      int
	Identity string
	// Name is the writer's name as shown when the line was written, or
	// as their account was renamed (or deleted) since.
	Name string
	// Account says the writer had an account (not a guest's identity).
	Account bool
	Text    string
	At      time.Time
}

// ChatRooms persists standalone chat rooms: their lines, and the writers
// a room's moderators muted in it. A Store that keeps them implements it
// too.
type ChatRooms interface {
	// AppendRoomChat stores line l; a Seq already stored for its room is
	// refused with ErrConflict.
	AppendRoomChat(ctx context.Context, l RoomLine) error
	// RoomChatSince returns up to limit lines of room with Seq after
	// since, oldest first.
	RoomChatSince(ctx context.Context, room string, since, limit int) ([]RoomLine, error)
	// LastRoomChat returns the Seq of room's last line (0: none).
	LastRoomChat(ctx context.Context, room string) (int, error)
	// SetRoomMute mutes (or, with muted false, unmutes) identity in room.
	SetRoomMute(ctx context.Context, room, identity string, muted bool) error
	// RoomMutes returns the identities muted in room, in order.
	RoomMutes(ctx context.Context, room string) ([]string, error)
}

// GuestChat keeps each account's choice to take chat at its tables from
// players with accounts only: a guest costs nothing to become, so a
// player a moderator muted, or one a player blocked, can come back as a
// guest, and a player who would rather not hear from guests says so once.
// A Store that keeps it implements it too.
type GuestChat interface {
	// SetGuestChat stores whether guests may write in the chat of the
	// tables where identity sits (they may until it says otherwise).
	SetGuestChat(ctx context.Context, identity string, allowed bool) error
	// NoGuestChat returns those of ids that take no chat from guests.
	NoGuestChat(ctx context.Context, ids []string) (map[string]bool, error)
}
