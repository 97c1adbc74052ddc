package auth

import (
	"log/slog"
	"testing"

	"parlour/server/internal/servertest"
)

// TestWatch: forgetting a token tells every connection watching it, once,
// and no other; a watch stopped first is not told, and nothing is left
// watched.
func TestWatch(t *testing.T) {
	t.Parallel()
	a := New(servertest.SQLite(t), slog.New(slog.DiscardHandler), 0)
	ann, annHash := NewToken()
	ben, benHash := NewToken()
	told := map[string]int{}
	tell := func(who string) func() { return func() { told[who]++ } }
	stops := []func(){
		a.Watch(ann, tell("ann's socket")),
		a.Watch(ann, tell("ann's stream")),
		a.Watch(ben, tell("ben's socket")),
	}
	a.Watch(ben, tell("ben's stream, closed"))()
	if got := a.Watching(); got != 3 {
		t.Fatalf("watching %d, want 3", got)
	}
	a.Forget(annHash)
	a.Forget(annHash) // told once only
	want := map[string]int{"ann's socket": 1, "ann's stream": 1}
	if len(told) != len(want) || told["ann's socket"] != 1 || told["ann's stream"] != 1 {
		t.Fatalf("told %v, want %v", told, want)
	}
	for _, stop := range stops {
		stop() // after the telling too: harmless
	}
	a.Forget(benHash)
	if told["ben's socket"] != 0 || told["ben's stream, closed"] != 0 || a.Watching() != 0 {
		t.Fatalf("after every watch stopped: told %v, watching %d", told, a.Watching())
	}
}
