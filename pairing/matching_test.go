package pairing

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// costMatrix is a test's cost function as a matrix; −1 forbids a pair.
type costMatrix [][]int64

func (c costMatrix) cost(i, j int) (int64, bool) { return c[i][j], c[i][j] >= 0 }

// randomCosts returns a symmetric matrix of n players with costs below
// top, each pair forbidden with probability forbid.
func randomCosts(r *rand.Rand, n int, top int64, forbid float64) costMatrix {
	c := make(costMatrix, n)
	for i := range c {
		c[i] = make([]int64, n)
		c[i][i] = -1
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			w := r.Int64N(top)
			if r.Float64() < forbid {
				w = -1
			}
			c[i][j], c[j][i] = w, w
		}
	}
	return c
}

// bruteForce returns the least total cost of a perfect matching, trying
// every one, and whether any exists.
func bruteForce(c costMatrix) (int64, bool) {
	n := len(c)
	used := make([]bool, n)
	best, found := int64(0), false
	var walk func(sum int64)
	walk = func(sum int64) {
		i := 0
		for i < n && used[i] {
			i++
		}
		if i == n {
			if !found || sum < best {
				best, found = sum, true
			}
			return
		}
		used[i] = true
		for j := i + 1; j < n; j++ {
			if !used[j] && c[i][j] >= 0 {
				used[j] = true
				walk(sum + c[i][j])
				used[j] = false
			}
		}
		used[i] = false
	}
	walk(0)
	return best, found
}

// checkMatching fails t unless mate is a perfect matching of c's allowed
// pairs, and returns its cost.
func checkMatching(t *testing.T, c costMatrix, mate []int) int64 {
	t.Helper()
	if len(mate) != len(c) {
		t.Fatalf("mate has %d entries for %d players", len(mate), len(c))
	}
	var sum int64
	for i, m := range mate {
		if m < 0 || m >= len(c) || m == i || mate[m] != i {
			t.Fatalf("mate %v is not a perfect matching (at %d)", mate, i)
		}
		if c[i][m] < 0 {
			t.Fatalf("mate %v pairs %d with %d, which is forbidden", mate, i, m)
		}
		if i < m {
			sum += c[i][m]
		}
	}
	return sum
}

// compareWithBruteForce runs MinCostMatching on c and checks it against
// bruteForce.
func compareWithBruteForce(t *testing.T, c costMatrix) {
	t.Helper()
	want, exists := bruteForce(c)
	mate, err := MinCostMatching(len(c), c.cost)
	if !exists {
		if !errors.Is(err, ErrNoPairing) {
			t.Fatalf("costs %v: got %v, %v; want ErrNoPairing", c, mate, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("costs %v: %v; want a matching of cost %d", c, err, want)
	}
	if got := checkMatching(t, c, mate); got != want {
		t.Fatalf("costs %v: matching %v costs %d, want %d", c, mate, got, want)
	}
}

// TestMinCostMatchingBruteForce checks every field size up to 10 against
// an exhaustive search, over many seeded random cost matrices: wide and
// narrow cost ranges (narrow ones give many ties) and forbidden pairs
// from none to most.
func TestMinCostMatchingBruteForce(t *testing.T) {
	t.Parallel()
	for n := 0; n <= 10; n++ {
		t.Run(fmt.Sprint(n, " players"), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(uint64(n), 43))
			for _, top := range []int64{1, 3, 10, 1000, 1 << 40} {
				for _, forbid := range []float64{0, 0.2, 0.5, 0.8} {
					for range 150 {
						compareWithBruteForce(t, randomCosts(r, n, top, forbid))
					}
				}
			}
		})
	}
}

// TestMinCostMatchingEveryForbiddenSet tries, for fields of 4 and 6, every
// set of forbidden pairs (2⁶ and 2¹⁵ of them) with seeded random costs.
func TestMinCostMatchingEveryForbiddenSet(t *testing.T) {
	t.Parallel()
	for _, n := range []int{4, 6} {
		t.Run(fmt.Sprint(n, " players"), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(uint64(n), 7))
			pairs := n * (n - 1) / 2
			for mask := range 1 << pairs {
				c := randomCosts(r, n, 20, 0)
				k := 0
				for i := range n {
					for j := i + 1; j < n; j++ {
						if mask&(1<<k) != 0 {
							c[i][j], c[j][i] = -1, -1
						}
						k++
					}
				}
				compareWithBruteForce(t, c)
			}
		})
	}
}

