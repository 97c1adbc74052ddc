package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"parlour/glicko"
	"parlour/store"
)

// playerTests are about store.Players: accounts, sessions, ratings and
// histories.
func playerTests() []test {
	return []test{
		{"Accounts", testAccounts},
		{"AccountsWithPrefix", testAccountsWithPrefix},
		{"Passwords", testPasswords},
		{"EndSessions", testEndSessions},
		{"SessionUse", testSessionUse},
		{"GameEnds", testGameEnds},
		{"RatedEndsAtOnce", testRatedEndsAtOnce},
		{"RatingsAway", testRatingsAway},
		{"AbortedEnd", testAbortedEnd},
		{"PrivateGames", testPrivateGames},
		{"DeleteAccount", testDeleteAccount},
		{"IdentityAsItChanges", testIdentityAsItChanges},
	}
}

// testIdentityAsItChanges: Identity answers what was last written, read
// again and again as a busy server does, through a guest's sign-up, a
// moderator's renaming and the account's deletion, with no restart in
// between: a store that remembers what it read must forget it when it
// changes.
func testIdentityAsItChanges(t *testing.T, e *env) {
	ctx := context.Background()
	ps := as[store.Players](t, e.s)
	at := now()
	if err := e.s.CreateIdentity(ctx, store.Identity{ID: "idb", Name: "guest b", Created: at}, store.Credential{Hash: []byte("b-guest"), Identity: "idb"}); err != nil {
		t.Fatal(err)
	}
	want := func(step, name string, acc bool) {
		t.Helper()
		for range 2 {
			if id, err := e.s.Identity(ctx, "idb"); err != nil || id.Name != name || id.Account != acc || !id.Created.Equal(at) {
				t.Fatalf("%s: Identity = %+v, %v; want %s, account %v, made at %v", step, id, err, name, acc, at)
			}
		}
	}
	want("a guest", "guest b", false)
	if _, err := ps.CreateAccount(ctx, account("idb", "Bob", at), store.Credential{Hash: []byte("bob-session"), Identity: "idb"}, nil); err != nil {
		t.Fatal(err)
	}
	want("signed up", "Bob", true)
	// A refused change changes nothing.
	if _, err := ps.CreateAccount(ctx, account("idb", "Robert", at), store.Credential{Hash: []byte("other"), Identity: "idb"}, nil); err == nil {
		t.Fatal("a second account for one identity was made")
	}
	want("after a refused sign-up", "Bob", true)
	if ms, ok := e.s.(store.Moderation); ok {
		if err := ms.RenameAccount(ctx, "idb", "Robin", "robin", nil, store.ModAction{Moderator: "mod", ModeratorName: "Mo", Action: "rename", Subject: "idb", SubjectName: "Bob", At: at}); err != nil {
			t.Fatal(err)
		}
		want("renamed", "Robin", true)
	}
	if _, err := ps.DeleteAccount(ctx, "idb", "deleted player", nil); err != nil {
		t.Fatal(err)
	}
	want("deleted", "deleted player", false)
}

func guest(id string, at time.Time) *store.Identity {
	return &store.Identity{ID: id, Name: "guest " + id, Created: at}
}

