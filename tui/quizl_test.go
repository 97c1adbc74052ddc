package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"parlour/game"
	"parlour/games"
	"parlour/lexicon"
	"parlour/server"
	"parlour/tui/client"
)

func TestQuizlTerminalAgainstAnAPIPlayer(t *testing.T) {
	ts := newTestServer(t)
	tm, ben := twoPlayerQuizl(t, ts)
	var lat []time.Duration
	calls, benTurns, dropped := 0, 0, false
	for turn := 0; turn < 60; turn++ {
		s := tm.screen()
		if over(s) {
			break
		}
		if strings.Contains(s, ben.password) {
			t.Fatalf("Ben's password %s shows on Ann's screen before the end:\n%s", ben.password, s)
		}
		if tm.table().myTurn() {
			i := calls
			calls++
			tm.typeText(fmt.Sprintf("%d%d", i/5+5, i%5))
			tm.key("enter")
			// Then Ben's turn, or Ann's again once Ben is done.
			s = tm.waitFor("the call's letter", func(s string) bool {
				n, _ := trackingLetters(s, i/5, i%5)
				return over(s) || n == calls && !tm.table().busy
			})
			if over(s) {
				break
			}
			continue
		}
		// Ben's turn: Ann's keys are refused in words, and nothing is sent
		// (once she is done with Ben's grid, the words say so).
		tm.key("enter")
		s = tm.screen()
		if !strings.Contains(s, "it is not your turn") && !strings.Contains(s, "! you are done with every grid") {
			t.Fatalf("a call out of turn is not refused:\n%s", s)
		}
		benTurns++
		if benTurns == 3 {
			// The network drops; Ben moves while Ann's stream is down;
			// Ann's screen comes back with the move, once.
			ts.drop()
			tm.waitFor("the drop to show", has("reconnecting"))
			ts.restore()
			// Ben's program lost its kept-alive connection in the drop
			// too: it starts afresh (a move sent on the dead one fails).
			ben.c.CloseIdleConnections()
			sq := ben.call(t)
			tm.waitFor("Ben's call after the drop", has("Ben called "+sq, "▶ your turn"))
			if n := strings.Count(strings.Join(tm.table().log, "\n"), "Ben called "+sq); n != 1 {
				t.Fatalf("Ben's call %s is in Ann's log %d times", sq, n)
			}
			dropped = true
			continue
		}
		start := time.Now()
		sq := ben.call(t)
		tm.waitFor("Ben's call", func(s string) bool { return over(s) || strings.Contains(s, "Ben called "+sq) })
		lat = append(lat, time.Since(start))
	}
	if !dropped {
		t.Error("the game ended before the network drop was tried")
	}
	s := tm.waitFor("the end", over)
	checkFits(t, tm)
	if strings.Count(s, "✓ commitment matches") != 2 || !strings.Contains(s, "password "+ben.password) {
		t.Errorf("the end does not reveal Ben's grid and check both commitments:\n%s", s)
	}
	// No event twice, none lost: Ann's log holds every move of the record.
	var log []string
	for _, l := range tm.table().log {
		if strings.Contains(l, " called ") {
			log = append(log, l)
		}
	}
	rec, err := ben.c.Record(context.Background(), ben.token, ben.id)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Moves []struct{ By, Move string }
	}
	json.Unmarshal(rec, &r)
	var want []string
	for _, mv := range r.Moves {
		if isDigits(mv.Move) {
			want = append(want, mv.By+" called "+mv.Move)
		}
	}
	if !slices.Equal(log, want) {
		t.Errorf("Ann's log of calls:\n%v\nthe record's:\n%v", log, want)
	}
	slices.Sort(lat)
	if len(lat) > 0 {
		t.Logf("a move reaches the other terminal: median %v, worst %v over %d moves", lat[len(lat)/2], lat[len(lat)-1], len(lat))
		if lat[len(lat)/2] > 500*time.Millisecond {
			t.Errorf("median %v from a move to the other terminal", lat[len(lat)/2])
		}
	}
}

