package sqlite_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"parlour/store"
	"parlour/store/sqlite"
)

// TestDailies stores a day's puzzle twice (the first stays), attempts
// (one per identity and day), results (written once) and reads the
// leaderboard in its order: solved, moves, wrong, time; guests left out.
func TestDailies(t *testing.T) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "d.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	if day, err := s.LatestDailyDay(ctx, "quizl"); err != nil || day != "" {
		t.Fatalf("latest day of none: %q %v", day, err)
	}
	p, err := s.PutDailyPuzzle(ctx, store.DailyPuzzle{Game: "quizl", Day: "2026-03-01", Setup: []byte(`{"a":1}`), Created: at})
	if err != nil || string(p.Setup) != `{"a":1}` {
		t.Fatalf("first puzzle: %s %v", p.Setup, err)
	}
	if p, err = s.PutDailyPuzzle(ctx, store.DailyPuzzle{Game: "quizl", Day: "2026-03-01", Setup: []byte(`{"b":2}`), Created: at}); err != nil || string(p.Setup) != `{"a":1}` {
		t.Fatalf("a second puzzle of the day replaced the first: %s %v", p.Setup, err)
	}
	s.PutDailyPuzzle(ctx, store.DailyPuzzle{Game: "quizl", Day: "2026-02-28", Setup: []byte(`{}`), Created: at})
	if day, _ := s.LatestDailyDay(ctx, "quizl"); day != "2026-03-01" {
		t.Errorf("latest day: %q", day)
	}
	if day, _ := s.LatestDailyDay(ctx, "salvo"); day != "" {
		t.Errorf("salvo's latest day: %q", day)
	}
	type res struct {
		id      string
		account bool
		solved  bool
		moves   int
		wrong   int
		millis  int64
	}
	for i, r := range []res{
		{"ann", true, true, 5, 1, 9000},
		{"ben", true, true, 5, 0, 20000},
		{"cat", true, false, 2, 0, 1000},
		{"dan", true, true, 4, 3, 50000},
		{"gus", false, true, 1, 0, 100},
		{"eve", true, true, 5, 0, 10000},
	} {
		a := store.DailyAttempt{Game: "quizl", Day: "2026-03-01", Identity: r.id, Name: r.id, Account: r.account, Table: "t" + r.id, Started: at.Add(time.Duration(i) * time.Minute)}
		if err := s.StartDaily(ctx, a); err != nil {
			t.Fatal(err)
		}
		a.Finished, a.Solved, a.Moves, a.Wrong, a.Millis, a.Marks = true, r.solved, r.moves, r.wrong, r.millis, "#."
		if err := s.FinishDaily(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.StartDaily(ctx, store.DailyAttempt{Game: "quizl", Day: "2026-03-01", Identity: "ann", Table: "again", Started: at}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a second attempt: %v", err)
	}
	// A result is written once.
	s.FinishDaily(ctx, store.DailyAttempt{Game: "quizl", Day: "2026-03-01", Identity: "ann", Finished: true, Moves: 1})
	if a, err := s.DailyAttempt(ctx, "quizl", "2026-03-01", "ann"); err != nil || a.Moves != 5 || a.Table != "tann" || !a.Started.Equal(at) {
		t.Errorf("Ann's attempt: %+v %v", a, err)
	}
	if _, err := s.DailyAttempt(ctx, "quizl", "2026-03-02", "ann"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an attempt never made: %v", err)
	}
	board, err := s.DailyLeaderboard(ctx, "quizl", "2026-03-01", 10)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, a := range board {
		order = append(order, a.Identity)
	}
	if got, want := order, []string{"dan", "eve", "ben", "ann", "cat"}; !equal(got, want) {
		t.Errorf("leaderboard %v, want %v", got, want)
	}
	if open, _ := s.UnfinishedDailies(ctx, "quizl", "2026-03-01"); len(open) != 0 {
		t.Errorf("unfinished: %+v", open)
	}
	if h, _ := s.DailyHistory(ctx, "ann", "quizl", 10); len(h) != 1 || h[0].Day != "2026-03-01" {
		t.Errorf("Ann's history: %+v", h)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
