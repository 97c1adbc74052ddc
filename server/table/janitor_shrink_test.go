package table

import (
	"maps"
	"reflect"
	"testing"
	"time"
)

// TestJanitorQueueShrinks: the janitor's queue is copied to a map of its
// size once it holds a quarter of the most it held (of at least
// minShrink), dropped when empty, and otherwise kept; no entry is lost.
func TestJanitorQueueShrinks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		most, left int
		copied     bool
	}{
		{2000, 500, true},
		{2000, 501, false},
		{2000, 0, true},
		{minShrink - 1, 10, false},
		{minShrink, minShrink / 4, true},
	} {
		j := &janitor{idle: map[*table]time.Time{}}
		at := time.Unix(1, 0)
		for range tc.most {
			j.idle[&table{}] = at
		}
		j.most = tc.most
		for t := range j.idle {
			if len(j.idle) == tc.left {
				break
			}
			delete(j.idle, t)
		}
		before, kept := reflect.ValueOf(j.idle).UnsafePointer(), maps.Clone(j.idle)
		j.shrink()
		copied := j.idle == nil || reflect.ValueOf(j.idle).UnsafePointer() != before
		if copied != tc.copied || !maps.Equal(j.idle, kept) {
			t.Errorf("%d of the most %d left: copied %v, %d entries; want copied %v, the %d entries", tc.left, tc.most, copied, len(j.idle), tc.copied, len(kept))
		}
		if tc.copied && j.most != tc.left {
			t.Errorf("%d of the most %d left, copied: the most is now %d, want %d", tc.left, tc.most, j.most, tc.left)
		}
	}
}
