package pairing

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// newField returns n entrants p01, p02, … rated from the top down.
func newField(n int) []Entrant {
	field := make([]Entrant, n)
	for i := range field {
		field[i] = Entrant{ID: fmt.Sprintf("p%02d", i+1), Rating: float64(2000 - 10*i)}
	}
	return field
}

// playRound applies a round to field with random results: each table's
// first player wins, draws or loses at random, and a bye scores a win.
func playRound(r *rand.Rand, field []Entrant, round Round) {
	at := make(map[string]*Entrant, len(field))
	for i := range field {
		at[field[i].ID] = &field[i]
	}
	for _, t := range round.Tables {
		a, b := at[t[0]], at[t[1]]
		pa := r.IntN(3)
		a.Points += pa
		b.Points += 2 - pa
		a.Met = append(a.Met, b.ID)
		b.Met = append(b.Met, a.ID)
	}
	for _, id := range round.Byes {
		at[id].Points += int(Win)
		at[id].Byes++
	}
}

// checkRound fails t unless round seats every entrant of field exactly
// once, at two-seat tables, with no rematch.
func checkRound(t *testing.T, field []Entrant, round Round) {
	t.Helper()
	met := make(map[[2]string]bool)
	for _, e := range field {
		for _, o := range e.Met {
			met[[2]string{e.ID, o}], met[[2]string{o, e.ID}] = true, true
		}
	}
	seen := make(map[string]int)
	for _, tb := range round.Tables {
		if len(tb) != 2 {
			t.Fatalf("table %v has %d seats", tb, len(tb))
		}
		if met[[2]string{tb[0], tb[1]}] {
			t.Fatalf("table %v is a rematch", tb)
		}
		seen[tb[0]]++
		seen[tb[1]]++
	}
	for _, id := range round.Byes {
		seen[id]++
	}
	if len(round.Byes) != len(field)%2 {
		t.Fatalf("%d byes for %d players", len(round.Byes), len(field))
	}
	for _, e := range field {
		if seen[e.ID] != 1 {
			t.Fatalf("%s is seated %d times in %+v", e.ID, seen[e.ID], round)
		}
	}
}

// gapCost is the sum over the round's tables of the squared points gap.
func gapCost(field []Entrant, round Round) int64 {
	pts := make(map[string]int, len(field))
	for _, e := range field {
		pts[e.ID] = e.Points
	}
	var sum int64
	for _, tb := range round.Tables {
		g := int64(pts[tb[0]] - pts[tb[1]])
		sum += g * g
	}
	return sum
}

// bestGapCost is the least sum of squared points gaps over the pairings of
// field without id (the bye) that avoid rematches, by brute force.
func bestGapCost(field []Entrant, bye string) (int64, bool) {
	var rest []Entrant
	for _, e := range field {
		if e.ID != bye {
			rest = append(rest, e)
		}
	}
	c := make(costMatrix, len(rest))
	for i := range rest {
		c[i] = make([]int64, len(rest))
		for j := range rest {
			g := int64(rest[i].Points - rest[j].Points)
			c[i][j] = g * g
			if i == j || slices.Contains(rest[i].Met, rest[j].ID) || slices.Contains(rest[j].Met, rest[i].ID) {
				c[i][j] = -1
			}
		}
	}
	return bruteForce(c)
}

// TestSwissEvents plays seeded random events of every field size from 1 to
// 10 for as many rounds as pair and checks each round: everyone seated
// once, no rematch, points as close as any rematch-free pairing allows
// (against brute force), and the bye to the lowest-ranked entrant without
// one whom the others can do without.
func TestSwissEvents(t *testing.T) {
	t.Parallel()
	for n := 1; n <= 10; n++ {
		t.Run(fmt.Sprint(n, " players"), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(uint64(n), 2))
			for event := range 30 {
				field := newField(n)
				for range MaxRounds(n) {
					round, err := Swiss(field)
					if errors.Is(err, ErrNoPairing) {
						// Allowed late in an event: check that brute
						// force agrees that no pairing exists.
						for _, e := range field {
							if _, ok := bestGapCost(field, e.ID); ok && n%2 == 1 {
								t.Fatalf("event %d: Swiss found no pairing, but %s could sit out", event, e.ID)
							}
						}
						if _, ok := bestGapCost(field, ""); ok && n%2 == 0 {
							t.Fatalf("event %d: Swiss found no pairing, but one exists", event)
						}
						break
					}
					if err != nil {
						t.Fatal(err)
					}
					checkRound(t, field, round)
					bye := ""
					if len(round.Byes) == 1 {
						bye = round.Byes[0]
						checkBye(t, field, bye)
					}
					if want, _ := bestGapCost(field, bye); gapCost(field, round) != want {
						t.Fatalf("event %d: %+v has gap cost %d, want %d", event, round, gapCost(field, round), want)
					}
					playRound(r, field, round)
				}
			}
		})
	}
}