// BenchmarkMoveToOtherTerminal measures the time from an API player's
// move to the terminal player's screen showing it, over loopback.
func BenchmarkMoveToOtherTerminal(b *testing.B) {
	ts := newTestServer(b)
	var lat []time.Duration
	tm, ben := twoPlayerQuizl(b, ts)
	calls := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		// Ann calls (not timed); then Ben's call is timed to Ann's screen.
		// A game over, or Ben done (Ann's turn again), starts a new table.
		for {
			annDone := func() bool {
				var v quizlView
				tm.view(&v)
				return len(v.Done) > 0 && v.Done[0]
			}
			s := tm.waitFor("Ann's turn", func(s string) bool { return over(s) || annDone() || tm.table().myTurn() && !tm.table().busy })
			if !over(s) && !annDone() && calls < 25 {
				tm.typeText(fmt.Sprintf("%d%d", calls/5+5, calls%5))
				calls++
				tm.key("enter")
				s = tm.waitFor("Ben's turn", func(s string) bool { return over(s) || !tm.table().busy && tm.table().upd.Version > tm.table().sentAt })
				if !over(s) && !tm.table().myTurn() && ben.next < 25 {
					break
				}
			}
			tm.m.Close()
			tm, ben = twoPlayerQuizl(b, ts)
			calls = 0
		}
		b.StartTimer()
		start := time.Now()
		sq := ben.call(b)
		tm.waitFor("Ben's call", func(s string) bool { return over(s) || strings.Contains(s, "Ben called "+sq) })
		lat = append(lat, time.Since(start))
	}
	slices.Sort(lat)
	if len(lat) > 0 {
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "median-ms")
		b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "worst-ms")
	}
}

// trackingLetters counts the letters on the screen's first tracking grid
// (the five rows under "Tracking"), and says what is at (r, c).
func trackingLetters(s string, r, c int) (int, string) {
	lines := strings.Split(s, "\n")
	at := -1
	for i, l := range lines {
		if strings.Contains(l, "Tracking") {
			at = i + 2
			break
		}
	}
	if at < 0 || at+5 > len(lines) {
		return -1, ""
	}
	n, cell := 0, ""
	for i := range 5 {
		row := []rune(lines[at+i])
		if len(row) > 20 {
			row = row[:20]
		}
		for j := 4; j < len(row); j++ {
			if row[j] >= 'A' && row[j] <= 'Z' {
				n++
			}
		}
		if i == r && 5+3*c < len(row) {
			cell = string(row[5+3*c])
		}
	}
	return n, cell
}

// playQuizl calls every square in turn (by the arrows, or by typing its
// name) until the game is over, checking the tracking grid after every
// call: the letter called shows, and nothing else that was not called.
func playQuizl(t *testing.T, tm *term, secret string) string {
	t.Helper()
	calls := 0
	for i := range 25 {
		r, c := i/5, i%5
		s := tm.waitFor("the turn", func(s string) bool { return over(s) || strings.Contains(s, "▶ your turn") })
		if over(s) {
			return s
		}
		if i%2 == 0 {
			for tm.table().play.r != r {
				tm.key("down")
			}
			for tm.table().play.c != c {
				tm.key("right")
			}
			tm.key("enter")
		} else {
			tm.typeText(fmt.Sprintf("%d%d", r+5, c))
			tm.key("enter")
		}
		calls++
		s = tm.waitFor("the call's letter", func(s string) bool {
			_, cell := trackingLetters(s, r, c)
			return over(s) || (cell >= "A" && cell <= "Z")
		})
		if over(s) {
			return s
		}
		checkFits(t, tm)
		if n, _ := trackingLetters(s, r, c); n != calls {
			t.Fatalf("after %d calls the tracking grid shows %d letters:\n%s", calls, n, s)
		}
		if secret != "" && strings.Contains(s, secret) {
			t.Fatalf("the opponent's password %s shows before the end:\n%s", secret, s)
		}
	}
	return tm.waitFor("the end", over)
}

func TestQuizlAgainstTheComputer(t *testing.T) {
	tm := quizlGridEditor(t)
	tm.typeText("crane")
	tm.waitFor("the count of squares left", has(`password "CRANE" on row 5`, "20 squares to fill"))
	checkFits(t, tm)
	tm.key("ctrl+f")
	tm.waitFor("the referee's check", has("✓ the referee accepts"))
	// Breaking the grid: the referee names what is wrong.
	tm.key("down")
	tm.typeText("c")
	s := tm.waitFor("the refusal", has("✗"))
	if strings.Contains(s, "accepts") {
		t.Fatalf("a repeated letter passed:\n%s", s)
	}
	tm.key("ctrl+f")
	tm.waitFor("the referee's check", has("✓ the referee accepts"))
	tm.key("enter")
	tm.waitFor("play", has("▶ your turn", "Tracking Computer (easy)", "Your grid password CRANE"))
	checkFits(t, tm)

	// An announcement the referee refuses: its words in place.
	tm.typeText("qxzvj")
	tm.key("enter")
	s = tm.waitFor("the refusal", has("! "))
	if n, _ := trackingLetters(s, 0, 0); n != 0 {
		t.Fatalf("letters show before any call:\n%s", s)
	}
	tm.key("esc") // clears the line
	if tm.table() == nil || tm.table().play.line != "" {
		t.Fatal("esc with a line typed left the table or kept the line")
	}
	s = playQuizl(t, tm, "")
	checkFits(t, tm)
	if strings.Count(s, "✓ commitment matches") != 2 {
		t.Errorf("the end does not check both commitments:\n%s", s)
	}
	if !strings.Contains(s, "password CRANE") {
		t.Errorf("the end does not reveal the grids:\n%s", s)
	}
}

