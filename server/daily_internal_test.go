package server

import (
	"testing"

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
