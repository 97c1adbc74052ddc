package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"parlour/store"
)

// tableTests are about store.Store itself: identities, credentials,
// tables, moves, batches.
func tableTests() []test {
	return []test{
		{"TablesAndMoves", testTablesAndMoves},
		{"Identities", testIdentities},
		{"ConcurrentAppends", testConcurrentAppends},
		{"ConflictInBatch", testConflictInBatch},
		{"WriteIsAllOrNothing", testWriteIsAllOrNothing},
		{"ClosedStore", testClosedStore},
		{"Recent", testRecent},
	}
}

// testTablesAndMoves: a table is created once, updated, gets its moves in
// order (a number stored twice is refused), and everything acknowledged is
// there after a restart; a finished table leaves the live ones, and so
// does a cancelled one.
func testTablesAndMoves(t *testing.T, e *env) {
	ctx := context.Background()
	s := e.s
	at := now()
	if err := s.CreateTable(ctx, store.Table{ID: "t1", Game: "quizl", Status: store.Open, Created: at, Updated: at, Meta: []byte(`{"a":1}`)}); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTable(ctx, store.Table{ID: "t1", Game: "quizl", Status: store.Open, Meta: []byte(`{}`)}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("second create of t1: got %v, want ErrConflict", err)
	}
	if err := s.UpdateTable(ctx, "t1", store.Playing, []byte(`{"a":2}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateTable(ctx, "nope", store.Playing, []byte(`{}`)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("update of missing table: got %v", err)
	}
	for i := 1; i <= 3; i++ {
		if err := s.AppendMove(ctx, "t1", store.Move{Seq: i, Seat: i % 2, Text: fmt.Sprint("m", i), At: at}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AppendMove(ctx, "t1", store.Move{Seq: 3, Text: "again", At: at}, nil); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("repeated seq: got %v", err)
	}
	if err := s.AppendMove(ctx, "t1", store.Move{Seq: 2, Text: "again", At: at}, &store.Update{Status: store.Finished, Meta: []byte(`{"over":1}`)}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("repeated seq with an update: got %v", err)
	}
	// The failed writes must not have spoiled anything (the refused
	// update with them); reopen to be sure everything acknowledged is
	// stored.
	s = e.reopen()
	got, err := s.Table(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != store.Playing || string(got.Meta) != `{"a":2}` || len(got.Moves) != 3 || got.Moves[2].Text != "m3" || got.Moves[1].Seat != 0 || got.Game != "quizl" {
		t.Fatalf("reopened table = %+v", got)
	}
	if !got.Created.Equal(at) || !got.Moves[0].At.Equal(at) || got.Updated.Before(at) {
		t.Errorf("times: created %v, first move %v, updated %v; want %v, %v, not before it", got.Created, got.Moves[0].At, got.Updated, at, at)
	}
	live, err := s.LiveTables(ctx)
	if err != nil || len(live) != 1 || len(live[0].Moves) != 3 || live[0].Moves[0].Text != "m1" {
		t.Fatalf("LiveTables = %+v, %v", live, err)
	}
	if err := s.AppendMove(ctx, "t1", store.Move{Seq: 4, Text: "last", At: at}, &store.Update{Status: store.Finished, Meta: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	live, err = s.LiveTables(ctx)
	if err != nil || len(live) != 0 {
		t.Fatalf("finished table still live: %+v, %v", live, err)
	}
	// A table given up before play began leaves the live ones too, and
	// is still there to be read.
	if err := s.CreateTable(ctx, store.Table{ID: "t2", Game: "quizl", Status: store.Open, Created: at, Updated: at, Meta: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if live, err := s.LiveTables(ctx); err != nil || len(live) != 1 || live[0].ID != "t2" {
		t.Fatalf("LiveTables with an open table = %+v, %v", live, err)
	}
	if err := s.UpdateTable(ctx, "t2", store.Cancelled, []byte(`{"cancelled":true}`)); err != nil {
		t.Fatal(err)
	}
	if live, err := s.LiveTables(ctx); err != nil || len(live) != 0 {
		t.Fatalf("cancelled table still live: %+v, %v", live, err)
	}
	if got, err := s.Table(ctx, "t2"); err != nil || got.Status != store.Cancelled {
		t.Fatalf("the cancelled table: %+v, %v", got, err)
	}
	if store.Cancelled.Live() || store.Finished.Live() || !store.Open.Live() || !store.Setup.Live() || !store.Playing.Live() {
		t.Fatal("Status.Live is wrong")
	}
	rec, err := s.Recent(ctx, store.Finished, 10)
	if err != nil || len(rec) != 1 || rec[0].ID != "t1" || len(rec[0].Moves) != 0 || rec[0].Status != store.Finished {
		t.Fatalf("Recent = %+v, %v", rec, err)
	}
	if got, err := s.Table(ctx, "t1"); err != nil || len(got.Moves) != 4 || got.Moves[3].Text != "last" {
		t.Fatalf("the finished table: %+v, %v", got, err)
	}
	if _, err := s.Table(ctx, "zz"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("missing table: %v", err)
	}
}

// testIdentities: an identity with its credentials, a credential stored
// once, none of an unknown identity.
func testIdentities(t *testing.T, e *env) {
	ctx := context.Background()
	s := e.s
	at := now()
	h := []byte("0123456789abcdef0123456789abcdef")
	if err := s.CreateIdentity(ctx, store.Identity{ID: "i1", Name: "Ann", Created: at}, store.Credential{Hash: h, Identity: "i1"}); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateIdentity(ctx, store.Identity{ID: "i1", Name: "Other", Created: at}, store.Credential{Hash: []byte("other"), Identity: "i1"}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("an identity created twice: %v, want ErrConflict", err)
	}
	if _, err := s.Credential(ctx, []byte("other")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the refused identity's credential was stored: %v", err)
	}
	h2 := []byte("another-hash-of-thirty-two-bytes")
	if err := s.AddCredential(ctx, store.Credential{Hash: h2, Identity: "i1", Table: "t9", Seat: 2}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddCredential(ctx, store.Credential{Hash: h2, Identity: "i1"}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("duplicate credential: %v", err)
	}
	if err := s.AddCredential(ctx, store.Credential{Hash: []byte("x"), Identity: "nobody"}); err == nil {
		t.Fatal("credential of a missing identity was stored")
	}
	s = e.reopen()
	c, err := s.Credential(ctx, h2)
	if err != nil || c.Identity != "i1" || c.Table != "t9" || c.Seat != 2 || string(c.Hash) != string(h2) {
		t.Fatalf("Credential = %+v, %v", c, err)
	}
	if c, err := s.Credential(ctx, h); err != nil || c.Identity != "i1" || c.Table != "" {
		t.Fatalf("first credential = %+v, %v", c, err)
	}
	if _, err := s.Credential(ctx, []byte("unknown")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown credential: %v", err)
	}
	id, err := s.Identity(ctx, "i1")
	if err != nil || id.Name != "Ann" || !id.Created.Equal(at) || id.Account {
		t.Fatalf("Identity = %+v, %v", id, err)
	}
	if _, err := s.Identity(ctx, "nobody"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown identity: %v", err)
	}
}

// testConcurrentAppends: many tables' moves appended at once all land
// whole and in order (a store may gather them into few transactions).
func testConcurrentAppends(t *testing.T, e *env) {
	ctx := context.Background()
	s := e.s
	const tables, moves = 20, 25
	for i := range tables {
		if err := s.CreateTable(ctx, store.Table{ID: fmt.Sprint("t", i), Game: "g", Status: store.Playing, Created: now(), Updated: now(), Meta: []byte("{}")}); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, tables)
	for i := range tables {
		id := fmt.Sprint("t", i)
		wg.Go(func() {
			for m := 1; m <= moves; m++ {
				if err := s.AppendMove(ctx, id, store.Move{Seq: m, Seat: m % 2, Text: fmt.Sprint(id, "-", m), At: now()}, nil); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	live, err := s.LiveTables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(live) != tables {
		t.Fatalf("%d live tables, want %d", len(live), tables)
	}
	for _, tb := range live {
		if len(tb.Moves) != moves {
			t.Fatalf("table %s has %d moves, want %d", tb.ID, len(tb.Moves), moves)
		}
		for i, m := range tb.Moves {
			if want := fmt.Sprint(tb.ID, "-", i+1); m.Seq != i+1 || m.Seat != (i+1)%2 || m.Text != want {
				t.Fatalf("table %s move %d = %+v, want seq %d seat %d text %q", tb.ID, i, m, i+1, (i+1)%2, want)
			}
		}
	}
}

// testConflictInBatch sends a move already stored among many good ones
// made at the same moment (a store that gathers appends puts them in one
// transaction): the duplicate alone is refused with ErrConflict and every
// other move is stored.
func testConflictInBatch(t *testing.T, e *env) {
	ctx := context.Background()
	s := e.s
	const tables = 40
	errs := make([]error, tables)
	var wg sync.WaitGroup
	for i := range tables {
		wg.Go(func() {
			errs[i] = s.CreateTable(ctx, store.Table{ID: fmt.Sprint("t", i), Game: "g", Status: store.Playing, Created: now(), Updated: now(), Meta: []byte("{}")})
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendMove(ctx, "t7", store.Move{Seq: 1, Text: "first", At: now()}, nil); err != nil {
		t.Fatal(err)
	}
	// t9's first move twice at once: exactly one is stored.
	var twice [2]error
	for i := range tables {
		wg.Go(func() {
			errs[i] = s.AppendMove(ctx, fmt.Sprint("t", i), store.Move{Seq: 1, Seat: 1, Text: fmt.Sprint("m", i), At: now()}, nil)
		})
	}
	for i := range twice {
		wg.Go(func() {
			twice[i] = s.AppendMove(ctx, "t39", store.Move{Seq: 2, Seat: 0, Text: fmt.Sprint("race", i), At: now()}, nil)
		})
	}
	wg.Wait()
	for i, err := range errs {
		switch {
		case i == 7 && !errors.Is(err, store.ErrConflict):
			t.Errorf("the duplicate move of t7: got %v, want ErrConflict", err)
		case i != 7 && err != nil:
			t.Errorf("move of t%d: %v", i, err)
		}
	}
	won := -1
	for i, err := range twice {
		switch {
		case err == nil && won < 0:
			won = i
		case err == nil:
			t.Errorf("both of two appends of one move number were stored")
		case !errors.Is(err, store.ErrConflict):
			t.Errorf("the losing append of a race: %v, want ErrConflict", err)
		}
	}
	live, err := s.LiveTables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range live {
		want := []string{"m" + tb.ID[1:]}
		switch tb.ID {
		case "t7":
			want = []string{"first"}
		case "t39":
			want = append(want, fmt.Sprint("race", won))
		}
		var texts []string
		for _, m := range tb.Moves {
			texts = append(texts, m.Text)
		}
		if !equal(texts, want) {
			t.Errorf("table %s holds %q, want %q", tb.ID, texts, want)
		}
	}
	if len(live) != tables {
		t.Errorf("%d live tables, want %d", len(live), tables)
	}
}

// testWriteIsAllOrNothing stores a batch whole, and a batch with one bad
// write not at all.
func testWriteIsAllOrNothing(t *testing.T, e *env) {
	ctx := context.Background()
	s := e.s
	at := now()
	good := store.Batch{
		Identities:  []store.Identity{{ID: "g1", Name: "Guest", Created: at}},
		NewTable:    &store.Table{ID: "t1", Game: "quizl", Status: store.Open, Created: at, Updated: at, Meta: []byte(`{}`)},
		Credentials: []store.Credential{{Hash: []byte("seat-token-hash"), Identity: "g1", Table: "t1", Seat: 0}},
	}
	if err := s.Write(ctx, good); err != nil {
		t.Fatal(err)
	}
	if c, err := s.Credential(ctx, []byte("seat-token-hash")); err != nil || c.Identity != "g1" || c.Table != "t1" {
		t.Fatalf("Credential = %+v, %v", c, err)
	}
	if err := s.Write(ctx, store.Batch{Update: &store.TableUpdate{ID: "t1", Status: store.Setup, Meta: []byte(`{"b":1}`)}}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct {
		name string
		b    store.Batch
		want error
	}{
		// The same credential again: the whole batch must fail, the
		// guest and the update with it.
		{"a taken credential", store.Batch{
			Identities:  []store.Identity{{ID: "g2", Name: "Other", Created: at}},
			Update:      &store.TableUpdate{ID: "t1", Status: store.Playing, Meta: []byte(`{"changed":true}`)},
			Credentials: []store.Credential{{Hash: []byte("seat-token-hash"), Identity: "g2", Table: "t1", Seat: 1}},
		}, store.ErrConflict},
		{"a taken table id", store.Batch{
			Identities: []store.Identity{{ID: "g2", Name: "Other", Created: at}},
			NewTable:   &store.Table{ID: "t1", Game: "salvo", Status: store.Open, Created: at, Updated: at, Meta: []byte(`{}`)},
		}, store.ErrConflict},
		{"an update of a missing table", store.Batch{
			Identities:  []store.Identity{{ID: "g2", Name: "Other", Created: at}},
			Update:      &store.TableUpdate{ID: "none", Status: store.Playing, Meta: []byte(`{}`)},
			Credentials: []store.Credential{{Hash: []byte("g2-token"), Identity: "g2"}},
		}, store.ErrNotFound},
		{"a taken identity", store.Batch{
			Identities: []store.Identity{{ID: "g3", Name: "Third", Created: at}, {ID: "g1", Name: "Again", Created: at}},
			NewTable:   &store.Table{ID: "t2", Game: "salvo", Status: store.Open, Created: at, Updated: at, Meta: []byte(`{}`)},
		}, store.ErrConflict},
	} {
		if err := s.Write(ctx, bad.b); !errors.Is(err, bad.want) {
			t.Errorf("a batch with %s: %v, want %v", bad.name, err, bad.want)
		}
	}
	s = e.reopen()
	for _, id := range []string{"g2", "g3"} {
		if _, err := s.Identity(ctx, id); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a failed batch's identity %s was stored: %v", id, err)
		}
	}
	if _, err := s.Credential(ctx, []byte("g2-token")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a failed batch's credential was stored: %v", err)
	}
	if _, err := s.Table(ctx, "t2"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a failed batch's table was stored: %v", err)
	}
	if tb, err := s.Table(ctx, "t1"); err != nil || tb.Status != store.Setup || string(tb.Meta) != `{"b":1}` || tb.Game != "quizl" {
		t.Errorf("a failed batch's update was stored: %+v, %v", tb, err)
	}
	if id, err := s.Identity(ctx, "g1"); err != nil || id.Name != "Guest" {
		t.Errorf("the good batch's guest: %+v, %v", id, err)
	}
}

// testClosedStore: a closed store refuses writes; closing twice is
// harmless.
func testClosedStore(t *testing.T, e *env) {
	ctx := context.Background()
	s := e.s
	if err := s.CreateTable(ctx, store.Table{ID: "t1", Game: "g", Status: store.Playing, Created: now(), Updated: now(), Meta: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateTable(ctx, "t1", store.Open, []byte("{}")); err == nil {
		t.Error("an update to a closed store succeeded")
	}
	if err := s.AppendMove(ctx, "t1", store.Move{Seq: 1, Text: "x", At: now()}, nil); err == nil {
		t.Error("an append to a closed store succeeded")
	}
	if err := s.Close(); err != nil {
		t.Errorf("closing twice: %v", err)
	}
}

// testRecent: tables of a status, newest first, at most limit.
func testRecent(t *testing.T, e *env) {
	ctx := context.Background()
	s := e.s
	at := now()
	for i, st := range []store.Status{store.Open, store.Finished, store.Open, store.Open, store.Playing} {
		c := at.Add(time.Duration(i) * time.Second)
		if err := s.CreateTable(ctx, store.Table{ID: fmt.Sprint("t", i), Game: "g", Status: st, Created: c, Updated: c, Meta: []byte(fmt.Sprint(i))}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Recent(ctx, store.Open, 2)
	if err != nil || len(got) != 2 || got[0].ID != "t3" || got[1].ID != "t2" || string(got[0].Meta) != "3" || !got[1].Created.Equal(at.Add(2*time.Second)) {
		t.Fatalf("Recent(open, 2) = %+v, %v", got, err)
	}
	if got, err := s.Recent(ctx, store.Setup, 10); err != nil || len(got) != 0 {
		t.Fatalf("Recent(setup) = %+v, %v", got, err)
	}
}
