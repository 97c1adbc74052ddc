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
