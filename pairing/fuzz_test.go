package pairing

import (
	"errors"
	"fmt"
	"testing"
)

// fieldFromBytes decodes a field of up to 10 entrants from fuzz bytes:
// per entrant its points and byes; then one bit a pair for whether they
// met.
func fieldFromBytes(size uint8, data []byte) []Entrant {
	n := int(size % 11)
	next := func() byte {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return b
	}
	field := make([]Entrant, n)
	for i := range field {
		b := next()
		field[i] = Entrant{ID: fmt.Sprint("e", i), Points: int(b % 16), Byes: int(b>>4) % 2, Rating: float64(next())}
	}
	var bits byte
	for i := range n {
		for j := i + 1; j < n; j++ {
			if (i*n+j)%8 == 0 {
				bits = next()
			}
			if bits&(1<<((i*n+j)%8)) != 0 {
				field[i].Met = append(field[i].Met, field[j].ID)
				field[j].Met = append(field[j].Met, field[i].ID)
			}
		}
	}
	return field
}

// FuzzSwiss checks Swiss on fuzzed fields of up to 10 entrants: a round
// seats everyone once without a rematch, as close in points as brute
// force finds, with the bye where the rules put it; an error only when
// brute force finds no pairing either.
func FuzzSwiss(f *testing.F) {
	f.Add(uint8(5), []byte{2, 50, 4, 40, 18, 30, 0, 20, 2, 10, 0xff, 0x0f})
	f.Add(uint8(8), []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 0xaa, 0x55, 0xf0, 0x0f})
	f.Add(uint8(3), []byte{0, 0, 0, 0, 0, 0, 0xff})
	f.Fuzz(func(t *testing.T, size uint8, data []byte) {
		field := fieldFromBytes(size, data)
		round, err := Swiss(field)
		if err != nil {
			if !errors.Is(err, ErrNoPairing) {
				t.Fatal(err)
			}
			if len(field)%2 == 0 {
				if _, ok := bestGapCost(field, ""); ok {
					t.Fatalf("%v: %v, but brute force pairs it", field, err)
				}
			}
			for _, e := range field {
				if _, ok := bestGapCost(field, e.ID); ok && len(field)%2 == 1 {
					t.Fatalf("%v: %v, but %s could sit out", field, err, e.ID)
				}
			}
			return
		}
		checkRound(t, field, round)
		bye := ""
		if len(round.Byes) == 1 {
			bye = round.Byes[0]
			checkBye(t, field, bye)
		}
		if want, _ := bestGapCost(field, bye); gapCost(field, round) != want {
			t.Fatalf("%v: %+v has gap cost %d, want %d", field, round, gapCost(field, round), want)
		}
	})
}

// FuzzGroups checks Groups on fuzzed fields: everyone seated once at
// tables of the documented sizes, byes by the rules.
func FuzzGroups(f *testing.F) {
	f.Add(uint8(7), true, []byte{2, 50, 4, 40, 18, 30, 0, 20, 2, 10, 0xff, 0x0f})
	f.Add(uint8(10), false, []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 0xaa, 0x55})
	f.Fuzz(func(t *testing.T, size uint8, four bool, data []byte) {
		field := fieldFromBytes(size, data)
		seats := 3
		if four {
			seats = 4
		}
		round, err := Groups(field, seats)
		if err != nil {
			t.Fatal(err)
		}
		checkGroups(t, field, seats, round)
	})
}

// FuzzArena checks Arena on fuzzed pools: each player at most once, all
// but one of an odd pool paired, and no rematch when one can be avoided.
func FuzzArena(f *testing.F) {
	f.Add([]byte{5, 1, 3, 0, 9, 2, 9, 1, 0, 0})
	f.Add([]byte{0, 1, 0, 0, 0, 3, 0, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		var pool []Waiting
		for i := 0; i+1 < len(data) && len(pool) < 12; i += 2 {
			w := Waiting{ID: fmt.Sprint("w", len(pool)), Points: int(data[i] % 8)}
			if last := int(data[i+1] % 16); last < 12 {
				w.Last = fmt.Sprint("w", last)
			}
			pool = append(pool, w)
		}
		checkArena(t, pool, Arena(pool), rematchFree(pool))
	})
}
