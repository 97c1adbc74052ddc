package chat_test

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"parlour/server/chat"
	"parlour/server/refuse"
	"parlour/store"
	"parlour/store/sqlite"
)

// roomsEnv is a store on fresh data with three identities (Ann and Bob
// with accounts, a guest), and Rooms over it.
type roomsEnv struct {
	t    *testing.T
	path string
	st   *sqlite.Store
	rs   *chat.Rooms
	cfg  chat.RoomsConfig
	at   time.Time
}

func newRoomsEnv(t *testing.T, cfg chat.RoomsConfig) *roomsEnv {
	t.Helper()
	e := &roomsEnv{t: t, path: filepath.Join(t.TempDir(), "p.db"), cfg: cfg, at: time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)}
	e.open()
	ctx := context.Background()
	for _, a := range []store.Account{{Identity: "ann", Name: "Ann"}, {Identity: "bob", Name: "Bob"}} {
		a.Key, a.Hash, a.Created = strings.ToLower(a.Name), "hash", e.at
		id := store.Identity{ID: a.Identity, Name: a.Name, Created: e.at}
		if _, err := e.st.CreateAccount(ctx, a, store.Credential{Hash: []byte("s-" + a.Identity), Identity: a.Identity}, &id); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.st.CreateIdentity(ctx, store.Identity{ID: "guest", Name: "Guest 12", Created: e.at}, store.Credential{Hash: []byte("g"), Identity: "guest"}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.st.Close() })
	return e
}

// open opens the store on e's data and Rooms over it.
func (e *roomsEnv) open() {
	e.t.Helper()
	st, err := sqlite.Open(context.Background(), e.path, sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		e.t.Fatal(err)
	}
	e.st = st
	cfg := e.cfg
	cfg.Store = st
	if cfg.Now == nil {
		cfg.Now = func() time.Time { return e.at }
	}
	e.rs = chat.NewRooms(cfg)
}

// restart closes the store and opens new Rooms over the same data.
func (e *roomsEnv) restart() {
	e.t.Helper()
	if err := e.st.Close(); err != nil {
		e.t.Fatal(err)
	}
	e.open()
}

// stored returns the lines the store holds of room.
func (e *roomsEnv) stored(room string) []store.RoomLine {
	e.t.Helper()
	ls, err := e.st.RoomChatSince(context.Background(), room, 0, 100)
	if err != nil {
		e.t.Fatal(err)
	}
	return ls
}

// accountsOnly is a tournament's rule: signed-in players write, guests
// read.
var accountsOnly = chat.Policy{
	MayPost: func(_ context.Context, w chat.Writer) error {
		if !w.Account {
			return refuse.Forbidden("only signed-in players write in this tournament's chat")
		}
		return nil
	},
	MayModerate: func(_ context.Context, identity string) error {
		if identity != "ann" {
			return refuse.Forbidden("only the tournament's director mutes players here")
		}
		return nil
	},
}

const room = "tournament:t1"

// tight makes every rate limit allow n messages and (within a test's
// time) no more.
func tight(writer, addr, room int) *chat.Limits {
	const never = 1e-9
	return chat.NewLimits(chat.Rates{
		Writer: never, WriterBurst: float64(writer),
		Addr: never, AddrBurst: float64(addr),
		Room: never, RoomBurst: float64(room),
	})
}

