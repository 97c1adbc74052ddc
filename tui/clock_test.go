package tui

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/server"
	"parlour/server/table"
	"parlour/server/table/tabletest"
	"parlour/tui/client"
)

// TestClockCountsDownAndTimesOut: a Quizl table with a 10 s clock shows
// Ann's time left in the turn line, counting down, and when it runs out
// (on her first move: the game is aborted) the end says so in words.
func TestClockCountsDownAndTimesOut(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("quizl", 0) // the computer, easy
	tm.key("up")        // the last field: the word list
	tm.key("up")        // the one before: the clock
	tm.key("right")     // 10 seconds
	tm.waitFor("the clock field", has("Clock", "‹ 10 ›"))
	checkFits(t, tm)
	tm.key("enter")
	tm.waitFor("the grid editor", has("Make your grid"))
	tm.key("ctrl+r")
	tm.waitFor("a random grid, checked", has("✓ the referee accepts"))
	tm.key("enter")
	re := regexp.MustCompile(`⏱0:(\d\d)`)
	s := tm.waitFor("Ann's time left", func(s string) bool { return re.MatchString(s) })
	checkFits(t, tm)
	first, _ := strconv.Atoi(re.FindStringSubmatch(s)[1])
	if first > 10 || first < 5 {
		t.Errorf("time left %d s at the start of a 10 s turn:\n%s", first, s)
	}
	tm.waitFor("the clock counting down", func(s string) bool {
		m := re.FindStringSubmatch(s)
		n := -1
		if m != nil {
			n, _ = strconv.Atoi(m[1])
		}
		return m != nil && n < first
	})
	checkFits(t, tm)
	low := regexp.MustCompile(`⏱0:0[0-2]!`)
	tm.waitFor("the low-time mark", func(s string) bool { return low.MatchString(s) })
	checkFits(t, tm)
	s = tm.waitFor("the timeout in words", has("game over"))
	checkFits(t, tm)
	if !strings.Contains(s, "aborted, Ann ran out of time before every player had moved") || !strings.Contains(s, "no result") {
		t.Errorf("the end screen does not say Ann ran out of time:\n%s", s)
	}
}

// TestClaimRefusedInPlace: Ben (the API player, no stream open) is to
// move and shown away; ctrl+g asks the server to claim, and its refusal
// (too early) shows in place, the game going on.
func TestClaimRefusedInPlace(t *testing.T) {
	ts := newTestServer(t)
	tm, _ := twoPlayerQuizl(t, ts)
	tm.key("ctrl+g")
	if s := tm.screen(); !strings.Contains(s, "nobody to move is away") {
		t.Errorf("a claim on Ann's own turn is not refused in place:\n%s", s)
	}
	tm.typeText("50")
	tm.key("enter")
	tm.waitFor("Ben to move, away", has("Ben (away)", "Ben is away: ctrl+g claims the game from "))
	checkFits(t, tm)
	tm.key("ctrl+g")
	tm.waitFor("the server's refusal", has("! you cannot claim the game yet"))
	checkFits(t, tm)
	if st := tm.table().upd.Table.Status; st != "playing" {
		t.Errorf("the table is %s after a refused claim", st)
	}
}