// TestMinCostMatchingLarger checks larger fields against the dynamic
// programme over subsets, which is exact but exponential.
func TestMinCostMatchingLarger(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(12, 16))
	for _, n := range []int{12, 14, 16, 18, 20} {
		reps := 20
		if n > 16 {
			reps = 3
		}
		for _, forbid := range []float64{0, 0.3, 0.7} {
			for range reps {
				c := randomCosts(r, n, 50, forbid)
				want, exists := subsetDP(c)
				mate, err := MinCostMatching(n, c.cost)
				if !exists {
					if !errors.Is(err, ErrNoPairing) {
						t.Fatalf("n=%d: got %v, want ErrNoPairing", n, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("n=%d: %v", n, err)
				}
				if got := checkMatching(t, c, mate); got != want {
					t.Fatalf("n=%d costs %v: matching costs %d, want %d", n, c, got, want)
				}
			}
		}
	}
}

// subsetDP is the least cost of a perfect matching by dynamic programming
// over the set of players already paired.
func subsetDP(c costMatrix) (int64, bool) {
	n := len(c)
	const unknown, none = -2, -1
	best := make([]int64, 1<<n)
	for s := range best {
		best[s] = unknown
	}
	best[1<<n-1] = 0
	var solve func(s int) int64
	solve = func(s int) int64 {
		if best[s] != unknown {
			return best[s]
		}
		i := 0
		for s&(1<<i) != 0 {
			i++
		}
		r := int64(none)
		for j := i + 1; j < n; j++ {
			if s&(1<<j) == 0 && c[i][j] >= 0 {
				if rest := solve(s | 1<<i | 1<<j); rest >= 0 && (r < 0 || c[i][j]+rest < r) {
					r = c[i][j] + rest
				}
			}
		}
		best[s] = r
		return r
	}
	r := solve(0)
	return r, r >= 0
}

func TestMinCostMatchingBadInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		n      int
		cost   func(i, j int) (int64, bool)
		noPair bool
	}{
		{"negative count", -2, func(int, int) (int64, bool) { return 0, true }, false},
		{"odd count", 3, func(int, int) (int64, bool) { return 0, true }, true},
		{"negative cost", 4, func(i, j int) (int64, bool) { return int64(i - j), true }, false},
		{"huge cost", 4, func(int, int) (int64, bool) { return 1 << 62, true }, false},
		{"all forbidden", 4, func(int, int) (int64, bool) { return 0, false }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mate, err := MinCostMatching(tt.n, tt.cost)
			if err == nil {
				t.Fatalf("got %v, want an error", mate)
			}
			if errors.Is(err, ErrNoPairing) != tt.noPair {
				t.Errorf("error %q: ErrNoPairing %v, want %v", err, errors.Is(err, ErrNoPairing), tt.noPair)
			}
		})
	}
}

// TestMinCostMatchingDeterministic: the same costs give the same mate,
// even with every cost equal.
func TestMinCostMatchingDeterministic(t *testing.T) {
	t.Parallel()
	flat := func(int, int) (int64, bool) { return 5, true }
	first, err := MinCostMatching(40, flat)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		again, err := MinCostMatching(40, flat)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(again) != fmt.Sprint(first) {
			t.Fatalf("mate %v, then %v", first, again)
		}
	}
}

// FuzzMinCostMatching decodes a field of up to 10 players from the fuzzer's
// bytes (one byte a pair: 255 forbids it, anything else is the cost) and
// checks the result against brute force.
func FuzzMinCostMatching(f *testing.F) {
	f.Add(uint8(4), []byte{1, 2, 3, 4, 5, 6})
	f.Add(uint8(6), []byte{255, 0, 255, 7, 7, 255, 1, 1, 1, 255, 3, 3, 3, 3, 255})
	f.Add(uint8(10), []byte{9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 255, 255})
	f.Fuzz(func(t *testing.T, size uint8, data []byte) {
		n := int(size % 11)
		c := make(costMatrix, n)
		for i := range c {
			c[i] = make([]int64, n)
			c[i][i] = -1
		}
		k := 0
		for i := range n {
			for j := i + 1; j < n; j++ {
				w := int64(0)
				if k < len(data) {
					w = int64(data[k])
					if data[k] == 255 {
						w = -1
					}
				}
				c[i][j], c[j][i] = w, w
				k++
			}
		}
		compareWithBruteForce(t, c)
	})
}

// BenchmarkMinCostMatching500 matches 500 players with random costs, a
// fifth of the pairs forbidden, and with all costs equal.
func BenchmarkMinCostMatching500(b *testing.B) {
	for _, tt := range []struct {
		name   string
		top    int64
		forbid float64
	}{{"random", 1 << 30, 0.2}, {"equal", 1, 0}, {"sparse", 100, 0.95}} {
		b.Run(tt.name, func(b *testing.B) {
			c := randomCosts(rand.New(rand.NewPCG(1, 2)), 500, tt.top, tt.forbid)
			for b.Loop() {
				if _, err := MinCostMatching(500, c.cost); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestMinCostMatchingRelabelled checks fields too large for an exact
// reference by a property that every optimum has: numbering the players
// differently changes the matching but never its cost. Narrow cost ranges
// and forbidden pairs make many blossoms, nested deep.
func TestMinCostMatchingRelabelled(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(100, 3))
	for _, n := range []int{30, 60, 120} {
		for _, top := range []int64{2, 5, 1000} {
			for _, forbid := range []float64{0, 0.5, 0.9} {
				c := randomCosts(r, n, top, forbid)
				mate, err := MinCostMatching(n, c.cost)
				perm := r.Perm(n)
				pc := make(costMatrix, n)
				for i := range pc {
					pc[i] = make([]int64, n)
					for j := range pc[i] {
						pc[i][j] = c[perm[i]][perm[j]]
					}
				}
				pmate, perr := MinCostMatching(n, pc.cost)
				if (err == nil) != (perr == nil) {
					t.Fatalf("n=%d: error %v, relabelled %v", n, err, perr)
				}
				if err != nil {
					continue
				}
				if a, b := checkMatching(t, c, mate), checkMatching(t, pc, pmate); a != b {
					t.Fatalf("n=%d top=%d forbid=%v: cost %d, relabelled %d", n, top, forbid, a, b)
				}
			}
		}
	}
}