// TestRoomRefusals: each bad line gets a refusal in the writer's words,
// with its status, and the store holds nothing of it (only the lines
// the case wrote before it).
func TestRoomRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	type post struct{ identity, addr, text string }
	for _, c := range []struct {
		name   string
		cfg    chat.RoomsConfig
		before []post // accepted first
		post   post
		status int
		says   string
	}{
		{name: "no identity", post: post{"", "a1", "hello"}, status: http.StatusUnauthorized, says: "chat needs an identity"},
		{name: "unknown identity", post: post{"nobody", "a1", "hello"}, status: http.StatusUnauthorized, says: "not known"},
		{name: "empty", post: post{"ann", "a1", ""}, status: http.StatusBadRequest, says: "empty"},
		{name: "spaces only", post: post{"ann", "a1", "   "}, status: http.StatusBadRequest, says: "empty"},
		{name: "too long", post: post{"ann", "a1", strings.Repeat("é", chat.MaxLen+1)}, status: http.StatusBadRequest, says: "200"},
		{name: "a line break", post: post{"ann", "a1", "one\ntwo"}, status: http.StatusBadRequest, says: "message"},
		{name: "filtered word", post: post{"ann", "a1", "you N1GGERS"}, status: http.StatusBadRequest, says: "does not allow in chat"},
		{name: "operator's filter", cfg: chat.RoomsConfig{Filter: mustFilter(t, "plonker")}, post: post{"ann", "a1", "what a Plonker!"}, status: http.StatusBadRequest, says: "does not allow"},
		{name: "the gate", cfg: chat.RoomsConfig{Gate: func(_ context.Context, identity, _ string) error {
			if identity == "bob" {
				return refuse.Forbidden("a moderator muted your chat: you may write again in 5 minutes")
			}
			return nil
		}}, post: post{"bob", "a1", "hello"}, status: http.StatusForbidden, says: "5 minutes"},
		{name: "a guest", post: post{"guest", "a1", "hello"}, status: http.StatusForbidden, says: "only signed-in players"},
		{name: "writer's rate", cfg: chat.RoomsConfig{Limits: tight(2, 10, 10)}, before: []post{{"ann", "a1", "one"}, {"ann", "a2", "two"}}, post: post{"ann", "a3", "three"}, status: http.StatusTooManyRequests, says: "too many chat messages: wait"},
		{name: "address's rate", cfg: chat.RoomsConfig{Limits: tight(10, 1, 10)}, before: []post{{"ann", "a1", "one"}}, post: post{"bob", "a1", "two"}, status: http.StatusTooManyRequests, says: "from your address"},
		{name: "room's rate", cfg: chat.RoomsConfig{Limits: tight(10, 10, 2)}, before: []post{{"ann", "a1", "one"}, {"bob", "a2", "two"}}, post: post{"ann", "a3", "three"}, status: http.StatusTooManyRequests, says: "this chat is too busy"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			limited := 0
			c.cfg.Limited = func() { limited++ }
			e := newRoomsEnv(t, c.cfg)
			r := e.rs.Room(room, accountsOnly)
			for _, p := range c.before {
				if _, err := r.Post(ctx, p.identity, p.addr, p.text); err != nil {
					t.Fatalf("%+v first: %v", p, err)
				}
			}
			line, err := r.Post(ctx, c.post.identity, c.post.addr, c.post.text)
			if refuse.Status(err) != c.status || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("Post = %+v, %v (status %d); want %d saying %q", line, err, refuse.Status(err), c.status, c.says)
			}
			if got := e.stored(room); len(got) != len(c.before) {
				t.Errorf("the store holds %d lines, want the %d before the refusal: %+v", len(got), len(c.before), got)
			}
			if want := map[bool]int{true: 1}[c.status == http.StatusTooManyRequests]; limited != want {
				t.Errorf("Limited was told %d times, want %d", limited, want)
			}
		})
	}
}