func TestSolitaireQuizl(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("quizl", 4) // solitaire, a grid made by the easy computer
	if s := tm.screen(); !strings.Contains(s, "solitaire") {
		t.Fatalf("the form does not offer solitaire:\n%s", s)
	}
	tm.key("enter")
	s := tm.waitFor("play", has("▶ your turn", "Tracking the computer's grid"))
	if strings.Contains(s, "Your grid") {
		t.Errorf("a solitaire player has a grid of their own:\n%s", s)
	}
	s = playQuizl(t, tm, "")
	if !strings.Contains(s, "✓ commitment matches") {
		t.Errorf("the end does not check the grid's commitment:\n%s", s)
	}
}

// TestQuizlTypedLines: a typed line of more than a word goes to the
// referee as a move in the notation, so that "say WORD" announces and a
// call written the long way is answered with how to write it, where a
// "say " put before the line once made them announcements of nonsense.
func TestQuizlTypedLines(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("quizl", 4) // solitaire
	tm.key("enter")
	tm.waitFor("play", has("▶ your turn", "Tracking the computer's grid"))
	// Each line's refusal differs from the one before, which stays on
	// the screen until the next.
	for _, tc := range []struct{ line, want string }{
		{"call 72", "to call 72, write just 72"},
		{"7 2", `"7 2" is not a square`},
		{"say qxzvj", "cannot announce QXZVJ"},
		{"jvzxq", "cannot announce JVZXQ"},
	} {
		tm.typeText(tc.line)
		tm.key("enter")
		tm.waitFor(tc.line+"'s refusal", has("! ", tc.want))
		tm.key("esc") // clears the line
	}
	tm.typeText("72")
	tm.key("enter")
	tm.waitFor("the call", has("Ann called 72"))
}

// TestLetterGridPassword: the password's squares are marked on a grid,
// also once the others have called some of them (shown in lower case on
// one's own grid), and nothing is marked for a word not on the grid.
func TestLetterGridPassword(t *testing.T) {
	t.Parallel()
	grid := []string{"VNAQG", "YCIOH", "ZWSRT", "BJLDX", "UKEPF"}
	called := slices.Clone(grid)
	called[2] = "ZWsRT"
	for _, tc := range []struct {
		name   string
		rows   []string
		pw     string
		marked int
	}{
		{"none called", grid, "AISLE", 5},
		{"one called by the others", called, "AISLE", 5},
		{"a row", grid, "ZWSRT", 5},
		{"not on the grid", grid, "CRANE", 0},
		{"no password", grid, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			lines := letterGrid(tc.rows, nil, -1, -1, tc.pw)
			if got := strings.Count(strings.Join(lines, "\n"), "["); got != tc.marked {
				t.Errorf("%d squares marked, want %d:\n%s", got, tc.marked, strings.Join(lines, "\n"))
			}
		})
	}
}