// TestClaimAfterTheWalkAway: with the server's clock moved on past the
// walk-away time, Ann's ctrl+g claims the game against the away Ben, and
// the claim is said in words in the log.
func TestClaimAfterTheWalkAway(t *testing.T) {
	clk := tabletest.NewClock(time.Now())
	ts := newTestServerWith(t, func(c *server.Config) { c.Clock = clk })
	tm, ben := twoPlayerQuizl(t, ts)
	// A call each first: before then a claim aborts the game.
	tm.typeText("50")
	tm.key("enter")
	tm.waitFor("Ben to move", func(string) bool {
		return tm.table().upd != nil && len(tm.table().upd.Table.ToMove) == 1 && tm.table().upd.Table.ToMove[0] == 1
	})
	ben.call(t)
	tm.waitFor("Ann to move", has("▶ your turn"))
	clk.Advance(time.Second) // Ben's last request is a second old: away
	tm.typeText("51")
	tm.key("enter")
	tm.waitFor("Ben to move, away", has("Ben (away)", "Ben is away: ctrl+g claims"))
	clk.Advance(table.DefaultWalkAway + time.Minute)
	tm.key("ctrl+g")
	tm.waitFor("the claim in words", has("Ben was away for 6 minutes", "Ben resigned", "the game is claimed"))
	checkFits(t, tm)
	// In Quizl the others play on after a resignation; the end screen,
	// when it comes, says the claim under Game over.
	if len(tm.table().forced) != 1 || !strings.HasPrefix(tm.table().forced[0], "Ben was away") {
		t.Errorf("the claim is not kept for the end screen: %q", tm.table().forced)
	}
}

// TestClockRule: each clock the form offers is sent as the API takes it.
func TestClockRule(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		preset string
		want   string // JSON; "" for no clock
	}{
		{"none", ""},
		{"60", `60`},
		{"1+0", `{"increment":0,"initial":60,"kind":"fischer"}`},
		{"5+3", `{"increment":3,"initial":300,"kind":"fischer"}`},
		{"2d", `{"days":2,"kind":"correspondence"}`},
		{"x+3", ""},
		{"d", ""},
	} {
		r, ok := clockRule(tc.preset)
		got := ""
		if ok {
			b, _ := json.Marshal(r)
			got = string(b)
		}
		if got != tc.want {
			t.Errorf("clockRule(%q) = %s, want %s", tc.preset, got, tc.want)
		}
	}
}

// TestClockKinds: under a Fischer clock the seat to move (the one with a
// deadline) counts down and the other shows its time standing; a
// correspondence deadline shows as the time it falls on in the player's
// zone.
func TestClockKinds(t *testing.T) {
	t.Parallel()
	secs := func(f float64) *float64 { return &f }
	due := time.Date(2026, 12, 1, 3, 6, 0, 0, time.UTC)
	fischer := &tableScreen{arrived: time.Now().Add(-5 * time.Second), upd: &client.Update{Table: client.Table{
		Status: "playing", Clock: &client.Clock{Kind: "fischer", Initial: 60},
		Seats: []client.Seat{{TimeLeft: secs(30), Deadline: &due}, {TimeLeft: secs(45)}},
	}}}
	if got := ansiStrip(fischer.clockText(0)); got != "⏱0:25" && got != "⏱0:24" {
		t.Errorf("the seat to move shows %q, 30 s five seconds ago", got)
	}
	if got := ansiStrip(fischer.clockText(1)); got != "⏱0:45" {
		t.Errorf("the seat not to move shows %q, want its 45 s standing", got)
	}
	corr := &tableScreen{shared: &shared{}, arrived: time.Now(), upd: &client.Update{Table: client.Table{
		Status: "playing", Clock: &client.Clock{Kind: "correspondence", Days: 2, Turn: 2 * 86400},
		Seats: []client.Seat{{TimeLeft: secs(86400), Deadline: &due}, {}},
	}}}
	if got, want := ansiStrip(corr.clockText(0)), "⏱ due "+due.Local().Format("Mon 2 Jan 15:04"); got != want {
		t.Errorf("a correspondence deadline shows %q, want %q", got, want)
	}
	if got := corr.clockText(1); got != "" {
		t.Errorf("the seat not to move shows %q", got)
	}
	// Over SSH from a client that sent no zone: UTC, named.
	corr.cfg = Config{Zone: time.UTC, ZoneNamed: true}
	if got, want := ansiStrip(corr.clockText(0)), "⏱ due Tue 1 Dec 03:06 UTC"; got != want {
		t.Errorf("over SSH without a zone a correspondence deadline shows %q, want %q", got, want)
	}
}

