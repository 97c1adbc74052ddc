package lexicon

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestDerived(t *testing.T) {
	type keyA struct{}
	type keyB struct{}
	a, b := FromWords("a", []string{"apple"}), FromWords("b", []string{"berry"})
	var builds atomic.Int32
	build := func(v string) func() any {
		return func() any { builds.Add(1); return v }
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if got := a.Derived(keyA{}, build("a1")); got != "a1" {
				t.Errorf("a, keyA = %v, want a1", got)
			}
		})
	}
	wg.Wait()
	if n := builds.Load(); n != 1 {
		t.Fatalf("8 concurrent callers built %d times, want once", n)
	}
	for _, tc := range []struct {
		lex  *Lexicon
		key  any
		want string
	}{
		{a, keyA{}, "a1"}, // kept from above
		{a, keyB{}, "a2"}, // another key, another value
		{b, keyA{}, "b1"}, // another lexicon, its own value
	} {
		want := tc.want
		if got := tc.lex.Derived(tc.key, build(want)); got != want {
			t.Errorf("%s, %T = %v, want %v", tc.lex.Name(), tc.key, got, want)
		}
	}
	if n := builds.Load(); n != 3 {
		t.Errorf("%d builds, want 3", n)
	}
}
