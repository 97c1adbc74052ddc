package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"

	"parlour/server/internal/servertest"
	"parlour/server/table"
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
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		ctx := context.Background()
		f := &fixture{t: t, dir: t.TempDir(), kind: &k, where: k.Fresh(t)}
		f.wrap = func(st store.Store) store.Store { return &lostAnswer{Store: st, seq: 2} }
		f.open()
		t.Cleanup(f.close)
		a, pa, pb := f.annAndBen(ctx)
		f.s.Setup(ctx, pa, a.Table, table.SetupRequest{Setup: setupOf(41)})
		f.s.Setup(ctx, pb, a.Table, table.SetupRequest{Setup: setupOf(42)})
		if _, err := f.s.Move(ctx, pa, a.Table, table.MoveRequest{Move: "guess 50"}); err != nil {
			t.Fatal(err)
		}
		before, _ := f.s.View(ctx, pb, a.Table)
		v := before.Version
		_, err := f.s.Move(ctx, pb, a.Table, table.MoveRequest{Move: "guess 50", Version: &v})
		wantStatus(t, err, http.StatusServiceUnavailable)
		if _, err := f.s.Move(ctx, pa, a.Table, table.MoveRequest{Move: "guess 25"}); err != nil {
			t.Fatalf("Ann's move after Ben's lost answer: %v", err)
		}
		if res, err := f.s.Move(ctx, pb, a.Table, table.MoveRequest{Move: "guess 50", Version: &v}); err != nil || !res.Repeated || res.Version != v+1 {
			t.Fatalf("Ben's move asked again at version %d: %+v, %v; want it answered as made at %d", v, res, err, v+1)
		}
		_, err = f.s.Move(ctx, pb, a.Table, table.MoveRequest{Move: "guess 51", Version: &v})
		wantStatus(t, err, http.StatusConflict)
		if _, err := f.s.Move(ctx, pb, a.Table, table.MoveRequest{Move: "guess 75"}); err != nil {
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
			if u.Version != before.Version+3 || len(u.View.(servertest.GuessView).Tried) != 2 {
				t.Fatalf("%s: version %d (want %d), Ann's view %+v", when, u.Version, before.Version+3, u.View)
			}
		}
		check("before a restart")
		f.restart()
		pa = f.principal(a.Token)
		check("after a restart")
	})
}

// TestMoveAskedAgain: a move conditional on a version, asked again after
// it was made (its answer was lost), is answered as made, with the same
// version and nothing changed; a different move, or another seat's, at
// that version is refused as stale.
func TestMoveAskedAgain(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv := startServer(t, f, generous)
	a, ann, ben := annAndBen(t, srv.URL)
	for _, c := range []*client{ann, ben} {
		if st, body := c.do("POST", "/api/v1/tables/"+a.Table+"/setup", `{"auto": true}`, nil); st != 200 {
			t.Fatalf("setup: %d %s", st, body)
		}
	}
	var u table.Update
	ann.do("GET", "/api/v1/tables/"+a.Table, nil, &u)
	v := u.Version
	move := fmt.Sprintf(`{"move": "guess 1", "version": %d}`, v)
	var first, again table.MoveResult
	if st, body := ann.do("POST", "/api/v1/tables/"+a.Table+"/moves", move, &first); st != 200 || first.Repeated {
		t.Fatalf("the move: %d %s", st, body)
	}
	if st, body := ann.do("POST", "/api/v1/tables/"+a.Table+"/moves", move, &again); st != 200 || !again.Repeated || again.Version != first.Version || again.Status != first.Status {
		t.Fatalf("the same move asked again: %d %s; want 200, repeated, version %d", st, body, first.Version)
	}
	for _, tc := range []struct {
		what, body string
		c          *client
	}{
		{"another move at the same version", fmt.Sprintf(`{"move": "guess 2", "version": %d}`, v), ann},
		{"the same move by another seat", move, ben},
		{"the move at an earlier version", fmt.Sprintf(`{"move": "guess 1", "version": %d}`, v-1), ann},
	} {
		if st, body := tc.c.do("POST", "/api/v1/tables/"+a.Table+"/moves", tc.body, nil); st != 409 {
			t.Errorf("%s: %d %s, want 409", tc.what, st, body)
		}
	}
	var after table.Update
	ann.do("GET", "/api/v1/tables/"+a.Table, nil, &after)
	if after.Version != first.Version {
		t.Errorf("the table is at version %d after the repeats, want %d", after.Version, first.Version)
	}
	var rec struct{ Moves []struct{ Move string } }
	ann.do("GET", "/api/v1/tables/"+a.Table+"/record", nil, &rec)
	if len(rec.Moves) != 1 {
		t.Errorf("the record holds %d moves, want 1", len(rec.Moves))
	}
}

