package daily

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"parlour/game"
	"parlour/games"
	"parlour/lexicon"
	"parlour/server/internal/servertest"
	"parlour/store"
)

// TestStreaks counts the days in a row solved, up to today or, while
// today is not finished, yesterday; and the longest run.
func TestStreaks(t *testing.T) {
	t.Parallel()
	const today = "2026-03-10"
	type d = store.DailyAttempt
	solved := func(day string) d { return d{Day: day, Finished: true, Solved: true} }
	failed := func(day string) d { return d{Day: day, Finished: true} }
	playing := func(day string) d { return d{Day: day} }
	for _, c := range []struct {
		name          string
		hist          []d
		current, best int
	}{
		{"nothing", nil, 0, 0},
		{"today", []d{solved("2026-03-10")}, 1, 1},
		{"yesterday only", []d{solved("2026-03-09")}, 1, 1},
		{"two days ago", []d{solved("2026-03-08")}, 0, 1},
		{"three in a row", []d{solved("2026-03-10"), solved("2026-03-09"), solved("2026-03-08")}, 3, 3},
		{"today under way", []d{playing("2026-03-10"), solved("2026-03-09"), solved("2026-03-08")}, 2, 2},
		{"today failed", []d{failed("2026-03-10"), solved("2026-03-09"), solved("2026-03-08")}, 0, 2},
		{"a gap", []d{solved("2026-03-10"), solved("2026-03-08"), solved("2026-03-07"), solved("2026-03-06")}, 1, 3},
		{"a failure between", []d{solved("2026-03-09"), failed("2026-03-08"), solved("2026-03-07")}, 1, 1},
		{"across a month", []d{solved("2026-03-01"), solved("2026-02-28")}, 0, 2},
	} {
		cur, best := streaks(c.hist, today)
		if cur != c.current || best != c.best {
			t.Errorf("%s: streak %d, best %d; want %d, %d", c.name, cur, best, c.current, c.best)
		}
	}
}

// TestDailyGames: the games with a daily puzzle are those that tally one,
// and the refusal of any other names them in a player's words.
func TestDailyGames(t *testing.T) {
	t.Parallel()
	quizl, err := games.Registry().Lookup("quizl")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		reg    *game.Registry
		daily  []string
		asked  string
		title  string // of asked, when it has a daily puzzle
		refuse string // else the refusal
	}{
		{"every game, Quizl", games.Registry(), []string{"quizl", "salvo"}, " QUIZL ", "Quizl", ""},
		{"every game, Salvo", games.Registry(), []string{"quizl", "salvo"}, "salvo", "Salvo", ""},
		{"every game, a game without", games.Registry(), []string{"quizl", "salvo"}, "nymphabet", "",
			`there is no daily puzzle of "nymphabet": there are daily quizl and daily salvo`},
		{"every game, no game", games.Registry(), []string{"quizl", "salvo"}, "chess", "",
			`there is no daily puzzle of "chess": there are daily quizl and daily salvo`},
		{"one daily game", game.NewRegistry(quizl, servertest.Guess{}), []string{"quizl"}, "guess", "",
			`there is no daily puzzle of "guess": there is daily quizl`},
		{"none", servertest.Registry(), nil, "quizl", "", `there is no daily puzzle of "quizl": this server has none`},
	} {
		s := &Service{games: tc.reg}
		if got := s.dailyGames(); !slices.Equal(got, tc.daily) {
			t.Errorf("%s: daily games %q, want %q", tc.name, got, tc.daily)
		}
		title, err := s.dailyGame(tc.asked)
		switch {
		case tc.refuse == "" && (err != nil || title != tc.title):
			t.Errorf("%s: %q, %v; want %q", tc.name, title, err, tc.title)
		case tc.refuse != "" && (err == nil || err.Error() != tc.refuse):
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.refuse)
		}
	}
}

