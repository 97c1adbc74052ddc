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
	Name     string
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
