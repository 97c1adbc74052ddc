package tui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"parlour/server"
	"parlour/server/table/tabletest"
	"parlour/tui/client"
)

// TestDailyPuzzles: d on the home screen lists the day's puzzles, one for
// each game the server sets one of, with the chosen one's leaderboard;
// enter starts the player's one attempt at it, played as any table; back
// on the list the attempt shows its result in the server's words and
// enter opens the game again rather than starting another.
func TestDailyPuzzles(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()

	// Ben, with an account, has finished today's Quizl: he leads its board.
	bc, benS := signedUp(t, ts, "ben_d")
	seat, err := bc.StartDaily(ctx, benS.Token, "quizl")
	if err != nil {
		t.Fatalf("Ben starting the daily Quizl: %v", err)
	}
	for _, m := range []string{"50", "resign"} {
		if _, err := bc.Move(ctx, benS.Token, seat.Table, m, 0, false); err != nil {
			t.Fatalf("Ben's %s: %v", m, err)
		}
	}

	ac, annS := signedUp(t, ts, "ann_d")
	tm := newTermWith(t, ts.URL, "ann_d", 80, 24, Config{DataDir: t.TempDir(), Session: annS.Token, Account: "ann_d"})
	tm.key("d")
	s := tm.waitFor("the day's puzzles and Quizl's board", has("Daily puzzles", "> Quizl", "Salvo", "not played yet", "Quizl: today's leaderboard", "ben_d"))
	checkFits(t, tm)
	for _, no := range []string{"Nymphabet", "Sightless Word Fight"} {
		if strings.Contains(s, no) {
			t.Errorf("the list offers %s, which has no daily puzzle:\n%s", no, s)
		}
	}
	if !strings.Contains(s, "calls") || !strings.Contains(s, "not solved") && !strings.Contains(s, " no ") {
		t.Errorf("Quizl's board does not count calls or say Ben's game was not solved:\n%s", s)
	}
	tm.key("y")
	tm.waitFor("yesterday's board", has("Quizl: yesterday's leaderboard", "nobody with an account has finished it yet"))
	tm.key("t")
	tm.key("down")
	tm.waitFor("Salvo's board", has("> Salvo", "Salvo: today's leaderboard", "nobody with an account has finished it yet"))
	tm.key("up")

	// Ann's attempt: one call, then she resigns.
	tm.key("enter")
	tm.waitFor("the daily table", func(s string) bool {
		return tm.table() != nil && strings.Contains(s, "Tracking today's daily grid") && strings.Contains(s, "▶ your turn")
	})
	id := tm.table().id
	checkFits(t, tm)
	tm.typeText("72")
	tm.key("enter")
	tm.waitFor("the call answered", has("called 72"))
	tm.typeText(":resign")
	tm.key("enter")
	tm.key("enter") // the first asks
	s = tm.waitFor("the end", has("Game over", "no win this time", "esc your daily result"))
	checkFits(t, tm)
	if strings.Contains(s, "a draw") {
		t.Errorf("a game alone at the table ends in a draw:\n%s", s)
	}
	if !strings.Contains(s, "The hidden grid, the analysis (a), the replay (p) and the record (s) open to you") {
		t.Errorf("the daily's end does not say when its answer opens:\n%s", s)
	}
	if strings.Contains(s, "a analysis") {
		t.Errorf("the daily's end offers the analysis the server refuses until the day ends:\n%s", s)
	}
	if strings.Contains(s, "Set to") || strings.Contains(s, "rematch") {
		t.Errorf("the daily's end offers a set or a rematch; it is one attempt, played again as a new game:\n%s", s)
	}
	tm.key("esc")
	tm.waitFor("Ann's result, and Ann on today's board", has("not solved: 1 call, 0 wrong announcements", "enter open your game", "ann_d", "s your result to share"))
	checkFits(t, tm)
	tm.key("s")
	s = tm.waitFor("the share text", has("Your result, to share", "Parlour daily Quizl"))
	checkFits(t, tm)
	// The one call's outcome, and no picture of the grid.
	if !strings.ContainsAny(s, "■□") || strings.Contains(s, "□□") {
		t.Errorf("the share text is not one call's outcome:\n%s", s)
	}
	tm.key("s")
	tm.waitFor("the board again", has("Quizl: today's leaderboard"))
	tm.key("c")
	tm.waitFor("the copy said", has("your result is copied"))
	tm.key("enter")
	tm.waitFor("Ann's game again", func(s string) bool { return tm.table() != nil && over(s) })
	if got := tm.table().id; got != id {
		t.Errorf("enter on a played puzzle opened table %s; Ann's attempt is %s", got, id)
	}

	// Today's Salvo begun elsewhere (a browser) after the list was read:
	// enter is refused in the server's words, and the list read again.
	tm.key("esc")
	tm.waitFor("the list", has("> Quizl  not solved", "  Salvo  not played yet"))
	if _, err := ac.StartDaily(ctx, annS.Token, "salvo"); err != nil {
		t.Fatal(err)
	}
	tm.key("down")
	tm.key("enter")
	tm.waitFor("the refusal, and the list as it stands", has("you have already played the daily salvo", "under way: enter goes back to it"))
	checkFits(t, tm)

	// Her recent games name the daily attempts; her profile counts her
	// daily puzzles and names the game a daily one.
	tm.key("esc")
	tm.waitFor("the recent games", has("Daily Salvo", "Daily Quizl"))
	tm.key("t")
	tm.key("m")
	tm.waitFor("Ann's profile", has("ann_d", "Daily puzzles: Quizl 0 solved of 1, streak 0 (best 0)", "lost    Daily Quizl, alone"))
	checkFits(t, tm)
}

