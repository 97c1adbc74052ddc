package store

import (
	"context"
	"time"
)

// Runs is a store that keeps when a server ran on it, so that the clocks
// of the games in play stand still while none did: a player to move when
// the server stopped finds, once it is back, the time they had. A server
// that restores every live table at start uses it; the nodes of a
// cluster, which take each other's tables over in moments, do not.
type Runs interface {
	// StartRun stores a run that starts at at and returns its id and
	// the spans between the runs stored before it, oldest first: each
	// from the last time a run was known to be running (KeepRun) to
	// the start of the next. Only the most recent runs are kept
	// (KeptRuns), so the oldest gaps are forgotten.
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
