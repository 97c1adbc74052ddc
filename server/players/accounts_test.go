package players

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"parlour/account"
	"parlour/server/internal/servertest"
	"parlour/server/refuse"
	"parlour/store"
)

func TestSignInRehashesOldParameters(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	ctx := context.Background()
	weak := account.Params{Memory: 8 * 1024, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}
	old, err := account.HashWith(weak, "a long secret phrase")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.CreateAccount(ctx, store.Account{Identity: "old-ann", Name: "Ann", Key: "ann", Hash: old, Created: time.Now()},
		store.Credential{Hash: []byte("session"), Identity: "old-ann"}, &store.Identity{ID: "old-ann", Name: "Ann", Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	first, err := f.s.SignIn(ctx, "Ann", "a long secret phrase")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := f.db.AccountOf(ctx, "old-ann")
	if a.Hash == old || account.NeedsRehash(a.Hash) {
		t.Fatalf("the hash was not renewed: %s", a.Hash)
	}
	if _, err := f.s.SignIn(ctx, "Ann", "a long secret phrase"); err != nil {
		t.Fatalf("signing in with the renewed hash: %v", err)
	}
	// Renewing the hash signed nobody out.
	if _, err := f.auth.Authenticate(ctx, first.Token); err != nil {
		t.Fatalf("the first session ended: %v", err)
	}
	if _, err := f.db.Credential(ctx, []byte("session")); err != nil {
		t.Fatalf("the old session ended: %v", err)
	}
	// A renewal of a hash that changed meanwhile changes nothing.
	if err := f.db.Rehash(ctx, "old-ann", old, "stale"); err != nil {
		t.Fatal(err)
	}
	if b, _ := f.db.AccountOf(ctx, "old-ann"); b.Hash != a.Hash {
		t.Fatal("a stale renewal replaced the hash")
	}
}

// TestHashingQueueIsBounded: once every hashing slot is busy and
// maxHashWaiting requests wait for one, the next is refused at once with
// a 503 rather than queued behind the flood; a sign-in still gets a slot
// while every sign-up place is taken.
func TestHashingQueueIsBounded(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	s := f.s
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	// Every sign-up place taken: a sign-in is not held up by them.
	for range cap(s.signingUp) {
		s.signingUp <- struct{}{}
	}
	if _, err := s.SignIn(ctx, "Nobody", "some password"); refuse.Status(err) != http.StatusUnauthorized {
		t.Fatalf("a sign-in while sign-ups fill their places: %v, want the usual 401", err)
	}
	upDone := make(chan error, 1)
	go func() {
		_, err := s.SignUp(ctx, nil, "Waiting", testPassword)
		upDone <- err
	}()
	servertest.Eventually(t, 20*time.Second, "the sign-up to wait for a place", func() bool { return s.hashWaiting.Load() == 1 })
	for range cap(s.signingUp) {
		<-s.signingUp
	}
	if err := <-upDone; err != nil {
		t.Fatalf("the sign-up that waited for a place: %v", err)
	}

	// Every hashing slot taken and the queue full: the next is refused.
	for range cap(s.hashing) {
		s.hashing <- struct{}{}
	}
	var wg sync.WaitGroup
	for range maxHashWaiting {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := s.hashSlot(ctx); err == nil {
				<-s.hashing
			}
		}()
	}
	servertest.Eventually(t, 20*time.Second, "the queue to fill", func() bool { return s.hashWaiting.Load() == maxHashWaiting })
	_, err := s.SignIn(ctx, "Nobody", "some password")
	if refuse.Status(err) != http.StatusServiceUnavailable || !strings.Contains(err.Error(), "busy") {
		t.Fatalf("a sign-in past the queue: %v, want 503 busy", err)
	}
	if _, err := s.SignUp(ctx, nil, "Eve", testPassword); refuse.Status(err) != http.StatusServiceUnavailable {
		t.Fatalf("a sign-up past the queue: %v, want 503", err)
	}
	for range cap(s.hashing) {
		<-s.hashing
	}
	wg.Wait()
	if _, err := s.SignUp(ctx, nil, "Eve", testPassword); err != nil {
		t.Fatalf("a sign-up once the queue drained: %v", err)
	}
}

// TestSignOutForgetsEverywhere: a session ended on this node is dropped
// from this node's cache and the other nodes are told to drop it too.
func TestSignOutForgetsEverywhere(t *testing.T) {
	t.Parallel()
	peers := &fakePeers{}
	f := newFixture(t, func(c *Config) { c.Peers = peers })
	ctx := context.Background()
	sess, err := f.s.SignUp(ctx, nil, "Ann", testPassword)
	if err != nil {
		t.Fatal(err)
	}
	p := f.principal(sess.Token)
	if err := f.s.SignOut(ctx, p, sess.Token); err != nil {
		t.Fatal(err)
	}
	sum := account.HashToken(sess.Token)
	if !slices.ContainsFunc(peers.forgotten, func(h []byte) bool { return string(h) == string(sum[:]) }) {
		t.Fatalf("the other nodes were not told to forget the session: %x", peers.forgotten)
	}
	if _, err := f.auth.Authenticate(ctx, sess.Token); refuse.Status(err) != http.StatusUnauthorized {
		t.Fatalf("the signed-out token still works here: %v", err)
	}
}
