package tournament_test

import (
	"context"
	"os"
	"testing"
	"time"

	"parlour/server/internal/servertest"
	"parlour/server/tournament"
	"parlour/store"
)

func TestMain(m *testing.M) { os.Exit(servertest.Main(m)) }

// TestStoreLease: on PostgreSQL, one node at a time holds an event: the
// other is refused while the lease lasts, takes it with a higher epoch
// once it is let go, and the first is then refused in turn; a table's
// lease and an event's of the same id are apart.
func TestStoreLease(t *testing.T) {
	t.Parallel()
	k := servertest.StoreKinds()[1]
	st, _ := k.OpenFresh(t)
	ls, ok := st.(store.Leases)
	if !ok {
		t.Fatalf("%s keeps no leases", k.Name)
	}
	ctx := context.Background()
	a := tournament.StoreLease{Leases: ls, Node: "a", TTL: time.Minute}
	b := tournament.StoreLease{Leases: ls, Node: "b", TTL: time.Minute}
	ea, ok, err := a.Hold(ctx, "ev1")
	if err != nil || !ok {
		t.Fatalf("a holds ev1: %v %v", ok, err)
	}
	if again, ok, err := a.Hold(ctx, "ev1"); err != nil || !ok || again != ea {
		t.Fatalf("a renews ev1: epoch %d (was %d), %v %v", again, ea, ok, err)
	}
	if _, ok, err := b.Hold(ctx, "ev1"); err != nil || ok {
		t.Fatalf("b holds ev1 while a does: %v %v", ok, err)
	}
	if _, err := ls.AcquireLease(ctx, "ev1", "b", time.Minute); err != nil {
		t.Fatalf("a table called ev1 is leased apart from the event: %v", err)
	}
	b.Release(ctx, "ev1") // not b's: nothing happens
	if _, ok, _ := a.Hold(ctx, "ev1"); !ok {
		t.Fatal("b's release let a's lease go")
	}
	a.Release(ctx, "ev1")
	eb, ok, err := b.Hold(ctx, "ev1")
	if err != nil || !ok || eb <= ea {
		t.Fatalf("b takes ev1 once let go: epoch %d (a's %d), %v %v", eb, ea, ok, err)
	}
	if _, ok, _ := a.Hold(ctx, "ev1"); ok {
		t.Fatal("a holds ev1 again while b does")
	}
}
