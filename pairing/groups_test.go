package pairing

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestTableSizes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n, seats int
		sizes    string
		byes     int
	}{
		{0, 4, "", 0},
		{1, 4, "", 1},
		{2, 4, "", 2},
		{3, 4, "3", 0},
		{4, 4, "4", 0},
		{5, 4, "4", 1},
		{6, 4, "3 3", 0},
		{7, 4, "4 3", 0},
		{8, 4, "4 4", 0},
		{9, 4, "3 3 3", 0},
		{10, 4, "4 3 3", 0},
		{11, 4, "4 4 3", 0},
		{13, 4, "4 3 3 3", 0},
		{17, 4, "4 4 3 3 3", 0},
		{0, 3, "", 0},
		{2, 3, "", 2},
		{3, 3, "3", 0},
		{4, 3, "3", 1},
		{5, 3, "3", 2},
		{7, 3, "3 3", 1},
	}
	for _, tt := range tests {
		sizes, byes := tableSizes(tt.n, tt.seats)
		if got := strings.Trim(fmt.Sprint(sizes), "[]"); got != tt.sizes || byes != tt.byes {
			t.Errorf("tableSizes(%d, %d) = %s, %d byes; want %s, %d", tt.n, tt.seats, got, byes, tt.sizes, tt.byes)
		}
	}
	// Every field of 6 or more seats everyone at tables of four and three.
	for n := 6; n < 200; n++ {
		sizes, byes := tableSizes(n, 4)
		sum := 0
		for _, s := range sizes {
			sum += s
		}
		if byes != 0 || sum != n {
			t.Errorf("tableSizes(%d, 4) = %v, %d byes", n, sizes, byes)
		}
	}
}

// playGroups applies a multi-seat round to field with random places and
// TablePoints; a bye scores as a win of a two-seat game.
func playGroups(r *rand.Rand, field []Entrant, round Round) {
	at := make(map[string]*Entrant, len(field))
	for i := range field {
		at[field[i].ID] = &field[i]
	}
	for _, t := range round.Tables {
		scores := make([]int, len(t))
		for i := range scores {
			scores[i] = r.IntN(5)
		}
		for i, p := range TablePoints(scores) {
			e := at[t[i]]
			e.Points += p
			for _, o := range t {
				if o != e.ID {
					e.Met = append(e.Met, o)
				}
			}
		}
	}
	for _, id := range round.Byes {
		at[id].Points += int(Win)
		at[id].Byes++
	}
}

// seating measures a round: how many earlier meetings the pairs at its
// tables had (either side's count, the larger), and the sum of squared
// points gaps over those pairs.
func seating(field []Entrant, tables [][]string) (repeats int, gaps int64) {
	e := make(map[string]Entrant, len(field))
	for _, x := range field {
		e[x.ID] = x
	}
	for _, t := range tables {
		for i, a := range t {
			for _, b := range t[i+1:] {
				repeats += max(count(e[a].Met, b), count(e[b].Met, a))
				g := int64(e[a].Points - e[b].Points)
				gaps += g * g
			}
		}
	}
	return repeats, gaps
}

// plainTables seats field as Groups would before improving: in standings
// order, larger tables first, the same entrants sitting out.
func plainTables(field []Entrant, seats int, byes []string) [][]string {
	var rest []Entrant
	for _, i := range standings(field) {
		if !slices.Contains(byes, field[i].ID) {
			rest = append(rest, field[i])
		}
	}
	sizes, _ := tableSizes(len(field), seats)
	var tables [][]string
	for _, s := range sizes {
		var t []string
		for _, e := range rest[:s] {
			t = append(t, e.ID)
		}
		rest = rest[s:]
		tables = append(tables, t)
	}
	return tables
}

// randomTables seats the same players at tables of the same sizes at
// random.
func randomTables(r *rand.Rand, tables [][]string) [][]string {
	var ids []string
	for _, t := range tables {
		ids = append(ids, t...)
	}
	r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	out := make([][]string, len(tables))
	for k, t := range tables {
		out[k], ids = ids[:len(t)], ids[len(t):]
	}
	return out
}