// TestShareText writes finished attempts in each game's words, with
// plurals right and the trail of outcomes as symbols.
func TestShareText(t *testing.T) {
	t.Parallel()
	s := &Service{games: games.Registry()}
	for _, tc := range []struct {
		a    store.DailyAttempt
		want string
	}{
		{store.DailyAttempt{Game: "quizl", Day: "2026-03-01", Finished: true, Solved: true, Moves: 6, Wrong: 1, Marks: "#./..", Trail: ".#.x#./#+"},
			"Parlour daily Quizl 2026-03-01\nsolved: 6 calls, 1 wrong announcement\n□■□✗■□\n■✓"},
		{store.DailyAttempt{Game: "salvo", Day: "2026-03-02", Finished: true, Moves: 2, Wrong: 1, Marks: "..#", Trail: "##.../#..../x"},
			"Parlour daily Salvo 2026-03-02\nnot solved: 2 salvos, 1 wrong outline\n■■□□□\n■□□□□\n✗"},
		// Finished before trails were kept: the counts alone, and never
		// the marks.
		{store.DailyAttempt{Game: "salvo", Day: "2026-03-02", Finished: true, Moves: 1, Marks: "..#"},
			"Parlour daily Salvo 2026-03-02\nnot solved: 1 salvo, 0 wrong outlines"},
		{store.DailyAttempt{Game: "salvo", Day: "2026-03-02", Moves: 1}, ""}, // not finished: nothing to share
	} {
		if got := s.dailyResult(tc.a, true).Share; got != tc.want {
			t.Errorf("%s %s: share\n%s\nwant\n%s", tc.a.Game, tc.a.Day, got, tc.want)
		}
		// Shown to others before the day is over, an attempt holds no
		// squares: they point at the answer.
		if closed := s.dailyResult(tc.a, false); closed.Share != "" || closed.Marks != "" {
			t.Errorf("%s %s shown to others while the day lasts: share %q, marks %q", tc.a.Game, tc.a.Day, closed.Share, closed.Marks)
		}
	}
}

// TestShareTextNamesNoSquare plays pairs of attempts at one puzzle that
// use different squares to the same outcomes, through each game's
// Tallier as a daily table is tallied: their marks differ, but their
// share texts are the same, so a share text pasted while the day lasts
// tells nothing of where the answer lies. Another order of the same
// outcomes shares another text: the trail tells the moves in order.
func TestShareTextNamesNoSquare(t *testing.T) {
	t.Parallel()
	lex := lexicon.FromWords("test", []string{"psalm", "waves", "crane"})
	// PSALM in column 4, read down from row 5.
	grid := `{"grid": ["TQUFP", "WZVES", "OGBRA", "CHINL", "KYXDM"], "password": "PSALM"}`
	fleet := `{"fleet": ["D4-H4", "B6-B9", "F6-F8", "H7-I7", "D9-E9"]}`
	// The fleet's squares left after two hits on one of its ships, in
	// orders that sink a ship at the same shots, so that the salvos
	// shrink alike.
	restA := "fire* F4 G4 H4 B6 B7 B8 B9 F6 F7 F8 H7 I7 D9 E9"
	restB := "fire* B8 B9 D4 E4 F4 G4 H4 F6 F7 F8 D9 E9 H7 I7"
	outline := "outline D4-H4 B6-B9 F6-F8 H7-I7 D9-E9"
	for _, tc := range []struct {
		game, setup string
		a, b        []string // the same outcomes at different squares
		other       []string // the outcomes of a in another order
	}{
		{"quizl", grid,
			[]string{"50", "say waves", "74", "say psalm"},
			[]string{"61", "say crane", "84", "say psalm"},
			[]string{"74", "say waves", "50", "say psalm"}},
		{"salvo", fleet,
			[]string{"fire A1 A2 A3 A4 A5", "fire D4 E4 J1 J2 J3", restA, outline},
			[]string{"fire J6 J7 J8 J9 J10", "fire B6 B7 A7 A8 A9", restB, outline},
			[]string{"fire D4 E4 J1 J2 J3", "fire A1 A2 A3 A4 A5", restA, outline}},
	} {
		t.Run(tc.game, func(t *testing.T) {
			t.Parallel()
			g, err := games.Registry().Lookup(tc.game)
			if err != nil {
				t.Fatal(err)
			}
			tl := g.(game.Tallier)
			cfg := game.Config{Players: []string{"me"}, Rules: game.Defaults(g.Options()), Lexicon: lex}
			attempt := func(moves []string) store.DailyAttempt {
				t.Helper()
				setup, err := g.CheckSetup(cfg, 0, json.RawMessage(tc.setup))
				if err != nil {
					t.Fatal(err)
				}
				st, err := g.New(cfg, []json.RawMessage{setup})
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range moves {
					playMove(t, st, m)
				}
				r, err := tl.Tally(st)
				if err != nil {
					t.Fatal(err)
				}
				return store.DailyAttempt{Game: tc.game, Day: "2026-03-01", Finished: true,
					Solved: r.Solved, Moves: r.Moves, Wrong: r.Wrong, Marks: r.Marks, Trail: r.Trail}
			}
			a, b, other := attempt(tc.a), attempt(tc.b), attempt(tc.other)
			if !a.Solved || !b.Solved {
				t.Fatalf("the attempts were to be solved: %+v, %+v", a, b)
			}
			if a.Marks == b.Marks {
				t.Fatalf("the attempts were to use different squares: both %q", a.Marks)
			}
			share := func(a store.DailyAttempt) string { return shareText(g.Title(), tl.TallyWords(), a) }
			if share(a) != share(b) {
				t.Errorf("the same outcomes at different squares share different texts:\n%s\n\n%s", share(a), share(b))
			}
			if share(a) == share(other) {
				t.Errorf("the same outcomes in another order share the same text:\n%s", share(a))
			}
		})
	}
}

