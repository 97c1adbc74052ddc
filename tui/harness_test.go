package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/games"
	"parlour/server"
	"parlour/server/limit"
	"parlour/store/sqlite"
	"parlour/tui/client"
	"parlour/web"
)

// testServer runs a real Parlour server (the same table service, store and
// computer players as parlour serve) on a loopback port. The client under
// test reaches it only over HTTP.
type testServer struct {
	*httptest.Server
	mu     sync.Mutex
	closed bool
	// streamsDown drops the player streams alone, as closed drops
	// everything; cuts ends those open, and active counts them until
	// their handlers return.
	streamsDown bool
	cuts        []context.CancelFunc
	active      sync.WaitGroup
	// streams counts the player streams open and answered: the server
	// has subscribed them to their player's news by then.
	streams atomic.Int32
}

// answered is a ResponseWriter that notes its first success.
type answered struct {
	http.ResponseWriter
	once sync.Once
	ok   func()
}

func (w *answered) WriteHeader(code int) {
	if code == http.StatusOK {
		w.once.Do(w.ok)
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *answered) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush passes the stream's lines on as the server flushes them: the
// server's own wrappers look for a Flusher.
func (w *answered) Flush() { http.NewResponseController(w.ResponseWriter).Flush() }

// waitStreams waits until n player streams are open and answered. News
// told to a player (a followed player's game) goes to the streams open
// then, and is not told again to a stream that opens later.
func (ts *testServer) waitStreams(t testing.TB, n int32) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); ts.streams.Load() < n; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("waited 30 s for %d player streams; %d are open", n, ts.streams.Load())
		}
	}
}

func newTestServer(t testing.TB) *testServer {
	t.Helper()
	return newTestServerWith(t, nil)
}

// newTestServerWith is newTestServer with the server's Config changed by
// set (a Clock the test moves by hand).
func newTestServerWith(t testing.TB, set func(*server.Config)) *testServer {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "p.db"), sqlite.Options{Synchronous: "NORMAL", CommitInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	cfg := server.Config{Store: db, Games: games.Registry(), NewBot: games.NewBot, BotTimeout: 20 * time.Second}
	if set != nil {
		set(&cfg)
	}
	svc, err := server.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// A test walks one account through more changes that check its
	// password in a minute than a player would; the server's own tests
	// hold the sign-in limits.
	h := server.NewHandler(svc, limit.Limits{SignInsPerName: 1, SignInsPerNameBurst: 50})
	h.ServeStatic(web.Handler()) // the rules pages and the client; the editors' helpers are the API's
	ts := &testServer{}
	ts.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		stream := r.URL.Path == "/api/v1/stream"
		ctx, cut := context.WithCancel(r.Context())
		defer cut()
		ts.mu.Lock()
		closed := ts.closed || ts.streamsDown && stream
		if stream && !closed {
			// Let in and made one dropStreams can cut, in one step: a
			// stream is either dropped or cut and waited for.
			ts.cuts = append(ts.cuts, cut)
			ts.active.Add(1)
			defer ts.active.Done()
		}
		ts.mu.Unlock()
		if closed {
			// The network is down: drop the connection unanswered.
			if hj, ok := w.(http.Hijacker); ok {
				if c, _, err := hj.Hijack(); err == nil {
					c.Close()
					return
				}
			}
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		if !stream {
			h.ServeHTTP(w, r)
			return
		}
		var open bool
		h.ServeHTTP(&answered{ResponseWriter: w, ok: func() { open = true; ts.streams.Add(1) }}, r.WithContext(ctx))
		if open {
			ts.streams.Add(-1)
		}
	}))
	t.Cleanup(func() {
		h.CloseSockets("test over")
		ts.Server.CloseClientConnections()
		ts.Server.Close()
		svc.Close()
		db.Close()
	})
	return ts
}

// drop cuts the network: every open connection is closed and new ones are
// dropped until restore.
func (ts *testServer) drop() {
	ts.mu.Lock()
	ts.closed = true
	ts.mu.Unlock()
	ts.Server.CloseClientConnections()
}

// dropStreams cuts the player streams: those open end, and new ones are
// dropped until restore. Other requests go on. It returns once the
// streams' handlers have: no line is sent after it.
func (ts *testServer) dropStreams() {
	ts.mu.Lock()
	ts.streamsDown = true
	for _, cut := range ts.cuts {
		cut()
	}
	ts.cuts = nil
	ts.mu.Unlock()
	ts.active.Wait()
}

