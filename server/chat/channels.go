package chat

import (
	"context"
	"maps"
	"slices"

	"parlour/account"
	"parlour/store"
)

// The channels of a table's chat.
const (
	// ChannelPlayers is the players' chat: the seated players write and
	// read it; once the game is over everybody may read it.
	ChannelPlayers = "players"
	// ChannelSpectators is the spectators' chat: whoever holds no seat
	// writes and reads it; once the game is over everybody may read it,
	// and the players may write in it too.
	ChannelSpectators = "spectators"
)

// Window is how many of a room's latest messages Channels keeps at hand;
// older ones are read from the store.
const Window = 100

// Channels is the chat of a place with two channels (a table's players'
// and spectators') as its holder keeps it at hand: the number of its
// last message, the latest messages, who muted what, and whether each
// writer of those messages has an account. It has no lock of its own:
// the holder's lock guards it, since a table's chat shares the table's
// lock, version and watchers. Who may read a channel is the holder's to
// say (a table's seats and status decide), so the methods that show
// messages ask it through reads.
type Channels struct {
	loaded bool
	last   int
	recent []store.ChatMessage
	// mutes maps an identity to its muted channels: nil until someone
	// mutes one, as at most places nobody does.
	mutes map[string][]string
	// players says, for the writers of the messages at hand, whether
	// each has an account: identity → a Writer kind.
	players map[string]string
}

// NewChannels returns the chat of a new place: loaded, and empty.
func NewChannels() Channels {
	return Channels{loaded: true}
}

// LoadChannels reads the chat of place id from st: its last number, the
// latest Window messages and the mutes. The holder reads it outside its
// lock and keeps it, under its lock, unless another read came first.
func LoadChannels(ctx context.Context, st store.Store, id string) (Channels, error) {
	last, err := st.LastChat(ctx, id)
	if err != nil {
		return Channels{}, err
	}
	recent, err := st.Chat(ctx, id, max(0, last-Window), Window)
	if err != nil {
		return Channels{}, err
	}
	mutes, err := st.Mutes(ctx, id)
	if err != nil {
		return Channels{}, err
	}
	players, err := Players(ctx, st, recent)
	if err != nil {
		return Channels{}, err
	}
	c := Channels{loaded: true, last: last, recent: recent, players: players}
	if len(mutes) > 0 {
		c.mutes = map[string][]string{}
	}
	for _, m := range mutes {
		c.mutes[m.Identity] = append(c.mutes[m.Identity], m.Channel)
	}
	return c, nil
}

// The kinds of writer a line names (Line.Player).
const (
	WriterAccount = "account"
	WriterGuest   = "guest"
	// WriterDeleted is an account deleted since it wrote: its lines
	// stay, called account.DeletedName, and nobody answers for them any
	// more (a moderator mutes, and a player reports, no one by them).
	WriterDeleted = "deleted"
)

// Kind returns the kind of writer of a line called name (a line's name
// is its writer's, as renamed since): a deleted account's, whose lines
// the store renames account.DeletedName, a name account.Reserved keeps
// from everyone else; else an account's, when hasAccount says so; else
// a guest's. hasAccount is whether the writer has an account now, or,
// for an event's line, had one when writing.
func Kind(hasAccount bool, name string) string {
	switch {
	case name == account.DeletedName:
		return WriterDeleted
	case hasAccount:
		return WriterAccount
	}
	return WriterGuest
}

// Players says, for the writers of ms, whether each has an account:
// identity → WriterAccount, WriterGuest, or WriterDeleted for an account
// deleted since (nothing when st keeps no accounts).
func Players(ctx context.Context, st store.Store, ms []store.ChatMessage) (map[string]string, error) {
	out := map[string]string{}
	ps, ok := st.(store.Players)
	if !ok || len(ms) == 0 {
		return out, nil
	}
	var ids []string
	for _, m := range ms {
		if !slices.Contains(ids, m.Identity) {
			ids = append(ids, m.Identity)
		}
	}
	names, err := ps.AccountNames(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		if _, done := out[m.Identity]; !done {
			_, has := names[m.Identity]
			out[m.Identity] = Kind(has, m.Name)
		}
	}
	return out, nil
}

