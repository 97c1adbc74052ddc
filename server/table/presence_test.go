package table

import (
	"testing"
	"time"
)

// TestPresenceRemote: a seat is here while a connection of its own is
// open, or while a watcher on another node is vouched for; a watcher
// whose vouching ran out (its node died) is forgotten, and its seat is
// away from then on.
func TestPresenceRemote(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name   string
		open   int
		remote map[string]time.Time
		at     time.Time
		here   bool
		left   int // remote watchers kept after
	}{
		{"nobody", 0, nil, now, false, 0},
		{"a connection here", 1, nil, now, true, 0},
		{"a watcher elsewhere, vouched for", 0, map[string]time.Time{"w1": now.Add(time.Minute)}, now, true, 1},
		{"a watcher elsewhere, no longer", 0, map[string]time.Time{"w1": now.Add(time.Minute)}, now.Add(2 * time.Minute), false, 0},
		{"one of two watchers elsewhere vouched for", 0, map[string]time.Time{"w1": now.Add(-time.Second), "w2": now.Add(time.Minute)}, now, true, -1},
		{"a connection here and a watcher gone elsewhere", 1, map[string]time.Time{"w1": now.Add(-time.Second)}, now, true, 1},
	} {
		p := presence{open: tc.open, remote: tc.remote}
		if got := p.here(tc.at); got != tc.here {
			t.Errorf("%s: here %v, want %v", tc.name, got, tc.here)
		}
		if tc.left >= 0 && len(p.remote) != tc.left {
			t.Errorf("%s: %d watchers elsewhere kept, want %d", tc.name, len(p.remote), tc.left)
		}
	}
}
