package pairing

import (
	"fmt"
	"testing"
)

func TestStreak(t *testing.T) {
	t.Parallel()
	const W, D, L = Win, Draw, Loss
	tests := []struct {
		name     string
		games    []Outcome
		points   []int  // each game's points
		onStreak []bool // whether each game was on a streak
	}{
		{
			// Two wins start the streak; the third win scores 4.
			name:     "three wins",
			games:    []Outcome{W, W, W},
			points:   []int{2, 2, 4},
			onStreak: []bool{false, false, true},
		},
		{
			// A draw on a streak scores 2 and ends it; the next win is
			// back to 2.
			name:     "draw on a streak",
			games:    []Outcome{W, W, W, D, W},
			points:   []int{2, 2, 4, 2, 2},
			onStreak: []bool{false, false, true, true, false},
		},
		{
			// A loss on a streak scores nothing and ends it.
			name:     "loss on a streak",
			games:    []Outcome{W, W, L, W, W, W, W},
			points:   []int{2, 2, 0, 2, 2, 4, 4},
			onStreak: []bool{false, false, true, false, false, true, true},
		},
		{
			// A draw between wins: no streak starts.
			name:     "draw breaks the run",
			games:    []Outcome{W, D, W, D, W},
			points:   []int{2, 1, 2, 1, 2},
			onStreak: []bool{false, false, false, false, false},
		},
		{
			name:     "losses and draws",
			games:    []Outcome{L, D, L, D},
			points:   []int{0, 1, 0, 1},
			onStreak: []bool{false, false, false, false},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var s Streak
			for i, o := range tt.games {
				p, on := s.Score(o)
				if p != tt.points[i] || on != tt.onStreak[i] {
					t.Errorf("game %d (%v): %d points, streak %v; want %d, %v", i+1, o, p, on, tt.points[i], tt.onStreak[i])
				}
			}
		})
	}
}

func TestPlacePoints(t *testing.T) {
	t.Parallel()
	tests := []struct {
		seats int
		want  []int // places 1..seats
	}{
		{4, []int{6, 4, 2, 0}},
		{3, []int{4, 2, 0}},
		{2, []int{2, 0}},
	}
	for _, tt := range tests {
		for i, want := range tt.want {
			if got := PlacePoints(i+1, tt.seats); got != want {
				t.Errorf("PlacePoints(%d, %d) = %d, want %d", i+1, tt.seats, got, want)
			}
		}
		for _, place := range []int{0, -1, tt.seats + 1} {
			if got := PlacePoints(place, tt.seats); got != 0 {
				t.Errorf("PlacePoints(%d, %d) = %d, want 0", place, tt.seats, got)
			}
		}
	}
}

func TestTablePoints(t *testing.T) {
	t.Parallel()
	tests := []struct {
		scores []int
		want   []int
	}{
		{[]int{30, 20, 10, 5}, []int{6, 4, 2, 0}},
		{[]int{5, 10, 30, 20}, []int{0, 2, 6, 4}}, // seat order does not matter
		// Two tied for first of four: (6+4)/2 = 5 each.
		{[]int{30, 30, 10, 5}, []int{5, 5, 2, 0}},
		// Tied for second and third: (4+2)/2 = 3.
		{[]int{30, 20, 20, 5}, []int{6, 3, 3, 0}},
		// Three tied for first: (6+4+2)/3 = 4.
		{[]int{9, 9, 9, 1}, []int{4, 4, 4, 0}},
		// Three tied for last: (4+2+0)/3 = 2.
		{[]int{9, 1, 1, 1}, []int{6, 2, 2, 2}},
		// All four tied: (6+4+2+0)/4 = 3.
		{[]int{7, 7, 7, 7}, []int{3, 3, 3, 3}},
		{[]int{3, 2, 1}, []int{4, 2, 0}},
		// Two tied for last of three: (2+0)/2 = 1.
		{[]int{3, 1, 1}, []int{4, 1, 1}},
		{[]int{0, 0, 0}, []int{2, 2, 2}},
		// Two seats: a win is 2, a draw 1 each, as in Swiss.
		{[]int{1, 0}, []int{2, 0}},
		{[]int{4, 4}, []int{1, 1}},
		{nil, []int{}},
	}
	for _, tt := range tests {
		got := TablePoints(tt.scores)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("TablePoints(%v) = %v, want %v", tt.scores, got, tt.want)
		}
		// The shares always add up to the table's place points.
		sum, want := 0, 0
		for i, p := range got {
			sum += p
			want += PlacePoints(i+1, len(tt.scores))
		}
		if sum != want {
			t.Errorf("TablePoints(%v) adds to %d, want %d", tt.scores, sum, want)
		}
	}
}