// TestClockKept: under a Fischer clock the header gives, beside the time
// of the seat to move, the time the player keeps while they wait, and
// their opponent's while it is their turn; under a clock of so much a
// turn, only the seat to move has a time to give.
func TestClockKept(t *testing.T) {
	t.Parallel()
	secs := func(f float64) *float64 { return &f }
	due := time.Now().Add(time.Hour)
	screen := func(seat int, kind string, toMove int) *tableScreen {
		seats := []client.Seat{{Name: "Ann", TimeLeft: secs(100)}, {Name: "Ben", TimeLeft: secs(100)}}
		seats[toMove].TimeLeft, seats[toMove].Deadline = secs(42), &due
		if kind != "fischer" {
			seats[1-toMove].TimeLeft = nil
		}
		return &tableScreen{shared: &shared{w: 80}, game: "nymphabet", id: "t1", seat: seat, arrived: time.Now(), upd: &client.Update{Table: client.Table{
			Title: "Nymphabet", Status: "playing", Clock: &client.Clock{Kind: kind, Initial: 180, Turn: 60},
			Seats: seats, ToMove: []int{toMove},
		}}}
	}
	for _, c := range []struct {
		name         string
		seat, toMove int
		kind         string
		want         string
	}{
		{"waiting", 0, 1, "fischer", "waiting for Ben ⏱0:4? · you ⏱1:40"},
		{"to move", 0, 0, "fischer", "▶ your turn ⏱0:4? · Ben ⏱1:40"},
		{"watching", -1, 0, "fischer", "watching · waiting for Ann ⏱0:4?$"},
		{"a turn's clock", 0, 1, "", "waiting for Ben ⏱0:4?$"},
	} {
		kind := c.kind
		if kind == "" {
			kind = "turn"
		}
		got := ansiStrip(screen(c.seat, kind, c.toMove).header())
		// "?" stands for the digit the second the test takes may change.
		want := strings.ReplaceAll(regexp.QuoteMeta(strings.TrimSuffix(c.want, "$")), `\?`, `\d`)
		if strings.HasSuffix(c.want, "$") {
			want += "$"
		}
		if !regexp.MustCompile(want).MatchString(got) {
			t.Errorf("%s: the header says %q, want %q", c.name, got, c.want)
		}
	}
}

// TestChoiceRange: a field's choices fit the width left, as many as fit
// around the current one.
func TestChoiceRange(t *testing.T) {
	t.Parallel()
	cs := []string{"none", "10", "30", "60", "120", "300"}
	for _, tc := range []struct {
		cur   string
		width int
		want  string
	}{
		{"none", 80, "none/10/30/60/120/300"},
		{"none", 12, "none/10/30/…"},
		{"none", 11, "none/10/…"},
		{"60", 12, "…/60/120/300"},
		{"60", 11, "…/60/120/…"},
		{"300", 12, "…/60/120/300"},
		{"60", 1, "…/60/…"},
	} {
		if got := choiceRange(cs, tc.cur, tc.width); got != tc.want {
			t.Errorf("choiceRange(%q, %d) = %q, want %q", tc.cur, tc.width, got, tc.want)
		}
	}
}

// TestTimeoutAfterMoves: when Ann's time runs out once both players have
// moved, the server resigns for her; the end says she ran out of time,
// not that she resigned, and so does the replay's last move, and the
// home screen's recent games, a guest's (kept by the client) as an
// account's (the server's history).
func TestTimeoutAfterMoves(t *testing.T) {
	t.Parallel()
	for _, signed := range []bool{false, true} {
		name := map[bool]string{false: "guest", true: "account"}[signed]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			timeoutAfterMoves(t, signed)
		})
	}
}

