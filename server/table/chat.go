package table

import (
	"context"
	"errors"
	"maps"
	"slices"
	"time"

	"parlour/game"
	"parlour/internal/text"
	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/store"
)

// MaxChatLen caps a chat message, in characters (a letter with its
// accents counts once, as in names).
const MaxChatLen = 200

// The chat channels of a table.
const (
	// ChannelPlayers is the players' chat: the seated players write and
	// read it; once the game is over everybody may read it.
	ChannelPlayers = "players"
	// ChannelSpectators is the spectators' chat: whoever holds no seat
	// writes and reads it; once the game is over everybody may read it,
	// and the players may write in it too.
	ChannelSpectators = "spectators"
)

// chatWindow is how many of a table's latest messages it keeps at hand;
// older ones are read from the store (GET .../chat?since=N).
const chatWindow = 100

// ChatRate and ChatBurst limit the messages one identity writes, across
// every table: one a second, with bursts of five. Since guests cost
// nothing to make, one address's messages are limited too, across its
// identities (limit.ChatPerAddrRate: a household or a school behind one address
// shares it), and so are one table's, across everybody (ChatPerTable).
const (
	ChatRate             = 1.0
	ChatBurst            = 5
	ChatPerTableRate     = 5.0
	ChatPerTableBurst    = 20
	GuestSpectatorsDelay = time.Minute
)

// ChatLine is one chat message as clients see it.
type ChatLine struct {
	Seq     int    `json:"seq"`
	Channel string `json:"channel"`
	Seat    int    `json:"seat"`
	Name    string `json:"name"`
	// Player is "account" or "guest": whether the writer has an account,
	// so that clients mark a guest's name as a guest's ("" when the
	// server does not know, for messages older than those it keeps).
	Player string    `json:"player,omitempty"`
	Text   string    `json:"text"`
	At     time.Time `json:"at"`
}

// lineOf returns m as it is sent. t.mu must be held.
func (t *table) lineOf(m store.ChatMessage) ChatLine {
	return ChatLine{Seq: m.Seq, Channel: m.Channel, Seat: m.Seat, Name: m.Name, Player: t.ch.players[m.Identity], Text: m.Text, At: m.At}
}

// tableChat is a table's chat as the server holds it: the number of its
// last message, the latest messages, and who muted what.
type tableChat struct {
	loaded bool
	last   int
	recent []store.ChatMessage
	mutes  map[string][]string // identity → muted channels
	// players says, for the writers of the messages at hand, whether
	// each has an account: identity → "account" or "guest".
	players map[string]string
}

// loadChat reads t's chat from the store, once, before anything shows it.
func (s *Service) loadChat(ctx context.Context, t *table) error {
	t.mu.Lock()
	loaded := t.ch.loaded
	t.unlock()
	if loaded {
		return nil
	}
	last, err := s.st.LastChat(ctx, t.id)
	if err != nil {
		return s.readFailed("the chat", err)
	}
	recent, err := s.st.Chat(ctx, t.id, max(0, last-chatWindow), chatWindow)
	if err != nil {
		return s.readFailed("the chat", err)
	}
	mutes, err := s.st.Mutes(ctx, t.id)
	if err != nil {
		return s.readFailed("the chat", err)
	}
	players, err := s.chatPlayers(ctx, recent)
	if err != nil {
		return s.readFailed("the chat", err)
	}
	t.mu.Lock()
	defer t.unlock()
	if !t.ch.loaded {
		t.ch = tableChat{loaded: true, last: last, recent: recent, mutes: map[string][]string{}, players: players}
		for _, m := range mutes {
			t.ch.mutes[m.Identity] = append(t.ch.mutes[m.Identity], m.Channel)
		}
	}
	return nil
}

// chatPlayers says, for the writers of ms, whether each has an account.
func (s *Service) chatPlayers(ctx context.Context, ms []store.ChatMessage) (map[string]string, error) {
	out := map[string]string{}
	ps, ok := s.st.(store.Players)
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
	for _, id := range ids {
		out[id] = "guest"
		if _, ok := names[id]; ok {
			out[id] = "account"
		}
	}
	return out, nil
}

// mayRead reports whether seat (game.Spectator for a spectator) may read
// channel of t. t.mu must be held.
func (t *table) mayRead(channel string, seat game.Seat) bool {
	if t.status == store.Finished {
		return true
	}
	if channel == ChannelPlayers {
		return seat >= 0
	}
	return seat < 0
}

// muted reports whether identity muted channel of t. t.mu must be held.
func (t *table) muted(identity, channel string) bool {
	for _, c := range t.ch.mutes[identity] {
		if c == channel {
			return true
		}
	}
	return false
}

// shows reports whether m is shown to seat and identity. t.mu must be
// held.
func (t *table) shows(m store.ChatMessage, seat game.Seat, identity string) bool {
	return t.mayRead(m.Channel, seat) && (identity == "" || !t.muted(identity, m.Channel))
}

