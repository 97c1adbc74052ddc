package chat

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"parlour/server/refuse"
	"parlour/store"
)

// MaxPage caps the lines of one RoomPage.
const MaxPage = 500

// conflictTries is how many times Post numbers a line again when another
// node took its number first.
const conflictTries = 3

// RoomLine is one line of a standalone room as clients see it.
type RoomLine struct {
	Seq  int    `json:"seq"`
	Name string `json:"name"`
	// Player is "account" or "guest": whether the writer had an account
	// when writing, so that clients mark a guest's name as a guest's;
	// "deleted" for an account deleted since (Kind).
	Player string    `json:"player"`
	Text   string    `json:"text"`
	At     time.Time `json:"at"`
}

// RoomPage is a page of a room's lines, oldest first.
type RoomPage struct {
	Chat []RoomLine `json:"chat"`
	// Last is the number of the room's last line as this node knows it:
	// ask again with since=Last for what comes next.
	Last int `json:"last"`
	// More is set when there are more lines after these.
	More bool `json:"more,omitempty"`
}

// Writer is who offers a line to a room, as the room found them in the
// store: a Policy's MayPost decides on it.
type Writer struct {
	Identity string
	Name     string
	// Account says the writer has an account (a guest has none).
	Account bool
}

// Policy is what the owner of a room (a tournament) decides about it;
// the chat knows no owner.
type Policy struct {
	// MayPost decides whether w may write in the room: nil lets them, a
	// refusal (in the writer's words) says why not. A nil MayPost lets
	// every identity write.
	MayPost func(ctx context.Context, w Writer) error
	// MayModerate decides whether identity may mute writers in the room:
	// nil lets them. A nil MayModerate lets nobody.
	MayModerate func(ctx context.Context, identity string) error
	// Named, when set, returns the name w's lines show, so that the
	// owner's names and the room's agree (an event's chat names a writer
	// as its standings do, two guests called Kit apart). nil: w.Name.
	Named func(ctx context.Context, w Writer) string
}

// RoomsConfig is what Rooms needs; only Store is required.
type RoomsConfig struct {
	// Store keeps the rooms' lines when it implements store.ChatRooms;
	// without it every room refuses with 501.
	Store store.Store
	// Filter is the words no line may hold (nil: the shipped list).
	Filter *Filter
	// Gate, when set, is asked about every line after the filter: the
	// root hands in the moderators' gate, which keeps a writer they
	// muted everywhere out of the rooms too.
	Gate Gate
	// Limits are the rate limits (nil: NewLimits(Rates{}), the rooms'
	// own). A room's bucket is keyed apart from any table's, so one
	// Limits may serve both.
	Limits *Limits
	// Limited, when set, is told of each line a rate limit refused (the
	// root counts them with the tables' under one metric).
	Limited func()
	// Now is the time lines are stamped with (nil: time.Now).
	Now func() time.Time
	// Logger logs the store's failures (nil: none).
	Logger *slog.Logger
}

// Rooms are the standalone chat rooms: rooms that belong to no table (a
// tournament's), named by their owner ("tournament:ID"), whose lines the
// store keeps, numbered from 1 in each room. Every line keeps the rules
// of a table's chat: Clean, the Filter, the Gate and the rate Limits.
// Who may write, and who moderates, each room's owner decides through
// the Policy it opens the room with. Rooms is safe for concurrent use.
type Rooms struct {
	st      store.Store
	rooms   store.ChatRooms // nil: the store keeps none
	filter  *Filter
	gate    Gate
	limits  *Limits
	limited func()
	now     func() time.Time
	log     *slog.Logger

	mu   sync.Mutex
	open map[string]*roomState
}

// roomState is what a node holds of one room: the number of its last
// line, who is muted in it, and a channel closed at its next line.
type roomState struct {
	// mu serialises the room's posts and guards the fields below.
	mu     sync.Mutex
	loaded bool
	last   int
	muted  map[string]bool
	next   chan struct{}
}

// NewRooms returns the rooms cfg describes.
func NewRooms(cfg RoomsConfig) *Rooms {
	rs := &Rooms{st: cfg.Store, filter: cfg.Filter, gate: cfg.Gate, limits: cfg.Limits, limited: cfg.Limited, now: cfg.Now, log: cfg.Logger, open: map[string]*roomState{}}
	rs.rooms, _ = cfg.Store.(store.ChatRooms)
	if rs.filter == nil {
		rs.filter = ShippedFilter()
	}
	if rs.limits == nil {
		rs.limits = NewLimits(Rates{})
	}
	if rs.now == nil {
		rs.now = time.Now
	}
	if rs.log == nil {
		rs.log = slog.New(slog.DiscardHandler)
	}
	return rs
}

// Room returns room name under pol: a handle, cheap to make, that its
// owner opens again whenever it needs it (after a restart too: the lines
// are in the store).
func (rs *Rooms) Room(name string, pol Policy) *Room {
	return &Room{rs: rs, name: name, pol: pol}
}

