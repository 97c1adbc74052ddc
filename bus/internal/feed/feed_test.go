package feed

import (
	"context"
	"errors"
	"testing"
	"time"
)

// op is one step on a feed: a push of version v, a gap marked (mark),
// or a bare mark asked for (bare).
type op struct {
	v          int
	mark, bare bool
}

func TestFeed(t *testing.T) {
	tests := []struct {
		name    string
		size    int
		ops     []op
		want    []Item // Data is left out: pushes carry none here
		dropped int
	}{
		{"in order", 4, []op{{v: 1}, {v: 2}, {v: 3}}, []Item{{Version: 1}, {Version: 2}, {Version: 3}}, 0},
		{"first at any version", 4, []op{{v: 9}, {v: 10}}, []Item{{Version: 9}, {Version: 10}}, 0},
		{"a skip is a gap", 4, []op{{v: 1}, {v: 3}}, []Item{{Version: 1}, {Version: 3, Gap: true}}, 0},
		{"late and repeated dropped", 4, []op{{v: 2}, {v: 1}, {v: 2}, {v: 3}}, []Item{{Version: 2}, {Version: 3}}, 0},
		{"full: newest kept as a gap", 3, []op{{v: 1}, {v: 2}, {v: 3}, {v: 4}, {v: 5}}, []Item{{Version: 4, Gap: true}, {Version: 5}}, 3},
		{"lost connection: next push is a gap", 4, []op{{v: 1}, {mark: true}, {v: 2}, {bare: true}, {v: 3}}, []Item{{Version: 1}, {Version: 2, Gap: true}, {Version: 3}}, 0},
		{"back with nothing since: a bare mark", 4, []op{{v: 1}, {mark: true}, {bare: true}, {v: 2}}, []Item{{Version: 1}, {Gap: true}, {Version: 2}}, 0},
		{"bare mark only when marked", 4, []op{{v: 1}, {bare: true}}, []Item{{Version: 1}}, 0},
		{"bare mark into a full feed", 2, []op{{v: 1}, {v: 2}, {mark: true}, {bare: true}}, []Item{{Gap: true}}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := New(tc.size)
			for _, o := range tc.ops {
				switch {
				case o.mark:
					f.MarkGap()
				case o.bare:
					f.Mark()
				default:
					f.Push(o.v, nil)
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			var got []Item
			for {
				it, ok, err := f.Next(ctx)
				if !ok {
					t.Fatal("closed")
				}
				if err != nil {
					break
				}
				got = append(got, it)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i].Version != tc.want[i].Version || got[i].Gap != tc.want[i].Gap || got[i].Data != nil {
					t.Errorf("item %d: got %+v, want %+v", i, got[i], tc.want[i])
				}
			}
			if d := f.Dropped(); d != tc.dropped {
				t.Errorf("dropped %d, want %d", d, tc.dropped)
			}
		})
	}
}

func TestFeedClose(t *testing.T) {
	f := New(4)
	f.Push(1, []byte("x"))
	done := make(chan bool)
	g := New(4)
	go func() {
		_, ok, _ := g.Next(context.Background())
		done <- ok
	}()
	if !f.Close() || f.Close() {
		t.Error("Close should report true once, then false")
	}
	if _, ok, _ := f.Next(context.Background()); ok {
		t.Error("Next after Close returned an item")
	}
	f.Push(2, nil) // ignored, no panic
	f.MarkGap()
	f.Mark()
	g.Close()
	select {
	case ok := <-done:
		if ok {
			t.Error("a Next waiting at Close returned ok")
		}
	case <-time.After(time.Second):
		t.Fatal("a Next waiting at Close still waits")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, ok, err := New(1).Next(ctx); !ok || !errors.Is(err, context.Canceled) {
		t.Errorf("Next with a canceled context: %v, %v", ok, err)
	}
}
