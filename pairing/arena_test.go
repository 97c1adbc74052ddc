package pairing

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestArena(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		waiting []Waiting
		pairs   string
	}{
		{name: "nobody", pairs: ""},
		{name: "alone", waiting: []Waiting{{ID: "a"}}, pairs: ""},
		{
			// Sorted by points: d (9), b (5), a (3), c (1).
			name:    "close standings",
			waiting: []Waiting{{ID: "a", Points: 3}, {ID: "b", Points: 5}, {ID: "c", Points: 1}, {ID: "d", Points: 9}},
			pairs:   "d-b a-c",
		},
		{
			// Equal points: rating, then ID.
			name:    "rating breaks ties",
			waiting: []Waiting{{ID: "a", Rating: 1500}, {ID: "b", Rating: 1700}, {ID: "c", Rating: 1600}, {ID: "d", Rating: 1500}},
			pairs:   "b-c a-d",
		},
		{
			// b just played a: b takes c instead, and a d.
			name:    "no immediate rematch",
			waiting: []Waiting{{ID: "a", Points: 4, Last: "b"}, {ID: "b", Points: 4, Last: "a"}, {ID: "c", Points: 2}, {ID: "d"}},
			pairs:   "a-c b-d",
		},
		{
			// a blocks b: never paired, even where nothing else is
			// left; b waits.
			name:    "kept apart",
			waiting: []Waiting{{ID: "a", Points: 4, Avoid: []string{"b"}}, {ID: "b", Points: 4}, {ID: "c", Points: 2}},
			pairs:   "a-c",
		},
		{
			name:    "kept apart, and alone",
			waiting: []Waiting{{ID: "a"}, {ID: "b", Avoid: []string{"a"}}},
			pairs:   "",
		},
		{
			// Only b remembers a: still a rematch.
			name:    "rematch seen from one side",
			waiting: []Waiting{{ID: "a", Points: 4}, {ID: "b", Points: 4, Last: "a"}, {ID: "c", Points: 2}, {ID: "d"}},
			pairs:   "a-c b-d",
		},
		{
			// Nobody else waits: a rematch beats waiting.
			name:    "rematch when alone",
			waiting: []Waiting{{ID: "a", Last: "b"}, {ID: "b", Last: "a"}},
			pairs:   "a-b",
		},
		{
			// Odd pool: the lowest waits.
			name:    "odd one waits",
			waiting: []Waiting{{ID: "a", Points: 2}, {ID: "b", Points: 1}, {ID: "c"}},
			pairs:   "a-b",
		},
		{
			// a and b just met, c is the third: one of them waits, the
			// lower (b), rather than meet a again.
			name:    "rematch waits when another could play",
			waiting: []Waiting{{ID: "a", Points: 4, Last: "b"}, {ID: "b", Points: 3, Last: "a"}, {ID: "c", Points: 1}},
			pairs:   "a-c",
		},
		{
			// The last two just met: they trade with the pair above.
			name: "trade at the bottom",
			waiting: []Waiting{
				{ID: "a", Points: 9}, {ID: "b", Points: 8},
				{ID: "c", Points: 2, Last: "d"}, {ID: "d", Points: 1, Last: "c"},
			},
			pairs: "a-c b-d",
		},
		{
			name:    "bad entries ignored",
			waiting: []Waiting{{ID: "a"}, {ID: ""}, {ID: "a", Points: 9}, {ID: "b"}},
			pairs:   "a-b",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, p := range Arena(tt.waiting) {
				got = append(got, p[0]+"-"+p[1])
			}
			if s := strings.Join(got, " "); s != tt.pairs {
				t.Errorf("pairs %q, want %q", s, tt.pairs)
			}
		})
	}
}

// randomPool returns n waiting players with random points and ratings,
// most of them just back from a game against another in the pool.
func randomPool(r *rand.Rand, n int) []Waiting {
	pool := make([]Waiting, n)
	for i := range pool {
		pool[i] = Waiting{ID: fmt.Sprintf("w%d", i), Points: r.IntN(20), Rating: float64(1200 + r.IntN(800))}
	}
	return lastGames(r, pool, r.Perm(n))
}