// checkBye fails t unless bye is the lowest-ranked of the entrants with the
// fewest byes without whom the others can be paired.
func checkBye(t *testing.T, field []Entrant, bye string) {
	t.Helper()
	order := standings(field)
	fewest := field[order[0]].Byes
	for _, i := range order {
		fewest = min(fewest, field[i].Byes)
	}
	for k := len(order) - 1; k >= 0; k-- {
		e := field[order[k]]
		if e.Byes != fewest {
			continue
		}
		if _, ok := bestGapCost(field, e.ID); ok {
			if e.ID != bye {
				t.Fatalf("the bye went to %s, want %s (standings %v)", bye, e.ID, field)
			}
			return
		}
	}
}

func TestSwiss(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		field  []Entrant
		tables string // each table's players in order of ID, tables in standings order
		byes   string
	}{
		{
			// Round 1: all on 0 points, so neighbours in rating meet.
			name:   "first round",
			field:  newField(4),
			tables: "p01-p02 p03-p04",
		},
		{
			// p01 and p02 met; 4 and 4 cannot meet, so each meets a 2
			// (cost 4 + 4 = 8, where 0 + 16 would be 16).
			name: "rematch avoided",
			field: []Entrant{
				{ID: "a", Points: 4, Met: []string{"b", "c"}},
				{ID: "b", Points: 4, Met: []string{"a", "d"}},
				{ID: "c", Points: 2, Met: []string{"d", "a"}},
				{ID: "d", Points: 2, Met: []string{"c", "b"}},
			},
			tables: "a-d b-c",
		},
		{
			// a blocks b (only a lists it): kept apart as if they had
			// met, though neither has a game to count.
			name: "players kept apart",
			field: []Entrant{
				{ID: "a", Points: 4, Avoid: []string{"b"}},
				{ID: "b", Points: 4},
				{ID: "c", Points: 2},
				{ID: "d", Points: 2},
			},
			tables: "a-c b-d",
		},
		{
			// One-sided memory counts: b never listed a.
			name: "rematch remembered by one side",
			field: []Entrant{
				{ID: "a", Points: 2, Met: []string{"b"}},
				{ID: "b", Points: 2},
				{ID: "c", Points: 0},
				{ID: "d", Points: 0},
			},
			tables: "a-c b-d",
		},
		{
			// Odd field: the lowest-ranked (e, 0 points) sits out.
			name:   "bye to the lowest",
			field:  []Entrant{{ID: "a", Points: 2}, {ID: "b", Points: 2}, {ID: "c", Points: 2}, {ID: "d", Points: 2}, {ID: "e"}},
			tables: "a-b c-d",
			byes:   "e",
		},
		{
			// e had a bye, so the next lowest without one (d) sits out.
			name:   "bye not twice",
			field:  []Entrant{{ID: "a", Points: 2}, {ID: "b", Points: 2}, {ID: "c", Points: 2}, {ID: "d"}, {ID: "e", Byes: 1}},
			tables: "a-b c-e",
			byes:   "d",
		},
		{
			// e is lowest without a bye, but if e sat out, d would have
			// no opponent (d met a, b and c): d sits out instead.
			name: "bye where the rest can pair",
			field: []Entrant{
				{ID: "a", Points: 4, Met: []string{"d"}},
				{ID: "b", Points: 4, Met: []string{"d"}},
				{ID: "c", Points: 4, Met: []string{"d"}},
				{ID: "d", Points: 2, Met: []string{"a", "b", "c"}},
				{ID: "e", Points: 0},
			},
			tables: "a-b c-e",
			byes:   "d",
		},
		{
			// Everyone had a bye: the lowest-ranked has a second.
			name:   "second bye",
			field:  []Entrant{{ID: "a", Byes: 1, Points: 2}, {ID: "b", Byes: 1, Points: 2}, {ID: "c", Byes: 1}},
			tables: "a-b",
			byes:   "c",
		},
		{name: "one player", field: []Entrant{{ID: "solo"}}, tables: "", byes: "solo"},
		{name: "nobody", field: nil, tables: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			round, err := Swiss(tt.field)
			if err != nil {
				t.Fatal(err)
			}
			if round.Tables == nil {
				t.Error("Tables is nil; want an empty list, so that JSON shows []")
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

// tablesString writes tables as "a-b c-d", each table's IDs sorted (seat
// order is the hash's business, tested apart).
func tablesString(tables [][]string) string {
	var parts []string
	for _, t := range tables {
		t = slices.Clone(t)
		slices.Sort(t)
		parts = append(parts, strings.Join(t, "-"))
	}
	return strings.Join(parts, " ")
}

func TestSwissErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		field   []Entrant
		noPair  bool
		message string
	}{
		{
			name: "everyone met a",
			field: []Entrant{
				{ID: "a", Met: []string{"b", "c", "d"}},
				{ID: "b"}, {ID: "c"}, {ID: "d"},
			},
			noPair: true,
		},
		{
			name:   "two who met",
			field:  []Entrant{{ID: "a", Met: []string{"b"}}, {ID: "b", Met: []string{"a"}}},
			noPair: true,
		},
		{
			name:   "two kept apart",
			field:  []Entrant{{ID: "a"}, {ID: "b", Avoid: []string{"a"}}},
			noPair: true,
		},
		{
			// Three players who all met: whoever sits out, the other two
			// have met.
			name: "odd field all met",
			field: []Entrant{
				{ID: "a", Met: []string{"b", "c"}},
				{ID: "b", Met: []string{"a", "c"}},
				{ID: "c", Met: []string{"a", "b"}},
			},
			noPair: true,
		},
		{name: "repeated ID", field: []Entrant{{ID: "a"}, {ID: "a"}}, message: `"a" appears twice`},
		{name: "empty ID", field: []Entrant{{ID: "a"}, {}}, message: "entrant 2 has no ID"},
		{name: "negative byes", field: []Entrant{{ID: "a"}, {ID: "b", Byes: -1}}, message: "-1 byes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			round, err := Swiss(tt.field)
			if err == nil {
				t.Fatalf("got %+v, want an error", round)
			}
			if errors.Is(err, ErrNoPairing) != tt.noPair {
				t.Errorf("error %q: ErrNoPairing %v, want %v", err, !tt.noPair, tt.noPair)
			}
			if !strings.Contains(err.Error(), tt.message) {
				t.Errorf("error %q, want it to mention %q", err, tt.message)
			}
		})
	}
}

