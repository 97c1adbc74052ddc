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
// second answer is ErrConflict and changes nothing), lists for
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
	s.Close()
	s = open(t, path)
	defer s.Close()
	if got, _ := s.Challenge(ctx, "c1"); got.Status != store.ChallengeAccepted || got.Table != "t1" {
		t.Errorf("accepted, after a restart: %+v", got)
	}
}

// TestChallengeInBatch: an acceptance written with the table it opens
// stands or falls with it: a challenge no longer open fails the batch
// (ErrChallengeNotOpen) and no table is stored; a table that cannot be
// stored leaves the challenge open.
func TestChallengeInBatch(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "p.db"))
	defer s.Close()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, id := range []string{"c1", "c2"} {
		if err := s.CreateChallenge(ctx, store.Challenge{ID: id, From: "ann", To: "bob", Game: "salvo", Status: store.ChallengeOpen, Created: at, Expires: at.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	table := func(id string) *store.Table {
		return &store.Table{ID: id, Game: "salvo", Status: store.Playing, Created: at, Updated: at, Meta: []byte(`{}`)}
	}
	accept := func(c, tb string) *store.ChallengeAnswer {
		return &store.ChallengeAnswer{ID: c, Status: store.ChallengeAccepted, Table: tb}
	}
	if err := s.Write(ctx, store.Batch{Challenge: accept("c1", "t1"), NewTable: table("t1")}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Challenge(ctx, "c1"); got.Status != store.ChallengeAccepted || got.Table != "t1" {
		t.Errorf("accepted in a batch: %+v", got)
	}
	if _, err := s.Table(ctx, "t1"); err != nil {
		t.Errorf("the table of the batch: %v", err)
	}
	// Accepted twice: the second batch fails whole.
	err := s.Write(ctx, store.Batch{Challenge: accept("c1", "t2"), NewTable: table("t2")})
	if !errors.Is(err, store.ErrChallengeNotOpen) || !errors.Is(err, store.ErrConflict) {
		t.Errorf("accepted twice: %v, want ErrChallengeNotOpen", err)
	}
	if _, err := s.Table(ctx, "t2"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the refused batch stored its table: %v", err)
	}
	if got, _ := s.Challenge(ctx, "c1"); got.Table != "t1" {
		t.Errorf("the refused batch changed the challenge: %+v", got)
	}
	// A table that cannot be stored (its id is taken) leaves c2 open.
	if err := s.Write(ctx, store.Batch{Challenge: accept("c2", "t1"), NewTable: table("t1")}); err == nil {
		t.Fatal("a table stored twice")
	}
	if got, _ := s.Challenge(ctx, "c2"); got.Status != store.ChallengeOpen || got.Table != "" {
		t.Errorf("a failed batch settled its challenge: %+v", got)
	}
	if err := s.SettleChallenge(ctx, "c2", store.ChallengeDeclined, ""); err != nil {
		t.Errorf("declining the challenge the failed batch left open: %v", err)
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