// mustFilter returns a filter of words.
func mustFilter(t *testing.T, words ...string) *chat.Filter {
	t.Helper()
	f, err := chat.ParseFilter(strings.NewReader(strings.Join(words, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestRoomLines: lines are numbered from 1 in each room, kept as
// cleaned, marked as an account's or a guest's, read back in pages, and
// survive a restart, after which numbering goes on.
func TestRoomLines(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newRoomsEnv(t, chat.RoomsConfig{})
	open := chat.Policy{} // anybody with an identity writes
	r := e.rs.Room(room, open)
	for i, p := range []struct{ identity, text string }{{"ann", "  good luck, all "}, {"guest", "«¡olé!»"}, {"bob", "gg"}} {
		l, err := r.Post(ctx, p.identity, "a", p.text)
		if err != nil || l.Seq != i+1 {
			t.Fatalf("line %d: %+v, %v", i+1, l, err)
		}
	}
	want := []chat.RoomLine{
		{Seq: 1, Name: "Ann", Player: "account", Text: "good luck, all", At: e.at},
		{Seq: 2, Name: "Guest 12", Player: "guest", Text: "«¡olé!»", At: e.at},
		{Seq: 3, Name: "Bob", Player: "account", Text: "gg", At: e.at},
	}
	// A page cut short says to ask from its last line; a page to the end,
	// from the room's newest.
	check := func(when string, since, limit int, want []chat.RoomLine, more bool) {
		t.Helper()
		page, err := e.rs.Room(room, open).Since(ctx, since, limit, nil)
		last := 3
		if more {
			last = want[len(want)-1].Seq
		}
		if err != nil || page.Last != last || page.More != more || len(page.Chat) != len(want) {
			t.Fatalf("%s: Since(%d, %d) = %+v, %v", when, since, limit, page, err)
		}
		for i := range want {
			if g := page.Chat[i]; g.Seq != want[i].Seq || g.Name != want[i].Name || g.Player != want[i].Player || g.Text != want[i].Text || !g.At.Equal(want[i].At) {
				t.Errorf("%s: line %d = %+v, want %+v", when, i, g, want[i])
			}
		}
	}
	check("at once", 0, 10, want, false)
	check("a page", 1, 1, want[1:2], true)
	check("the first page", 0, 2, want[:2], true)
	check("the last page", 2, 1, want[2:], false)
	check("nothing new", 3, 10, nil, false)
	if l, err := e.rs.Room("tournament:t2", open).Post(ctx, "bob", "a", "another room"); err != nil || l.Seq != 1 {
		t.Errorf("another room's first line: %+v, %v", l, err)
	}
	e.restart()
	check("after a restart", 0, 10, want, false)
	if l, err := e.rs.Room(room, open).Post(ctx, "ann", "a", "back"); err != nil || l.Seq != 4 {
		t.Errorf("the first line after a restart: %+v, %v; want number 4", l, err)
	}
	for _, c := range []struct{ since, limit int }{{-1, 10}, {0, 0}, {0, chat.MaxPage + 1}} {
		if _, err := r.Since(ctx, c.since, c.limit, nil); refuse.Status(err) != http.StatusBadRequest {
			t.Errorf("Since(%d, %d): %v, want a 400", c.since, c.limit, err)
		}
	}
}

// TestRoomWait: a waiter of the room's last line hears the next one,
// and a waiter of an older line hears at once.
func TestRoomWait(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newRoomsEnv(t, chat.RoomsConfig{})
	r := e.rs.Room(room, chat.Policy{})
	page, err := r.Since(ctx, 0, 10, nil)
	if err != nil || page.Last != 0 {
		t.Fatalf("an empty room: %+v, %v", page, err)
	}
	next := r.Wait(page.Last)
	select {
	case <-next:
		t.Fatal("the wait ended before any line")
	default:
	}
	if _, err := r.Post(ctx, "ann", "a", "first"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-next:
	default:
		t.Fatal("the wait did not end at the room's first line")
	}
	select {
	case <-r.Wait(0):
	default:
		t.Fatal("a wait for lines after 0, which the room has, did not end at once")
	}
	again := r.Wait(1)
	if _, err := r.Post(ctx, "ann", "a", "a refused line\x00"); err == nil {
		t.Fatal("a line with a control character was taken")
	}
	select {
	case <-again:
		t.Fatal("a refused line ended the wait")
	default:
	}
}

// TestRoomMute: the room's moderator mutes a writer, who then reads but
// may not write, even after a restart, until unmuted; nobody else mutes,
// nor does a moderator mute themselves.
func TestRoomMute(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newRoomsEnv(t, chat.RoomsConfig{})
	r := e.rs.Room(room, accountsOnly)
	for _, c := range []struct {
		name              string
		room              *chat.Room
		moderator, writer string
		status            int
		says              string
	}{
		{"no identity", r, "", "bob", http.StatusUnauthorized, "needs an identity"},
		{"not the moderator", r, "bob", "ann", http.StatusForbidden, "director"},
		{"nobody to mute", r, "ann", "", http.StatusBadRequest, "whom to mute"},
		{"oneself", r, "ann", "ann", http.StatusBadRequest, "yourself"},
		{"a room nobody moderates", e.rs.Room(room, chat.Policy{}), "ann", "bob", http.StatusForbidden, "nobody moderates"},
	} {
		if err := c.room.Mute(ctx, c.moderator, c.writer, true); refuse.Status(err) != c.status || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v (status %d), want %d saying %q", c.name, err, refuse.Status(err), c.status, c.says)
		}
	}
	if muted, err := r.Muted(ctx, "ann"); muted || err != nil {
		t.Fatalf("after refused mutes Ann is muted: %v, %v", muted, err)
	}
	if err := r.Mute(ctx, "ann", "bob", true); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Post(ctx, "bob", "a", "hello"); refuse.Status(err) != http.StatusForbidden || !strings.Contains(err.Error(), "muted you") {
		t.Fatalf("a muted writer's line: %v", err)
	}
	if page, err := r.Since(ctx, 0, 10, nil); err != nil || len(page.Chat) != 0 {
		t.Fatalf("a muted writer reads %+v, %v; want an empty room", page, err)
	}
	e.restart()
	r = e.rs.Room(room, accountsOnly)
	if _, err := r.Post(ctx, "bob", "a", "hello"); refuse.Status(err) != http.StatusForbidden {
		t.Fatalf("a muted writer's line after a restart: %v", err)
	}
	if err := r.Mute(ctx, "ann", "bob", false); err != nil {
		t.Fatal(err)
	}
	if l, err := r.Post(ctx, "bob", "a", "thanks"); err != nil || l.Seq != 1 {
		t.Fatalf("an unmuted writer's line: %+v, %v", l, err)
	}
}

// noRooms is a store that keeps no chat rooms.
type noRooms struct{ store.Store }

// TestRoomsWithoutStore: a store without chat rooms refuses every use of
// a room with a 501, and a room without a name is not found.
func TestRoomsWithoutStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newRoomsEnv(t, chat.RoomsConfig{})
	rs := chat.NewRooms(chat.RoomsConfig{Store: noRooms{e.st}})
	r := rs.Room(room, accountsOnly)
	if _, err := r.Post(ctx, "ann", "a", "hello"); refuse.Status(err) != http.StatusNotImplemented {
		t.Errorf("Post: %v", err)
	}
	if _, err := r.Since(ctx, 0, 10, nil); refuse.Status(err) != http.StatusNotImplemented {
		t.Errorf("Since: %v", err)
	}
	if err := r.Mute(ctx, "ann", "bob", true); refuse.Status(err) != http.StatusNotImplemented {
		t.Errorf("Mute: %v", err)
	}
	if _, err := e.rs.Room("", chat.Policy{}).Post(ctx, "ann", "a", "hello"); refuse.Status(err) != http.StatusNotFound {
		t.Errorf("a room without a name: %v", err)
	}
}

// TestRoomPostsAtOnce: lines posted at the same time are numbered one
// after another, none lost and none twice.
func TestRoomPostsAtOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newRoomsEnv(t, chat.RoomsConfig{})
	r := e.rs.Room(room, chat.Policy{})
	var wg sync.WaitGroup
	errs := make(chan error, 12)
	for _, id := range []string{"ann", "bob", "guest"} {
		for range 4 {
			wg.Go(func() {
				_, err := r.Post(ctx, id, "", "hello")
				errs <- err
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got := e.stored(room)
	for i, l := range got {
		if l.Seq != i+1 {
			t.Fatalf("stored line %d is number %d: %+v", i, l.Seq, got)
		}
	}
	if len(got) != 12 {
		t.Errorf("%d lines stored, want 12", len(got))
	}
}
