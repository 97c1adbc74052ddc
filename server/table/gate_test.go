package table

import (
	"context"
	"net/http"
	"testing"

	"parlour/server/auth"
	"parlour/server/refuse"
)

// TestReadGate: every read of a table asks the gate, with whether the
// asker sits at it, and a read the gate shuts is refused whichever way it
// comes; the table's own player reads on.
func TestReadGate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	shut := ""
	f := &fixture{t: t, dir: t.TempDir(), shut: func(_ context.Context, _ *auth.Principal, r Reading) error {
		if r.Table == shut && !r.Seated {
			return refuse.Forbidden("shut")
		}
		return nil
	}}
	f.open()
	t.Cleanup(f.close)
	a, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open"}, Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	shut = a.Table
	ann := f.principal(a.Token)
	reads := []struct {
		name string
		read func(p *auth.Principal) error
	}{
		{"view", func(p *auth.Principal) error { _, err := f.s.View(ctx, p, a.Table); return err }},
		{"watch", func(p *auth.Principal) error {
			w, err := f.s.Watch(ctx, p, a.Table, -1)
			if err == nil {
				w.Close()
			}
			return err
		}},
		{"record", func(p *auth.Principal) error { _, err := f.s.Record(ctx, p, a.Table); return err }},
		{"chat", func(p *auth.Principal) error { _, err := f.s.ChatSince(ctx, p, a.Table, 0, 10); return err }},
		{"another node's update", func(p *auth.Principal) error {
			_, _, _, err := f.s.RemoteUpdate(ctx, p, a.Table, -1, -1, false, false)
			return err
		}},
		{"may read", func(p *auth.Principal) error { return f.s.MayRead(ctx, p, a.Table, false) }},
	}
	for _, r := range reads {
		if err := r.read(nil); refuse.Status(err) != http.StatusForbidden {
			t.Errorf("%s by a spectator: %v, want the gate's 403", r.name, err)
		}
		if err := r.read(ann); err != nil {
			t.Errorf("%s by the table's own player: %v", r.name, err)
		}
	}
}