func account(id, name string, at time.Time) store.Account {
	return store.Account{Identity: id, Name: name, Key: lower(name), Hash: "$argon2id$" + id, Created: at}
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// testAccounts: an account made from a new guest or an existing identity
// takes the identity's name; a taken name or an identity with an account
// already is refused with nothing written.
func testAccounts(t *testing.T, e *env) {
	ctx := context.Background()
	ps := as[store.Players](t, e.s)
	at := now()
	if _, err := ps.CreateAccount(ctx, account("ida", "Ann", at), store.Credential{Hash: []byte("ann-session"), Identity: "ida"}, guest("ida", at)); err != nil {
		t.Fatal(err)
	}
	if err := e.s.CreateIdentity(ctx, store.Identity{ID: "idb", Name: "guest b", Created: at}, store.Credential{Hash: []byte("b-guest"), Identity: "idb"}); err != nil {
		t.Fatal(err)
	}
	if err := e.s.AddCredential(ctx, store.Credential{Hash: []byte("b-guest-2"), Identity: "idb"}); err != nil {
		t.Fatal(err)
	}
	dropped, err := ps.CreateAccount(ctx, account("idb", "Bob", at), store.Credential{Hash: []byte("bob-session"), Identity: "idb"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The guest's tokens end with the sign-up; the session is new.
	slices.SortFunc(dropped, bytes.Compare)
	if len(dropped) != 2 || string(dropped[0]) != "b-guest" || string(dropped[1]) != "b-guest-2" {
		t.Errorf("a guest's sign-up dropped %q, want its two identity tokens", dropped)
	}
	for _, h := range []string{"b-guest", "b-guest-2"} {
		if _, err := e.s.Credential(ctx, []byte(h)); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the guest's token %s after the sign-up: %v, want ErrNotFound", h, err)
		}
	}
	if c, err := e.s.Credential(ctx, []byte("bob-session")); err != nil || c.Identity != "idb" {
		t.Errorf("the new session: %+v, %v", c, err)
	}
	for _, bad := range []struct {
		name  string
		a     store.Account
		cred  []byte
		guest *store.Identity
	}{
		{"a taken name", account("idc", "ANN", at), []byte("c-session"), guest("idc", at)},
		{"an identity with an account", account("idb", "Robert", at), []byte("c-session"), nil},
		{"a taken session", account("idc", "Cat", at), []byte("bob-session"), guest("idc", at)},
		{"a missing identity", account("nobody", "Nobody", at), []byte("c-session"), nil},
	} {
		if _, err := ps.CreateAccount(ctx, bad.a, store.Credential{Hash: bad.cred, Identity: bad.a.Identity}, bad.guest); err == nil {
			t.Errorf("an account with %s was made", bad.name)
		} else if bad.name != "a missing identity" && !errors.Is(err, store.ErrConflict) {
			t.Errorf("an account with %s: %v, want ErrConflict", bad.name, err)
		}
	}
	ps = as[store.Players](t, e.reopen())
	if _, err := e.s.Identity(ctx, "idc"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a refused account's guest was stored: %v", err)
	}
	if _, err := e.s.Credential(ctx, []byte("c-session")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a refused account's session was stored: %v", err)
	}
	if id, err := e.s.Identity(ctx, "idb"); err != nil || id.Name != "Bob" || !id.Account {
		t.Errorf("the identity that became Bob: %+v, %v; want Bob's, an account's", id, err)
	}
	if c, err := e.s.Credential(ctx, []byte("bob-session")); err != nil || c.Identity != "idb" {
		t.Errorf("Bob's session: %+v, %v", c, err)
	}
	a, err := ps.AccountByKey(ctx, "ann")
	if err != nil || a.Identity != "ida" || a.Name != "Ann" || a.Hash != "$argon2id$ida" || !a.Created.Equal(at) {
		t.Errorf("AccountByKey(ann) = %+v, %v", a, err)
	}
	for _, c := range []struct {
		keys []string
		want []string // the names found, sorted
	}{
		{[]string{"ann", "bob", "nobody"}, []string{"Ann", "Bob"}},
		{[]string{"bob"}, []string{"Bob"}},
		{[]string{"Ann", "b0b", "nobody"}, nil},
		{nil, nil},
	} {
		as, err := ps.AccountsByKeys(ctx, c.keys)
		var got []string
		for _, a := range as {
			got = append(got, a.Name)
			if a.Name == "Ann" && (a.Identity != "ida" || a.Key != "ann" || a.Hash != "$argon2id$ida" || !a.Created.Equal(at)) {
				t.Errorf("AccountsByKeys(%q) gave Ann as %+v", c.keys, a)
			}
		}
		slices.Sort(got)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("AccountsByKeys(%q) = %v, %v; want %v", c.keys, got, err, c.want)
		}
	}
	if a, err := ps.AccountOf(ctx, "idb"); err != nil || a.Key != "bob" {
		t.Errorf("AccountOf(idb) = %+v, %v", a, err)
	}
	if _, err := ps.AccountByKey(ctx, "Ann"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("AccountByKey of an unfolded name: %v, want ErrNotFound", err)
	}
	if _, err := ps.AccountOf(ctx, "nobody"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("AccountOf(nobody): %v, want ErrNotFound", err)
	}
	names, err := ps.AccountNames(ctx, []string{"ida", "idb", "nobody"})
	if err != nil || len(names) != 2 || names["ida"] != "Ann" || names["idb"] != "Bob" {
		t.Errorf("AccountNames = %v, %v", names, err)
	}
	if names, err := ps.AccountNames(ctx, nil); err != nil || len(names) != 0 {
		t.Errorf("AccountNames(nil) = %v, %v", names, err)
	}
}

// testAccountsWithPrefix: the accounts whose keys begin with a prefix,
// in byte order, at most the limit; '_' and '-' are characters like any
// other, not wildcards nor ignored.
func testAccountsWithPrefix(t *testing.T, e *env) {
	ctx := context.Background()
	ps := as[store.Players](t, e.s)
	at := now()
	for i, name := range []string{"Ann", "anna", "An_ne", "An-x", "Annabel", "Bob", "anz", "ao", "Ax", "zz9"} {
		id := fmt.Sprintf("id%d", i)
		if _, err := ps.CreateAccount(ctx, account(id, name, at), store.Credential{Hash: []byte(id + "-session"), Identity: id}, guest(id, at)); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		prefix string
		limit  int
		want   []string
	}{
		{"an", 10, []string{"An-x", "An_ne", "Ann", "anna", "Annabel", "anz"}},
		{"an", 3, []string{"An-x", "An_ne", "Ann"}},
		{"ann", 10, []string{"Ann", "anna", "Annabel"}},
		{"an_", 10, []string{"An_ne"}},
		{"an-", 10, []string{"An-x"}},
		{"a", 10, []string{"An-x", "An_ne", "Ann", "anna", "Annabel", "anz", "ao", "Ax"}},
		{"zz9", 10, []string{"zz9"}},
		{"zz9x", 10, nil},
		{"c", 10, nil},
		{"%", 10, nil},
	} {
		as, err := ps.AccountsWithPrefix(ctx, c.prefix, c.limit)
		var got []string
		for _, a := range as {
			got = append(got, a.Name)
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("AccountsWithPrefix(%q, %d) = %q, %v; want %q", c.prefix, c.limit, got, err, c.want)
		}
	}
	if as, err := ps.AccountsWithPrefix(ctx, "ann", 10); err == nil && len(as) > 0 && (as[0].Identity != "id0" || as[0].Key != "ann" || !as[0].Created.Equal(at)) {
		t.Errorf("AccountsWithPrefix gave Ann as %+v", as[0])
	}
}

// checkDropped checks that what a write returned as dropped are the
// credentials kept says are not kept, and that the store keeps those
// and only those it says are.
func checkDropped(t *testing.T, e *env, what string, dropped [][]byte, kept map[string]bool) {
	t.Helper()
	var got, want []string
	for _, h := range dropped {
		got = append(got, string(h))
	}
	for h, k := range kept {
		if !k {
			want = append(want, h)
		}
		_, err := e.s.Credential(context.Background(), []byte(h))
		if still := err == nil; still != k {
			t.Errorf("after %s, credential %s kept: %v, want %v (%v)", what, h, still, k, err)
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s dropped %q, want %q", what, got, want)
	}
}

// testEndSessions: signing out everywhere else deletes every session
// and identity token of the identity but the one kept, and no seat's
// token, nor anybody else's.
func testEndSessions(t *testing.T, e *env) {
	ctx := context.Background()
	ps := as[store.Players](t, e.s)
	at := now()
	for _, id := range []string{"ida", "idb"} {
		if _, err := ps.CreateAccount(ctx, account(id, "N"+id, at), store.Credential{Hash: []byte(id + "-s1"), Identity: id}, guest(id, at)); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []store.Credential{{Hash: []byte("ida-s2"), Identity: "ida"}, {Hash: []byte("ida-s3"), Identity: "ida"}, {Hash: []byte("ida-seat"), Identity: "ida", Table: "t1", Seat: 1}} {
		if err := e.s.AddCredential(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	dropped, err := ps.EndSessions(ctx, "ida", []byte("ida-s2"))
	if err != nil {
		t.Fatal(err)
	}
	checkDropped(t, e, "EndSessions", dropped, map[string]bool{"ida-s1": false, "ida-s2": true, "ida-s3": false, "ida-seat": true, "idb-s1": true})
	if dropped, err := ps.EndSessions(ctx, "ida", []byte("ida-s2")); err != nil || len(dropped) != 0 {
		t.Errorf("EndSessions again: %q, %v; want none", dropped, err)
	}
}

// testSessionUse: the use of a session or identity token is noted (not
// a seat's), and an account's sessions unused for long end; a token
// never noted used counts from the first sweep, and a guest's identity
// token never ends.
func testSessionUse(t *testing.T, e *env) {
	ctx := context.Background()
	ps := as[store.Players](t, e.s)
	at := now()
	old, long := at.Add(-40*24*time.Hour), at.Add(-30*24*time.Hour)
	if _, err := ps.CreateAccount(ctx, account("ida", "Ida", at), store.Credential{Hash: []byte("ida-old"), Identity: "ida"}, guest("ida", at)); err != nil {
		t.Fatal(err)
	}
	if err := e.s.CreateIdentity(ctx, *guest("gus", at), store.Credential{Hash: []byte("gus-own"), Identity: "gus"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []store.Credential{{Hash: []byte("ida-new"), Identity: "ida"}, {Hash: []byte("ida-seat"), Identity: "ida", Table: "t1", Seat: 1}} {
		if err := e.s.AddCredential(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	used := func(h string) (time.Time, error) {
		c, err := e.s.Credential(ctx, []byte(h))
		return c.Used, err
	}
	if u, err := used("ida-old"); err != nil || !u.IsZero() {
		t.Fatalf("a new session's use: %v, %v; want none noted", u, err)
	}
	if err := ps.TouchSessions(ctx, [][]byte{[]byte("ida-old"), []byte("gus-own"), []byte("ida-seat"), []byte("nobody")}, old); err != nil {
		t.Fatal(err)
	}
	for h, want := range map[string]time.Time{"ida-old": old, "gus-own": old, "ida-seat": {}, "ida-new": {}} {
		if u, err := used(h); err != nil || !u.Equal(want) {
			t.Errorf("%s used %v, %v; want %v", h, u, err, want)
		}
	}
	dropped, err := ps.ExpireSessions(ctx, long, at)
	if err != nil {
		t.Fatal(err)
	}
	checkDropped(t, e, "ExpireSessions", dropped, map[string]bool{"ida-old": false, "ida-new": true, "ida-seat": true, "gus-own": true})
	if u, err := used("ida-new"); err != nil || !u.Equal(at) {
		t.Errorf("a session never noted used, after a sweep: %v, %v; want %v", u, err, at)
	}
	if dropped, err := ps.ExpireSessions(ctx, long, at); err != nil || len(dropped) != 0 {
		t.Errorf("ExpireSessions again: %q, %v; want none", dropped, err)
	}
	dropped, err = ps.ExpireSessions(ctx, at.Add(time.Hour), at.Add(31*24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	checkDropped(t, e, "ExpireSessions a month later", dropped, map[string]bool{"ida-new": false, "ida-seat": true, "gus-own": true})
}

// testPasswords: a new password ends the account's other sessions and
// identity tokens (not its seats'); a rehash applies only to the hash it
// replaces; a credential is deleted alone.
func testPasswords(t *testing.T, e *env) {
	ctx := context.Background()
	ps := as[store.Players](t, e.s)
	at := now()
	if _, err := ps.CreateAccount(ctx, account("ida", "Ann", at), store.Credential{Hash: []byte("s1"), Identity: "ida"}, guest("ida", at)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []store.Credential{{Hash: []byte("s2"), Identity: "ida"}, {Hash: []byte("s3"), Identity: "ida"}, {Hash: []byte("seat"), Identity: "ida", Table: "t1", Seat: 1}} {
		if err := e.s.AddCredential(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	dropped, err := ps.SetPassword(ctx, "ida", "$argon2id$ida", "new-hash", []byte("s2"))
	if err != nil {
		t.Fatal(err)
	}
	checkDropped(t, e, "SetPassword", dropped, map[string]bool{"s1": false, "s2": true, "s3": false, "seat": true})
	if _, err := ps.SetPassword(ctx, "nobody", "h", "h2", nil); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("SetPassword of no account: %v, want ErrNotFound", err)
	}
	// A change from a hash no longer the account's (another change, or
	// a close, came first) changes nothing: not the hash, nor a session.
	if err := e.s.AddCredential(ctx, store.Credential{Hash: []byte("s4"), Identity: "ida"}); err != nil {
		t.Fatal(err)
	}
	if _, err := ps.SetPassword(ctx, "ida", "$argon2id$ida", "later-hash", nil); !errors.Is(err, store.ErrConflict) {
		t.Errorf("SetPassword from a stale hash: %v, want ErrConflict", err)
	}
	if a, _ := ps.AccountOf(ctx, "ida"); a.Hash != "new-hash" {
		t.Errorf("SetPassword from a stale hash stored %q", a.Hash)
	}
	if c, err := e.s.Credential(ctx, []byte("s4")); err != nil || c.Identity != "ida" {
		t.Errorf("SetPassword from a stale hash ended a session: %+v, %v", c, err)
	}
	if err := ps.Rehash(ctx, "ida", "old-hash", "stale"); err != nil {
		t.Fatal(err)
	}
	if a, _ := ps.AccountOf(ctx, "ida"); a.Hash != "new-hash" {
		t.Errorf("a rehash of a replaced hash changed it: %q", a.Hash)
	}
	if err := ps.Rehash(ctx, "ida", "new-hash", "rehashed"); err != nil {
		t.Fatal(err)
	}
	if err := ps.DeleteCredential(ctx, []byte("seat")); err != nil {
		t.Fatal(err)
	}
	ps = as[store.Players](t, e.reopen())
	if a, _ := ps.AccountOf(ctx, "ida"); a.Hash != "rehashed" {
		t.Errorf("after a rehash: %q", a.Hash)
	}
	if _, err := e.s.Credential(ctx, []byte("seat")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a deleted credential: %v", err)
	}
	if _, err := e.s.Credential(ctx, []byte("s2")); err != nil {
		t.Errorf("the kept session: %v", err)
	}
}

// endGame stores the last move of table id with its end.
func endGame(t *testing.T, s store.Store, id string, end *store.GameEnd) {
	t.Helper()
	endGameAs(t, s, id, `{"over":"`+id+`"}`, end)
}

// endGameAs is endGame, the table's last description being meta.
func endGameAs(t *testing.T, s store.Store, id, meta string, end *store.GameEnd) {
	t.Helper()
	ctx := context.Background()
	if err := s.CreateTable(ctx, store.Table{ID: id, Game: end.Game, Status: store.Playing, Created: end.Ended, Updated: end.Ended, Meta: []byte(`{"table":"` + id + `"}`)}); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendMove(ctx, id, store.Move{Seq: 1, Seat: 1, Text: "resign", At: end.Ended}, &store.Update{Status: store.Finished, Meta: []byte(meta), End: end}); err != nil {
		t.Fatal(err)
	}
}

func rated(game string, at time.Time, a, b string, score float64) *store.GameEnd {
	ra, rb := store.Draw, store.Draw
	switch score {
	case glicko.Win:
		ra, rb = store.Win, store.Loss
	case glicko.Loss:
		ra, rb = store.Loss, store.Win
	}
	return &store.GameEnd{Game: game, Ended: at,
		Seats: []store.SeatEnd{{Identity: a, Seat: 0, Result: ra}, {Identity: b, Seat: 1, Result: rb}},
		Rated: &store.RatedGame{Pool: game + "-standard", Players: [2]string{a, b}, Score: score}}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// testGameEnds: the end of a game is each person's line of history (the
// page after a game, by game), a rated one both players' ratings, their
// rating histories and the leaderboard of accounts.
func testGameEnds(t *testing.T, e *env) {
	ctx := context.Background()
	ps := as[store.Players](t, e.s)
	at := now()
	for _, n := range []string{"Ann", "Bob", "Cat"} {
		id := "id" + lower(n)
		if _, err := ps.CreateAccount(ctx, account(id, n, at), store.Credential{Hash: []byte(id), Identity: id}, guest(id, at)); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.s.CreateIdentity(ctx, store.Identity{ID: "idg", Name: "guest", Created: at}, store.Credential{Hash: []byte("idg"), Identity: "idg"}); err != nil {
		t.Fatal(err)
	}
	// Ann beats Bob, draws with Cat, beats the guest in an unrated
	// game, and loses to Bob at salvo: four games, a second apart.
	endGame(t, e.s, "g1", rated("quizl", at, "idann", "idbob", glicko.Win))
	endGame(t, e.s, "g2", rated("quizl", at.Add(time.Second), "idcat", "idann", glicko.Draw))
	endGame(t, e.s, "g3", &store.GameEnd{Game: "nymphabet", Ended: at.Add(2 * time.Second),
		Seats: []store.SeatEnd{{Identity: "idann", Seat: 0, Result: store.Win}, {Identity: "idg", Seat: 2, Result: store.Loss}}})
	endGame(t, e.s, "g4", rated("salvo", at.Add(3*time.Second), "idann", "idbob", glicko.Loss))
	ps = as[store.Players](t, e.reopen())

	annQ1, bobQ1, _ := glicko.System{}.Game(glicko.New(), glicko.New(), glicko.Win)
	// Ann's second game comes a second after her first: her RD has
	// grown by that second away (glicko.System.Away).
	catQ, annQ2, _ := glicko.System{}.Game(glicko.New(), glicko.System{}.Away(annQ1, time.Second), glicko.Draw)
	annS, bobS, _ := glicko.System{}.Game(glicko.New(), glicko.New(), glicko.Loss)
	rs, err := ps.Ratings(ctx, "idann")
	if err != nil || len(rs) != 2 {
		t.Fatalf("Ann's ratings: %+v, %v", rs, err)
	}
	if r := rs[0]; r.Pool != "quizl-standard" || r.Games != 2 || !near(r.Rating, annQ2.Value) || !near(r.RD, annQ2.RD) || !near(r.Volatility, annQ2.Volatility) || !r.Updated.Equal(at.Add(time.Second)) {
		t.Errorf("Ann's quizl rating %+v, want %v after 2 games", r, annQ2)
	}
	if r := rs[1]; r.Pool != "salvo-standard" || r.Games != 1 || !near(r.Rating, annS.Value) {
		t.Errorf("Ann's salvo rating %+v, want %v", r, annS)
	}
	if rs, err := ps.Ratings(ctx, "idg"); err != nil || len(rs) != 0 {
		t.Errorf("the guest's ratings (unrated game only): %+v, %v", rs, err)
	}
	hist, err := ps.RatingHistory(ctx, "idann", "quizl-standard", 10, "")
	if err != nil || len(hist) != 2 || hist[0].Table != "g1" || hist[1].Table != "g2" || !near(hist[0].Rating, annQ1.Value) || !near(hist[1].RD, annQ2.RD) || !hist[1].At.Equal(at.Add(time.Second)) {
		t.Errorf("Ann's quizl rating history: %+v, %v", hist, err)
	}
	if hist, err := ps.RatingHistory(ctx, "idann", "quizl-standard", 1, ""); err != nil || len(hist) != 1 || hist[0].Table != "g2" {
		t.Errorf("Ann's last quizl rating: %+v, %v", hist, err)
	}

	for _, c := range []struct {
		a, b  string
		since time.Time
		want  int
	}{
		{"idann", "idbob", at, 2},
		{"idbob", "idann", at, 2},
		{"idann", "idbob", at.Add(time.Second), 1},
		{"idann", "idbob", at.Add(4 * time.Second), 0},
		{"idann", "idcat", at, 1},
		{"idbob", "idcat", at, 0},
		{"idann", "idg", at, 0}, // unrated
		{"idann", "nobody", at, 0},
	} {
		if n, err := ps.RatedTogether(ctx, c.a, c.b, c.since); n != c.want || err != nil {
			t.Errorf("RatedTogether(%s, %s, %v) = %d, %v; want %d", c.a, c.b, c.since.Sub(at), n, err, c.want)
		}
	}

	h, err := ps.History(ctx, store.HistoryPage{Identity: "idann", Limit: 3})
	if err != nil || len(h) != 3 {
		t.Fatalf("Ann's history: %+v, %v", h, err)
	}
	if g := h[0]; g.Table != "g4" || g.Game != "salvo" || g.Pool != "salvo-standard" || g.Result != store.Loss || !near(g.Before, glicko.New().Value) || !near(g.After, annS.Value) || !near(g.RD, annS.RD) || string(g.Meta) != `{"over":"g4"}` || !g.Ended.Equal(at.Add(3*time.Second)) || g.Seat != 0 {
		t.Errorf("Ann's last game: %+v", g)
	}
	if g := h[1]; g.Table != "g3" || g.Pool != "" || g.Result != store.Win || g.After != 0 || g.Before != 0 {
		t.Errorf("Ann's unrated game: %+v", g)
	}
	if g := h[2]; g.Table != "g2" || g.Result != store.Draw || g.Seat != 1 || !near(g.Before, annQ1.Value) {
		t.Errorf("Ann's draw: %+v", g)
	}
	next, err := ps.History(ctx, store.HistoryPage{Identity: "idann", Before: h[2].Ended, BeforeTable: h[2].Table, Limit: 3})
	if err != nil || len(next) != 1 || next[0].Table != "g1" || next[0].Result != store.Win {
		t.Errorf("the page after Ann's third game: %+v, %v", next, err)
	}
	if q, err := ps.History(ctx, store.HistoryPage{Identity: "idann", Game: "quizl", Limit: 10}); err != nil || len(q) != 2 || q[0].Table != "g2" || q[1].Table != "g1" {
		t.Errorf("Ann's quizl games: %+v, %v", q, err)
	}
	for id, want := range map[string]int{"idann": 4, "idbob": 2, "idcat": 1, "idg": 1, "nobody": 0} {
		if n, err := ps.FinishedGames(ctx, id); n != want || err != nil {
			t.Errorf("FinishedGames(%s) = %d, %v; want %d", id, n, err, want)
		}
	}

	// The board is read an hour after the last game: each RD has grown
	// by the time since its player's last quizl game.
	boardAt := at.Add(time.Hour)
	board, err := ps.Leaderboard(ctx, "quizl-standard", 1, 1000, 10, boardAt)
	if err != nil || len(board) != 3 {
		t.Fatalf("quizl leaderboard: %+v, %v", board, err)
	}
	away := func(r glicko.Rating, last time.Time) glicko.Rating { return glicko.System{}.Away(r, boardAt.Sub(last)) }
	want := []struct {
		name string
		r    glicko.Rating
	}{{"Ann", away(annQ2, at.Add(time.Second))}, {"Cat", away(catQ, at.Add(time.Second))}, {"Bob", away(bobQ1, at)}}
	slices.SortStableFunc(want, func(a, b struct {
		name string
		r    glicko.Rating
	}) int {
		if a.r.Value > b.r.Value {
			return -1
		}
		if a.r.Value < b.r.Value {
			return 1
		}
		return 0
	})
	for i, w := range want {
		if board[i].Name != w.name || !near(board[i].Rating, w.r.Value) || !near(board[i].RD, w.r.RD) {
			t.Errorf("quizl leaderboard line %d: %+v, want %s at %v", i+1, board[i], w.name, w.r)
		}
	}
	if board, err := ps.Leaderboard(ctx, "quizl-standard", 2, 1000, 10, boardAt); err != nil || len(board) != 1 || board[0].Name != "Ann" || board[0].Games != 2 {
		t.Errorf("quizl leaderboard of 2 games or more: %+v, %v", board, err)
	}
	if board, err := ps.Leaderboard(ctx, "quizl-standard", 0, 1, 10, boardAt); err != nil || len(board) != 0 {
		t.Errorf("quizl leaderboard under RD 1: %+v, %v", board, err)
	}
	if board, err := ps.Leaderboard(ctx, "salvo-standard", 0, 1000, 1, boardAt); err != nil || len(board) != 1 || board[0].Name != "Bob" || !near(board[0].Rating, bobS.Value) {
		t.Errorf("the salvo leader: %+v, %v", board, err)
	}
}

// testRatingsAway: time away from a pool makes a rating uncertain again.
// A game after a year away starts from the RD the year has grown
// (glicko.System.Away), and a leaderboard read at a time counts each RD
// as grown to then, so a player long away leaves it.
func testRatingsAway(t *testing.T, e *env) {
	ctx := context.Background()
	ps := as[store.Players](t, e.s)
	at := now().Add(-2 * 365 * 24 * time.Hour)
	for _, n := range []string{"Ann", "Bob", "Cat"} {
		id := "id" + lower(n)
		if _, err := ps.CreateAccount(ctx, account(id, n, at), store.Credential{Hash: []byte(id), Identity: id}, guest(id, at)); err != nil {
			t.Fatal(err)
		}
	}
	year := 365 * 24 * time.Hour
	endGame(t, e.s, "g1", rated("quizl", at, "idann", "idbob", glicko.Win))
	endGame(t, e.s, "g2", rated("quizl", at.Add(year), "idann", "idcat", glicko.Win))
	annQ1, _, _ := glicko.System{}.Game(glicko.New(), glicko.New(), glicko.Win)
	annQ2, catQ, _ := glicko.System{}.Game(glicko.System{}.Away(annQ1, year), glicko.New(), glicko.Win)
	stale, _, _ := glicko.System{}.Game(annQ1, glicko.New(), glicko.Win)
	if near(stale.RD, annQ2.RD) {
		t.Fatalf("a year away changes nothing in the expected ratings (%v): the test proves nothing", annQ2)
	}
	rs, err := ps.Ratings(ctx, "idann")
	if err != nil || len(rs) != 1 || !near(rs[0].Rating, annQ2.Value) || !near(rs[0].RD, annQ2.RD) || !rs[0].Updated.Equal(at.Add(year)) {
		t.Fatalf("Ann after a win, a year away and a win: %+v, %v; want %v", rs, err, annQ2)
	}
	// One game leaves an RD of about 290, which a year away grows past
	// 300; Ann's two leave 266, which takes four years to pass it.
	for _, c := range []struct {
		name string
		at   time.Time
		want []string
	}{
		{"a day after the second game", at.Add(year + 24*time.Hour), []string{"Ann", "Cat"}},
		{"a year after it", at.Add(2 * year), []string{"Ann"}},
		{"four years after it", at.Add(5 * year), nil},
	} {
		board, err := ps.Leaderboard(ctx, "quizl-standard", 1, 300, 10, c.at)
		var names []string
		for _, st := range board {
			names = append(names, st.Name)
		}
		if err != nil || !slices.Equal(names, c.want) {
			t.Errorf("the board under RD 300 %s: %v, %v; want %v", c.name, names, err, c.want)
		}
		for _, st := range board {
			if st.Name == "Cat" {
				w := glicko.System{}.Away(catQ, c.at.Sub(at.Add(year)))
				if !near(st.RD, w.RD) || !near(st.Rating, w.Value) {
					t.Errorf("Cat on the board %s: %+v; want %v", c.name, st, w)
				}
			}
		}
	}
}

// testRatedEndsAtOnce ends several rated games of one player at the same
// moment, when the player has a rating already: each must read the rating
// the one before it left, so that all count, whether the store puts them
// in one transaction or several. Their order is the store's to choose;
// each game's rating before must be the one after the game before it.
func testRatedEndsAtOnce(t *testing.T, e *env) {
	ctx := context.Background()
	ps := as[store.Players](t, e.s)
	at := now()
	const games = 6
	ids := []string{"a", "o0"}
	for i := 1; i <= games; i++ {
		ids = append(ids, fmt.Sprint("o", i))
	}
	for _, id := range ids {
		if err := e.s.CreateIdentity(ctx, store.Identity{ID: id, Name: id, Created: at}, store.Credential{Hash: []byte(id), Identity: id}); err != nil {
			t.Fatal(err)
		}
	}
	endGame(t, e.s, "t0", rated("nymphabet", at, "a", "o0", glicko.Win))
	for i := 1; i <= games; i++ {
		if err := e.s.CreateTable(ctx, store.Table{ID: fmt.Sprint("t", i), Game: "nymphabet", Status: store.Playing, Created: at, Updated: at, Meta: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, games)
	start := make(chan struct{})
	for i := range games {
		wg.Go(func() {
			<-start
			end := rated("nymphabet", at, "a", fmt.Sprint("o", i+1), glicko.Win)
			errs[i] = e.s.AppendMove(ctx, fmt.Sprint("t", i+1), store.Move{Seq: 1, Seat: 1, Text: "resign", At: at}, &store.Update{Status: store.Finished, Meta: []byte(`{}`), End: end})
		})
	}
	close(start)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	rs, err := ps.Ratings(ctx, "a")
	if err != nil || len(rs) != 1 || rs[0].Games != games+1 {
		t.Fatalf("a's ratings after %d games: %+v, %v", games+1, rs, err)
	}
	points, err := ps.RatingHistory(ctx, "a", "nymphabet-standard", 100, "")
	if err != nil || len(points) != games+1 || points[0].Table != "t0" || points[games].Rating != rs[0].Rating {
		t.Fatalf("a's rating history: %+v, %v", points, err)
	}
	hist, err := ps.History(ctx, store.HistoryPage{Identity: "a", Limit: 100})
	if err != nil || len(hist) != games+1 {
		t.Fatalf("a's history: %+v, %v", hist, err)
	}
	before := map[string]float64{}
	for _, g := range hist {
		before[g.Table] = g.Before
	}
	prev := glicko.New().Value
	for _, p := range points {
		if !near(before[p.Table], prev) {
			t.Errorf("game %s began from a rating of %v, but the game before it left %v: a game's end was lost", p.Table, before[p.Table], prev)
		}
		if p.Rating <= prev {
			t.Errorf("a win at %s took a from %v to %v", p.Table, prev, p.Rating)
		}
		prev = p.Rating
	}
	board, err := ps.Leaderboard(ctx, "nymphabet-standard", 0, 400, 10, time.Now())
	if err != nil || len(board) != 0 {
		t.Fatalf("leaderboard without accounts: %+v %v", board, err)
	}
}

// testDeleteAccount: deleting an account deletes its credentials (all of
// them, returned), ratings, history, keys and presence setting, cancels
// its open challenges, renames its identity and its finished tables'
// descriptions, in one transaction.
func testDeleteAccount(t *testing.T, e *env) {
	ctx := context.Background()
	ps := as[store.Players](t, e.s)
	at := now()
	for _, n := range []string{"Ann", "Bob"} {
		id := "id" + lower(n)
		if _, err := ps.CreateAccount(ctx, account(id, n, at), store.Credential{Hash: []byte(id + "-session"), Identity: id}, guest(id, at)); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.s.AddCredential(ctx, store.Credential{Hash: []byte("ann-seat"), Identity: "idann", Table: "g1", Seat: 0}); err != nil {
		t.Fatal(err)
	}
	endGame(t, e.s, "g1", rated("quizl", at, "idann", "idbob", glicko.Win))
	cs, hasChallenges := e.s.(store.Challenges)
	if hasChallenges {
		for i, c := range []store.Challenge{{ID: "c1", From: "idann", To: "idbob"}, {ID: "c2", From: "idbob", To: "idann"}, {ID: "c3", From: "idbob", To: "idcat"}} {
			c.Game, c.Created, c.Expires = "quizl", at.Add(time.Duration(i)*time.Second), at.Add(time.Hour)
			if err := cs.CreateChallenge(ctx, c, store.ChallengeCaps{}); err != nil {
				t.Fatal(err)
			}
		}
		if err := cs.SetHidden(ctx, "idann", true); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ps.DeleteAccount(ctx, "idann", "deleted player", []store.TableUpdate{{ID: "missing", Status: store.Finished, Meta: []byte(`{}`)}}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a deletion renaming a missing table: %v, want ErrNotFound", err)
	}
	if _, err := ps.AccountOf(ctx, "idann"); err != nil {
		t.Fatalf("the failed deletion deleted the account: %v", err)
	}
	an, hasAnalyses := e.s.(store.Analyses)
	if hasAnalyses {
		if err := an.PutAnalysis(ctx, "g1", 1, []byte(`{"players":["Ann","Bob"]}`)); err != nil {
			t.Fatal(err)
		}
	}
	chatLines(t, e, "idann", "Ann", "idbob", "Bob")
	dropped, err := ps.DeleteAccount(ctx, "idann", "deleted player", []store.TableUpdate{{ID: "g1", Status: store.Finished, Meta: []byte(`{"renamed":true}`)}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range dropped {
		got = append(got, string(h))
	}
	slices.Sort(got)
	if !equal(got, []string{"ann-seat", "idann-session"}) {
		t.Errorf("DeleteAccount dropped %q", got)
	}
	if _, err := ps.DeleteAccount(ctx, "idann", "again", nil); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleting a deleted account: %v, want ErrNotFound", err)
	}
	ps = as[store.Players](t, e.reopen())
	if _, err := ps.AccountOf(ctx, "idann"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the deleted account: %v", err)
	}
	if _, err := ps.AccountByKey(ctx, "ann"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the deleted account's name: %v", err)
	}
	if id, err := e.s.Identity(ctx, "idann"); err != nil || id.Name != "deleted player" || id.Account {
		t.Errorf("the deleted account's identity: %+v, %v", id, err)
	}
	for _, h := range []string{"ann-seat", "idann-session"} {
		if _, err := e.s.Credential(ctx, []byte(h)); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("credential %s after the deletion: %v", h, err)
		}
	}
	if rs, err := ps.Ratings(ctx, "idann"); err != nil || len(rs) != 0 {
		t.Errorf("the deleted account's ratings: %+v, %v", rs, err)
	}
	if n, err := ps.FinishedGames(ctx, "idann"); err != nil || n != 0 {
		t.Errorf("the deleted account's games: %d, %v", n, err)
	}
	if n, err := ps.FinishedGames(ctx, "idbob"); err != nil || n != 1 {
		t.Errorf("Bob's games: %d, %v", n, err)
	}
	if tb, err := e.s.Table(ctx, "g1"); err != nil || string(tb.Meta) != `{"renamed":true}` {
		t.Errorf("the renamed table: %+v, %v", tb, err)
	}
	if hasAnalyses {
		if body, err := as[store.Analyses](t, e.s).Analysis(ctx, "g1", 1); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the renamed table's analysis, naming Ann: %s, %v; want it dropped", body, err)
		}
	}
	checkChatNames(t, e, "deleted player", "Bob")
	if _, ok := e.s.(store.Dailies); ok {
		if got := dailyNames(t, e); !equal(got, []string{"Bob"}) {
			t.Errorf("the daily board after Ann's deletion names %q, want Bob alone", got)
		}
		if a, err := as[store.Dailies](t, e.s).DailyAttempt(ctx, "quizl", "2026-05-01", "idann"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the deleted account's daily attempt: %+v, %v", a, err)
		}
	}
	if _, err := e.s.Credential(ctx, []byte("idbob-session")); err != nil {
		t.Errorf("Bob's session: %v", err)
	}
	if hasChallenges {
		cs = e.s.(store.Challenges)
		for id, want := range map[string]store.ChallengeStatus{"c1": store.ChallengeCanceled, "c2": store.ChallengeCanceled, "c3": store.ChallengeOpen} {
			if c, err := cs.Challenge(ctx, id); err != nil || c.Status != want {
				t.Errorf("challenge %s after the deletion: %+v, %v; want %s", id, c, err, want)
			}
		}
		if h, err := cs.Hidden(ctx, []string{"idann"}); err != nil || len(h) != 0 {
			t.Errorf("the deleted account's presence setting: %v, %v", h, err)
		}
	}
}

// testAbortedEnd: a game aborted without a move ends with a table update
// that carries its end: a line of each person's history, marked aborted,
// and no change to any rating.
func testAbortedEnd(t *testing.T, e *env) {
	ctx := context.Background()
	ps := as[store.Players](t, e.s)
	at := now()
	for _, n := range []string{"Ann", "Bob"} {
		id := "id" + lower(n)
		if _, err := ps.CreateAccount(ctx, account(id, n, at), store.Credential{Hash: []byte(id), Identity: id}, guest(id, at)); err != nil {
			t.Fatal(err)
		}
	}
	endGame(t, e.s, "g1", rated("quizl", at, "idann", "idbob", glicko.Win))
	before, err := ps.Ratings(ctx, "idann")
	if err != nil || len(before) != 1 {
		t.Fatalf("Ann's ratings: %+v, %v", before, err)
	}
	if err := e.s.CreateTable(ctx, store.Table{ID: "g2", Game: "quizl", Status: store.Playing, Created: at, Updated: at, Meta: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	end := &store.GameEnd{Game: "quizl", Ended: at.Add(time.Second), Seats: []store.SeatEnd{
		{Identity: "idann", Seat: 0, Result: store.Aborted}, {Identity: "idbob", Seat: 1, Result: store.Aborted}}}
	if err := e.s.Write(ctx, store.Batch{Update: &store.TableUpdate{ID: "g2", Status: store.Finished, Meta: []byte(`{"aborted":true}`), End: end}}); err != nil {
		t.Fatal(err)
	}
	ps = as[store.Players](t, e.reopen())
	h, err := ps.History(ctx, store.HistoryPage{Identity: "idbob", Limit: 5})
	if err != nil || len(h) != 2 {
		t.Fatalf("Bob's history: %+v, %v", h, err)
	}
	if g := h[0]; g.Table != "g2" || g.Result != store.Aborted || g.Pool != "" || g.After != 0 || string(g.Meta) != `{"aborted":true}` {
		t.Errorf("Bob's aborted game: %+v", g)
	}
	after, err := ps.Ratings(ctx, "idann")
	if err != nil || len(after) != 1 || after[0].Games != before[0].Games || !near(after[0].Rating, before[0].Rating) {
		t.Errorf("Ann's ratings after the abort: %+v, before %+v (%v)", after, before, err)
	}
	if tb, err := e.s.Table(ctx, "g2"); err != nil || tb.Status != store.Finished {
		t.Errorf("the aborted table: %+v, %v", tb, err)
	}
}

// testPrivateGames: a public history leaves out the games of private
// tables (their description's "private": true) but those the viewer held
// a seat at too, and pages through what is left without a short page; a
// rating point of such a game stays, Hidden. A daily puzzle's attempt,
// private to stay out of the lobby, is public. A history asked for as
// is (not Public) holds every game.
func testPrivateGames(t *testing.T, e *env) {
	ctx := context.Background()
	ps := as[store.Players](t, e.s)
	at := now()
	for _, id := range []string{"idann", "idbob", "idcat", "iddan"} {
		if err := e.s.CreateIdentity(ctx, store.Identity{ID: id, Name: id, Created: at}, store.Credential{Hash: []byte(id), Identity: id}); err != nil {
			t.Fatal(err)
		}
	}
	unrated := func(game string, at time.Time, a, b string) *store.GameEnd {
		return &store.GameEnd{Game: game, Ended: at,
			Seats: []store.SeatEnd{{Identity: a, Seat: 0, Result: store.Win}, {Identity: b, Seat: 1, Result: store.Loss}}}
	}
	// Ann's games, a second apart: g2, g3 and g5 at private tables,
	// with Bob, Cat and Cat; "private": false is public, and so is g6,
	// her attempt at a daily puzzle.
	private := func(id string) string { return `{"private":true,"over":"` + id + `"}` }
	endGameAs(t, e.s, "g1", `{"private":false}`, rated("quizl", at, "idann", "idbob", glicko.Win))
	endGameAs(t, e.s, "g2", private("g2"), rated("quizl", at.Add(time.Second), "idann", "idbob", glicko.Win))
	endGameAs(t, e.s, "g3", private("g3"), unrated("nymphabet", at.Add(2*time.Second), "idann", "idcat"))
	endGame(t, e.s, "g4", unrated("nymphabet", at.Add(3*time.Second), "idann", "idcat"))
	endGameAs(t, e.s, "g5", private("g5"), rated("quizl", at.Add(4*time.Second), "idcat", "idann", glicko.Loss))
	endGameAs(t, e.s, "g6", `{"private":true,"daily":"quizl/2026-12-03"}`, &store.GameEnd{Game: "quizl", Ended: at.Add(5 * time.Second),
		Seats: []store.SeatEnd{{Identity: "idann", Seat: 0, Result: store.Win}}})
	ps = as[store.Players](t, e.reopen())

	for _, c := range []struct {
		name   string
		public bool
		viewer string
		games  []string // Ann's history, newest first
	}{
		{"as it is", false, "", []string{"g6", "g5", "g4", "g3", "g2", "g1"}},
		{"to anyone", true, "", []string{"g6", "g4", "g1"}},
		{"to one who played none", true, "iddan", []string{"g6", "g4", "g1"}},
		{"to Ann", true, "idann", []string{"g6", "g5", "g4", "g3", "g2", "g1"}},
		{"to Bob", true, "idbob", []string{"g6", "g4", "g2", "g1"}},
		{"to Cat", true, "idcat", []string{"g6", "g5", "g4", "g3", "g1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			all, err := ps.History(ctx, store.HistoryPage{Identity: "idann", Limit: 10, Public: c.public, Viewer: c.viewer})
			if got := tablesOf(all); err != nil || !slices.Equal(got, c.games) {
				t.Errorf("the history: %v, %v; want %v", got, err, c.games)
			}
			// Two a page, from each page's last game: every page but
			// the last is full.
			var paged []string
			page := store.HistoryPage{Identity: "idann", Limit: 2, Public: c.public, Viewer: c.viewer}
			for range 10 {
				h, err := ps.History(ctx, page)
				if err != nil {
					t.Fatal(err)
				}
				paged = append(paged, tablesOf(h)...)
				if len(h) < page.Limit {
					break
				}
				page.Before, page.BeforeTable = h[len(h)-1].Ended, h[len(h)-1].Table
			}
			if !slices.Equal(paged, c.games) {
				t.Errorf("paged two at a time: %v; want %v", paged, c.games)
			}
			if g, err := ps.History(ctx, store.HistoryPage{Identity: "idann", Game: "nymphabet", Limit: 10, Public: c.public, Viewer: c.viewer}); err != nil ||
				!slices.Equal(tablesOf(g), slices.DeleteFunc(slices.Clone(c.games), func(id string) bool { return id != "g3" && id != "g4" })) {
				t.Errorf("the nymphabet games: %v, %v", tablesOf(g), err)
			}
		})
	}
	// Ann's quizl points, and those whose tables the viewer may not
	// know, oldest first.
	for _, c := range []struct {
		viewer string
		hidden []string
	}{
		{"", []string{"g2", "g5"}},
		{"iddan", []string{"g2", "g5"}},
		{"idann", nil},
		{"idbob", []string{"g5"}},
		{"idcat", []string{"g2"}},
	} {
		points, err := ps.RatingHistory(ctx, "idann", "quizl-standard", 10, c.viewer)
		if err != nil || len(points) != 3 {
			t.Fatalf("Ann's quizl points to %q: %+v, %v", c.viewer, points, err)
		}
		var hidden []string
		for i, p := range points {
			if p.Table != []string{"g1", "g2", "g5"}[i] || !p.At.Equal(at.Add(time.Duration([]int{0, 1, 4}[i])*time.Second)) || p.Rating == 0 {
				t.Errorf("Ann's quizl point %d to %q: %+v", i, c.viewer, p)
			}
			if p.Hidden {
				hidden = append(hidden, p.Table)
			}
		}
		if !slices.Equal(hidden, c.hidden) {
			t.Errorf("Ann's quizl points hidden from %q: %v; want %v", c.viewer, hidden, c.hidden)
		}
	}
}

// tablesOf returns the tables of a history's lines.
func tablesOf(h []store.PlayerGame) []string {
	out := []string{}
	for _, g := range h {
		out = append(out, g.Table)
	}
	return out
}
