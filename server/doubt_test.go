package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"

	"parlour/store"
)

// lostAnswer is a store whose AppendMove of move seq commits and then
// reports a failure, as when PostgreSQL's connection breaks in the
// instant after a commit.
type lostAnswer struct {
	store.Store
	seq  int
	lost atomic.Bool
}

func (l *lostAnswer) AppendMove(ctx context.Context, id string, m store.Move, u *store.Update) error {
	if err := l.Store.AppendMove(ctx, id, m, u); err != nil {
		return err
	}
	if m.Seq == l.seq && l.lost.CompareAndSwap(false, true) {
		return errors.New("the connection broke as the commit's answer came")
	}
	return nil
}

// TestMoveStoredButAnswerLost: the write of a move is committed but its
// answer lost. The player is told 503; the table then finds the move in
// the store at its next move and takes it, rather than refuse every
// later move; a retry made against the old version is answered as made
// (repeated), and makes nothing; a different move at that version is
// refused; the record holds each move once and reads the same after a
// restart.
func TestMoveStoredButAnswerLost(t *testing.T) {
	EachStore(t, func(t *testing.T, k StoreKind) {
		ctx := context.Background()
		f := &fixture{t: t, dir: t.TempDir(), kind: &k, where: k.Fresh(t)}
		f.wrap = func(st store.Store) store.Store { return &lostAnswer{Store: st, seq: 2} }
		f.open()
		t.Cleanup(f.close)
		a, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open"}, Name: "Ann"})
		if err != nil {
			t.Fatal(err)
		}
		b, err := f.s.Join(ctx, nil, a.Table, JoinRequest{Name: "Ben"})
		if err != nil {
			t.Fatal(err)
		}
		pa, pb := f.principal(a.Token), f.principal(b.Token)
		f.s.Setup(ctx, pa, a.Table, SetupRequest{Setup: setupOf(41)})
		f.s.Setup(ctx, pb, a.Table, SetupRequest{Setup: setupOf(42)})
		if _, err := f.s.Move(ctx, pa, a.Table, MoveRequest{Move: "guess 50"}); err != nil {
			t.Fatal(err)
		}
		before, _ := f.s.View(ctx, pb, a.Table)
		v := before.Version
		_, err = f.s.Move(ctx, pb, a.Table, MoveRequest{Move: "guess 50", Version: &v})
		wantStatus(t, err, http.StatusServiceUnavailable)
		if _, err := f.s.Move(ctx, pa, a.Table, MoveRequest{Move: "guess 25"}); err != nil {
			t.Fatalf("Ann's move after Ben's lost answer: %v", err)
		}
		if res, err := f.s.Move(ctx, pb, a.Table, MoveRequest{Move: "guess 50", Version: &v}); err != nil || !res.Repeated || res.Version != v+1 {
			t.Fatalf("Ben's move asked again at version %d: %+v, %v; want it answered as made at %d", v, res, err, v+1)
		}
		_, err = f.s.Move(ctx, pb, a.Table, MoveRequest{Move: "guess 51", Version: &v})
		wantStatus(t, err, http.StatusConflict)
		if _, err := f.s.Move(ctx, pb, a.Table, MoveRequest{Move: "guess 75"}); err != nil {
			t.Fatalf("Ben's next move: %v", err)
		}
		want := []string{"guess 50", "guess 50", "guess 25", "guess 75"}
		check := func(when string) {
			t.Helper()
			rec, err := f.s.Record(ctx, pa, a.Table)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range rec.Moves {
				got = append(got, m.By+" "+m.Move)
			}
			raw, _ := json.Marshal(got)
			if len(rec.Moves) != len(want) {
				t.Fatalf("%s: the record holds %s, want %q", when, raw, want)
			}
			for i, m := range rec.Moves {
				if m.Move != want[i] || m.By != []string{"Ann", "Ben"}[i%2] {
					t.Fatalf("%s: the record holds %s, want %q by Ann and Ben in turn", when, raw, want)
				}
			}
			u, _ := f.s.View(ctx, pa, a.Table)
			if u.Version != before.Version+3 || len(u.View.(guessView).Tried) != 2 {
				t.Fatalf("%s: version %d (want %d), Ann's view %+v", when, u.Version, before.Version+3, u.View)
			}
		}
		check("before a restart")
		f.restart()
		pa = f.principal(a.Token)
		check("after a restart")
	})
}