// TestQuizlThreePlayers: at a table of three at 80 x 24, both grids to
// track show, and every player's score is said whole, on two lines if
// need be, never cut; a call's events show beside the grids.
func TestQuizlThreePlayers(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("quizl", 0) // the computer, easy
	tm.key("down")
	tm.key("right")
	tm.key("right") // a third seat: the computer, medium
	tm.waitFor("the third seat", seatsAre("3", "the computer, medium", "4", "nobody"))
	tm.key("enter")
	tm.waitFor("the grid editor", has("Make your grid"))
	tm.key("ctrl+r")
	tm.waitFor("the referee's check", has("✓ the referee accepts"))
	tm.key("enter")
	s := tm.waitFor("play", has("▶ your turn", "Tracking Computer (easy)", "Tracking Computer (medium)"))
	checkFits(t, tm)
	// The column beside the grids to track, read as one text.
	var right []string
	for _, l := range strings.Split(s, "\n") {
		if r := []rune(l); len(r) > 36 {
			right = append(right, string(r[36:]))
		}
	}
	scores := strings.Join(strings.Fields(strings.Join(right, " ")), " ")
	if !strings.Contains(scores, "Scores: Ann 0 · Computer (easy) 0 · Computer (medium) 0") || strings.Contains(s, "…") {
		t.Errorf("the scores are not said whole:\n%s", s)
	}
	tm.typeText("72")
	tm.key("enter")
	// The computers may call at once after Ann: the events beside the
	// grids are the latest, whichever they are.
	s = tm.waitFor("the call's events", func(s string) bool {
		return slices.ContainsFunc(tm.table().log, func(l string) bool { return strings.HasPrefix(l, "Ann called 72") })
	})
	last := tm.table().log[len(tm.table().log)-1]
	if !strings.Contains(strings.Join(strings.Fields(s), " "), strings.Join(strings.Fields(last), " ")[:20]) {
		t.Errorf("the latest event %q does not show:\n%s", last, s)
	}
	checkFits(t, tm)
}

// TestQuizlWrongWords: every wrong announcement against a grid stays in
// view under it, on as many lines as the column needs (the referee
// refuses one announced again); a line cut at the column's edge once hid
// all but the first.
func TestQuizlWrongWords(t *testing.T) {
	t.Parallel()
	wrong := []string{"BRIGS", "PANTY", "CRANE", "FJORD", "GHOST", "WALTZ", "NYMPH"}
	view, _ := json.Marshal(quizlView{
		Seat: 0, Players: []string{"Ann"}, Solitaire: true, Scores: []int{0},
		Boards: []quizlBoard{{Seat: 0, Name: "the grid", Grid: []string{".....", ".....", ".....", ".....", "....."}, Wrong: wrong}},
	})
	ts := &tableScreen{shared: &shared{w: 80, h: 24}, game: "quizl", upd: &client.Update{View: view}}
	ts.upd.Table.Seats = []client.Seat{{Name: "Ann"}}
	s := ansi.Strip((&playScreen{t: ts}).quizlView())
	for _, w := range wrong {
		if !strings.Contains(s, w) {
			t.Errorf("the wrong word %s is not in view:\n%s", w, s)
		}
	}
	for _, l := range strings.Split(s, "\n") {
		if n := ansi.StringWidth(l); n > 80 {
			t.Errorf("a line of %d columns: %q", n, l)
		}
	}
}

// TestQuizlGridsInView: at a table of four, the grid tab chooses is drawn
// with the cursor however far down the seats it is (the third opponent's
// once went undrawn), and the screen keeps to the terminal's height, each
// grid with its list of wrong words; when every grid fits they stay in
// seat order. Grids that do not fit are counted under those that do,
// with the key that brings them up.
func TestQuizlGridsInView(t *testing.T) {
	t.Parallel()
	blank := []string{".....", ".....", ".....", ".....", "....."}
	for _, c := range []struct {
		h, board int
		want     []string // grid titles in order on the screen
		more     string   // the count of grids out of sight, if any
	}{
		{24, 0, []string{"▸ Tracking Ben"}, "tab: 2 more grids"},
		{24, 2, []string{"▸ Tracking Dan"}, "tab: 2 more grids"},
		{30, 0, []string{"▸ Tracking Ben", "Tracking Cy"}, "tab: 1 more grid"},
		{30, 1, []string{"▸ Tracking Cy", "Tracking Dan"}, "tab: 1 more grid"},
		{30, 2, []string{"▸ Tracking Dan", "Tracking Ben"}, "tab: 1 more grid"},
		{40, 2, []string{"Tracking Ben", "Tracking Cy", "▸ Tracking Dan"}, ""},
	} {
		t.Run(fmt.Sprintf("%d rows, board %d", c.h, c.board), func(t *testing.T) {
			t.Parallel()
			v := quizlView{Seat: 0, Players: []string{"Ann", "Ben", "Cy", "Dan"}, Scores: make([]int, 4), Grid: blank, Password: "CRANE"}
			for i, n := range v.Players {
				v.Boards = append(v.Boards, quizlBoard{Seat: i, Name: n, Grid: blank, Wrong: []string{"BRIGS", "PANTY", "FJORD", "WALTZ", "NYMPH"}})
			}
			view, _ := json.Marshal(v)
			ts := &tableScreen{shared: &shared{w: 80, h: c.h}, game: "quizl", upd: &client.Update{View: view}}
			for i, n := range v.Players {
				ts.upd.Table.Seats = append(ts.upd.Table.Seats, client.Seat{Seat: i, Name: n})
			}
			s := ansi.Strip((&playScreen{t: ts, board: c.board}).quizlView())
			if n := strings.Count(s, "\n") + 1; n > c.h-1 {
				t.Errorf("%d lines under the title line on %d rows:\n%s", n, c.h, s)
			}
			at := -1
			for _, w := range c.want {
				i := strings.Index(s, w+" ")
				if i < 0 {
					i = strings.Index(s, w+"\n")
				}
				if i <= at {
					t.Fatalf("want the grids %q in that order:\n%s", c.want, s)
				}
				at = i
			}
			if c.more != "" && !strings.Contains(s, c.more) || c.more == "" && strings.Contains(s, "tab: ") {
				t.Errorf("the grids out of sight are not counted as %q:\n%s", c.more, s)
			}
		})
	}
}

