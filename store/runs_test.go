package store

import (
	"slices"
	"testing"
	"time"
)

// TestGaps: the gaps are the times when no run was running, whether the
// runs follow one another (one server) or overlap (a cluster's nodes); a
// run that did not end and was noted within the grace is still running.
func TestGaps(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	span := func(from, to int) Span { return Span{From: at(from), To: at(to)} }
	ended := func(from, to int) Run { return Run{Span: span(from, to), Ended: true} }
	noted := func(from, to int) Run { return Run{Span: span(from, to)} }
	for _, tc := range []struct {
		name string
		runs []Run
		at   int
		want []Span
	}{
		{"none", nil, 0, nil},
		{"the new run alone", []Run{noted(0, 0)}, 0, nil},
		{"one after another", []Run{ended(0, 10), ended(30, 40), ended(40, 50), noted(70, 70), ended(80, 90), noted(100, 100)}, 100,
			[]Span{span(10, 30), span(50, 70), span(70, 80), span(90, 100)}},
		{"overlapping", []Run{ended(0, 10), ended(5, 20), ended(8, 12), noted(30, 30)}, 30, []Span{span(20, 30)}},
		{"one within another", []Run{ended(0, 100), ended(10, 20), noted(150, 150)}, 150, []Span{span(100, 150)}},
		{"a quick restart after a stop", []Run{ended(0, 98), noted(100, 100)}, 100, []Span{span(98, 100)}},
		{"a node noted within the grace", []Run{noted(0, 97), noted(100, 100)}, 100, nil},
		{"a node noted just within the grace", []Run{noted(0, 95), noted(100, 100)}, 100, nil},
		{"a crash longer ago", []Run{noted(0, 94), noted(100, 100)}, 100, []Span{span(94, 100)}},
		{"a crash before a stop", []Run{noted(0, 50), ended(60, 97), noted(100, 100)}, 100, []Span{span(50, 60), span(97, 100)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := Gaps(tc.runs, at(tc.at), 5*time.Second); !slices.Equal(got, tc.want) {
				t.Errorf("Gaps(%v) = %v, want %v", tc.runs, got, tc.want)
			}
		})
	}
}
