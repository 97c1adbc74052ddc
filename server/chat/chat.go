package chat

import (
	"context"
	"time"

	"parlour/internal/text"
	"parlour/server/limit"
	"parlour/server/refuse"
)

// MaxLen caps a chat message, in characters (a letter with its accents
// counts once, as in names).
const MaxLen = 200

// Clean checks a chat message and returns it as the server keeps it:
// NFC-normalised, without spaces at either end. It is refused, with the
// rule it broke, when it is empty, not UTF-8, holds a control character
// (a line break included), a direction control, an invisible or
// private-use character (see package text), or has more than MaxLen
// characters. A zero width joiner between two characters (as emoji
// sequences have it) and a variation selector after one are kept.
func Clean(s string) (string, error) {
	s, err := text.Check(s, text.Rules{Noun: "message", Max: MaxLen, Joiners: true})
	if err != nil {
		return "", refuse.Bad("%v", err)
	}
	if s == "" {
		return "", refuse.Bad("the message is empty")
	}
	return s, nil
}

// Gate is asked about every message before it is written, with its
// writer's identity and its text as kept: its refusal (a writer a
// moderator kept out of chat, a word the server does not allow) is the
// answer, and nothing is written. The root hands in the moderators'
// gate, which lives above the chat.
type Gate func(ctx context.Context, identity, text string) error

// MayChat decides whether writer (an identity) may write in the chat of
// a place where seated (the identities at its seats, "" for a
// computer's) sit: nil lets them, a refusal says why not. The root hands
// the players' blocks to it: one a seated player blocks keeps out of the
// place's chat.
type MayChat func(ctx context.Context, writer string, seated []string) error

// Rate and Burst limit the messages one identity writes, across every
// room one Limits serves (the root shares one between the tables and
// the events' rooms): one a second, with bursts of five. Since guests cost nothing to
// make, one address's messages are limited too, across its identities
// (limit.ChatPerAddrRate: a household or a school behind one address
// shares it), and so are one room's, across everybody (PerRoomRate and
// PerRoomBurst).
const (
	Rate         = 1.0
	Burst        = 5
	PerRoomRate  = 5.0
	PerRoomBurst = 20
)

// Rates sets the rate limits of a Limits, in messages a second and the
// bursts allowed; a zero field is its default (Rate, Burst, PerRoomRate,
// PerRoomBurst, limit.ChatPerAddrRate, limit.ChatPerAddrBurst).
type Rates struct {
	Writer, WriterBurst float64
	Room, RoomBurst     float64
	Addr, AddrBurst     float64
}

// Limits holds chat's rate limits: one bucket per writer, per address
// and per room.
type Limits struct {
	writers, addrs, rooms *limit.Keyed
}

// NewLimits returns limits of the rates r.
func NewLimits(r Rates) *Limits {
	or := func(v, def float64) float64 {
		if v > 0 {
			return v
		}
		return def
	}
	return &Limits{
		writers: limit.NewKeyed(or(r.Writer, Rate), or(r.WriterBurst, Burst)),
		addrs:   limit.NewKeyed(or(r.Addr, limit.ChatPerAddrRate), or(r.AddrBurst, limit.ChatPerAddrBurst)),
		rooms:   limit.NewKeyed(or(r.Room, PerRoomRate), or(r.RoomBurst, PerRoomBurst)),
	}
}

// Allow takes one message of identity, from addr, in room, or refuses it
// with the limit it broke; busy names the room in that refusal ("this
// table's chat"). An empty addr is not limited here (a door that knows
// the address limits it itself).
func (l *Limits) Allow(identity, addr, room, busy string) error {
	if addr != "" && !l.addrs.Allow(addr) {
		return refuse.TooMany("too many chat messages from your address: wait a moment")
	}
	if !l.writers.Allow(identity) {
		return refuse.TooMany("too many chat messages: wait a moment")
	}
	if !l.rooms.Allow(room) {
		return refuse.TooMany("%s is too busy: wait a moment", busy)
	}
	return nil
}

// Line is one message of a table's chat (a room of two channels) as
// clients see it.
type Line struct {
	Seq     int    `json:"seq"`
	Channel string `json:"channel"`
	Seat    int    `json:"seat"`
	Name    string `json:"name"`
	// Player is "account", "guest" or "deleted" (WriterAccount,
	// WriterGuest, WriterDeleted): whether the writer has an account, so
	// that clients mark a guest's name as a guest's ("" when the server
	// does not know, for messages older than those it keeps).
	Player string    `json:"player,omitempty"`
	Text   string    `json:"text"`
	At     time.Time `json:"at"`
}