func (ts *testServer) restore() {
	ts.mu.Lock()
	ts.closed, ts.streamsDown = false, false
	ts.mu.Unlock()
}

// term drives a Model as Bubble Tea would: keys in as messages, each
// command run in its own goroutine with its message fed back to Update,
// and the screen read from View.
type term struct {
	t    testing.TB
	m    *Model
	msgs chan tea.Msg
	// rings counts the bells the client rang (tea.Raw of a BEL).
	rings int
}

func newTerm(t testing.TB, base, name string, w, h int) *term {
	t.Helper()
	return newTermWith(t, base, name, w, h, Config{DataDir: t.TempDir()})
}

// newTermWith is newTerm with the client's Config (its Client is set
// here).
func newTermWith(t testing.TB, base, name string, w, h int, cfg Config) *term {
	t.Helper()
	tm := startTerm(t, base, name, w, h, cfg)
	tm.waitFor("the home screen", func(s string) bool { return strings.Contains(s, "New table") })
	return tm
}

// startTerm is newTermWith without the wait for the home screen: a
// client that may open a table at once (its player's game, named by the
// player stream) may never show it.
func startTerm(t testing.TB, base, name string, w, h int, cfg Config) *term {
	t.Helper()
	c, err := client.New(base, name)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Client = c
	m := New(cfg)
	tm := &term{t: t, m: m, msgs: make(chan tea.Msg, 256)}
	t.Cleanup(m.Close)
	tm.update(tea.WindowSizeMsg{Width: w, Height: h})
	tm.run(m.Init())
	return tm
}

// table is the table on screen, or nil.
func (tm *term) table() *tableScreen { return tm.m.table() }

// run starts a command.
func (tm *term) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		if msg == nil {
			return
		}
		select {
		case tm.msgs <- msg:
		case <-tm.m.ctx.Done():
		}
	}()
}

func (tm *term) update(msg tea.Msg) {
	switch msg := msg.(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			tm.run(c)
		}
		return
	case tea.QuitMsg:
		return
	case tea.RawMsg:
		if msg.Msg == "\a" {
			tm.rings++
		}
		return
	}
	_, cmd := tm.m.Update(msg)
	tm.run(cmd)
}

// pump handles the messages that have arrived, without waiting.
func (tm *term) pump() {
	for {
		select {
		case msg := <-tm.msgs:
			tm.update(msg)
		default:
			return
		}
	}
}

// screen is the text on screen, without colours and styles.
func (tm *term) screen() string {
	tm.pump()
	return ansi.Strip(tm.m.View().Content)
}

// waitFor handles messages until the screen satisfies ok.
func (tm *term) waitFor(what string, ok func(string) bool) string {
	tm.t.Helper()
	return tm.waitWithin(what, 30*time.Second, ok)
}