// quizlTable is a screen of Ann's seat at a Quizl table of three, drawn
// from view v, with the updates apply takes.
func quizlTable(t *testing.T, v quizlView) *tableScreen {
	t.Helper()
	return quizlTableAt(t, "http://parlour.invalid", v)
}

// quizlTableAt is quizlTable with its requests sent to the server at
// base.
func quizlTableAt(t *testing.T, base string, v quizlView) *tableScreen {
	t.Helper()
	c, err := client.New(base, "Ann")
	if err != nil {
		t.Fatal(err)
	}
	ts := &tableScreen{shared: &shared{w: 80, h: 24, c: c, cfg: Config{Server: "test", DataDir: t.TempDir()}}, game: "quizl", id: "t1", gen: 1}
	ts.chat, ts.play, ts.setup, ts.end = &chatPanel{t: ts}, &playScreen{t: ts}, &setupScreen{t: ts}, &endScreen{t: ts}
	ts.apply(quizlUpdate(t, 4, v))
	return ts
}

// quizlUpdate is an update at version of a Quizl table of three, Ann's
// view v.
func quizlUpdate(t *testing.T, version int, v quizlView) client.Update {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	u := client.Update{Version: version, View: raw, Table: client.Table{Status: "playing", ToMove: []int{v.ToMove}}}
	for i, n := range v.Players {
		u.Table.Seats = append(u.Table.Seats, client.Seat{Seat: i, Name: n, Kind: "person"})
	}
	return u
}

// threeQuizl is Ann's view of a Quizl game of three, hunting Ben's and
// Cy's grids with the outcomes given.
func threeQuizl(ben, cy string, toMove int) quizlView {
	blank := []string{".....", ".....", ".....", ".....", "....."}
	return quizlView{Seat: 0, Players: []string{"Ann", "Ben", "Cy"}, Grid: blank, Password: "CRANE", ToMove: toMove,
		Scores: make([]int, 3), Done: make([]bool, 3), Resigned: make([]bool, 3),
		Boards: []quizlBoard{{Seat: 1, Name: "Ben", Grid: blank, Outcome: ben}, {Seat: 2, Name: "Cy", Grid: blank, Outcome: cy}}}
}

// TestQuizlMarkMovesOn: at a table of three, once Ann has announced the
// password of the grid marked ▸, the mark moves on to the grid she still
// hunts, so that her next word is announced for that player (it was
// announced again for the player done with, and refused); a grid she
// chose with tab after it was done with stays chosen.
func TestQuizlMarkMovesOn(t *testing.T) {
	t.Parallel()
	moves := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct{ Move string }
		json.NewDecoder(r.Body).Decode(&body)
		moves <- body.Move
		w.Write([]byte(`{"version": 6, "status": "playing"}`))
	}))
	defer srv.Close()
	ts := quizlTableAt(t, srv.URL, threeQuizl("", "", 0))
	ts.ctx = context.Background()
	if ts.play.board != 0 {
		t.Fatalf("the mark starts on grid %d", ts.play.board)
	}
	ts.apply(quizlUpdate(t, 5, threeQuizl("right", "", 0)))
	if ts.play.board != 1 {
		t.Fatalf("after Ben's password was found the mark is on grid %d, want Cy's (1)", ts.play.board)
	}
	s := ansi.Strip(ts.play.quizlView())
	if !strings.Contains(s, "▸ Tracking Cy") || strings.Contains(s, "▸ Tracking Ben") {
		t.Errorf("the mark is not on Cy's grid:\n%s", s)
	}
	ts.play.line = "ghost"
	cmd := ts.play.submitLine()
	if cmd == nil {
		t.Fatalf("the word was not sent: %s", ts.err)
	}
	cmd()
	if m := <-moves; m != "say Cy ghost" {
		t.Errorf("the next word went as %q, want it announced for Cy", m)
	}
	ts.busy = false
	ts.play.board = 0 // tab back to Ben's grid, done with
	ts.apply(quizlUpdate(t, 6, threeQuizl("right", "", 0)))
	if ts.play.board != 0 {
		t.Errorf("a grid chosen with tab moved to %d on the next update", ts.play.board)
	}
}

