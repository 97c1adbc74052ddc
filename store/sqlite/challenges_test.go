package sqlite

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"parlour/store"
)

// TestChallenges: a challenge is stored and read back, settles once (the
// second answer is ErrConflict and changes nothing), reopens, lists for
// both its players, and survives closing the store.
func TestChallenges(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "p.db")
	s := open(t, path)
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	c := store.Challenge{ID: "c1", From: "ann", To: "bob", Game: "salvo", Rules: []byte(`{"placement":"free"}`), Rated: true, Status: store.ChallengeOpen, Created: at, Expires: at.Add(10 * time.Minute)}
	if err := s.CreateChallenge(ctx, c); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateChallenge(ctx, c); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a challenge stored twice: %v, want ErrConflict", err)
	}
	got, err := s.Challenge(ctx, "c1")
	if err != nil || got.From != "ann" || got.To != "bob" || string(got.Rules) != `{"placement":"free"}` || !got.Rated || !got.Created.Equal(at) || !got.Expires.Equal(c.Expires) || got.Status != store.ChallengeOpen {
		t.Fatalf("Challenge = %+v, %v", got, err)
	}
	if _, err := s.Challenge(ctx, "none"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a missing challenge: %v", err)
	}
	for _, who := range []string{"ann", "bob"} {
		if l, err := s.OpenChallenges(ctx, who, 10); err != nil || len(l) != 1 {
			t.Errorf("OpenChallenges(%s) = %+v, %v", who, l, err)
		}
	}
	if err := s.SettleChallenge(ctx, "c1", store.ChallengeAccepted, "t1"); err != nil {
		t.Fatal(err)
	}
	if err := s.SettleChallenge(ctx, "c1", store.ChallengeDeclined, ""); !errors.Is(err, store.ErrConflict) {
		t.Errorf("settled twice: %v, want ErrConflict", err)
	}
	if got, _ := s.Challenge(ctx, "c1"); got.Status != store.ChallengeAccepted || got.Table != "t1" {
		t.Errorf("after the refused second answer: %+v", got)
	}
	if l, _ := s.OpenChallenges(ctx, "bob", 10); len(l) != 0 {
		t.Errorf("an accepted challenge listed open: %+v", l)
	}
	if err := s.ReopenChallenge(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = open(t, path)
	defer s.Close()
	if got, _ := s.Challenge(ctx, "c1"); got.Status != store.ChallengeOpen || got.Table != "" {
		t.Errorf("reopened, after a restart: %+v", got)
	}
}

// TestHidden: the presence setting is stored, changed and read for many.
func TestHidden(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "p.db"))
	defer s.Close()
	if err := s.SetHidden(ctx, "ann", true); err != nil {
		t.Fatal(err)
	}
	if err := s.SetHidden(ctx, "bob", true); err != nil {
		t.Fatal(err)
	}
	if err := s.SetHidden(ctx, "bob", false); err != nil {
		t.Fatal(err)
	}
	h, err := s.Hidden(ctx, []string{"ann", "bob", "cat"})
	if err != nil || !h["ann"] || h["bob"] || h["cat"] || len(h) != 1 {
		t.Errorf("Hidden = %v, %v", h, err)
	}
	if h, err := s.Hidden(ctx, nil); err != nil || len(h) != 0 {
		t.Errorf("Hidden(nil) = %v, %v", h, err)
	}
}