// TestGroupsEvents plays seeded multi-seat events and checks each round:
// everyone once, table sizes as documented, byes to the lowest-ranked
// without one; and over the events, that Groups seats fewer pairs that met
// than the plain standings order, at no higher cost, and keeps points far
// closer than a random seating.
func TestGroupsEvents(t *testing.T) {
	t.Parallel()
	for _, seats := range []int{3, 4} {
		for _, n := range []int{3, 5, 7, 10, 13, 16, 24, 41} {
			t.Run(fmt.Sprintf("%d players at %d seats", n, seats), func(t *testing.T) {
				t.Parallel()
				r := rand.New(rand.NewPCG(uint64(n), uint64(seats)))
				var repeats, plainRepeats int
				var gaps, randomGaps int64
				for range 10 {
					field := newField(n)
					for range 6 {
						round, err := Groups(field, seats)
						if err != nil {
							t.Fatal(err)
						}
						checkGroups(t, field, seats, round)
						plain := plainTables(field, seats, round.Byes)
						rp, gp := seating(field, plain)
						rg, gg := seating(field, round.Tables)
						g := &grouping{penalty: 2 * int64(2*(seats-1)) * int64(2*(seats-1))}
						if cost, plainCost := int64(rg)*g.penalty+gg, int64(rp)*g.penalty+gp; cost > plainCost {
							t.Fatalf("seating %v costs %d, above the plain order's %d", round.Tables, cost, plainCost)
						}
						_, rnd := seating(field, randomTables(r, round.Tables))
						repeats += rg
						plainRepeats += rp
						gaps += gg
						randomGaps += rnd
						playGroups(r, field, round)
					}
				}
				t.Logf("repeat meetings %d (plain order %d); squared gaps %d (random %d)", repeats, plainRepeats, gaps, randomGaps)
				if sizes, _ := tableSizes(n, seats); len(sizes) < 2 {
					return // one table: nothing to choose
				}
				if repeats >= plainRepeats {
					t.Errorf("Groups repeated %d meetings, the plain order %d", repeats, plainRepeats)
				}
				if gaps >= randomGaps || n >= 16 && 2*gaps > randomGaps {
					t.Errorf("squared points gaps %d, against a random seating's %d", gaps, randomGaps)
				}
			})
		}
	}
}

func count(ids []string, id string) int {
	n := 0
	for _, x := range ids {
		if x == id {
			n++
		}
	}
	return n
}

// checkGroups fails t unless round seats every entrant of field once, at
// tables of the documented sizes, with the byes to the lowest-ranked of
// those with the fewest.
func checkGroups(t *testing.T, field []Entrant, seats int, round Round) {
	t.Helper()
	sizes, nbyes := tableSizes(len(field), seats)
	var got []int
	seen := make(map[string]int)
	for _, tb := range round.Tables {
		got = append(got, len(tb))
		for _, id := range tb {
			seen[id]++
		}
	}
	for _, id := range round.Byes {
		seen[id]++
	}
	slices.Sort(got)
	slices.Reverse(got)
	if !slices.Equal(got, sizes) || len(round.Byes) != nbyes {
		t.Fatalf("tables of %v and %d byes, want %v and %d", got, len(round.Byes), sizes, nbyes)
	}
	for _, e := range field {
		if seen[e.ID] != 1 {
			t.Fatalf("%s is seated %d times in %+v", e.ID, seen[e.ID], round)
		}
	}
	// The byes: nobody left playing has fewer byes, or as few and a
	// lower place.
	rank := make(map[string]int)
	for r, i := range standings(field) {
		rank[field[i].ID] = r
	}
	byID := make(map[string]Entrant)
	for _, e := range field {
		byID[e.ID] = e
	}
	for _, b := range round.Byes {
		for _, tb := range round.Tables {
			for _, id := range tb {
				p, q := byID[id], byID[b]
				if p.Byes < q.Byes || p.Byes == q.Byes && rank[id] > rank[b] {
					t.Fatalf("%s sits out, but %s (%d byes, place %d) plays", b, id, p.Byes, rank[id]+1)
				}
			}
		}
	}
}

