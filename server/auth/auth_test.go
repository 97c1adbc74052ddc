package auth

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"parlour/server/internal/servertest"
	"parlour/server/refuse"
	"parlour/store"
)

// TestAuthenticate: a token the server issued is known, from the cache
// or the store, and every other string is refused as not issued here,
// whatever its shape, without being taken for another.
func TestAuthenticate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := servertest.SQLite(t)
	a := New(st, slog.New(slog.DiscardHandler), 0)
	tok, h := NewToken()
	cred := store.Credential{Hash: h, Identity: NewID()}
	if err := st.CreateIdentity(ctx, store.Identity{ID: cred.Identity, Name: "Ann", Created: time.Now()}, cred); err != nil {
		t.Fatal(err)
	}
	for _, cached := range []bool{false, true} {
		if p, err := a.Authenticate(ctx, tok); err != nil || p.Identity != cred.Identity || p.Table != "" {
			t.Fatalf("the issued token (cached %v): %+v, %v", cached, p, err)
		}
		if got := a.Cached(); got != 1 {
			t.Fatalf("after the token's use the cache holds %d credentials, want 1", got)
		}
	}
	for _, tc := range []struct{ name, token string }{
		{"empty", ""},
		{"one short", tok[:len(tok)-1]},
		{"one long", tok + "A"},
		{"outside the alphabet", "+" + tok[1:]},
		{"padded", tok[:len(tok)-1] + "="},
		{"with its spare bits set", strings.Repeat("A", len(tok)-1) + "B"},
		{"another of the right shape", strings.Repeat("A", len(tok))},
		{"spaces", strings.Repeat(" ", len(tok))},
	} {
		p, err := a.Authenticate(ctx, tc.token)
		if refuse.Status(err) != http.StatusUnauthorized || p != nil {
			t.Errorf("%s (%q): %+v, %v; want a 401 refusal", tc.name, tc.token, p, err)
		}
	}
}

// TestAuthenticateCachedAllocs: a cached token costs the request one
// allocation, its Principal, since every request that signs in asks.
func TestAuthenticateCachedAllocs(t *testing.T) {
	ctx := context.Background()
	a := New(nil, slog.New(slog.DiscardHandler), 0)
	tok, h := NewToken()
	a.Remember(store.Credential{Hash: h, Identity: "g1", Table: "t1", Seat: 1})
	if n := testing.AllocsPerRun(100, func() {
		if _, err := a.Authenticate(ctx, tok); err != nil {
			t.Fatal(err)
		}
	}); n != 1 {
		t.Errorf("a cached token took %v allocations, want 1", n)
	}
}

// TestUsesNoted: the first use of a day of an identity's own token is
// noted in the store, once however often it is used, through the cache or
// not; a seat's token's use is not, nor is a use already noted that day.
func TestUsesNoted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := servertest.SQLite(t)
	a := New(st, slog.New(slog.DiscardHandler), 0)
	own, ownHash := NewToken()
	seat, seatHash := NewToken()
	id := NewID()
	if err := st.CreateIdentity(ctx, store.Identity{ID: id, Name: "Gus", Created: time.Now()}, store.Credential{Hash: ownHash, Identity: id}); err != nil {
		t.Fatal(err)
	}
	if err := st.AddCredential(ctx, store.Credential{Hash: seatHash, Identity: id, Table: "t1", Seat: 1}); err != nil {
		t.Fatal(err)
	}
	used := func(h []byte) time.Time {
		t.Helper()
		c, err := st.Credential(ctx, h)
		if err != nil {
			t.Fatal(err)
		}
		return c.Used
	}
	before := time.Now()
	for range 3 {
		for _, tok := range []string{own, seat} {
			if _, err := a.Authenticate(ctx, tok); err != nil {
				t.Fatal(err)
			}
		}
	}
	if n := len(a.uses.pending); n != 1 {
		t.Fatalf("%d uses waiting after three uses of each token, want the identity token's one", n)
	}
	a.flushUses(ctx, st)
	if u := used(ownHash); u.Before(before) || u.After(time.Now()) {
		t.Errorf("the identity token's use noted at %v, want between %v and now", u, before)
	}
	if u := used(seatHash); !u.IsZero() {
		t.Errorf("the seat token's use noted at %v, want never", u)
	}
	// A new server's cache reads the day's use from the store, and notes
	// it no more; nor does the first once it has.
	b := New(st, slog.New(slog.DiscardHandler), 0)
	for _, x := range []*Auth{a, b} {
		if _, err := x.Authenticate(ctx, own); err != nil {
			t.Fatal(err)
		}
		if n := len(x.uses.pending); n != 0 {
			t.Errorf("%d uses waiting after a use noted today", n)
		}
	}

	// NoteUses writes what comes, and what is left when it ends.
	c := New(st, slog.New(slog.DiscardHandler), 0)
	c.cache.put(ownHash, cachedCred{identity: id, used: day(time.Now()) - 1})
	rctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { c.NoteUses(rctx); close(done) }()
	if _, err := c.Authenticate(ctx, own); err != nil {
		t.Fatal(err)
	}
	stop()
	<-done
	if n := len(c.uses.pending); n != 0 {
		t.Errorf("%d uses left unwritten after NoteUses ended", n)
	}
}

// TestWatchedNoted: the sessions connections hold open are noted used
// once a day, by the caller's clock, however few requests they make; a
// connection closed holds its session no more.
func TestWatchedNoted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := servertest.SQLite(t)
	a := New(st, slog.New(slog.DiscardHandler), 0)
	tok, h := NewToken()
	id := NewID()
	if err := st.CreateIdentity(ctx, store.Identity{ID: id, Name: "Ann", Created: time.Now()}, store.Credential{Hash: h, Identity: id}); err != nil {
		t.Fatal(err)
	}
	used := func() time.Time {
		t.Helper()
		c, err := st.Credential(ctx, h)
		if err != nil {
			t.Fatal(err)
		}
		return c.Used
	}
	stop := a.Watch(ctx, tok, func() {})
	day1 := time.Date(2030, 1, 1, 10, 0, 0, 0, time.UTC)
	if err := a.NoteWatched(ctx, day1); err != nil {
		t.Fatal(err)
	}
	if u := used(); !u.Equal(day1) {
		t.Fatalf("held open on day 1: used %v, want %v", u, day1)
	}
	if err := st.TouchSessions(ctx, [][]byte{h}, day1.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := a.NoteWatched(ctx, day1.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if u := used(); !u.Equal(day1.Add(-time.Hour)) {
		t.Errorf("noted twice on day 1: used %v", u)
	}
	day2 := day1.Add(24 * time.Hour)
	if err := a.NoteWatched(ctx, day2); err != nil {
		t.Fatal(err)
	}
	if u := used(); !u.Equal(day2) {
		t.Errorf("held open on day 2: used %v, want %v", u, day2)
	}
	stop()
	if err := a.NoteWatched(ctx, day2.Add(24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if u := used(); !u.Equal(day2) {
		t.Errorf("closed before day 3: used %v, want %v still", u, day2)
	}
}
