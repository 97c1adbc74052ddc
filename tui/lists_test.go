package tui

import (
	"slices"
	"testing"
)

// TestShareLines: lists that need fewer lines than an even share keep
// the rest for the others; what is short is shared evenly.
func TestShareLines(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		needs []int
		lines int
		want  []int
	}{
		{[]int{5, 1, 1}, 13, []int{5, 1, 1}},
		{[]int{20, 1, 1}, 13, []int{11, 1, 1}},
		{[]int{20, 20, 20}, 13, []int{4, 4, 5}},
		{[]int{20, 3, 20}, 13, []int{5, 3, 5}},
		{[]int{1, 1, 1}, 0, []int{0, 0, 0}},
		{[]int{4, 4}, -3, []int{0, 0}},
	} {
		if got := shareLines(tc.needs, tc.lines); !slices.Equal(got, tc.want) {
			t.Errorf("shareLines(%v, %d) = %v, want %v", tc.needs, tc.lines, got, tc.want)
		}
	}
}

// TestWindow: a list longer than its room shows the part around the
// chosen item.
func TestWindow(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n, room, at, from, to int
	}{
		{0, 3, 0, 0, 0},
		{2, 3, 1, 0, 2},
		{6, 3, 0, 0, 3},
		{6, 3, 2, 0, 3},
		{6, 3, 3, 1, 4},
		{6, 3, 5, 3, 6},
		{6, 3, -2, 0, 3}, // another list's item, above
		{6, 3, 9, 0, 3},  // another list's item, below
	} {
		from, to := window(tc.n, tc.room, tc.at)
		if from != tc.from || to != tc.to {
			t.Errorf("window(%d, %d, %d) = %d, %d; want %d, %d", tc.n, tc.room, tc.at, from, to, tc.from, tc.to)
		}
	}
}