// neighbourPool is randomPool where the players who just met are
// neighbours in the standings, as in a real arena, so that the nearest
// opponent is often the last one.
func neighbourPool(r *rand.Rand, n int) []Waiting {
	pool := make([]Waiting, n)
	for i := range pool {
		pool[i] = Waiting{ID: fmt.Sprintf("w%d", i), Points: n - i, Rating: 1500}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	// Shift by one now and then, so that pairs straddle the greedy's.
	for i := 0; i+1 < n; i++ {
		if r.IntN(5) == 0 {
			order[i], order[i+1] = order[i+1], order[i]
		}
	}
	return lastGames(r, pool, order)
}

// lastGames makes most consecutive pairs of perm each other's last
// opponents.
func lastGames(r *rand.Rand, pool []Waiting, perm []int) []Waiting {
	n := len(pool)
	for k := 0; k+1 < n; k += 2 {
		if r.IntN(4) > 0 {
			a, b := perm[k], perm[k+1]
			pool[a].Last, pool[b].Last = pool[b].ID, pool[a].ID
		}
	}
	return pool
}

// rematchFree reports whether pool can be paired, all but one when odd,
// without an immediate rematch.
func rematchFree(pool []Waiting) bool {
	n := len(pool)
	m := n + n%2 // a virtual player takes the odd one out
	_, err := MinCostMatching(m, func(i, j int) (int64, bool) {
		if j >= n {
			return 0, true
		}
		return 0, pool[i].Last != pool[j].ID && pool[j].Last != pool[i].ID
	})
	return err == nil
}

// TestArenaPools checks seeded random pools: everyone paired at most
// once, all but one of an odd pool paired, no rematch whenever a pairing
// without one exists, and the same pairs whatever the pool's order.
func TestArenaPools(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(50, 0))
	for n := range 13 {
		for range 400 {
			pool := randomPool(r, n)
			// Sometimes pile several Lasts on one player, as stale
			// entries may.
			if n > 3 && r.IntN(3) == 0 {
				for k := range 3 {
					pool[k].Last = pool[n-1].ID
				}
			}
			pairs := Arena(pool)
			checkArena(t, pool, pairs, rematchFree(pool))
			shuffled := slices.Clone(pool)
			r.Shuffle(n, func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			if again := Arena(shuffled); fmt.Sprint(again) != fmt.Sprint(pairs) {
				t.Fatalf("shuffled pool paired %v, want %v", again, pairs)
			}
		}
	}
	for n := range 40 {
		for range 100 {
			pool := neighbourPool(r, n)
			checkArena(t, pool, Arena(pool), rematchFree(pool))
		}
	}
	for range 5 {
		pool := randomPool(r, 5000)
		checkArena(t, pool, Arena(pool), true)
		pool = neighbourPool(r, 5000)
		checkArena(t, pool, Arena(pool), true)
	}
}

// checkArena fails t unless pairs pairs the pool properly.
func checkArena(t *testing.T, pool []Waiting, pairs [][2]string, avoidable bool) {
	t.Helper()
	last := make(map[string]string)
	for _, w := range pool {
		last[w.ID] = w.Last
	}
	seen := make(map[string]bool)
	for _, p := range pairs {
		for _, id := range p {
			if _, ok := last[id]; !ok || seen[id] {
				t.Fatalf("pairs %v: %q unknown or twice", pairs, id)
			}
			seen[id] = true
		}
		if avoidable && (last[p[0]] == p[1] || last[p[1]] == p[0]) {
			t.Fatalf("pool %v: pairs %v include the rematch %v", pool, pairs, p)
		}
	}
	if len(seen) != len(pool)-len(pool)%2 {
		t.Fatalf("pool of %d: %d paired", len(pool), len(seen))
	}
}

// BenchmarkArena5000 pairs a pool of 5,000 waiting players: at random
// (random), and where the players who just met are neighbours in the
// standings (neighbours).
func BenchmarkArena5000(b *testing.B) {
	r := rand.New(rand.NewPCG(5000, 1))
	for _, tt := range []struct {
		name string
		pool []Waiting
	}{{"random", randomPool(r, 5000)}, {"neighbours", neighbourPool(r, 5000)}} {
		b.Run(tt.name, func(b *testing.B) {
			for b.Loop() {
				Arena(tt.pool)
			}
		})
	}
}
