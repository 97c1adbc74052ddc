package storetest

import (
	"context"
	"testing"
	"time"

	"parlour/store"
)

// testRelations: follows and blocks are stored once each, read from
// either end oldest first, kept apart by kind, deleted one at a time,
// kept over a restart, and go with an account when it is deleted.
func testRelations(t *testing.T, e *env) {
	ctx := context.Background()
	rs := as[store.Relations](t, e.s)
	at := now()
	steps := []struct {
		kind     store.Relation
		from, to string
		want     bool
	}{
		{store.Follow, "ann", "bob", true},
		{store.Follow, "ann", "cat", true},
		{store.Follow, "ann", "bob", false}, // again: nothing new
		{store.Follow, "cat", "bob", true},
		{store.Block, "bob", "ann", true},
		{store.Block, "bob", "ann", false},
	}
	for i, s := range steps {
		added, err := rs.Relate(ctx, s.kind, s.from, s.to, at.Add(time.Duration(i)*time.Second))
		if err != nil || added != s.want {
			t.Fatalf("Relate(%s, %s, %s) = %v, %v; want %v", s.kind, s.from, s.to, added, err, s.want)
		}
	}
	ends := func(rel []store.Related, err error, to bool) []string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range rel {
			if to {
				out = append(out, r.To)
			} else {
				out = append(out, r.From)
			}
		}
		return out
	}
	tos := func(rel []store.Related, err error) []string { t.Helper(); return ends(rel, err, true) }
	froms := func(rel []store.Related, err error) []string { t.Helper(); return ends(rel, err, false) }
	check := func(when string) {
		t.Helper()
		got, err := rs.RelatedFrom(ctx, store.Follow, "ann", 10)
		if names := tos(got, err); !equal(names, []string{"bob", "cat"}) {
			t.Errorf("%s: ann follows %q, want bob, cat", when, names)
		}
		if len(got) > 0 && !got[0].Created.Equal(at) {
			t.Errorf("%s: ann follows bob since %v, want %v", when, got[0].Created, at)
		}
		if names := tos(rs.RelatedFrom(ctx, store.Follow, "ann", 1)); !equal(names, []string{"bob"}) {
			t.Errorf("%s: ann follows %q with a limit of 1, want bob", when, names)
		}
		if names := froms(rs.RelatedTo(ctx, store.Follow, "bob", 10)); !equal(names, []string{"ann", "cat"}) {
			t.Errorf("%s: bob's followers are %q, want ann, cat", when, names)
		}
		if names := froms(rs.RelatedTo(ctx, store.Block, "ann", 10)); !equal(names, []string{"bob"}) {
			t.Errorf("%s: ann is blocked by %q, want bob", when, names)
		}
		if names := tos(rs.RelatedFrom(ctx, store.Block, "ann", 10)); len(names) != 0 {
			t.Errorf("%s: ann blocks %q, want nobody (the kinds are apart)", when, names)
		}
		for _, c := range []struct {
			a, b string
			want bool
		}{{"ann", "bob", true}, {"bob", "ann", true}, {"ann", "cat", false}, {"cat", "bob", false}} {
			if got, err := rs.Blocking(ctx, c.a, c.b); err != nil || got != c.want {
				t.Errorf("%s: Blocking(%s, %s) = %v, %v; want %v", when, c.a, c.b, got, err, c.want)
			}
		}
	}
	check("stored")
	rs = as[store.Relations](t, e.reopen())
	check("after a restart")

	if removed, err := rs.Unrelate(ctx, store.Follow, "ann", "bob"); err != nil || !removed {
		t.Errorf("Unrelate(ann, bob) = %v, %v; want true", removed, err)
	}
	if removed, err := rs.Unrelate(ctx, store.Follow, "ann", "bob"); err != nil || removed {
		t.Errorf("Unrelate(ann, bob) again = %v, %v; want false", removed, err)
	}
	if names := tos(rs.RelatedFrom(ctx, store.Follow, "ann", 10)); !equal(names, []string{"cat"}) {
		t.Errorf("after the unfollow ann follows %q, want cat", names)
	}
	if b, err := rs.Blocking(ctx, "ann", "bob"); err != nil || !b {
		t.Errorf("an unfollow undid the block: %v, %v", b, err)
	}
}

// testRelationsOfDeleted: deleting an account deletes its follows and
// blocks, both those it made and those made of it, and no others.
func testRelationsOfDeleted(t *testing.T, e *env) {
	ctx := context.Background()
	ps := as[store.Players](t, e.s)
	rs := as[store.Relations](t, e.s)
	at := now()
	for _, n := range []string{"Ann", "Bob", "Cat"} {
		id := "id" + lower(n)
		if _, err := ps.CreateAccount(ctx, account(id, n, at), store.Credential{Hash: []byte(id + "-session"), Identity: id}, guest(id, at)); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range []struct {
		kind     store.Relation
		from, to string
	}{{store.Follow, "idann", "idbob"}, {store.Follow, "idbob", "idann"}, {store.Block, "idcat", "idann"}, {store.Follow, "idcat", "idbob"}} {
		if _, err := rs.Relate(ctx, r.kind, r.from, r.to, at); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ps.DeleteAccount(ctx, "idann", "deleted player", nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		kind  store.Relation
		to    string
		want  []string
		about string
	}{
		{store.Follow, "idbob", []string{"idcat"}, "bob's followers"},
		{store.Block, "idann", nil, "who blocks the deleted account"},
	} {
		got, err := rs.RelatedTo(ctx, c.kind, c.to, 10)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, r := range got {
			names = append(names, r.From)
		}
		if !equal(names, c.want) {
			t.Errorf("%s: %q, want %q", c.about, names, c.want)
		}
	}
	if got, err := rs.RelatedFrom(ctx, store.Follow, "idbob", 10); err != nil || len(got) != 0 {
		t.Errorf("bob still follows %v (%v) after ann's account went", got, err)
	}
}