func TestGroups(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		field  []Entrant
		seats  int
		tables string // each table's IDs sorted, tables in standings order
		byes   string
	}{
		{
			name:   "first round of eight",
			field:  newField(8),
			seats:  4,
			tables: "p01-p02-p03-p04 p05-p06-p07-p08",
		},
		{
			// Seven: a table of four at the top, of three below.
			name:   "seven",
			field:  newField(7),
			seats:  4,
			tables: "p01-p02-p03-p04 p05-p06-p07",
		},
		{
			// a and b met before; with equal points they are split:
			// swapping a for e costs nothing in points.
			name: "met pair split",
			field: []Entrant{
				{ID: "a", Points: 6, Met: []string{"b"}}, {ID: "b", Points: 6, Met: []string{"a"}},
				{ID: "c", Points: 6}, {ID: "d", Points: 6},
				{ID: "e", Points: 6}, {ID: "f", Points: 6}, {ID: "g", Points: 6}, {ID: "h", Points: 6},
			},
			seats:  4,
			tables: "a-f-g-h b-c-d-e",
		},
		{
			// Far apart in points: better to meet again than to sit a
			// 12 with a 0 (gap² 144 against a repeat's 72).
			name: "points outweigh a repeat",
			field: []Entrant{
				{ID: "a", Points: 12, Met: []string{"b"}}, {ID: "b", Points: 12, Met: []string{"a"}},
				{ID: "c", Points: 12}, {ID: "d", Points: 12},
				{ID: "e"}, {ID: "f"}, {ID: "g"}, {ID: "h"},
			},
			seats:  4,
			tables: "a-b-c-d e-f-g-h",
		},
		{
			name:   "five at four seats",
			field:  newField(5),
			seats:  4,
			tables: "p01-p02-p03-p04",
			byes:   "p05",
		},
		{
			name:   "five at three seats",
			field:  newField(5),
			seats:  3,
			tables: "p01-p02-p03",
			byes:   "p04 p05",
		},
		{
			// p05 had a bye already: p04 sits out instead.
			name:   "no second bye",
			field:  append(newField(4), Entrant{ID: "p05", Byes: 1}),
			seats:  4,
			tables: "p01-p02-p03-p05",
			byes:   "p04",
		},
		{name: "two", field: newField(2), seats: 3, tables: "", byes: "p01 p02"},
		{name: "none", field: nil, seats: 4, tables: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			round, err := Groups(tt.field, tt.seats)
			if err != nil {
				t.Fatal(err)
			}
			if round.Tables == nil {
				t.Error("Tables is nil; want an empty list")
			}
			if got := tablesString(round.Tables); got != tt.tables {
				t.Errorf("tables %q, want %q", got, tt.tables)
			}
			if got := strings.Join(round.Byes, " "); got != tt.byes {
				t.Errorf("byes %q, want %q", got, tt.byes)
			}
		})
	}
}

func TestGroupsErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		field   []Entrant
		seats   int
		message string
	}{
		{"two seats", newField(4), 2, "a table of 2 seats"},
		{"five seats", newField(10), 5, "a table of 5 seats"},
		{"repeated ID", []Entrant{{ID: "a"}, {ID: "b"}, {ID: "a"}}, 3, `"a" appears twice`},
		{"empty ID", []Entrant{{ID: "a"}, {ID: "b"}, {}}, 3, "entrant 3 has no ID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			round, err := Groups(tt.field, tt.seats)
			if err == nil {
				t.Fatalf("got %+v, want an error", round)
			}
			if errors.Is(err, ErrNoPairing) || !strings.Contains(err.Error(), tt.message) {
				t.Errorf("error %q, want one that mentions %q", err, tt.message)
			}
		})
	}
}

// TestGroupsDeterministic: the order of the field does not matter.
func TestGroupsDeterministic(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(9, 9))
	field := newField(23)
	for range 4 {
		round, err := Groups(field, 4)
		if err != nil {
			t.Fatal(err)
		}
		playGroups(r, field, round)
	}
	want, err := Groups(field, 4)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		shuffled := slices.Clone(field)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		got, err := Groups(shuffled, 4)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("shuffled field seated %v, want %v", got, want)
		}
	}
}

