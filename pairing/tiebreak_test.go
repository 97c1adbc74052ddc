package pairing

import (
	"fmt"
	"strings"
	"testing"
)

// event5 is a worked example: five players, two rounds, in Swiss units.
//
//	Round 1: a beats b (2–0), c draws d (1–1), e has a bye (2).
//	Round 2: a draws c (1–1), e beats d (2–0), b has a bye (2).
//
// Totals: a 3, b 2, c 2, d 1, e 4.
var event5 = []Game{
	{Players: []string{"a", "b"}, Points: []int{2, 0}},
	{Players: []string{"c", "d"}, Points: []int{1, 1}},
	{Players: []string{"e"}, Points: []int{2}},
	{Players: []string{"a", "c"}, Points: []int{1, 1}},
	{Players: []string{"e", "d"}, Points: []int{2, 0}},
	{Players: []string{"b"}, Points: []int{2}},
}

var totals5 = map[string]int{"a": 3, "b": 2, "c": 2, "d": 1, "e": 4}

func TestBuchholz(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		games  []Game
		totals map[string]int
		want   map[string]int
	}{
		{
			// a: b 2 + c 2 = 4.   b: a 3 + bye (own 2) = 5.
			// c: d 1 + a 3 = 4.   d: c 2 + e 4 = 6.
			// e: bye (own 4) + d 1 = 5.
			name:   "two rounds with byes",
			games:  event5,
			totals: totals5,
			want:   map[string]int{"a": 4, "b": 5, "c": 4, "d": 6, "e": 5},
		},
		{
			// One table of four: each counts the other three.
			name:   "multi-seat",
			games:  []Game{{Players: []string{"p", "q", "r", "s"}, Points: []int{6, 4, 2, 0}}},
			totals: map[string]int{"p": 10, "q": 7, "r": 3, "s": 1},
			want:   map[string]int{"p": 11, "q": 14, "r": 18, "s": 20},
		},
		{
			// A table of four makes a bye stand for three opponents:
			// b's bye adds 3 × its own total 3 = 9.
			name: "multi-seat bye",
			games: []Game{
				{Players: []string{"a", "c", "d", "e"}, Points: []int{6, 4, 2, 0}},
				{Players: []string{"b"}, Points: []int{3}},
			},
			totals: map[string]int{"a": 6, "b": 3, "c": 4, "d": 2, "e": 0},
			want:   map[string]int{"a": 6, "b": 9, "c": 8, "d": 10, "e": 12},
		},
		{
			// x is missing from totals: counts 0.
			name:   "unknown opponent",
			games:  []Game{{Players: []string{"a", "x"}, Points: []int{2, 0}}},
			totals: map[string]int{"a": 2},
			want:   map[string]int{"a": 0, "x": 2},
		},
		{name: "no games", want: map[string]int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Buchholz(tt.games, tt.totals); fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("Buchholz = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSonnebornBerger(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		games  []Game
		totals map[string]int
		want   map[string]int
	}{
		{
			// Doubled: a win counts 2 × the opponent's total, a draw 1 ×.
			// a: beat b, 2×2 = 4, drew c, 1×2 = 2: 6.
			// b: lost to a 0 + bye won, 2 × own 2 = 4.
			// c: drew d 1×1 + drew a 1×3 = 4.
			// d: drew c 1×2 + lost to e 0 = 2.
			// e: bye won 2 × own 4 + beat d 2×1 = 10.
			name:   "two rounds with byes",
			games:  event5,
			totals: totals5,
			want:   map[string]int{"a": 6, "b": 4, "c": 4, "d": 2, "e": 10},
		},
		{
			// Neither showed up: both forfeited and took nothing, which
			// is no draw. a's win over c counts 2 × 1; b's draw with c 1 × 1.
			name: "a game both forfeited",
			games: []Game{
				{Players: []string{"a", "b"}, Points: []int{0, 0}},
				{Players: []string{"a", "c"}, Points: []int{2, 0}},
				{Players: []string{"b", "c"}, Points: []int{1, 1}},
			},
			totals: map[string]int{"a": 2, "b": 1, "c": 1},
			want:   map[string]int{"a": 2, "b": 1, "c": 1},
		},
		{
			// p finished above q, r and s: 2×(7+3+1) = 22.
			// q above r and s, below p: 2×(3+1) = 8.
			// r above s: 2×1 = 2. s: nothing.
			name:   "multi-seat places",
			games:  []Game{{Players: []string{"p", "q", "r", "s"}, Points: []int{6, 4, 2, 0}}},
			totals: map[string]int{"p": 10, "q": 7, "r": 3, "s": 1},
			want:   map[string]int{"p": 22, "q": 8, "r": 2, "s": 0},
		},
		{
			// p and q tied for first (5 each): each counts the other
			// once and r, s twice. p: 7 + 2×(3+1) = 15; q: 10 + 8 = 18.
			// r: 2×1 = 2.
			name:   "multi-seat tie",
			games:  []Game{{Players: []string{"p", "q", "r", "s"}, Points: []int{5, 5, 2, 0}}},
			totals: map[string]int{"p": 10, "q": 7, "r": 3, "s": 1},
			want:   map[string]int{"p": 15, "q": 18, "r": 2, "s": 0},
		},
		{
			// A multi-seat bye of the mean place points (3 at tables of
			// four) draws with three opponents of b's own total 3: 9. A
			// bye of 6 would beat them: 18.
			name: "multi-seat bye",
			games: []Game{
				{Players: []string{"a", "c", "d", "e"}, Points: []int{6, 4, 2, 0}},
				{Players: []string{"b"}, Points: []int{3}},
				{Players: []string{"f"}, Points: []int{6}},
			},
			totals: map[string]int{"a": 6, "b": 3, "c": 4, "d": 2, "e": 0, "f": 6},
			want:   map[string]int{"a": 12, "b": 9, "c": 4, "d": 0, "e": 0, "f": 36},
		},
		{
			// A bye that gave nothing (a forfeit sitting out) counts
			// nothing.
			name:   "empty bye",
			games:  []Game{{Players: []string{"a"}, Points: []int{0}}},
			totals: map[string]int{"a": 4},
			want:   map[string]int{"a": 0},
		},
		{
			// Points missing from a game count 0: b "lost".
			name:   "short points",
			games:  []Game{{Players: []string{"a", "b"}, Points: []int{1}}},
			totals: map[string]int{"a": 1, "b": 5},
			want:   map[string]int{"a": 10, "b": 0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := SonnebornBerger(tt.games, tt.totals); fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("SonnebornBerger = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestRank(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		field []Entrant
		games []Game
		want  string
	}{
		{
			// Points: e 4, a 3, then b and c on 2: b's Buchholz 5 beats
			// c's 4. d last.
			name: "Buchholz breaks a tie",
			field: []Entrant{
				{ID: "a", Points: 3}, {ID: "b", Points: 2}, {ID: "c", Points: 2},
				{ID: "d", Points: 1}, {ID: "e", Points: 4},
			},
			games: event5,
			want:  "e a b c d",
		},
		{
			// Round robin of three, everyone 2 points: a beat b, b beat
			// c, c beat a. Buchholz 4 each; Sonneborn-Berger 2×2 = 4
			// each. Rating decides, then ID.
			name: "rating, then ID",
			field: []Entrant{
				{ID: "a", Points: 2, Rating: 1500}, {ID: "b", Points: 2, Rating: 1600},
				{ID: "c", Points: 2, Rating: 1500},
			},
			games: []Game{
				{Players: []string{"a", "b"}, Points: []int{2, 0}},
				{Players: []string{"b", "c"}, Points: []int{2, 0}},
				{Players: []string{"c", "a"}, Points: []int{2, 0}},
			},
			want: "b a c",
		},
		{
			// x, y and z on 3. z met x and y: Buchholz 6, first. x and y
			// both met z and w: Buchholz 4 each, but x beat the stronger
			// z (3) and drew w (1): SB 2×3 + 1 = 7, where y drew z and
			// beat w: 3 + 2×1 = 5.
			name: "Sonneborn-Berger breaks a tie",
			field: []Entrant{
				{ID: "x", Points: 3}, {ID: "y", Points: 3}, {ID: "z", Points: 3}, {ID: "w", Points: 1},
			},
			games: []Game{
				{Players: []string{"x", "z"}, Points: []int{2, 0}},
				{Players: []string{"x", "w"}, Points: []int{1, 1}},
				{Players: []string{"y", "z"}, Points: []int{1, 1}},
				{Players: []string{"y", "w"}, Points: []int{2, 0}},
			},
			want: "z x y w",
		},
		{name: "empty", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := strings.Join(Rank(tt.field, tt.games), " "); got != tt.want {
				t.Errorf("Rank = %q, want %q", got, tt.want)
			}
		})
	}
}
