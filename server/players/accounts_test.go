package players

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"parlour/account"
	"parlour/server/auth"
	"parlour/server/internal/servertest"
	"parlour/server/refuse"
	"parlour/server/table"
	"parlour/store"
)

func FuzzParseBefore(f *testing.F) {
	f.Add("1795867500000000000.k3x9q2m7c8v4r6tw")
	f.Add("")
	f.Add("-1.k3x9q2m7c8v4r6tw")
	f.Add("12.")
	f.Fuzz(func(t *testing.T, s string) {
		at, id, err := parseBefore(s)
		if err != nil {
			if refuse.Status(err) != 400 {
				t.Fatalf("%q: %v is not a 400", s, err)
			}
			return
		}
		if !auth.ValidID(id) || at.UnixNano() <= 0 {
			t.Fatalf("%q gave %v %q", s, at, id)
		}
		if again := fmt.Sprintf("%d.%s", at.UnixNano(), id); again != s && !strings.HasPrefix(s, "+") && !strings.HasPrefix(s, "0") {
			t.Fatalf("%q read back as %q", s, again)
		}
	})
}

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

// fakePeers records what the players' side asks of the other nodes.
type fakePeers struct {
	mu        sync.Mutex
	forgotten [][]byte
	seated    []table.SeatedTable
	err       error
}

func (p *fakePeers) ForgetEverywhere(ctx context.Context, hashes [][]byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.forgotten = append(p.forgotten, hashes...)
}

func (p *fakePeers) SeatedElsewhere(ctx context.Context, identity string) ([]table.SeatedTable, error) {
	return p.seated, p.err
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

// TestSeatedMergesTheOtherNodes: the tables a player sits at are this
// node's and the other nodes', each once, newest first; a node that did
// not answer is said, with what the others hold all the same.
func TestSeatedMergesTheOtherNodes(t *testing.T) {
	t.Parallel()
	peers := &fakePeers{}
	f := newFixture(t, func(c *Config) { c.Peers = peers })
	ctx := context.Background()
	p := f.signUp("Ann")
	info, err := f.tables.Create(ctx, p, table.CreateRequest{Game: "guess", Seats: []string{"me", "open"}})
	if err != nil {
		t.Fatal(err)
	}
	here := f.tables.SeatedAt(p.Identity)
	if len(here) != 1 {
		t.Fatalf("this node's tables: %+v", here)
	}
	older := table.SeatedTable{TableInfo: table.TableInfo{ID: "elsewhere-older", Created: here[0].Created.Add(-time.Hour)}}
	newer := table.SeatedTable{TableInfo: table.TableInfo{ID: "elsewhere-newer", Created: here[0].Created.Add(time.Hour)}}
	peers.seated = []table.SeatedTable{older, here[0], newer}
	peers.err = errors.New("a node did not answer")
	got, err := f.s.Seated(ctx, p.Identity)
	var ids []string
	for _, s := range got {
		ids = append(ids, s.ID)
	}
	if want := []string{"elsewhere-newer", info.Table, "elsewhere-older"}; !slices.Equal(ids, want) {
		t.Fatalf("seated: %v, want %v", ids, want)
	}
	if err == nil {
		t.Fatal("a node that did not answer went unsaid")
	}
	// DeleteAccount will not go ahead on a list that may be short.
	if err := f.s.DeleteAccount(ctx, p, testPassword); err == nil {
		t.Fatal("an account deleted while a node did not answer")
	}
}

// TestAccountOnlyRefusesAllButAccounts: nobody and guests are refused in
// words that say what to do; an account passes.
func TestAccountOnlyRefusesAllButAccounts(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	ctx := context.Background()
	guest, err := f.tables.NewIdentity(ctx, "Olga")
	if err != nil {
		t.Fatal(err)
	}
	ann := f.signUp("Ann")
	for _, tc := range []struct {
		name   string
		p      *auth.Principal
		status int
		words  string
	}{
		{"nobody", nil, http.StatusUnauthorized, "challenging needs you signed in"},
		{"guest", f.principal(guest.Token), http.StatusForbidden, "challenging is for players with accounts"},
		{"account", ann, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := f.s.AccountOnly(ctx, tc.p, "challenging")
			if tc.status == 0 {
				if err != nil || a.Name != "Ann" {
					t.Fatalf("got %+v %v, want Ann's account", a, err)
				}
				return
			}
			if refuse.Status(err) != tc.status || !strings.Contains(err.Error(), tc.words) {
				t.Fatalf("got %v, want %d %q", err, tc.status, tc.words)
			}
		})
	}
}

// TestAccountNamedAnyCase: a name finds its account in any case; a name
// nobody has is a 404 naming it.
func TestAccountNamedAnyCase(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	ctx := context.Background()
	f.signUp("Ann")
	if a, _, err := f.s.AccountNamed(ctx, "aNN"); err != nil || a.Name != "Ann" {
		t.Fatalf("aNN: %+v %v", a, err)
	}
	if _, _, err := f.s.AccountNamed(ctx, "Zed"); refuse.Status(err) != http.StatusNotFound || !strings.Contains(err.Error(), `"Zed"`) {
		t.Fatalf("Zed: %v, want a 404 naming Zed", err)
	}
}

// TestSettingsHidden: an account hides and shows itself; a field left
// out changes nothing; a guest has no settings.
func TestSettingsHidden(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	ctx := context.Background()
	p := f.signUp("Ann")
	yes, no := true, false
	for _, tc := range []struct {
		req  SettingsRequest
		want bool
	}{
		{SettingsRequest{Hidden: &yes}, true},
		{SettingsRequest{}, true},
		{SettingsRequest{Hidden: &no}, false},
	} {
		got, err := f.s.SetSettings(ctx, p, tc.req)
		if err != nil || got.Hidden != tc.want {
			t.Fatalf("%+v: %+v %v, want hidden %v", tc.req, got, err, tc.want)
		}
		if again, err := f.s.Settings(ctx, p); err != nil || again != got {
			t.Fatalf("read back: %+v %v, want %+v", again, err, got)
		}
	}
	guest, err := f.tables.NewIdentity(ctx, "Olga")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.SetSettings(ctx, f.principal(guest.Token), SettingsRequest{Hidden: &yes}); refuse.Status(err) != http.StatusForbidden {
		t.Fatalf("a guest's settings: %v, want 403", err)
	}
}

// TestLeaderboardUnknownPool: a pool that does not exist is a 404 that
// lists the pools there are.
func TestLeaderboardUnknownPool(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	_, err := f.s.Leaderboard(context.Background(), "chess")
	if refuse.Status(err) != http.StatusNotFound || !strings.Contains(err.Error(), `"chess"`) {
		t.Fatalf("got %v, want a 404 naming chess", err)
	}
}
