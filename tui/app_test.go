package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/invite"
	"parlour/tui/client"
)

func TestUnreachableServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	c, _ := client.New("http://"+addr, "Ann")
	m := New(Config{Client: c})
	defer m.Close()
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.Update(m.Init()())
	s := ansi.Strip(m.frame())
	if !strings.Contains(s, "cannot reach the server at http://"+addr) || !strings.Contains(s, "r: ask the server again") {
		t.Errorf("no clear message:\n%s", s)
	}
}

func TestAnotherServer(t *testing.T) {
	for name, h := range map[string]http.HandlerFunc{
		"404": http.NotFound,
		"html": func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte("<html>hello</html>"))
		},
	} {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(h)
			defer srv.Close()
			c, _ := client.New(srv.URL, "Ann")
			m := New(Config{Client: c})
			defer m.Close()
			m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
			m.Update(m.Init()())
			if s := ansi.Strip(m.frame()); !strings.Contains(s, "version") {
				t.Errorf("no word of another version:\n%s", s)
			}
		})
	}
}

func TestBadServerAddress(t *testing.T) {
	for _, a := range []string{"", "localhost:8080", "ftp://x", "http://"} {
		if _, err := client.New(a, "Ann"); err == nil {
			t.Errorf("%q taken as a server address", a)
		}
	}
}

