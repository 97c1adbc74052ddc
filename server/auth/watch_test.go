package auth

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"parlour/server/internal/servertest"
	"parlour/store"
)

// TestWatch: forgetting a token tells every connection watching it, once,
// and no other; a watch stopped first is not told, and nothing is left
// watched. A token forgotten before its watch began is told at once.
func TestWatch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := servertest.SQLite(t)
	a := New(st, slog.New(slog.DiscardHandler), 0)
	known := func(name string) (string, []byte) {
		tok, h := NewToken()
		cred := store.Credential{Hash: h, Identity: NewID()}
		if err := st.CreateIdentity(ctx, store.Identity{ID: cred.Identity, Name: name, Created: time.Now()}, cred); err != nil {
			t.Fatal(err)
		}
		return tok, h
	}
	ann, annHash := known("Ann")
	ben, benHash := known("Ben")
	told := map[string]int{}
	tell := func(who string) func() { return func() { told[who]++ } }
	stops := []func(){
		a.Watch(ctx, ann, tell("ann's socket")),
		a.Watch(ctx, ann, tell("ann's stream")),
		a.Watch(ctx, ben, tell("ben's socket")),
	}
	a.Watch(ctx, ben, tell("ben's stream, closed"))()
	if got := a.Watching(); got != 3 || len(told) != 0 {
		t.Fatalf("watching %d, told %v; want 3, none", got, told)
	}
	a.Forget(annHash)
	a.Forget(annHash) // told once only
	if len(told) != 2 || told["ann's socket"] != 1 || told["ann's stream"] != 1 {
		t.Fatalf("told %v, want Ann's socket and stream once each", told)
	}
	for _, stop := range stops {
		stop() // after the telling too: harmless
	}
	a.Forget(benHash)
	if told["ben's socket"] != 0 || told["ben's stream, closed"] != 0 || a.Watching() != 0 {
		t.Fatalf("after every watch stopped: told %v, watching %d", told, a.Watching())
	}
	gone, _ := NewToken() // signed out before the socket's watch began
	stop := a.Watch(ctx, gone, tell("a socket of a session gone"))
	defer stop()
	if told["a socket of a session gone"] != 1 || a.Watching() != 0 {
		t.Errorf("a watch of a token forgotten already: told %v, watching %d", told, a.Watching())
	}
}

// TestWatchEndedElsewhere: a session ended in the store by another
// process (parlour admin password), which this server cannot hear, ends
// its connections at the first request that presents it once the cache
// no longer vouches for it, as that request is refused.
func TestWatchEndedElsewhere(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := servertest.SQLite(t)
	a := New(st, slog.New(slog.DiscardHandler), 0)
	a.cache.sessionAge = 20 * time.Millisecond
	tok, h := NewToken()
	cred := store.Credential{Hash: h, Identity: NewID()}
	if err := st.CreateIdentity(ctx, store.Identity{ID: cred.Identity, Name: "Ann", Created: time.Now()}, cred); err != nil {
		t.Fatal(err)
	}
	told := 0
	defer a.Watch(ctx, tok, func() { told++ })()
	if err := st.DeleteCredential(ctx, h); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Authenticate(ctx, tok); err != nil || told != 0 {
		t.Fatalf("within the cache's trust: %v, told %d", err, told)
	}
	time.Sleep(40 * time.Millisecond)
	if _, err := a.Authenticate(ctx, tok); err == nil {
		t.Fatal("a session ended in the store is still taken")
	}
	if told != 1 || a.Watching() != 0 {
		t.Errorf("its connection was told %d times, %d still watched", told, a.Watching())
	}
}