// BenchmarkGroups500 seats the seventh round of a 500-player multi-seat
// event.
func BenchmarkGroups500(b *testing.B) {
	r := rand.New(rand.NewPCG(500, 4))
	field := newField(500)
	for range 6 {
		round, err := Groups(field, 4)
		if err != nil {
			b.Fatal(err)
		}
		playGroups(r, field, round)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Groups(field, 4); err != nil {
			b.Fatal(err)
		}
	}
}

// TestGroupsMeetingCounts: the matrix of meetings that serves fields up to
// maxDense agrees with the map that serves larger ones.
func TestGroupsMeetingCounts(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 3))
	field := newField(30)
	for range 5 {
		round, err := Groups(field, 4)
		if err != nil {
			t.Fatal(err)
		}
		playGroups(r, field, round)
	}
	field[0].Met = append(field[0].Met, field[1].ID, field[1].ID) // met thrice or more
	sizes, _ := tableSizes(len(field), 4)
	g := newGrouping(field, standings(field), sizes, 4)
	if g.dense == nil {
		t.Fatal("no matrix for a field of 30")
	}
	sparse := *g
	sparse.dense = nil
	repeats := 0
	for i := range field {
		for j := range field {
			if i == j {
				continue
			}
			if a, b := g.pairCost(i, j), sparse.pairCost(i, j); a != b {
				t.Fatalf("pair %d, %d: matrix cost %d, map cost %d", i, j, a, b)
			}
			if g.dense[i*len(field)+j] > 0 {
				repeats++
			}
		}
	}
	if repeats == 0 {
		t.Fatal("no meetings counted")
	}
}

// bestSeating is the least cost of seating the players of field (indices
// in players) at tables of the given sizes, by trying every assignment.
func bestSeating(g *grouping, players []int, sizes []int) int64 {
	tables := make([][]int, len(sizes))
	best := int64(-1)
	var place func(k int, cost int64)
	place = func(k int, cost int64) {
		if best >= 0 && cost >= best {
			return
		}
		if k == len(players) {
			best = cost
			return
		}
		p := players[k]
		for t := range tables {
			if len(tables[t]) == sizes[t] {
				continue
			}
			var add int64
			for _, q := range tables[t] {
				add += g.pairCost(p, q)
			}
			tables[t] = append(tables[t], p)
			place(k+1, cost+add)
			tables[t] = tables[t][:len(tables[t])-1]
		}
	}
	place(0, 0)
	return best
}

// TestGroupsNearOptimum compares Groups with the exact optimum, by brute
// force, on seeded small fields after a few rounds: it must reach the
// optimum in most rounds (and, as a check of the check, never beat it).
func TestGroupsNearOptimum(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ n, seats int }{{8, 4}, {10, 4}, {9, 3}} {
		t.Run(fmt.Sprintf("%d at %d seats", tt.n, tt.seats), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(uint64(tt.n), 77))
			rounds, optimal := 0, 0
			for range 40 {
				field := newField(tt.n)
				for range 4 {
					round, err := Groups(field, tt.seats)
					if err != nil {
						t.Fatal(err)
					}
					sizes, _ := tableSizes(tt.n, tt.seats)
					g := newGrouping(field, standings(field), sizes, tt.seats)
					pos := make(map[string]int)
					for i, e := range field {
						pos[e.ID] = i
					}
					var got int64
					for _, tb := range round.Tables {
						for a := range tb {
							for b := a + 1; b < len(tb); b++ {
								got += g.pairCost(pos[tb[a]], pos[tb[b]])
							}
						}
					}
					if want := bestSeating(g, standings(field), sizes); got < want {
						t.Fatalf("seating costs %d, below the optimum %d", got, want)
					} else if got == want {
						optimal++
					}
					rounds++
					playGroups(r, field, round)
				}
			}
			t.Logf("optimal in %d of %d rounds", optimal, rounds)
			if optimal*10 < rounds*8 {
				t.Errorf("optimal in only %d of %d rounds", optimal, rounds)
			}
		})
	}
}
