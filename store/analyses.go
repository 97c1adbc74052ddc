package store

import "context"

// Analyses keeps the engines' analysis of each finished game beside its
// record, so that it is computed once: not again after a restart, nor by
// each node of a cluster. An analysis is filed under the version of the
// analysis object that made it (analysis.Version), so a newer engine
// computes its own rather than serving an older one's. A Store may
// implement it too.
type Analyses interface {
	// Analysis returns the analysis of table id filed under version, or
	// ErrNotFound when there is none.
	Analysis(ctx context.Context, id string, version int) ([]byte, error)
	// PutAnalysis files body as the analysis of table id under version.
	// Analyses never change, so when one is already filed there (another
	// request or node got there first) it keeps that one and succeeds.
	PutAnalysis(ctx context.Context, id string, version int, body []byte) error
}
