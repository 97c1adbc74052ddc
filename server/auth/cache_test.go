package auth

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"testing"
	"time"

	"parlour/account"
	"parlour/server/internal/servertest"
	"parlour/server/refuse"
	"parlour/store"
)

func TestCredCache(t *testing.T) {
	t.Parallel()
	key := func(i int) []byte { return hashOf(fmt.Sprint("token-", i)) }
	c := newCredCache(4)
	for i := range 4 {
		c.put(key(i), cachedCred{identity: fmt.Sprint("id", i), seat: int32(i)})
	}
	// Key 0 is used while the next generation fills, so it is carried
	// over; 1, 2 and 3 are not, and leave when the generation after fills.
	for i := 4; i < 12; i++ {
		c.put(key(i), cachedCred{identity: fmt.Sprint("id", i), seat: int32(i)})
		if got, ok := c.get(key(0)); !ok || got.identity != "id0" || got.seat != 0 {
			t.Fatalf("after put %d: key 0 = %+v, %v; want id0", i, got, ok)
		}
	}
	for _, tc := range []struct {
		key  int
		want bool
	}{{0, true}, {1, false}, {2, false}, {3, false}, {10, true}, {11, true}, {99, false}} {
		got, ok := c.get(key(tc.key))
		if ok != tc.want || ok && got.identity != fmt.Sprint("id", tc.key) {
			t.Errorf("get(%d) = %+v, %v; want found %v", tc.key, got, ok, tc.want)
		}
	}
	if n := c.len(); n > 8 {
		t.Errorf("the cache holds %d credentials, more than two generations of 4", n)
	}
}

// TestCredentialsOutliveTheCache issues more tokens than the cache holds:
// the oldest still authenticate, from the store, and the cache stays bounded.
func TestCredentialsOutliveTheCache(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := servertest.SQLite(t)
	a := New(st, slog.New(slog.DiscardHandler), 0)
	a.cache = newCredCache(3)
	type issued struct{ id, token string }
	var ids []issued
	for i := range 10 {
		id := NewID()
		tok, h := NewToken()
		cred := store.Credential{Hash: h, Identity: id}
		if err := st.CreateIdentity(ctx, store.Identity{ID: id, Name: fmt.Sprint("p", i), Created: time.Now()}, cred); err != nil {
			t.Fatal(err)
		}
		a.Remember(cred)
		ids = append(ids, issued{id, tok})
	}
	if n := a.Cached(); n > 6 {
		t.Fatalf("the cache holds %d credentials, want at most 6", n)
	}
	for _, id := range ids {
		p, err := a.Authenticate(ctx, id.token)
		if err != nil || p.Identity != id.id {
			t.Fatalf("token of %s: %+v, %v", id.id, p, err)
		}
	}
	tok := []byte(ids[0].token)
	tok[0] = map[bool]byte{true: 'B', false: 'A'}[tok[0] == 'A']
	if _, err := a.Authenticate(ctx, string(tok)); refuse.Status(err) != http.StatusUnauthorized {
		t.Fatalf("a forged token: %v, want a 401 refusal", err)
	}
}

// TestCredCacheMaxAge: with a maximum age, a credential is trusted from
// the cache only that long after the store was last asked; without one,
// for ever.
func TestCredCacheMaxAge(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		maxAge time.Duration
		want   bool
	}{{"no maximum", 0, true}, {"within it", time.Hour, true}, {"past it", 30 * time.Millisecond, false}} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCredCache(4)
			c.maxAge = tc.maxAge
			c.put(hashOf("h"), cachedCred{identity: "id"})
			if _, ok := c.get(hashOf("h")); !ok {
				t.Fatal("a credential just put is not found")
			}
			time.Sleep(60 * time.Millisecond)
			if _, ok := c.get(hashOf("h")); ok != tc.want {
				t.Errorf("after 60 ms: found %v, want %v", ok, tc.want)
			}
			c.put(hashOf("h"), cachedCred{identity: "id"}) // asked the store again
			if _, ok := c.get(hashOf("h")); !ok {
				t.Error("a credential put again is not found")
			}
		})
	}
}

