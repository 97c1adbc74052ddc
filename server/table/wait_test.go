package table

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"parlour/server/auth"
	"parlour/server/internal/servertest"
	"parlour/server/refuse"
	"parlour/store"
)

// TestWaitEndsWhenCancelled: a setup asked with "wait" at a paired table
// ends as soon as the other player leaves and the table is cancelled,
// with the 410 that says why, rather than wait out the server's longest
// wait and answer that play still waits for the player who left.
func TestWaitEndsWhenCancelled(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	for _, id := range []string{"ann-id", "ben-id"} {
		if err := f.db.CreateIdentity(ctx, store.Identity{ID: id, Name: id[:3], Created: time.Now()}, store.Credential{Hash: []byte(id), Identity: id}); err != nil {
			t.Fatal(err)
		}
	}
	seated, err := f.s.Pair(ctx, Pairing{Game: servertest.Guess{}, Rules: servertest.Config(100).Rules, Asker: "ann-id",
		Seats: []PairedSeat{{Identity: "ann-id", Name: "Ann"}, {Identity: "ben-id", Name: "Ben"}}})
	if err != nil {
		t.Fatal(err)
	}
	pa := f.principal(seated.Token)
	pb := &auth.Principal{Identity: "ben-id"} // as Ben's session stands for him

	type answer struct {
		res SetupResult
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := f.s.Setup(ctx, pa, seated.Table, SetupRequest{Auto: true, Wait: true})
		done <- answer{res, err}
	}()
	// Ben leaves once Ann's setup is in and she waits.
	tb, err := f.s.table(ctx, seated.Table)
	if err != nil {
		t.Fatal(err)
	}
	servertest.Eventually(t, 10*time.Second, "Ann's setup to wait", func() bool {
		tb.mu.Lock()
		defer tb.unlock()
		return tb.watchers > 0
	})
	if left, err := f.s.Leave(ctx, pb, seated.Table); err != nil || !left.Cancelled {
		t.Fatalf("Ben leaves: %+v, %v", left, err)
	}
	a := <-done
	if refuse.Status(a.err) != http.StatusGone || !strings.Contains(a.err.Error(), "Ben left before the game began") {
		t.Fatalf("Ann's wait after Ben left: %+v, %v; want 410 saying Ben left", a.res, a.err)
	}
}