// chatAfter returns the lines after since that seat and identity may see,
// from the ones at hand, and the number of the last message. t.mu must be
// held.
func (t *table) chatAfter(since int, seat game.Seat, identity string) ([]ChatLine, int) {
	var out []ChatLine
	for _, m := range t.ch.recent {
		if m.Seq > since && t.shows(m, seat, identity) {
			out = append(out, t.lineOf(m))
		}
	}
	return out, t.ch.last
}

// mutedBy lists the channels identity muted. t.mu must be held.
func (t *table) mutedBy(identity string) []string {
	if identity == "" {
		return nil
	}
	return append([]string(nil), t.ch.mutes[identity]...)
}

// ChatRequest is the body of POST /api/v1/tables/{id}/chat.
type ChatRequest struct {
	Channel string `json:"channel"`
	Text    string `json:"text"`
}

// CheckChannel refuses a channel that is not one of the two.
func CheckChannel(c string) error {
	if c != ChannelPlayers && c != ChannelSpectators {
		return refuse.Bad(`channel must be "players" or "spectators", not %q`, refuse.Clip(c))
	}
	return nil
}

// cleanChat checks a chat message and returns it as the server keeps it:
// NFC-normalised, without spaces at either end. It is refused, with the
// rule it broke, when it is empty, not UTF-8, holds a control character
// (a line break included), a direction control, an invisible or
// private-use character (see package text), or has more than MaxChatLen
// characters. A zero width joiner between two characters (as emoji
// sequences have it) and a variation selector after one are kept.
func cleanChat(s string) (string, error) {
	s, err := text.Check(s, text.Rules{Noun: "message", Max: MaxChatLen, Joiners: true})
	if err != nil {
		return "", refuse.Bad("%v", err)
	}
	if s == "" {
		return "", refuse.Bad("the message is empty")
	}
	return s, nil
}

// Chat writes a message in a channel of table id's chat for p, and
// answers it as stored. The message is in the store before anybody sees
// it; watchers get it in their next update.
func (s *Service) Chat(ctx context.Context, p *auth.Principal, id string, req ChatRequest) (ChatLine, error) {
	if p == nil {
		return ChatLine{}, refuse.Unauthorized("chat needs an identity: send your token (a guest gets one from POST /api/v1/identity)")
	}
	if err := CheckChannel(req.Channel); err != nil {
		return ChatLine{}, err
	}
	text, err := cleanChat(req.Text)
	if err != nil {
		return ChatLine{}, err
	}
	if gate := s.cfg.ChatGate; gate != nil {
		if err := gate(ctx, p.Identity, text); err != nil {
			return ChatLine{}, err
		}
	}
	t, err := s.table(ctx, id)
	if err != nil {
		return ChatLine{}, err
	}
	if err := s.loadChat(ctx, t); err != nil {
		return ChatLine{}, err
	}
	id0, err := s.st.Identity(ctx, p.Identity)
	if err != nil {
		return ChatLine{}, s.readFailed("your identity", err)
	}
	player, err := s.chatPlayers(ctx, []store.ChatMessage{{Identity: p.Identity}})
	if err != nil {
		return ChatLine{}, s.readFailed("your account", err)
	}
	t.mu.Lock()
	defer t.unlock()
	if err := t.closed(); err != nil {
		return ChatLine{}, err
	}
	seat := t.seatOf(p)
	now := s.now()
	t.touch(seat, now)
	over := t.status == store.Finished
	switch {
	case req.Channel == ChannelPlayers && seat < 0:
		return ChatLine{}, refuse.Forbidden("only the players at this table may write in the players' chat: spectators have their own")
	case req.Channel == ChannelSpectators && seat >= 0 && !over:
		return ChatLine{}, refuse.Forbidden("players may not write in the spectators' chat while the game is on: use the players' chat")
	}
	if seat < 0 && now.Sub(id0.Created) < GuestSpectatorsDelay && !s.hasPlayed(ctx, p.Identity) {
		return ChatLine{}, refuse.Forbidden("a new guest may write in the spectators' chat a minute after arriving, or once they have played a game: wait a moment")
	}
	if s.cfg.MayChat != nil {
		seated := make([]string, len(t.m.Seats))
		for i, st := range t.m.Seats {
			seated[i] = st.Identity
		}
		if err := s.cfg.MayChat(ctx, p.Identity, seated); err != nil {
			return ChatLine{}, err
		}
	}
	if !s.chatLimit.Allow(p.Identity) {
		s.RateLimited()
		return ChatLine{}, refuse.TooMany("too many chat messages: wait a moment")
	}
	if !s.tableChat.Allow(t.id) {
		s.RateLimited()
		return ChatLine{}, refuse.TooMany("this table's chat is too busy: wait a moment")
	}
	name := id0.Name
	if seat >= 0 {
		name = t.m.Seats[seat].Name
	}
	m := store.ChatMessage{Table: t.id, Seq: t.ch.last + 1, Channel: req.Channel, Identity: p.Identity, Name: name, Seat: int(seat), Text: text, At: now.UTC()}
	if err := s.st.AddChat(ctx, m); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return ChatLine{}, err
		}
		return ChatLine{}, s.saveFailed("your message", err)
	}
	t.ch.last = m.Seq
	if t.ch.players == nil {
		t.ch.players = map[string]string{}
	}
	maps.Copy(t.ch.players, player)
	t.ch.recent = append(t.ch.recent, m)
	if len(t.ch.recent) > chatWindow {
		t.ch.recent = append([]store.ChatMessage(nil), t.ch.recent[len(t.ch.recent)-chatWindow:]...)
	}
	t.lastUse = time.Now()
	t.broadcast()
	return t.lineOf(m), nil
}