// TestQuizlOutOfTheGame: a Quizl player who resigned while the others
// play on is shown that they are out of the game, not the prompt for a
// move; keys type nothing, and enter says so rather than "it is not
// your turn".
func TestQuizlOutOfTheGame(t *testing.T) {
	t.Parallel()
	v := threeQuizl("resigned", "resigned", 1)
	v.Done[0], v.Resigned[0] = true, true
	ts := quizlTable(t, v)
	s := ansi.Strip(ts.play.quizlView())
	if strings.Contains(s, "Call (digits) or announce") || !strings.Contains(s, "you resigned: you are out of the game, and the others play on") {
		t.Errorf("the resigned player is not told they are out:\n%s", s)
	}
	if strings.Contains(s, "▸") {
		t.Errorf("the resigned player is shown a grid to aim at:\n%s", s)
	}
	for _, k := range []string{"7", "2", "enter"} {
		if cmd := ts.update(keyMsg(k)); cmd != nil || ts.busy {
			t.Fatalf("%s sent a move", k)
		}
	}
	if ts.play.line != "" || strings.Contains(ts.err, "not your turn") || !strings.Contains(ts.err, "out of the game") {
		t.Errorf("after 72 enter: line %q, error %q", ts.play.line, ts.err)
	}

	// Done with every grid, without resigning: out too, in those words.
	v = threeQuizl("right", "tripped", 1)
	v.Done[0] = true
	ts = quizlTable(t, v)
	if s := ansi.Strip(ts.play.quizlView()); strings.Contains(s, "Call (digits)") || !strings.Contains(s, "you are done with every grid: the others play on") {
		t.Errorf("the player done with every grid is not told so:\n%s", s)
	}
}

// TestSolitaireNewGameWaitsForTheComputer: r at the end of a solitaire
// game deals a new one, whose grid the computer hides first, which the
// server allows 20 s: here it takes 16, and the new game opens rather
// than r be given up as "no answer in time" while the table is made
// unknown to its player.
func TestSolitaireNewGameWaitsForTheComputer(t *testing.T) {
	t.Parallel()
	var slow atomic.Bool
	ts := newTestServerWith(t, func(c *server.Config) {
		c.NewBot = func(gameName, level string, seed uint64, lex *lexicon.Lexicon) (game.Bot, error) {
			b, err := games.NewBot(gameName, level, seed, lex)
			if err != nil {
				return b, err
			}
			return slowHider{b, &slow}, nil
		}
	})
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("quizl", 4) // solitaire
	tm.key("enter")
	tm.waitFor("play", has("▶ your turn", "Tracking the computer's grid"))
	first := tm.table().id
	tm.typeText(":resign")
	tm.key("enter")
	tm.key("enter") // the first asks
	tm.waitFor("the end", has("Game over", "r new game"))
	slow.Store(true)
	tm.key("r")
	tm.waitWithin("the new game", 40*time.Second, func(s string) bool {
		if strings.Contains(s, "no answer in time") || strings.Contains(s, "rematch:") {
			t.Fatalf("the new game was given up:\n%s", s)
		}
		return tm.table() != nil && tm.table().id != first && strings.Contains(s, "▶ your turn")
	})
}

// slowHider is a computer player whose setups take 16 s once slow is set,
// as on a busy server.
type slowHider struct {
	game.Bot
	slow *atomic.Bool
}

func (b slowHider) Setup(ctx context.Context, cfg game.Config, seat game.Seat) (json.RawMessage, error) {
	if b.slow.Load() {
		select {
		case <-time.After(16 * time.Second):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return b.Bot.Setup(ctx, cfg, seat)
}
