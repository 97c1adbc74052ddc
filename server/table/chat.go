package table

import (
	"context"
	"errors"
	"slices"
	"time"

	"parlour/game"
	"parlour/server/auth"
	"parlour/server/chat"
	"parlour/server/refuse"
	"parlour/store"
)

// MaxChatLen caps a chat message, in characters (chat.MaxLen).
const MaxChatLen = chat.MaxLen

// The chat channels of a table (chat.ChannelPlayers and
// chat.ChannelSpectators say who writes and reads each).
const (
	ChannelPlayers    = chat.ChannelPlayers
	ChannelSpectators = chat.ChannelSpectators
)

// ChatRate and ChatBurst limit the messages one identity writes, across
// every table, and ChatPerTableRate and ChatPerTableBurst one table's,
// across everybody (chat.Rate says why). A guest may write in a
// spectators' chat GuestSpectatorsDelay after arriving.
const (
	ChatRate             = chat.Rate
	ChatBurst            = chat.Burst
	ChatPerTableRate     = chat.PerRoomRate
	ChatPerTableBurst    = chat.PerRoomBurst
	GuestSpectatorsDelay = time.Minute
)

// ChatLine is one chat message as clients see it.
type ChatLine = chat.Line

// loadChat reads t's chat from the store, once, before anything shows it.
func (s *Service) loadChat(ctx context.Context, t *table) error {
	t.mu.Lock()
	loaded := t.ch.Loaded()
	t.unlock()
	if loaded {
		return nil
	}
	ch, err := chat.LoadChannels(ctx, s.st, t.id)
	if err != nil {
		return s.readFailed("the chat", err)
	}
	t.mu.Lock()
	defer t.unlock()
	if !t.ch.Loaded() {
		t.ch = ch
	}
	return nil
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

// reads returns which channels of t seat may read. t.mu must be held
// while it is called.
func (t *table) reads(seat game.Seat) func(channel string) bool {
	return func(channel string) bool { return t.mayRead(channel, seat) }
}

// chatAfter returns the lines after since that seat and identity may see,
// from the ones at hand, without those of the writers hidden holds
// (hiddenFrom), and the number of the last message. t.mu must be held.
func (t *table) chatAfter(since int, seat game.Seat, identity string, hidden map[string]bool) ([]ChatLine, int) {
	return t.ch.After(since, t.reads(seat), identity, hidden)
}

// hiddenFrom returns the writers whose lines p does not see in any
// table's chat (Config.Hidden: the players p blocks), read before the
// table's lock is taken; nil for nobody in particular.
//
// Blocks that cannot be read hide nobody, and the reason is logged: a
// live table is read from memory while the store is away, and its game
// and chat must not go dark with it for want of a filter.
func (s *Service) hiddenFrom(ctx context.Context, p *auth.Principal) map[string]bool {
	if p == nil || s.cfg.Hidden == nil {
		return nil
	}
	h, err := s.cfg.Hidden(ctx, p.Identity)
	if err != nil {
		s.log.Warn("reading whom a reader blocks; their lines are shown", "identity", p.Identity, "err", err)
		return nil
	}
	return h
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
	text, err := chat.Clean(req.Text)
	if err != nil {
		return ChatLine{}, err
	}
	if gate := s.cfg.ChatGate; gate != nil {
		if err := gate(ctx, p.Identity, text); err != nil {
			return ChatLine{}, err
		}
	}
	// Writing passes the read gate as reading does: a table shut to
	// the writer (another player's daily attempt) takes no line from
	// them, which its player would be shown.
	t, err := s.read(ctx, p, id, false)
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
	player, err := chat.Players(ctx, s.st, []store.ChatMessage{{Identity: p.Identity}})
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
	if err := s.chatLimits.Allow(p.Identity, "", t.id, "this table's chat"); err != nil {
		s.RateLimited()
		return ChatLine{}, err
	}
	name := id0.Name
	if seat >= 0 {
		name = t.m.Seats[seat].Name
	}
	m := store.ChatMessage{Table: t.id, Seq: t.ch.Last() + 1, Channel: req.Channel, Identity: p.Identity, Name: name, Seat: int(seat), Text: text, At: now.UTC()}
	if err := s.st.AddChat(ctx, m); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return ChatLine{}, err
		}
		return ChatLine{}, s.saveFailed("your message", err)
	}
	t.ch.Add(m, player)
	t.lastUse = time.Now()
	t.broadcast()
	return t.ch.Line(m), nil
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
func (s *Service) ChatSince(ctx context.Context, p *auth.Principal, id string, since, limit int) (ChatPage, error) {
	return s.chatSince(ctx, p, id, since, limit, true, false)
}