// waitWithin is waitFor for at most d.
func (tm *term) waitWithin(what string, d time.Duration, ok func(string) bool) string {
	tm.t.Helper()
	deadline := time.After(d)
	for {
		s := tm.screen()
		if ok(s) {
			return s
		}
		select {
		case msg := <-tm.msgs:
			tm.update(msg)
		case <-deadline:
			tm.t.Fatalf("waited %v for %s; the screen:\n%s", d, what, s)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// key presses one key: "enter", "up", "ctrl+f", "space" or a character.
func (tm *term) key(k string) {
	tm.pump()
	tm.update(keyMsg(k))
}

// keyUntil presses k until the screen shows want, 50 times at most: a
// field or a choice reached by stepping.
func (tm *term) keyUntil(k, want string) {
	tm.t.Helper()
	for range 50 {
		if strings.Contains(tm.screen(), want) {
			return
		}
		tm.key(k)
	}
	tm.t.Fatalf("pressed %s 50 times and the screen never showed %q:\n%s", k, want, tm.screen())
}

// typeText types each character of s.
func (tm *term) typeText(s string) {
	for _, r := range s {
		tm.key(string(r))
	}
}

func keyMsg(k string) tea.KeyPressMsg {
	special := map[string]rune{"enter": tea.KeyEnter, "up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft,
		"right": tea.KeyRight, "tab": tea.KeyTab, "esc": tea.KeyEsc, "backspace": tea.KeyBackspace}
	if c, ok := special[k]; ok {
		return tea.KeyPressMsg{Code: c}
	}
	if k == "space" {
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	}
	if after, ok := strings.CutPrefix(k, "ctrl+"); ok {
		return tea.KeyPressMsg{Code: rune(after[0]), Mod: tea.ModCtrl}
	}
	if k == "shift+tab" {
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// has is a condition: the screen holds every one of parts.
func has(parts ...string) func(string) bool {
	return func(s string) bool {
		for _, p := range parts {
			if !strings.Contains(s, p) {
				return false
			}
		}
		return true
	}
}

// checkFits fails when the screen the model draws overflows the
// terminal: more lines than it has (frame would cut the last ones, the
// prompt and the keys) or a line wider (frame would cut its end). It
// reads the screen before frame cuts it to size, so that it can fail. At
// a table, the first line on screen must also say whose turn it is (but
// for a replay's).
func checkFits(t testing.TB, tm *term) {
	t.Helper()
	for _, p := range fitProblems(ansi.Strip(tm.m.body()), tm.m.w, tm.m.h) {
		t.Error(p)
	}
	// A replay's first line is the replay's: where in the game it stands.
	if tb := tm.table(); tb != nil && tb.upd != nil && tm.m.help == nil && tb.replay == nil {
		// The clocks are read twice, a moment apart: a second may pass
		// between the screen and the turn's line.
		clockless := regexp.MustCompile(`⏱[0-9:dh ]+!?`)
		first, _, _ := strings.Cut(ansi.Strip(tm.m.frame()), "\n")
		if turn := ansi.Strip(tb.turnLine()); !strings.Contains(clockless.ReplaceAllString(first, "⏱"), clockless.ReplaceAllString(turn, "⏱")) {
			t.Errorf("the first line %q does not say whose turn it is (%q)", first, turn)
		}
	}
}

// fitProblems says how screen s overflows w by h.
func fitProblems(s string, w, h int) []string {
	var out []string
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		out = append(out, fmt.Sprintf("the screen has %d lines, more than %d; the lines cut off:\n%s", len(lines), h, strings.Join(lines[h:], "\n")))
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > w {
			out = append(out, fmt.Sprintf("a line of %d columns, more than %d: %q", ansi.StringWidth(l), w, l))
		}
	}
	return out
}

func ansiStrip(s string) string { return ansi.Strip(s) }

// open starts a new table of game from the home screen, with the form's
// opponent moved right opp times.
func (tm *term) open(game string, opp int) {
	tm.t.Helper()
	for i, g := range tm.m.games {
		if g.Name == game {
			tm.key(strconv.Itoa(i + 1))
		}
	}
	tm.waitFor("the new-table form", has("new table", "Play against"))
	for range opp {
		tm.key("right")
	}
}

// view decodes the seat's view the client holds (the tests' player reads
// it to choose moves; the checks read the screen).
func (tm *term) view(v any) {
	tm.t.Helper()
	if err := json.Unmarshal(tm.table().upd.View, v); err != nil {
		tm.t.Fatal(err)
	}
}

func over(s string) bool { return strings.Contains(s, "Game over") }

// apiPlayer is a player at the same table through the HTTP API alone.
type apiPlayer struct {
	c        *client.Client
	token    string
	id       string
	password string
	next     int
}

// twoPlayerQuizl seats a terminal player (Ann, who opens the table for a
// friend) and an API player (Ben, who joins by the table's id) at a Quizl
// table, both setups in, play started.
func twoPlayerQuizl(t testing.TB, ts *testServer) (*term, *apiPlayer) {
	t.Helper()
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("quizl", 3) // a friend
	if s := tm.screen(); !strings.Contains(s, "a friend") {
		t.Fatalf("the form does not offer a friend:\n%s", s)
	}
	tm.key("enter")
	tm.waitFor("the invite", has("Invite a friend: "+ts.URL+"/t/", "Make your grid"))
	checkFits(t, tm)
	ctx := context.Background()
	// Ben's program keeps connections of its own: on the default
	// transport, which Ann's terminal shares in this process, a
	// connection her reconnecting made or kept could be the one his
	// next move is sent on, whatever he closed.
	bc, _ := client.New(ts.URL, "Ben")
	bc.WithHTTP(&http.Client{Transport: &http.Transport{}})
	seat, err := bc.Join(ctx, "", client.TableID(ts.URL+"/t/"+tm.table().id))
	if err != nil {
		t.Fatal(err)
	}
	a, err := bc.Setup(ctx, seat.Token, seat.Table, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	var setup struct{ Password string }
	json.Unmarshal(a.Setup, &setup)
	ben := &apiPlayer{c: bc, token: seat.Token, id: seat.Table, password: setup.Password}
	tm.key("ctrl+r")
	s := tm.waitFor("a random grid, checked", has("✓ the referee accepts"))
	// Two random passwords are now and then the same word; the tests that
	// look for Ben's password on Ann's screen need them apart.
	bens := fmt.Sprintf("password %q", ben.password)
	if strings.Contains(s, bens) {
		tm.key("ctrl+r")
		tm.waitFor("a random grid with a password unlike Ben's", func(s string) bool {
			return strings.Contains(s, "✓ the referee accepts") && !strings.Contains(s, bens)
		})
	}
	tm.key("enter")
	tm.waitFor("play", has("▶ your turn", "Tracking Ben"))
	return tm, ben
}

// call makes Ben call his next square.
func (b *apiPlayer) call(t testing.TB) string {
	t.Helper()
	sq := fmt.Sprintf("%d%d", b.next/5+5, b.next%5)
	b.next++
	if _, err := b.c.Move(context.Background(), b.token, b.id, sq, 0, false); err != nil {
		t.Fatalf("Ben calling %s: %v", sq, err)
	}
	return sq
}

// signedUp makes an account through the API and returns a client and
// session for it.
// benJoins has Ben, an API player, take the open seat of the table on
// tm's screen, as a friend who followed its invite would.
func benJoins(t testing.TB, ts *testServer, tm *term) (*client.Client, client.Seated) {
	t.Helper()
	bc, err := client.New(ts.URL, "Ben")
	if err != nil {
		t.Fatal(err)
	}
	seat, err := bc.Join(context.Background(), "", tm.table().id)
	if err != nil {
		t.Fatal(err)
	}
	return bc, seat
}

// guestAt makes a guest called name on ts: its client and identity.
func guestAt(t testing.TB, ts *testServer, name string) (*client.Client, client.Identity) {
	t.Helper()
	c, err := client.New(ts.URL, name)
	if err != nil {
		t.Fatal(err)
	}
	id, err := c.NewIdentity(context.Background(), name)
	if err != nil {
		t.Fatalf("a guest called %s: %v", name, err)
	}
	return c, id
}

func signedUp(t testing.TB, ts *testServer, name string) (*client.Client, client.Session) {
	t.Helper()
	c, err := client.New(ts.URL, name)
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.SignUp(context.Background(), "", name, "correct horse battery")
	if err != nil {
		t.Fatalf("sign up %s: %v", name, err)
	}
	return c, s
}

// ratedGame has two signed-up players play a rated Nymphabet game by
// rules (nil for the defaults) to its end: the first plays first, the
// second answers with second, and the first resigns. It returns the
// table's id.
func ratedGame(t testing.TB, a *client.Client, as client.Session, b *client.Client, bs client.Session, rules map[string]any, first, second string) string {
	t.Helper()
	return ratedGameAt(t, a, as, b, bs, rules, map[string]any{"rated": true}, first, second)
}

// ratedGameAt is ratedGame at a table made with extra, which says
// "rated" itself (and may say "private").
func ratedGameAt(t testing.TB, a *client.Client, as client.Session, b *client.Client, bs client.Session, rules, extra map[string]any, first, second string) string {
	t.Helper()
	ctx := context.Background()
	seat, err := a.Create(ctx, as.Token, "nymphabet", rules, []string{"me", "open"}, extra)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Join(ctx, bs.Token, seat.Table); err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct {
		c    *client.Client
		tok  string
		move string
	}{{a, as.Token, first}, {b, bs.Token, second}, {a, as.Token, "resign"}} {
		if _, err := m.c.Move(ctx, m.tok, seat.Table, m.move, 0, false); err != nil {
			t.Fatalf("%s: %v", m.move, err)
		}
	}
	return seat.Table
}