// hasPlayed reports whether identity is an account or has finished a
// game: such a player may write in spectators' chats at once. It asks the
// store only about guests younger than GuestSpectatorsDelay.
func (s *Service) hasPlayed(ctx context.Context, identity string) bool {
	ps, err := s.Players()
	if err != nil {
		return false
	}
	if _, err := ps.AccountOf(ctx, identity); err == nil {
		return true
	}
	// An aborted game, which anyone can make in a moment, does not count.
	games, err := ps.History(ctx, store.HistoryPage{Identity: identity, Limit: 5})
	return err == nil && slices.ContainsFunc(games, func(g store.PlayerGame) bool { return g.Result != store.Aborted })
}

// ChatPage answers GET /api/v1/tables/{id}/chat: the messages after
// Since the asker may see, oldest first, and the channels it muted.
type ChatPage struct {
	Chat  []ChatLine `json:"chat"`
	Muted []string   `json:"muted"`
	// Last is the number of the table's last message (whether the asker
	// may see it or not): ask again with since=Last for what comes next.
	Last int `json:"last"`
	// More is set when there are more messages after these.
	More bool `json:"more,omitempty"`
}

// MaxChatPage caps the messages of one ChatPage.
const MaxChatPage = 500

// ChatSince returns the messages of table id after since that p may see
// (a spectator's when p is nil or holds no seat), at most limit of them.
func (s *Service) ChatSince(ctx context.Context, p *auth.Principal, id string, since, limit int) (_ ChatPage, err error) {
	defer s.reading("the chat", &err)
	t, err := s.read(ctx, p, id, false)
	if err != nil {
		return ChatPage{}, err
	}
	if err := s.loadChat(ctx, t); err != nil {
		return ChatPage{}, err
	}
	identity := ""
	if p != nil {
		identity = p.Identity
	}
	t.mu.Lock()
	seat := t.seatOf(p)
	t.touch(seat, s.now())
	last := t.ch.last
	var oldest int
	if len(t.ch.recent) > 0 {
		oldest = t.ch.recent[0].Seq
	}
	page := ChatPage{Chat: []ChatLine{}, Muted: t.mutedBy(identity), Last: last}
	if page.Muted == nil {
		page.Muted = []string{}
	}
	if oldest > 0 && since+1 >= oldest || last == 0 {
		lines, _ := t.chatAfter(since, seat, identity)
		t.unlock()
		page.Chat = append(page.Chat, lines...)
	} else {
		t.unlock()
		// Older than the messages at hand: read them (they stay as they
		// were written: messages are never changed) and filter under the
		// lock, since who may read what changes at the end.
		ms, err := s.st.Chat(ctx, id, since, MaxChatPage*2)
		if err != nil {
			return ChatPage{}, s.readFailed("the chat", err)
		}
		t.mu.Lock()
		for _, m := range ms {
			if t.shows(m, seat, identity) {
				page.Chat = append(page.Chat, t.lineOf(m))
			}
		}
		t.unlock()
	}
	if len(page.Chat) > limit {
		page.Chat, page.More = page.Chat[:limit], true
	}
	return page, nil
}

// MuteRequest is the body of POST /api/v1/tables/{id}/chat/mute.
type MuteRequest struct {
	Channel string `json:"channel"`
	Muted   bool   `json:"muted"`
}

// Mute mutes (or unmutes) a channel of table id's chat for p's identity,
// on every device: the identity's updates and chat pages leave that
// channel out until it is unmuted. It answers the channels now muted.
func (s *Service) Mute(ctx context.Context, p *auth.Principal, id string, req MuteRequest) ([]string, error) {
	if p == nil {
		return nil, refuse.Unauthorized("muting needs an identity: send your token")
	}
	if err := CheckChannel(req.Channel); err != nil {
		return nil, err
	}
	t, err := s.table(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := s.loadChat(ctx, t); err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.unlock()
	if err := t.closed(); err != nil {
		return nil, err
	}
	t.touch(t.seatOf(p), s.now())
	if t.muted(p.Identity, req.Channel) == req.Muted {
		return t.mutedBy(p.Identity), nil
	}
	if err := s.st.SetMute(ctx, store.Mute{Table: t.id, Identity: p.Identity, Channel: req.Channel}, req.Muted); err != nil {
		return nil, s.saveFailed("the mute", err)
	}
	var now []string
	for _, c := range t.ch.mutes[p.Identity] {
		if c != req.Channel {
			now = append(now, c)
		}
	}
	if req.Muted {
		now = append(now, req.Channel)
	}
	t.ch.mutes[p.Identity] = now
	t.broadcast()
	return append([]string{}, now...), nil
}