// EveryChannel returns the lines of table id's chat after since, at most
// limit of them, in both channels whatever the game's state: for a
// moderator reading a table reported while its game is on, when its
// players' chat is theirs alone. The caller checks the role. Chat holds
// no secret of the game's: the referee writes none in it.
func (s *Service) EveryChannel(ctx context.Context, id string, since, limit int) (ChatPage, error) {
	return s.chatSince(ctx, nil, id, since, limit, false, true)
}

// ChatLine returns line seq of table id's chat when p may read it, and
// otherwise a refusal: not found. The lines of the players p blocks are
// among them, though p's pages leave them out: a player reports a line
// of one they blocked.
func (s *Service) ChatLine(ctx context.Context, p *auth.Principal, id string, seq int) (ChatLine, error) {
	page, err := s.chatSince(ctx, p, id, seq-1, 1, false, false)
	if err != nil {
		return ChatLine{}, err
	}
	if len(page.Chat) == 0 || page.Chat[0].Seq != seq {
		return ChatLine{}, refuse.NotFound("table %s's chat has no line %d that you can read", id, seq)
	}
	return page.Chat[0], nil
}

// Witnessed reports whether p could have seen player identity at table
// id: whether the read gate lets p read the table, and identity holds a
// seat there or wrote a line of its chat in a channel p may read (the
// players' chat of a game under way is its players' alone). A report
// that names a table is about what its reporter saw there, and opens
// the table's chat to the moderators: a player cannot open another
// table's that way. p's mutes and blocks count for nothing here: a
// player reports what they read before muting a channel or blocking
// its writer. The gate's refusal is the answer to p when it shuts the
// table to them.
func (s *Service) Witnessed(ctx context.Context, p *auth.Principal, id, identity string) (_ bool, err error) {
	defer s.reading("the table", &err)
	t, err := s.read(ctx, p, id, false)
	if err != nil {
		return false, err
	}
	t.mu.Lock()
	sat := slices.ContainsFunc(t.m.Seats, func(st seatMeta) bool { return st.Identity == identity })
	seat := t.seatOf(p)
	t.unlock()
	if sat {
		return true, nil
	}
	if err := s.loadChat(ctx, t); err != nil {
		return false, err
	}
	// Every line is stored before it is shown: the store holds them all.
	for since := 0; ; {
		ms, err := s.st.Chat(ctx, id, since, MaxChatPage)
		if err != nil {
			return false, s.readFailed("the chat", err)
		}
		if len(ms) == 0 {
			return false, nil
		}
		t.mu.Lock()
		reads := t.reads(seat)
		wrote := slices.ContainsFunc(ms, func(m store.ChatMessage) bool {
			return m.Identity == identity && t.ch.Shows(m, reads, "", nil)
		})
		t.unlock()
		if wrote {
			return true, nil
		}
		since = ms[len(ms)-1].Seq
	}
}

// chatSince is ChatSince, leaving out the lines of the players p blocks
// when hide says so, and reading both channels when every says so.
func (s *Service) chatSince(ctx context.Context, p *auth.Principal, id string, since, limit int, hide, every bool) (_ ChatPage, err error) {
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
	var hidden map[string]bool
	if hide {
		hidden = s.hiddenFrom(ctx, p)
	}
	t.mu.Lock()
	seat := t.seatOf(p)
	reads := t.reads(seat)
	if every {
		reads = func(string) bool { return true }
	} else {
		t.touch(seat, s.now())
	}
	last, oldest := t.ch.Last(), t.ch.Oldest()
	page := ChatPage{Chat: []ChatLine{}, Muted: t.ch.MutedBy(identity), Last: last}
	if page.Muted == nil {
		page.Muted = []string{}
	}
	if oldest > 0 && since+1 >= oldest || last == 0 {
		lines, _ := t.ch.After(since, reads, identity, hidden)
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
			if t.ch.Shows(m, reads, identity, hidden) {
				page.Chat = append(page.Chat, t.ch.Line(m))
			}
		}
		t.unlock()
	}
	if len(page.Chat) > limit {
		page.Chat, page.More = page.Chat[:limit], true
	}
	return page, nil
}

// MuteRequest is the body of POST /api/v1/tables/{id}/chat/mute. Muted
// is required: a request without it says neither, and is refused rather
// than read as false (which would unmute).
type MuteRequest struct {
	Channel string `json:"channel"`
	Muted   *bool  `json:"muted"`
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
	if req.Muted == nil {
		return nil, refuse.Bad(`say "muted": true to mute the channel, or false to hear it again`)
	}
	muted := *req.Muted
	t, err := s.read(ctx, p, id, false)
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
	if t.ch.Muted(p.Identity, req.Channel) == muted {
		return t.ch.MutedBy(p.Identity), nil
	}
	if err := s.st.SetMute(ctx, store.Mute{Table: t.id, Identity: p.Identity, Channel: req.Channel}, muted); err != nil {
		return nil, s.saveFailed("the mute", err)
	}
	now := t.ch.SetMuted(p.Identity, req.Channel, muted)
	t.broadcast()
	return now, nil
}