// TestSwissDeterministic: the order of the field does not matter, and
// the seat order is the same every time.
func TestSwissDeterministic(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 5))
	field := newField(21)
	for range 4 {
		round, err := Swiss(field)
		if err != nil {
			t.Fatal(err)
		}
		playRound(r, field, round)
	}
	want, err := Swiss(field)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		shuffled := slices.Clone(field)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		got, err := Swiss(shuffled)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("shuffled field paired %v, want %v", got, want)
		}
	}
}

// TestSwissSeatsVary: over a long event each player sits first in some
// games and second in others.
func TestSwissSeatsVary(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(8, 8))
	field := newField(16)
	first := make(map[string]int)
	for range 11 {
		round, err := Swiss(field)
		if err != nil {
			t.Fatal(err)
		}
		for _, tb := range round.Tables {
			first[tb[0]]++
		}
		playRound(r, field, round)
	}
	for _, e := range field {
		if first[e.ID] == 0 || first[e.ID] == len(e.Met) {
			t.Errorf("%s sat first in %d of %d games", e.ID, first[e.ID], len(e.Met))
		}
	}
}

func TestMaxRounds(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]int{-1: 0, 0: 0, 1: 0, 2: 1, 3: 3, 4: 3, 5: 5, 8: 7, 9: 9} {
		if got := MaxRounds(n); got != want {
			t.Errorf("MaxRounds(%d) = %d, want %d", n, got, want)
		}
	}
}

// swissField500 is a field of 500 after six rounds of seeded random
// results, paired by Swiss itself.
func swissField500(b *testing.B) []Entrant {
	r := rand.New(rand.NewPCG(500, 6))
	field := newField(500)
	for range 6 {
		round, err := Swiss(field)
		if err != nil {
			b.Fatal(err)
		}
		playRound(r, field, round)
	}
	return field
}

// BenchmarkSwiss500 pairs the seventh round of a 500-player event.
func BenchmarkSwiss500(b *testing.B) {
	field := swissField500(b)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Swiss(field); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSwiss501 pairs the seventh round of a 501-player event, whose
// bye costs a second matching.
func BenchmarkSwiss501(b *testing.B) {
	field := append(swissField500(b), Entrant{ID: "late", Points: 6})
	b.ResetTimer()
	for b.Loop() {
		if _, err := Swiss(field); err != nil {
			b.Fatal(err)
		}
	}
}