// annAndBen makes a two-seat guess table on the server at base for Ann
// and seats Ben at it, and returns the table as Ann was seated and a
// client acting for each.
func annAndBen(t *testing.T, base string) (table.Seated, *client, *client) {
	t.Helper()
	ann, ben := &client{t: t, base: base}, &client{t: t, base: base}
	var a, b table.Seated
	if st, body := ann.do("POST", "/api/v1/tables", `{"game": "guess", "seats": ["me", "open"], "name": "Ann"}`, &a); st != 201 {
		t.Fatalf("create: %d %s", st, body)
	}
	if st, body := ben.do("POST", "/api/v1/tables/"+a.Table+"/join", `{"name": "Ben"}`, &b); st != 200 {
		t.Fatalf("join: %d %s", st, body)
	}
	ann.token, ben.token = a.Token, b.Token
	return a, ann, ben
}

// abortLost is a store whose write of an abort commits and then reports
// a failure, as when PostgreSQL's connection breaks in the instant after
// a commit.
type abortLost struct {
	store.Store
	lost atomic.Bool
}

func (l *abortLost) Write(ctx context.Context, b store.Batch) error {
	if err := l.Store.Write(ctx, b); err != nil {
		return err
	}
	if u := b.Update; u != nil && u.End != nil && u.Status == store.Finished && l.lost.CompareAndSwap(false, true) {
		return errors.New("the connection broke as the commit's answer came")
	}
	return nil
}

// TestAbortStoredButAnswerLost: the write of an abort is committed but
// its answer lost. The player is told 503; the table then finds the
// abort in the store at the next request and takes it, rather than play
// on past an end the store already holds: the next move is refused as
// after the end, and the record, before and after a restart, holds the
// abort and no move after it.
func TestAbortStoredButAnswerLost(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		ctx := context.Background()
		f := &fixture{t: t, dir: t.TempDir(), kind: &k, where: k.Fresh(t)}
		f.wrap = func(st store.Store) store.Store { return &abortLost{Store: st} }
		f.open()
		t.Cleanup(f.close)
		a, pa, pb := f.annAndBen(ctx)
		f.s.Setup(ctx, pa, a.Table, table.SetupRequest{Setup: setupOf(41)})
		f.s.Setup(ctx, pb, a.Table, table.SetupRequest{Setup: setupOf(42)})
		if _, err := f.s.Move(ctx, pa, a.Table, table.MoveRequest{Move: "guess 50"}); err != nil {
			t.Fatal(err)
		}
		_, err := f.s.Abort(ctx, pa, a.Table)
		wantStatus(t, err, http.StatusServiceUnavailable)
		_, err = f.s.Move(ctx, pb, a.Table, table.MoveRequest{Move: "guess 50"})
		wantStatus(t, err, http.StatusConflict)
		check := func(when string) {
			t.Helper()
			rec, err := f.s.Record(ctx, pa, a.Table)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Aborted == nil || rec.Aborted.By != "Ann" || len(rec.Moves) != 1 {
				t.Fatalf("%s: the record holds %d moves, aborted %+v; want Ann's one move and her abort", when, len(rec.Moves), rec.Aborted)
			}
			u, _ := f.s.View(ctx, pa, a.Table)
			if u.Table.Status != store.Finished || u.Table.Result == nil || u.Table.Result.Status != "aborted" {
				t.Fatalf("%s: the table is %s, result %+v", when, u.Table.Status, u.Table.Result)
			}
		}
		check("before a restart")
		f.restart()
		pa = f.principal(a.Token)
		check("after a restart")
	})
}
