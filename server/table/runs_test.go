package table

import (
	"slices"
	"testing"
	"time"

	"parlour/store"
)

// TestStoodStill: a table's clock stands still through the gaps between
// the server's runs that come after play started, each from the last
// time stored inside it (a move made after the run's last note), and
// stood says how much of them had passed by a time.
func TestStoodStill(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	span := func(from, to int) store.Span { return store.Span{From: at(from), To: at(to)} }
	tests := []struct {
		name  string
		gaps  []store.Span
		start int
		moves []int
		want  []store.Span
		// stood: seconds stood by each time in at.
		at, stood []int
	}{
		{name: "no gaps", start: 0, moves: []int{5}, at: []int{10}, stood: []int{0}},
		{name: "a gap before play", gaps: []store.Span{span(-100, -50)}, start: 0, moves: []int{5}, at: []int{10}, stood: []int{0}},
		{name: "a gap in play", gaps: []store.Span{span(20, 80)}, start: 0, moves: []int{5, 90},
			want: []store.Span{span(20, 80)}, at: []int{10, 20, 50, 80, 100}, stood: []int{0, 0, 30, 60, 60}},
		{name: "a move after the run's last note", gaps: []store.Span{span(20, 80)}, start: 0, moves: []int{5, 25, 90},
			want: []store.Span{span(25, 80)}, at: []int{25, 100}, stood: []int{0, 55}},
		{name: "play started after the last note", gaps: []store.Span{span(-10, 80)}, start: 0,
			want: []store.Span{span(0, 80)}, at: []int{0, 100}, stood: []int{0, 80}},
		{name: "two gaps, one before play", gaps: []store.Span{span(-30, -20), span(20, 30), span(40, 100)}, start: 0, moves: []int{35, 110},
			want: []store.Span{span(20, 30), span(40, 100)}, at: []int{35, 70, 120}, stood: []int{10, 40, 70}},
		{name: "the last move ended the gap's use", gaps: []store.Span{span(20, 30)}, start: 0, moves: []int{29},
			want: []store.Span{span(29, 30)}, at: []int{40}, stood: []int{1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			times := make([]time.Time, len(tc.moves))
			for i, m := range tc.moves {
				times[i] = at(m)
			}
			got := stoodStill(tc.gaps, at(tc.start), times)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("stoodStill = %v, want %v", got, tc.want)
			}
			for i, a := range tc.at {
				if d := stood(got, at(a)); d != time.Duration(tc.stood[i])*time.Second {
					t.Errorf("stood by %d s = %v, want %d s", a, d, tc.stood[i])
				}
			}
		})
	}
}

// TestDown: the time no server ran between two times, and a deadline
// moved on by it (Resumed): a gap counts from the later of its start and
// from, up to to; a deadline that came before a gap is not moved by it.
func TestDown(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	s := &Service{run: runKeeper{gaps: []store.Span{{From: at(10), To: at(20)}, {From: at(30), To: at(60)}, {From: at(100), To: at(200)}}}}
	for _, tc := range []struct {
		from, to, down, due, resumed int
	}{
		{from: 0, to: 5, down: 0, due: 5, resumed: 5},
		{from: 0, to: 25, down: 10, due: 15, resumed: 25},
		{from: 15, to: 70, down: 35, due: 25, resumed: 30},
		{from: 15, to: 70, down: 35, due: 29, resumed: 64},
		{from: 0, to: 300, down: 140, due: 90, resumed: 230},
		{from: 40, to: 50, down: 0, due: 45, resumed: 65},
		{from: 60, to: 99, down: 0, due: 99, resumed: 99},
	} {
		if d := s.Down(at(tc.from), at(tc.to)); d != time.Duration(tc.down)*time.Second {
			t.Errorf("down from %d s to %d s: %v, want %d s", tc.from, tc.to, d, tc.down)
		}
		if r := s.Resumed(at(tc.from), at(tc.due)); !r.Equal(at(tc.resumed)) {
			t.Errorf("a deadline set at %d s for %d s, resumed: %v, want %d s", tc.from, tc.due, r.Sub(t0), tc.resumed)
		}
	}
}
