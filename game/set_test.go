package game

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
)

func TestSet(t *testing.T) {
	tests := []struct {
		name    string
		players int
		target  int
		games   [][]int
		over    bool
		winners []int
		totals  []int
	}{
		{"not yet", 2, 25, [][]int{{10, 0}, {12, 5}}, false, nil, []int{22, 5}},
		{"reached", 2, 25, [][]int{{10, 0}, {20, 5}}, true, []int{0}, []int{30, 5}},
		{"both past, higher wins", 2, 25, [][]int{{24, 20}, {3, 10}}, true, []int{1}, []int{27, 30}},
		{"tie at the top plays on", 2, 25, [][]int{{20, 20}, {5, 5}}, false, nil, []int{25, 25}},
		{"tie broken next game", 2, 25, [][]int{{20, 20}, {5, 5}, {0, 3}}, true, []int{1}, []int{25, 28}},
		{"three players", 3, 10, [][]int{{4, 9, 2}, {0, 2, 0}}, true, []int{1}, []int{4, 11, 2}},
		{"solitaire", 1, 25, [][]int{{19}, {7}}, true, []int{0}, []int{26}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewSet(tt.players, tt.target)
			var over bool
			var w []int
			for _, g := range tt.games {
				over, w = s.Add(g)
			}
			if over != tt.over || !slices.Equal(w, tt.winners) || !slices.Equal(s.Totals, tt.totals) {
				t.Fatalf("over %v winners %v totals %v; want %v %v %v", over, w, s.Totals, tt.over, tt.winners, tt.totals)
			}
			if s.Games != len(tt.games) {
				t.Fatalf("games %d", s.Games)
			}
			if over {
				before := slices.Clone(s.Totals)
				s.Add([]int{100, 100, 100})
				if !slices.Equal(before, s.Totals) || s.Games != len(tt.games) {
					t.Fatal("adding to a finished set changed it")
				}
			}
		})
	}
}

// TestSetAppendJSON holds Set.AppendJSON to json.Marshal's bytes, from a
// new set to one that is over with winners.
func TestSetAppendJSON(t *testing.T) {
	for _, s := range []*Set{
		NewSet(2, 25),
		{Target: 3, Games: 2, Totals: []int{1, 3, 0}},
		{Target: 3, Games: 4, Totals: []int{3, 3}, Over: true, Winners: []int{0, 1}},
		{},
	} {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.AppendJSON([]byte("x")); !bytes.Equal(got[1:], want) || got[0] != 'x' {
			t.Errorf("%+v: got %s, want %s", s, got[1:], want)
		}
	}
}

// TestSetClone: a clone shares nothing with its set, and nil clones to
// nil.
func TestSetClone(t *testing.T) {
	t.Parallel()
	if (*Set)(nil).Clone() != nil {
		t.Error("a nil set cloned to a set")
	}
	s := NewSet(2, 10)
	s.Add([]int{12, 3})
	c := s.Clone()
	c.Totals[0], c.Winners[0], c.Games = 99, 1, 7
	if s.Totals[0] != 12 || s.Winners[0] != 0 || s.Games != 1 {
		t.Errorf("changing the clone changed the set: %+v", s)
	}
}
