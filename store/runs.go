package store

import (
	"context"
	"time"
)

// Runs is a store that keeps when servers ran on it, so that the clocks
// of the games in play stand still while none did: a player to move when
// the server stopped finds, once it is back, the time they had. Every
// node of a cluster keeps its own run; the gaps are the times when no
// node ran.
type Runs interface {
	// StartRun stores a run that starts at at and returns its id and
	// the gaps between the runs stored before it (Gaps), oldest first.
	// Only the most recent runs are kept (KeptRuns), so the oldest gaps
	// are forgotten.
	StartRun(ctx context.Context, at time.Time) (int64, []Span, error)
	// KeepRun notes that run id was still running at at. A server
	// calls it now and then while it runs, and as it stops; the last
	// time noted is where the next gap begins.
	KeepRun(ctx context.Context, id int64, at time.Time) error
}

// KeptRuns is how many runs a Runs keeps: a server restarted once a day
// remembers the gaps of almost three years, more than any game lasts.
const KeptRuns = 1000

// Span is a stretch of time, From (excluded) to To.
type Span struct {
	From, To time.Time
}

// Gaps returns the spans, oldest first, when none of runs was running:
// each run is a span from its start to the last time it was known to be
// running, and runs is in the order of their starts.
func Gaps(runs []Span) []Span {
	var gaps []Span
	var reach time.Time // the latest any run so far was known to run
	for i, r := range runs {
		if i > 0 && r.From.After(reach) {
			gaps = append(gaps, Span{From: reach, To: r.From})
		}
		if i == 0 || r.To.After(reach) {
			reach = r.To
		}
	}
	return gaps
}