func TestTableID(t *testing.T) {
	for in, want := range map[string]string{
		"k3x9q2m7c8v4r6tw":                         "k3x9q2m7c8v4r6tw",
		"http://localhost:8080/t/k3x9q2m7c8v4r6tw": "k3x9q2m7c8v4r6tw",
		" http://h/t/k3x9q2m7c8v4r6tw/join ":       "k3x9q2m7c8v4r6tw",
		"https://h:1/t/k3x9q2m7c8v4r6tw?x=1#top":   "k3x9q2m7c8v4r6tw",
	} {
		if got := client.TableID(in); got != want {
			t.Errorf("TableID(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSmallTerminalAndHelp(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.update(tea.WindowSizeMsg{Width: 60, Height: 20})
	s := tm.screen()
	if !strings.Contains(s, "at least 80x24") || !strings.Contains(s, "this one is 60x20") {
		t.Errorf("a small terminal is not told the size needed:\n%s", s)
	}
	checkFits(t, tm)
	tm.update(tea.WindowSizeMsg{Width: 80, Height: 24})
	tm.key("?")
	// The help scrolls (j) when it is longer than the screen: every
	// screen's keys show on the way down.
	s = tm.screen()
	seen := s
	for range 50 {
		checkFits(t, tm)
		tm.key("j")
		next := tm.screen()
		if next == s {
			break
		}
		s = next
		seen += "\n" + s
	}
	for _, k := range keyHelp() {
		if !strings.Contains(seen, k.screen+":") {
			t.Errorf("the help lacks %s:\n%s", k.screen, seen)
		}
	}
	tm.key("?")
	if s := tm.screen(); !strings.Contains(s, "New table") {
		t.Errorf("? does not close the help:\n%s", s)
	}
	// A wider terminal: the home screen still draws within it.
	tm.update(tea.WindowSizeMsg{Width: 200, Height: 60})
	checkFits(t, tm)
}

func TestNameAndJoinErrors(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.key("n")
	tm.key("ctrl+u")
	tm.typeText("Zoë")
	tm.key("enter")
	if s := tm.screen(); !strings.Contains(s, `play as "Zoë"`) {
		t.Errorf("the name did not change:\n%s", s)
	}
	tm.key("i")
	tm.typeText(ts.URL + "/t/nosuchtable")
	tm.key("enter")
	s := tm.waitFor("the refusal", has("! joining nosuchtable"))
	checkFits(t, tm)
	tm.key("l")
	tm.waitFor("the lobby", has("Lobby: open tables", "no open tables"))
	// Ben opens a public table; Ann finds it in the lobby and sits down.
	bc, _ := client.New(ts.URL, "Ben")
	seat, err := bc.Create(context.Background(), "", "nymphabet", nil, []string{"me", "open"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tm.key("r")
	tm.waitFor("Ben's table", has(seat.Table, "Ben (guest), (open)"))
	tm.key("enter")
	s = tm.waitFor("the table", has("Nymphabet · "+seat.Table, "you: Zoë", "waiting for Ben"))
	checkFits(t, tm)
	// Out of turn: a word typed and sent is refused in words, and kept.
	tm.typeText("abdicated")
	tm.key("enter")
	s = tm.screen()
	if !strings.Contains(s, "it is not your turn: waiting for Ben") || !strings.Contains(s, ": abdicated") {
		t.Errorf("a move out of turn:\n%s", s)
	}
}

// BenchmarkKeystroke measures a key's effect on screen: Update and View of
// one arrow key on the Salvo play screen, the largest.
func BenchmarkKeystroke(b *testing.B) {
	ts := newTestServer(b)
	tm := newTerm(b, ts.URL, "Ann", 80, 24)
	tm.open("salvo", 0)
	tm.key("enter")
	tm.waitFor("the fleet editor", has("✓ the referee accepts"))
	tm.key("enter")
	tm.waitFor("play", has("▶ your turn"))
	keys := []tea.KeyPressMsg{keyMsg("right"), keyMsg("down"), keyMsg("left"), keyMsg("up")}
	b.ResetTimer()
	var worst time.Duration
	for i := 0; i < b.N; i++ {
		start := time.Now()
		tm.m.Update(keys[i%4])
		_ = tm.m.View()
		if d := time.Since(start); d > worst {
			worst = d
		}
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "worst-ms")
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestProgramOnAPipe runs the whole Bubble Tea program on a plain reader
// and writer of a given size, as an SSH session would: no terminal of the
// process's own is touched.
func TestProgramOnAPipe(t *testing.T) {
	ts := newTestServer(t)
	c, _ := client.New(ts.URL, "Ann")
	m := New(Config{Client: c})
	defer m.Close()
	in, keys := io.Pipe()
	out := &syncBuffer{}
	p := NewProgram(m, in, out, []string{"TERM=xterm-256color", "NO_COLOR=1"}, 80, 24, tea.WithoutSignalHandler())
	done := make(chan error, 1)
	go func() {
		_, err := p.Run()
		done <- err
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(ansi.Strip(out.String()), "Join a table by invite code") {
		if time.Now().After(deadline) {
			t.Fatalf("no home screen on the writer:\n%q", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	keys.Write([]byte("q"))
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("q did not quit")
	}
	keys.Close()
}

func TestInviteCode(t *testing.T) {
	for in, want := range map[string]string{
		"k7m-4px":                          "k7m-4px",
		" K7M 4PX ":                        "K7M 4PX",
		"http://h:1/j/k7m-4px":             "k7m-4px",
		"http://h:1/j/K7M4PX?x#y":          "K7M4PX",
		"K7M0PX":                           "K7M0PX", // the server says what is wrong with it
		"k3x9q2m7c8v4r6tw":                 "",
		"http://h/t/k3x9q2m7c8v4r6tw":      "",
		"http://h/t/k3x9q2m7c8v4r6tw/join": "",
	} {
		if got := client.InviteCode(in); got != want {
			t.Errorf("InviteCode(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestJoinByCode: the terminal shows the code of a table it opens for a
// friend, and joins Ben's table by the code he read out, typed in lower
// case with its dash; a mistyped code is refused in words.
func TestJoinByCode(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	bc, _ := client.New(ts.URL, "Ben")
	seat, err := bc.Create(ctx, "", "nymphabet", nil, []string{"me", "open"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	u, err := bc.Get(ctx, seat.Token, seat.Table)
	if err != nil || len(u.Table.Code) != invite.Len {
		t.Fatalf("Ben's table has code %q: %v", u.Table.Code, err)
	}
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.key("i")
	tm.typeText("K7M0PX")
	tm.key("enter")
	tm.waitFor("the refusal", has("! invite code K7M0PX: ", "'0' is not in invite codes"))
	tm.key("i")
	tm.typeText(strings.ToLower(invite.Format(u.Table.Code)))
	tm.key("enter")
	s := tm.waitFor("the table", has("Nymphabet · "+seat.Table, "you: Ann", "waiting for Ben"))
	checkFits(t, tm)

	cy := newTerm(t, ts.URL, "Cy", 80, 24)
	cy.open("nymphabet", 3) // a friend
	cy.key("enter")
	s = cy.waitFor("the invite", has("Invite a friend: ", "or read out the code "))
	code := cy.table().upd.Table.Code
	if !strings.Contains(s, invite.Format(code)) {
		t.Errorf("the invite shows no code %q:\n%s", code, s)
	}
}

// TestFitProblems: the 80 x 24 check fails on a screen too tall or too
// wide, and passes one that fits (wide characters count twice).
func TestFitProblems(t *testing.T) {
	for _, tc := range []struct {
		name   string
		screen string
		want   int
	}{
		{"fits", strings.Repeat("x\n", 23) + strings.Repeat("y", 80), 0},
		{"a line too many", strings.Repeat("x\n", 24) + "keys", 1},
		{"a line too wide", strings.Repeat("z", 81), 1},
		{"wide characters", strings.Repeat("字", 41), 1},
		{"both", strings.Repeat("x\n", 30) + strings.Repeat("z", 90), 2},
	} {
		if got := fitProblems(tc.screen, 80, 24); len(got) != tc.want {
			t.Errorf("%s: %d problems, want %d: %q", tc.name, len(got), tc.want, got)
		}
	}
}

// TestLongLinesStayInSight: a line typed or pasted longer than the
// screen shows its end, beside the cursor, rather than running off it.
func TestLongLinesStayInSight(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.key("i")
	long := strings.Repeat("abcdefghij", 15) + "END"
	tm.update(tea.PasteMsg{Content: long})
	tm.typeText("Z")
	s := tm.screen()
	if !strings.Contains(s, "ENDZ█") {
		t.Errorf("the end of the line is not in sight:\n%s", s)
	}
	checkFits(t, tm)

	// A pasted invite link, with the line break a copy often brings,
	// joins its table.
	res, err := http.Post(ts.URL+"/api/v1/tables", "application/json", strings.NewReader(`{"game": "nymphabet", "seats": ["me", "open"]}`))
	if err != nil || res.StatusCode != 201 {
		t.Fatalf("create: %v %v", res, err)
	}
	var created struct{ Table, Invite string }
	json.NewDecoder(res.Body).Decode(&created)
	res.Body.Close()
	tm.key("ctrl+u")
	tm.update(tea.PasteMsg{Content: "  " + created.Invite + "\r\n"})
	tm.key("enter")
	tm.waitFor("the table joined", has("you: Ann"))
	if tm.table().id != created.Table {
		t.Errorf("joined %s, not the pasted %s", tm.table().id, created.Table)
	}

	// A word longer than the prompt's room (typed while the other
	// player moves): its end stays in sight.
	tm.waitFor("the word's prompt", has("A word starting with A: █"))
	tm.update(tea.PasteMsg{Content: strings.Repeat("a", 59) + "Q"})
	s = tm.screen()
	if !strings.Contains(s, "aQ█") {
		t.Errorf("the end of the word is not in sight:\n%s", s)
	}
	checkFits(t, tm)
}

// TestDocsListEveryKey: docs/terminal.md lists every key of the help
// overlay, each with the same words.
func TestDocsListEveryKey(t *testing.T) {
	raw, err := os.ReadFile("../docs/terminal.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Join(strings.Fields(string(raw)), " ")
	for _, k := range keyHelp() {
		for _, item := range strings.Split(k.keys, " · ") {
			if !strings.Contains(doc, strings.Join(strings.Fields(item), " ")) {
				t.Errorf("docs/terminal.md lacks %s's %q", k.screen, item)
			}
		}
	}
}

// TestHelpKeys: the overlay lists the keys that clear a line and ask the
// server again, and they do what it says.
func TestHelpKeys(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.key("?")
	s := tm.screen()
	for _, want := range []string{"ctrl+u clear the line", "r ask the server again", "r refresh"} {
		if !strings.Contains(strings.Join(strings.Fields(s), " "), want) {
			t.Errorf("the help lacks %q:\n%s", want, s)
		}
	}
	checkFits(t, tm)
	tm.key("esc")
	tm.key("i")
	tm.typeText("K7M")
	tm.key("ctrl+u")
	if s := tm.screen(); !strings.Contains(s, "> █") {
		t.Errorf("ctrl+u did not clear the line:\n%s", s)
	}
}