// TestCredCacheSessionAge: an identity's own token (a session) is
// trusted from the cache only sessionAge, so that one ended in the store
// by another process is refused; a seat's token, for ever without a
// maximum age, or as long as maxAge; the shorter of the two holds.
func TestCredCacheSessionAge(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name               string
		maxAge, sessionAge time.Duration
		table              string
		want               bool
	}{
		{"a session past it", 0, 30 * time.Millisecond, "", false},
		{"a session within it", 0, time.Hour, "", true},
		{"a seat's token", 0, 30 * time.Millisecond, "table1", true},
		{"a seat's token past maxAge", 30 * time.Millisecond, time.Hour, "table1", false},
		{"a session, maxAge shorter", 30 * time.Millisecond, time.Hour, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := newCredCache(4)
			c.maxAge, c.sessionAge = tc.maxAge, tc.sessionAge
			c.put(hashOf("h"), cachedCred{identity: "id", table: tc.table})
			if _, ok := c.get(hashOf("h")); !ok {
				t.Fatal("a credential just put is not found")
			}
			time.Sleep(60 * time.Millisecond)
			if _, ok := c.get(hashOf("h")); ok != tc.want {
				t.Errorf("after 60 ms: found %v, want %v", ok, tc.want)
			}
		})
	}
}

// TestCredCacheWorkingSet uses a set of credentials over and over, each
// once a round as the seats of live tables are: a set no larger than a
// generation is always found once put, and one larger is not.
func TestCredCacheWorkingSet(t *testing.T) {
	t.Parallel()
	const size = 100
	for _, tc := range []struct {
		set    int
		misses bool
	}{{1, false}, {size / 2, false}, {size, false}, {2 * size, true}} {
		t.Run(fmt.Sprint(tc.set), func(t *testing.T) {
			t.Parallel()
			c := newCredCache(size)
			misses := 0
			for round := range 5 {
				for i := range tc.set {
					k := hashOf(fmt.Sprint("token-", i))
					if _, ok := c.get(k); !ok {
						if round > 0 {
							misses++
						}
						c.put(k, cachedCred{identity: fmt.Sprint("id", i)})
					}
				}
			}
			if got := misses > 0; got != tc.misses {
				t.Errorf("a set of %d in a cache of %d a generation: %d misses after the first round, want misses %v", tc.set, size, misses, tc.misses)
			}
			if n := c.len(); n > 2*size {
				t.Errorf("the cache holds %d credentials, more than two generations of %d", n, size)
			}
		})
	}
}

// BenchmarkCredCacheMemory fills one generation with credentials shaped
// as the server issues them (a seat's: its identity and its table) and
// reports the heap each takes.
func BenchmarkCredCacheMemory(b *testing.B) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	c := newCredCache(credCacheSize)
	for range credCacheSize {
		_, h := NewToken()
		c.put(h, cachedCred{identity: NewID(), table: NewID(), seat: 1})
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/credCacheSize, "bytes/credential")
	runtime.KeepAlive(c)
}

// hashOf returns the hash of token, as the cache is keyed.
func hashOf(token string) []byte {
	h := account.HashToken(token)
	return h[:]
}

// TestCredCacheKeys: a key that is no token's hash (of another length)
// is neither kept nor found, and dropping one changes nothing.
func TestCredCacheKeys(t *testing.T) {
	t.Parallel()
	c := newCredCache(4)
	c.put(hashOf("a"), cachedCred{identity: "a"})
	for _, h := range [][]byte{nil, []byte("short"), append(hashOf("b"), 0), hashOf("b")[:31]} {
		c.put(h, cachedCred{identity: "b"})
		if _, ok := c.get(h); ok {
			t.Errorf("a key of %d bytes was kept", len(h))
		}
		c.drop(h)
	}
	if got, ok := c.get(hashOf("a")); !ok || got.identity != "a" || c.len() != 1 {
		t.Errorf("after the bad keys: %+v, %v, %d held; want a alone", got, ok, c.len())
	}
}