// TestDailyAsGuest: a guest plays the daily puzzle under a guest identity
// made for it; the list then says the attempt is under way, the puzzle
// chosen, and a second enter goes back to it.
func TestDailyAsGuest(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Gus", 80, 24)
	tm.key("d")
	tm.waitFor("the puzzles", has("> Quizl", "not played yet"))
	tm.key("down")
	tm.key("enter")
	// The day's first Salvo attempt waits for the strong computer to hide
	// the fleet: longer than waitFor's 30 s on a loaded machine.
	tm.waitWithin("the daily Salvo", dailyWait, func(s string) bool {
		return tm.table() != nil && strings.Contains(s, "Today's daily puzzle")
	})
	checkFits(t, tm)
	id := tm.table().id
	tm.key("esc")
	// Back on the list, the puzzle just played is the one chosen.
	tm.waitFor("the attempt under way", has("Daily puzzles", "  Quizl", "> Salvo", "under way: enter goes back to it"))
	checkFits(t, tm)
	tm.key("enter")
	tm.waitFor("the same table", func(s string) bool { return tm.table() != nil && tm.table().id == id })
}

// TestDailyPastDays: h on the daily puzzles shows an account's own days
// at the chosen game, the latest first; a day not over keeps its replay
// until midnight UTC, and once it is over enter watches the game, its
// secrets and its end, and esc comes back to the days. A guest is told
// the days are kept for accounts.
func TestDailyPastDays(t *testing.T) {
	t.Parallel()
	clk := tabletest.NewClock(time.Now())
	ts := newTestServerWith(t, func(c *server.Config) { c.Clock = clk })
	ctx := context.Background()
	ac, annS := signedUp(t, ts, "ann_p")
	seat, err := ac.StartDaily(ctx, annS.Token, "quizl")
	if err != nil {
		t.Fatalf("Ann starting the daily Quizl: %v", err)
	}
	for _, m := range []string{"72", "resign"} {
		if _, err := ac.Move(ctx, annS.Token, seat.Table, m, 0, false); err != nil {
			t.Fatalf("Ann's %s: %v", m, err)
		}
	}
	bc, benS := signedUp(t, ts, "ben_p")
	benSeat, err := bc.StartDaily(ctx, benS.Token, "quizl")
	if err != nil {
		t.Fatalf("Ben starting the daily Quizl: %v", err)
	}
	if _, err := bc.Move(ctx, benS.Token, benSeat.Table, "resign", 0, false); err != nil {
		t.Fatalf("Ben's resignation: %v", err)
	}

	tm := newTermWith(t, ts.URL, "ann_p", 80, 24, Config{DataDir: t.TempDir(), Session: annS.Token, Account: "ann_p"})
	tm.key("d")
	tm.waitFor("the day's puzzles", has("> Quizl", "h your past days"))
	tm.key("h")
	s := tm.waitFor("Ann's days", has("Your days at the daily Quizl", "streak 0 · longest 0 · solved 0 of 1", "not solved, 1 call, 0 wrong", "replay at midnight UTC"))
	checkFits(t, tm)
	tm.key("enter")
	tm.waitFor("the replay kept until the day ends", has("a day's replay opens when the day ends"))
	if tm.table() != nil {
		t.Fatalf("a day not over opened its game:\n%s", s)
	}
	tm.key("tab")
	tm.waitFor("Salvo's days", has("Your days at the daily Salvo", "not played yet"))
	tm.key("h")
	tm.waitFor("Salvo's board", has("> Salvo", "Salvo: today's leaderboard", "nobody with an account has finished it yet"))
	tm.key("esc")

	// The next day: the day is over, and its game opens.
	clk.Advance(24 * time.Hour)
	tm.key("d")
	tm.waitFor("the day's puzzles", has("> Quizl", "not played yet"))
	tm.key("h")
	s = tm.waitFor("Ann's days", has("Your days at the daily Quizl", "not solved, 1 call, 0 wrong"))
	if strings.Contains(s, "replay at midnight") {
		t.Errorf("a day over still waits for midnight:\n%s", s)
	}
	tm.key("enter")
	tm.waitFor("the day's game, watched", func(s string) bool {
		return tm.table() != nil && tm.table().id == seat.Table && over(s)
	})
	tm.key("esc")
	tm.waitFor("back on the days", has("Your days at the daily Quizl"))
	tm.key("h")
	// Today's board, asked for as the list opened, came whatever screen
	// was on show.
	tm.waitFor("the leaderboard again", has("Quizl: today's leaderboard", "nobody with an account has finished it yet"))

	// Yesterday's board: its day is over, and each player's game opens.
	tm.key("y")
	tm.waitFor("yesterday's board", has("Quizl: yesterday's leaderboard", "> ", "ann_p", "ben_p", "enter watch their game"))
	checkFits(t, tm)
	opened := map[string]bool{}
	for range 2 {
		tm.key("enter")
		s := tm.waitFor("a player's game, watched", func(s string) bool { return tm.table() != nil && over(s) })
		opened[tm.table().id] = true
		if tm.table().seat >= 0 {
			t.Errorf("yesterday's game opened with a seat:\n%s", s)
		}
		tm.key("esc")
		tm.waitFor("yesterday's board again", has("Quizl: yesterday's leaderboard"))
		tm.key("down")
	}
	if !opened[seat.Table] || !opened[benSeat.Table] {
		t.Errorf("the board's two games opened as %v; want Ann's %s and Ben's %s", opened, seat.Table, benSeat.Table)
	}

	guest := newTerm(t, ts.URL, "Gus", 80, 24)
	guest.key("d")
	s = guest.waitFor("the day's puzzles", has("> Quizl"))
	if strings.Contains(s, "h your past days") {
		t.Errorf("a guest is offered the days kept for accounts:\n%s", s)
	}
	guest.key("h")
	guest.waitFor("the refusal", has("your past days are kept for accounts"))
}