// Loaded reports whether c holds its place's chat (NewChannels or
// LoadChannels made it).
func (c *Channels) Loaded() bool { return c.loaded }

// Last returns the number of the last message (0: none).
func (c *Channels) Last() int { return c.last }

// Oldest returns the number of the oldest message at hand (0: none).
func (c *Channels) Oldest() int {
	if len(c.recent) == 0 {
		return 0
	}
	return c.recent[0].Seq
}

// Line returns m as it is sent.
func (c *Channels) Line(m store.ChatMessage) Line {
	return Line{Seq: m.Seq, Channel: m.Channel, Seat: m.Seat, Name: m.Name, Player: c.players[m.Identity], Text: m.Text, At: m.At}
}

// Muted reports whether identity muted channel.
func (c *Channels) Muted(identity, channel string) bool {
	return slices.Contains(c.mutes[identity], channel)
}

// MutedBy lists the channels identity muted.
func (c *Channels) MutedBy(identity string) []string {
	if identity == "" {
		return nil
	}
	return append([]string(nil), c.mutes[identity]...)
}

// Shows reports whether m is shown to a reader who may read the channels
// reads allows, as identity ("" for nobody in particular), who does not
// see the lines of the writers hidden holds (the players the reader
// blocks; nil: none).
func (c *Channels) Shows(m store.ChatMessage, reads func(channel string) bool, identity string, hidden map[string]bool) bool {
	return reads(m.Channel) && (identity == "" || !c.Muted(identity, m.Channel)) && !hidden[m.Identity]
}

// After returns the lines after since, of those at hand, that a reader
// who may read the channels reads allows sees as identity, without the
// writers hidden holds, and the number of the last message.
func (c *Channels) After(since int, reads func(channel string) bool, identity string, hidden map[string]bool) ([]Line, int) {
	var out []Line
	for _, m := range c.recent {
		if m.Seq > since && c.Shows(m, reads, identity, hidden) {
			out = append(out, c.Line(m))
		}
	}
	return out, c.last
}

// Add keeps m, stored as the next message, at hand; players says whether
// its writer has an account (as Players answers it).
func (c *Channels) Add(m store.ChatMessage, players map[string]string) {
	c.last = m.Seq
	if c.players == nil {
		c.players = map[string]string{}
	}
	maps.Copy(c.players, players)
	c.recent = append(c.recent, m)
	if len(c.recent) > Window {
		c.recent = append([]store.ChatMessage(nil), c.recent[len(c.recent)-Window:]...)
	}
}

// Rename gives identity's messages at hand the name name, as the store
// renamed them, and says whether the writer still has an account (a
// deleted one has not, and its lines say so): a renamed or deleted
// account leaves no line under its old name. It reports whether any
// message changed.
func (c *Channels) Rename(identity, name string, account bool) bool {
	changed := false
	for i := range c.recent {
		if c.recent[i].Identity == identity && c.recent[i].Name != name {
			c.recent[i].Name, changed = name, true
		}
	}
	if _, ok := c.players[identity]; ok && !account {
		c.players[identity] = WriterDeleted
	}
	return changed
}

// SetMuted mutes (or unmutes) channel for identity, as stored, and
// returns the channels it now mutes.
func (c *Channels) SetMuted(identity, channel string, muted bool) []string {
	var now []string
	for _, ch := range c.mutes[identity] {
		if ch != channel {
			now = append(now, ch)
		}
	}
	if muted {
		now = append(now, channel)
	}
	if c.mutes == nil {
		c.mutes = map[string][]string{}
	}
	c.mutes[identity] = now
	return append([]string{}, now...)
}