// playMove applies move for seat 0 of st; "fire* SQUARES" fires at the
// squares, in order, in as many salvos as the table allows.
func playMove(t *testing.T, st game.State, move string) {
	t.Helper()
	squares, volley := strings.CutPrefix(move, "fire* ")
	if !volley {
		if _, err := st.Apply(0, move); err != nil {
			t.Fatalf("%s: %v", move, err)
		}
		return
	}
	todo := strings.Fields(squares)
	for len(todo) > 0 {
		n := min(5, len(todo))
		for ; n > 0; n-- {
			if _, err := st.Apply(0, "fire "+strings.Join(todo[:n], " ")); err == nil {
				break
			}
		}
		if n == 0 {
			t.Fatalf("no salvo at %s is taken", todo)
		}
		todo = todo[n:]
	}
}

// TestUntilNext: the next day's puzzles are made just after it begins,
// however far away that is, and soon when the day's clock runs behind.
func TestUntilNext(t *testing.T) {
	t.Parallel()
	at := func(day, clock string) time.Time {
		tm, err := time.Parse("2006-01-02 15:04:05", day+" "+clock)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	for _, c := range []struct {
		name string
		now  time.Time
		day  string
		want time.Duration
	}{
		{"the day begun", at("2026-03-01", "00:00:05"), "2026-03-01", 24*time.Hour - 5*time.Second + aheadMargin},
		{"noon", at("2026-03-01", "12:00:00"), "2026-03-01", 12*time.Hour + aheadMargin},
		{"a second before midnight", at("2026-03-01", "23:59:59"), "2026-03-01", time.Second + aheadMargin},
		{"midnight", at("2026-03-02", "00:00:00"), "2026-03-01", aheadMargin},
		{"the store's clock behind", at("2026-03-02", "00:00:03"), "2026-03-01", aheadMargin},
		{"across a month", at("2026-02-28", "18:00:00"), "2026-02-28", 6*time.Hour + aheadMargin},
		{"a day set ahead by a clock set back", at("2026-03-01", "12:00:00"), "2026-03-02", 36*time.Hour + aheadMargin},
	} {
		if got := untilNext(c.now, c.day); got != c.want {
			t.Errorf("%s: %v after %s, want %v", c.name, got, c.now.Format(time.DateTime), c.want)
		}
	}
}