// TestDailyBoardOwnLine: a leaderboard longer than the screen shows its
// leaders and, where the player ranks below them, the player's own line
// between a count of those skipped and of those below; the screen fits.
func TestDailyBoardOwnLine(t *testing.T) {
	t.Parallel()
	board := client.DailyBoard{Game: "quizl", Day: "2026-12-06"}
	for i := range 40 {
		board.Entries = append(board.Entries, client.DailyResult{Game: "quizl", Day: board.Day, Name: fmt.Sprintf("player%02d", i+1), Ranked: true,
			Finished: true, Solved: true, Moves: 5 + i, Seconds: 60})
		board.Entries[i].Rank = i + 1
	}
	for _, tc := range []struct {
		account string
		want    []string
		not     []string
	}{
		{"player03", []string{"player01", "player03", "… and "}, []string{"player30"}},
		{"Player30", []string{"player01", "… ", "30  player30", "… and 10 more"}, []string{"player29"}},
		{"player40", []string{"player01", "40  player40"}, []string{"… and"}},
		{"", []string{"player01", "… and "}, []string{"player40"}},
	} {
		d := &dailyScreen{shared: &shared{w: 80, h: 24, cfg: Config{Account: tc.account}}, boards: map[string]*dailyBoardMsg{},
			puzzles: []client.Daily{{Game: "quizl", Title: "Quizl", Day: board.Day}, {Game: "salvo", Title: "Salvo", Day: board.Day}}}
		d.boards["quizl/"+board.Day] = &dailyBoardMsg{key: "quizl/" + board.Day, board: board}
		s := ansi.Strip(d.view())
		for _, p := range fitProblems(s, 80, 24) {
			t.Errorf("%s: %s", tc.account, p)
		}
		for _, w := range tc.want {
			if !strings.Contains(s, w) {
				t.Errorf("%s: %q is not shown:\n%s", tc.account, w, s)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(s, n) {
				t.Errorf("%s: %q is shown:\n%s", tc.account, n, s)
			}
		}
	}
}

// TestDailyAttemptOpenAtMidnight: an attempt still under way when its
// day ends, opened again from the past days, says it takes no move but a
// resignation, rather than that it is the player's turn.
func TestDailyAttemptOpenAtMidnight(t *testing.T) {
	t.Parallel()
	clk := tabletest.NewClock(time.Now())
	ts := newTestServerWith(t, func(c *server.Config) { c.Clock = clk })
	ctx := context.Background()
	ac, annS := signedUp(t, ts, "ann_m")
	seat, err := ac.StartDaily(ctx, annS.Token, "quizl")
	if err != nil {
		t.Fatalf("Ann starting the daily Quizl: %v", err)
	}
	if _, err := ac.Move(ctx, annS.Token, seat.Table, "72", 0, false); err != nil {
		t.Fatalf("Ann's call: %v", err)
	}
	clk.Advance(24 * time.Hour)
	tm := newTermWith(t, ts.URL, "ann_m", 80, 24, Config{DataDir: t.TempDir(), Session: annS.Token, Account: "ann_m"})
	tm.key("d")
	tm.waitFor("the day's puzzles", has("> Quizl", "h your past days"))
	tm.key("h")
	tm.waitFor("Ann's days", has("Your days at the daily Quizl", "under way"))
	tm.key("enter")
	s := tm.waitFor("the attempt, closed", func(s string) bool {
		return tm.table() != nil && tm.table().id == seat.Table && strings.Contains(s, "the day is over: :resign ends this attempt") && strings.Contains(s, "Its day is over, so only :resign:")
	})
	if strings.Contains(s, "your turn") {
		t.Errorf("a closed attempt says it is the player's turn:\n%s", s)
	}
	checkFits(t, tm)
	tm.typeText(":resign")
	tm.key("enter")
	tm.key("enter") // the first asks
	tm.waitFor("the attempt ended", has("Game over"))
}