// Forget drops what this node holds of room name (an event that is
// over); its lines stay in the store, and the room loads again when it
// is next used. Waiters of the room are woken.
func (rs *Rooms) Forget(name string) {
	rs.mu.Lock()
	r := rs.open[name]
	delete(rs.open, name)
	rs.mu.Unlock()
	if r != nil {
		r.mu.Lock()
		close(r.next)
		r.next = make(chan struct{})
		r.mu.Unlock()
	}
}

// state returns what this node holds of room name, made empty if need be.
func (rs *Rooms) state(name string) *roomState {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	r := rs.open[name]
	if r == nil {
		r = &roomState{next: make(chan struct{})}
		rs.open[name] = r
	}
	return r
}

// Room is one standalone room under its owner's Policy.
type Room struct {
	rs   *Rooms
	name string
	pol  Policy
}

// Name returns the room's name.
func (r *Room) Name() string { return r.name }

// kept refuses when the store keeps no rooms, or the room has no name.
func (r *Room) kept() error {
	if r.name == "" {
		return refuse.NotFound("this chat has no name")
	}
	if r.rs.rooms == nil {
		return refuse.With(http.StatusNotImplemented, "this server keeps no chat rooms")
	}
	return nil
}

// load reads the room's last number and mutes into st, once. st.mu must
// be held.
func (r *Room) load(ctx context.Context, st *roomState) error {
	if st.loaded {
		return nil
	}
	last, err := r.rs.rooms.LastRoomChat(ctx, r.name)
	if err != nil {
		return refuse.ReadFailed(r.rs.log, "the chat", err)
	}
	muted, err := r.rs.rooms.RoomMutes(ctx, r.name)
	if err != nil {
		return refuse.ReadFailed(r.rs.log, "the chat", err)
	}
	st.loaded, st.last, st.muted = true, max(st.last, last), map[string]bool{}
	for _, id := range muted {
		st.muted[id] = true
	}
	return nil
}

// writer returns identity as a Policy sees it.
func (r *Room) writer(ctx context.Context, identity string) (Writer, error) {
	id, err := r.rs.st.Identity(ctx, identity)
	if errors.Is(err, store.ErrNotFound) {
		return Writer{}, refuse.Unauthorized("your identity is not known here: sign in again, or get a new one from POST /api/v1/identity")
	}
	if err != nil {
		return Writer{}, refuse.ReadFailed(r.rs.log, "your identity", err)
	}
	w := Writer{Identity: identity, Name: id.Name}
	players, err := Players(ctx, r.rs.st, []store.ChatMessage{{Identity: identity}})
	if err != nil {
		return Writer{}, refuse.ReadFailed(r.rs.log, "your account", err)
	}
	w.Account = players[identity] == WriterAccount
	return w, nil
}

// Post writes text in the room as identity, writing from addr (the
// client's address, for the per-address limit; "" when the door limits
// it itself), and answers the line as stored. A line is refused, and
// nothing is stored, when the writer has no identity, the text breaks
// Clean's rules or holds a word of the Filter, the Gate or the Policy
// refuses it, a moderator of the room muted the writer, or a rate limit
// is spent. The line is in the store before anybody sees it; Wait's
// channels close once it is.
func (r *Room) Post(ctx context.Context, identity, addr, text string) (RoomLine, error) {
	if identity == "" {
		return RoomLine{}, refuse.Unauthorized("chat needs an identity: send your token (a guest gets one from POST /api/v1/identity)")
	}
	if err := r.kept(); err != nil {
		return RoomLine{}, err
	}
	text, err := Clean(text)
	if err != nil {
		return RoomLine{}, err
	}
	if err := r.rs.filter.Check(text); err != nil {
		return RoomLine{}, err
	}
	if r.rs.gate != nil {
		if err := r.rs.gate(ctx, identity, text); err != nil {
			return RoomLine{}, err
		}
	}
	w, err := r.writer(ctx, identity)
	if err != nil {
		return RoomLine{}, err
	}
	if r.pol.MayPost != nil {
		if err := r.pol.MayPost(ctx, w); err != nil {
			return RoomLine{}, err
		}
	}
	if r.pol.Named != nil {
		w.Name = r.pol.Named(ctx, w)
	}
	st := r.rs.state(r.name)
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := r.load(ctx, st); err != nil {
		return RoomLine{}, err
	}
	if st.muted[identity] {
		return RoomLine{}, refuse.Forbidden("a moderator of this chat muted you here: you may read it, not write in it")
	}
	if err := r.rs.limits.Allow(identity, addr, "room "+r.name, "this chat"); err != nil {
		if r.rs.limited != nil {
			r.rs.limited()
		}
		return RoomLine{}, err
	}
	l := store.RoomLine{Room: r.name, Identity: identity, Name: w.Name, Account: w.Account, Text: text, At: r.rs.now().UTC()}
	for try := 1; ; try++ {
		l.Seq = st.last + 1
		err = r.rs.rooms.AppendRoomChat(ctx, l)
		if err == nil {
			break
		}
		if !errors.Is(err, store.ErrConflict) {
			return RoomLine{}, refuse.SaveFailed(r.rs.log, "your message", err)
		}
		// Another node wrote a line of this room first: number this
		// one after the last stored.
		last, lerr := r.rs.rooms.LastRoomChat(ctx, r.name)
		if lerr != nil {
			return RoomLine{}, refuse.ReadFailed(r.rs.log, "the chat", lerr)
		}
		if try == conflictTries {
			return RoomLine{}, refuse.Conflict("this chat is busy: send your message again")
		}
		st.last = max(st.last, last)
	}
	st.last = l.Seq
	close(st.next)
	st.next = make(chan struct{})
	return lineOf(l), nil
}

