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
	// the gaps between the runs stored before it (Gaps, with grace),
	// oldest first. Only the most recent runs are kept (KeptRuns), so
	// the oldest gaps are forgotten.
	StartRun(ctx context.Context, at time.Time, grace time.Duration) (int64, []Span, error)
	// KeepRun notes that run id was still running at at: a server calls
	// it now and then while it runs, so that after a crash the gap
	// begins at its last note.
	KeepRun(ctx context.Context, id int64, at time.Time) error
	// EndRun notes that run id stopped at at, as a server does when it
	// stops: the gap begins there, however soon the next run starts.
	EndRun(ctx context.Context, id int64, at time.Time) error
}

// KeptRuns is how many runs a Runs keeps: a server restarted once a day
// remembers the gaps of almost three years, more than any game lasts.
const KeptRuns = 1000

// Span is a stretch of time, From (excluded) to To.
type Span struct {
	From, To time.Time
}

// Run is one run of a server as a Runs keeps it: from its start to the
// last time it was known to be running, and whether it ended there
// (EndRun) or was last noted there (KeepRun).
type Run struct {
	Span
	Ended bool
}

// Gaps returns the spans, oldest first, when none of runs was running,
// as seen by a run starting at at: runs is in the order of their starts.
// A run that did not end and was noted within grace before at may be
// running still (another node of a cluster, between two notes), and
// counts as running until at; one noted longer ago stopped without
// ending (a crash) at its last note.
func Gaps(runs []Run, at time.Time, grace time.Duration) []Span {
	var gaps []Span
	var reach time.Time // the latest any run so far was known to run
	for i, r := range runs {
		end := r.To
		if !r.Ended && !end.Before(at.Add(-grace)) && end.Before(at) {
			end = at
		}
		if i > 0 && r.From.After(reach) {
			gaps = append(gaps, Span{From: reach, To: r.From})
		}
		if i == 0 || end.After(reach) {
			reach = end
		}
	}
	return gaps
}
