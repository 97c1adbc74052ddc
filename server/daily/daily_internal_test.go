package daily

import (
	"slices"
	"strings"
	"testing"

	"parlour/game"
	"parlour/games"
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
// plurals right and the marks as squares.
func TestShareText(t *testing.T) {
	t.Parallel()
	s := &Service{games: games.Registry()}
	for _, tc := range []struct {
		a    store.DailyAttempt
		want string
	}{
		{store.DailyAttempt{Game: "quizl", Day: "2026-03-01", Finished: true, Solved: true, Moves: 3, Wrong: 1, Marks: "#./.."},
			"Parlour daily Quizl 2026-03-01\nsolved: 3 calls, 1 wrong announcement\n■□\n□□"},
		{store.DailyAttempt{Game: "salvo", Day: "2026-03-02", Finished: true, Moves: 1, Wrong: 2, Marks: "..#"},
			"Parlour daily Salvo 2026-03-02\nnot solved: 1 salvo, 2 wrong outlines\n□□■"},
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
		if strings.Contains(s.dailyResult(tc.a, true).Share, "#") {
			t.Errorf("%s: raw marks in the share text", tc.a.Game)
		}
	}
}