// lineOf returns l as clients see it.
func lineOf(l store.RoomLine) RoomLine {
	return RoomLine{Seq: l.Seq, Name: l.Name, Player: Kind(l.Account, l.Name), Text: l.Text, At: l.At}
}

// Since returns up to limit of the room's lines after since, oldest
// first, without those of the writers hidden holds (the players the
// reader blocks; nil for nobody): anybody may read a room (a page shows
// it to whoever looks). Last is the number to ask from next: the room's
// newest when the page holds the rest, else the page's last line (More
// says more follow). It counts the hidden lines too, so that the reader
// asks for them no more.
func (r *Room) Since(ctx context.Context, since, limit int, hidden map[string]bool) (RoomPage, error) {
	if since < 0 {
		return RoomPage{}, refuse.Bad("since must be a message number (0 or more), not %d", since)
	}
	if limit < 1 || limit > MaxPage {
		return RoomPage{}, refuse.Bad("limit must be a number from 1 to %d", MaxPage)
	}
	if err := r.kept(); err != nil {
		return RoomPage{}, err
	}
	st := r.rs.state(r.name)
	st.mu.Lock()
	err := r.load(ctx, st)
	last := st.last
	st.mu.Unlock()
	if err != nil {
		return RoomPage{}, err
	}
	ls, err := r.rs.rooms.RoomChatSince(ctx, r.name, since, limit+1)
	if err != nil {
		return RoomPage{}, refuse.ReadFailed(r.rs.log, "the chat", err)
	}
	page := RoomPage{Chat: []RoomLine{}, Last: last}
	if len(ls) > limit {
		ls, page.More = ls[:limit], true
		page.Last = ls[limit-1].Seq
	}
	for _, l := range ls {
		page.Last = max(page.Last, l.Seq)
		if !hidden[l.Identity] {
			page.Chat = append(page.Chat, lineOf(l))
		}
	}
	return page, nil
}

// Wait returns a channel closed once the room has a line after since,
// at once if it has one already, so that a page can follow the room:
// read Since, then wait for the page's Last. It hears the lines posted
// through these Rooms (this node); a page on another node learns of
// them when it reads again.
func (r *Room) Wait(since int) <-chan struct{} {
	st := r.rs.state(r.name)
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.loaded && st.last > since {
		done := make(chan struct{})
		close(done)
		return done
	}
	return st.next
}

// Mute mutes writer (an identity) in the room, or with muted false lets
// them write again, for moderator, whom the Policy's MayModerate must
// let. A muted writer may still read the room. It survives a restart.
func (r *Room) Mute(ctx context.Context, moderator, writer string, muted bool) error {
	if moderator == "" {
		return refuse.Unauthorized("muting needs an identity: send your token")
	}
	if err := r.kept(); err != nil {
		return err
	}
	if r.pol.MayModerate == nil {
		return refuse.Forbidden("nobody moderates this chat")
	}
	if err := r.pol.MayModerate(ctx, moderator); err != nil {
		return err
	}
	if writer == "" {
		return refuse.Bad("say whom to mute")
	}
	if writer == moderator {
		return refuse.Bad("you cannot mute yourself")
	}
	st := r.rs.state(r.name)
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := r.load(ctx, st); err != nil {
		return err
	}
	if st.muted[writer] == muted {
		return nil
	}
	if err := r.rs.rooms.SetRoomMute(ctx, r.name, writer, muted); err != nil {
		return refuse.SaveFailed(r.rs.log, "the mute", err)
	}
	if muted {
		st.muted[writer] = true
	} else {
		delete(st.muted, writer)
	}
	return nil
}

// Muted reports whether a moderator of the room muted identity in it.
func (r *Room) Muted(ctx context.Context, identity string) (bool, error) {
	if err := r.kept(); err != nil {
		return false, err
	}
	st := r.rs.state(r.name)
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := r.load(ctx, st); err != nil {
		return false, err
	}
	return st.muted[identity], nil
}
