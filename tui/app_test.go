package tui

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

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
	for range 200 {
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

// BenchmarkKeystroke measures a key's effect on screen: Update and View of
// one arrow key on the Salvo play screen, the largest.
func BenchmarkKeystroke(b *testing.B) {
	ts := newTestServer(b)
	tm := newTerm(b, ts.URL, "Ann", 80, 24)
	salvoAgainstTheComputer(tm)
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
	tm.waitFor("the table, before sitting down", has("Join a table", "Nymphabet · table "+created.Table, "rules: standard", "enter take a seat"))
	tm.key("enter")
	tm.waitFor("the table joined", has("you: Ann"))
	if tm.table().id != created.Table {
		t.Errorf("joined %s, not the pasted %s", tm.table().id, created.Table)
	}

	// A word longer than the prompt's room (typed while the other
	// player moves): its end stays in sight.
	tm.waitFor("the word's prompt", has("Your word, once it is your turn: █"))
	tm.update(tea.PasteMsg{Content: strings.Repeat("a", 59) + "Q"})
	s = tm.screen()
	if !strings.Contains(s, "aQ█") {
		t.Errorf("the end of the word is not in sight:\n%s", s)
	}
	checkFits(t, tm)
}

// TestSmallTerminalTakesNoKeys: a terminal under the smallest size shows
// only the size it needs, so the keys typed meanwhile must not act on the
// screen hidden behind it: a player who types a move, or :resign and
// enter twice, on a phone's narrow SSH client would play it unseen.
func TestSmallTerminalTakesNoKeys(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)

	tm.update(tea.WindowSizeMsg{Width: 60, Height: 20})
	tm.key("1")
	tm.update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if s := tm.screen(); strings.Contains(s, "Play against") || !strings.Contains(s, "New table") {
		t.Errorf("a key typed while the terminal was too small opened a screen unseen:\n%s", s)
	}

	tm.open("nymphabet", 0)
	tm.key("enter")
	tm.waitFor("the first turn", has("▶ your turn", "A word starting with A:"))
	tm.update(tea.WindowSizeMsg{Width: 60, Height: 20})
	tm.typeText(":resign")
	tm.key("enter")
	tm.update(tea.PasteMsg{Content: "apple"})
	tm.update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if s := tm.screen(); !strings.Contains(s, "A word starting with A: █") || strings.Contains(s, "Resign?") {
		t.Errorf("keys typed while the terminal was too small reached the game:\n%s", s)
	}
	// The keys act again once the terminal is large enough.
	tm.typeText("apple")
	if s := tm.screen(); !strings.Contains(s, "A word starting with A: apple█") {
		t.Errorf("keys do not reach the game once the terminal is large enough:\n%s", s)
	}
}

// TestAnswersReachTheScreenThatAsked: an answer for a screen that is not
// on show (a profile, the daily puzzles or the leaderboards under a
// screen opened from them) is taken by that screen, not lost to the one
// on show.
func TestAnswersReachTheScreenThatAsked(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	ps := &profileScreen{shared: tm.m.shared, name: "ben", p: &client.Profile{Name: "ben"}, next: "page2", older: true,
		games: []client.PlayedGame{{Table: "t1", Game: "quizl"}}}
	d := &dailyScreen{shared: tm.m.shared, boards: map[string]*dailyBoardMsg{"quizl/2026-12-06": {key: "quizl/2026-12-06", asked: true}}}
	bs := &boardsScreen{shared: tm.m.shared, pools: []string{"quizl", "salvo"}, pool: 1, boards: map[string]*boardMsg{"salvo": {pool: "salvo", asked: true}}}
	on := tm.m.cur
	tm.update(olderMsg{to: ps, name: "ben", before: "page2", games: []client.PlayedGame{{Table: "t2", Game: "quizl"}}})
	tm.update(dailyBoardMsg{to: d, key: "quizl/2026-12-06", board: client.DailyBoard{Game: "quizl", Day: "2026-12-06", Over: true}})
	tm.update(boardMsg{to: bs, pool: "salvo", leaders: []client.Leader{{Rank: 1, Name: "ben", Rating: 1712, RD: 60, Games: 30}}})
	if ps.older || len(ps.games) != 2 {
		t.Errorf("the profile under the screen on show did not take its page: older %v, %d games", ps.older, len(ps.games))
	}
	if b := d.boards["quizl/2026-12-06"]; b.asked || !b.board.Over {
		t.Errorf("the daily screen under the screen on show did not take its board: %+v", b)
	}
	if b := bs.leaders(); b == nil || len(b.leaders) != 1 {
		t.Errorf("the leaderboards under the screen on show did not take their board: %+v", bs.boards["salvo"])
	}
	if tm.m.cur != on {
		t.Errorf("the answers changed the screen on show")
	}
}

// TestFollowAnswerReachesThePlayersScreen: a follow's answer that comes
// while a game opened from the players screen is on show frees that
// screen for the next action.
func TestFollowAnswerReachesThePlayersScreen(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	ps := &playersScreen{shared: tm.m.shared, busy: true}
	tm.update(relatedMsg{to: ps, note: "you follow Ben"})
	if ps.busy {
		t.Error("the players screen under the screen on show is still busy after its answer")
	}
}
