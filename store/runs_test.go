package store

import (
	"slices"
	"testing"
	"time"
)

// TestGaps: the gaps are the times when no run was running, whether the
// runs follow one another (one server) or overlap (a cluster's nodes).
func TestGaps(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	span := func(from, to int) Span {
		return Span{From: t0.Add(time.Duration(from) * time.Second), To: t0.Add(time.Duration(to) * time.Second)}
	}
	for _, tc := range []struct {
		name string
		runs []Span
		want []Span
	}{
		{"none", nil, nil},
		{"one", []Span{span(0, 10)}, nil},
		{"one after another", []Span{span(0, 10), span(30, 40), span(40, 50), span(70, 70), span(80, 90)},
			[]Span{span(10, 30), span(50, 70), span(70, 80)}},
		{"overlapping", []Span{span(0, 10), span(5, 20), span(8, 12), span(30, 40)}, []Span{span(20, 30)}},
		{"one within another", []Span{span(0, 100), span(10, 20), span(150, 160)}, []Span{span(100, 150)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := Gaps(tc.runs); !slices.Equal(got, tc.want) {
				t.Errorf("Gaps(%v) = %v, want %v", tc.runs, got, tc.want)
			}
		})
	}
}