func timeoutAfterMoves(t *testing.T, signed bool) {
	ts := newTestServer(t)
	var tm *term
	if signed {
		_, annS := signedUp(t, ts, "Ann")
		tm = newTermWith(t, ts.URL, "Ann", 80, 24, Config{DataDir: t.TempDir(), Session: annS.Token, Account: "Ann"})
	} else {
		tm = newTerm(t, ts.URL, "Ann", 80, 24)
	}
	tm.open("nymphabet", 0) // the computer, easy
	tm.key("up")            // the last field: the word list, or whether the game is rated
	if signed {
		tm.key("up") // the word list
	}
	tm.key("up")    // the clock
	tm.key("right") // 10 seconds
	tm.waitFor("the clock field", has("Clock", "‹ 10 ›"))
	tm.key("enter")
	tm.waitFor("the first turn", has("▶ your turn", "[A]"))
	tm.typeText("able")
	tm.key("enter")
	tm.waitFor("the computer's answer", func(s string) bool {
		return strings.Contains(s, "▶ your turn") && len(tm.table().log) > 1
	})
	s := tm.waitFor("the timeout", over)
	checkFits(t, tm)
	if !strings.Contains(s, "Game over: Ann ran out of time\n") {
		t.Errorf("the end does not say Ann ran out of time:\n%s", s)
	}
	tm.key("p")
	tm.waitFor("the replay", has("replay, Ann's view"))
	tm.key("end")
	tm.waitFor("the last move", has("move 3 of 3, Ann: resign (time ran out)"))
	id := tm.table().id
	tm.key("esc")
	tm.key("esc")
	s = tm.waitFor("the recent game", func(s string) bool {
		return strings.Contains(lineWith(s, id), " lost ")
	})
	// At 80 columns the words take a line of their own under the game's,
	// and at 100 they follow it.
	lines := strings.Split(s, "\n")
	i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, id) })
	if i < 0 || i+1 >= len(lines) || strings.TrimSpace(lines[i+1]) != "you ran out of time" {
		t.Errorf("the recent game does not say Ann ran out of time:\n%s", s)
	}
	checkFits(t, tm)
	tm.update(tea.WindowSizeMsg{Width: 100, Height: 24})
	s = tm.screen()
	if l := strings.TrimSpace(lineWith(s, id)); !strings.HasSuffix(l, " · you ran out of time") {
		t.Errorf("at 100 columns the recent game reads %q:\n%s", l, s)
	}
	checkFits(t, tm)
}

// TestSetupDueText: an event's table in setup tells by when the setup is
// due, in minutes (rounded up) and, in its last minute, in seconds,
// counted from the server's now rather than the local clock; any other
// table, or one in play, says nothing.
func TestSetupDueText(t *testing.T) {
	t.Parallel()
	// The server's clock is a day off the local one: the time left
	// counts from its now.
	now := time.Now().Add(24 * time.Hour)
	for _, c := range []struct {
		name   string
		status string
		left   time.Duration // to setup_by from the server's now; 0: none
		want   string
	}{
		{"five minutes", "setup", 5 * time.Minute, "(in 5 minutes), or forfeit this game"},
		{"a minute and a half", "setup", 90 * time.Second, "(in 2 minutes), or forfeit this game"},
		{"a minute", "setup", time.Minute, "(in 1 minute), or forfeit this game"},
		{"half a minute", "setup", 30 * time.Second, "(in 30 seconds), or forfeit this game"},
		{"past", "setup", -time.Second, "the time is up, so this game is forfeit"},
		{"no deadline", "setup", 0, ""},
		{"in play", "playing", 5 * time.Minute, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tb := client.Table{Status: c.status, Clock: &client.Clock{Now: now, Kind: "fischer", Initial: 60}}
			if c.left != 0 {
				by := now.Add(c.left)
				tb.SetupBy = &by
			}
			ts := &tableScreen{shared: &shared{w: 80}, arrived: time.Now(), upd: &client.Update{Table: tb}}
			got := ansi.Strip(ts.setupDueText())
			if c.want == "" && got != "" || !strings.Contains(got, c.want) {
				t.Errorf("%s before the deadline: %q, want %q", c.left, got, c.want)
			}
			if c.want != "" && !strings.HasPrefix(got, "Set up by ") {
				t.Errorf("the line does not say by when: %q", got)
			}
		})
	}
}
