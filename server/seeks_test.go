package server

import (
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"parlour/server/internal/servertest"
	"parlour/server/seek"
	"parlour/server/table"
)

// seekAnswer is POST /api/v1/seeks's answer.
type seekAnswer struct {
	Status string        `json:"status"`
	Seek   *seek.Seek    `json:"seek"`
	Table  *table.Seated `json:"table"`
}

// TestSeeksPairOverHTTP: over the real server on both stores, a rated
// seek waits, is listed, shows on its player's stream, and pairs with
// the matching seek of another player at once: a rated table with both
// seated, "gameStart" on both streams, the waiting player reading the
// table from their seek; a guest's casual seek pairs with an account's
// by accepting it from the list.
func TestSeeksPairOverHTTP(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		base := sf.srv.URL
		ann, bob := signUp(t, base, "Ann"), signUp(t, base, "Bob")
		annStream, bobStream := openStream(t, base, ann.token), openStream(t, base, bob.token)

		var a seekAnswer
		if st, body := ann.do("POST", "/api/v1/seeks", `{"game": "nymphabet", "mode": "standard", "rated": true, "clock": 60, "rating_range": {"within": 200}}`, &a); st != 201 || a.Status != "waiting" {
			t.Fatalf("ann seeks: %d %s", st, body)
		}
		if a.Seek.Player != "Ann" || a.Seek.Mode != "standard" || !a.Seek.Rated || string(a.Seek.Clock) != "60" || a.Seek.Rating != 1500 || a.Seek.RatingRange.Min != 1300 || a.Seek.RatingRange.Max != 1700 {
			t.Fatalf("ann's seek %+v", a.Seek)
		}
		if ev := annStream.next("seek"); !strings.Contains(string(ev.Seek), a.Seek.ID) {
			t.Fatalf("ann's stream: %+v", ev)
		}
		var list struct{ Seeks []seek.Seek }
		if st, body := (&client{t: t, base: base}).do("GET", "/api/v1/seeks", nil, &list); st != 200 || len(list.Seeks) != 1 || list.Seeks[0].ID != a.Seek.ID {
			t.Fatalf("the list: %d %s", st, body)
		}
		var b seekAnswer
		if st, body := bob.do("POST", "/api/v1/seeks", `{"game": "Nymphabet", "rated": true, "clock": 60}`, &b); st != 201 || b.Status != "paired" {
			t.Fatalf("bob seeks: %d %s", st, body)
		}
		if b.Table.Token == "" || b.Table.Table == "" {
			t.Fatalf("bob's table %+v", b.Table)
		}
		annStart, bobStart := annStream.next("gameStart"), bobStream.next("gameStart")
		if annStart.Table.ID != b.Table.Table || bobStart.Table.ID != b.Table.Table || !annStart.Table.Rated || annStart.Table.Seat != 1-b.Table.Seat {
			t.Fatalf("gameStart: ann %+v, bob %+v", annStart.Table, bobStart.Table)
		}
		if ev := annStream.next("seekGone"); !strings.Contains(string(ev.Seek), `"reason":"paired"`) || !strings.Contains(string(ev.Seek), b.Table.Table) {
			t.Fatalf("ann's seekGone: %s", ev.Seek)
		}
		var mine seek.Mine
		if st, body := ann.do("GET", "/api/v1/seeks/"+a.Seek.ID, nil, &mine); st != 200 || mine.Status != "paired" || mine.Pairing.Table != b.Table.Table || mine.Pairing.Seat != 1-b.Table.Seat {
			t.Fatalf("ann reads her seek: %d %s", st, body)
		}
		v, err := sf.s.View(context.Background(), nil, b.Table.Table)
		if err != nil {
			t.Fatal(err)
		}
		if !v.Table.Rated || v.Table.Status != "playing" || v.Table.Rules.Int("clock") != 60 || v.Table.Seats[b.Table.Seat].Name != "Bob" || v.Table.Seats[1-b.Table.Seat].Name != "Ann" {
			t.Fatalf("the table: %+v", v.Table)
		}
		// Ann plays at her seat with her own session.
		var tables json.RawMessage
		if st, body := ann.do("GET", "/api/v1/identity/tables", nil, &tables); st != 200 || !strings.Contains(body, b.Table.Table) {
			t.Fatalf("ann's tables: %d %s", st, body)
		}

		// A guest's casual seek, accepted from the list by Bob.
		gus := &client{t: t, base: base}
		var id table.Identity
		gus.do("POST", "/api/v1/identity", `{"name": "Gus"}`, &id)
		gus.token = id.Token
		var g seekAnswer
		if st, body := gus.do("POST", "/api/v1/seeks", `{"game": "salvo"}`, &g); st != 201 || g.Status != "waiting" {
			t.Fatalf("gus seeks: %d %s", st, body)
		}
		var acc seekAnswer
		if st, body := bob.do("POST", "/api/v1/seeks/"+g.Seek.ID+"/accept", nil, &acc); st != 201 || acc.Status != "paired" || acc.Table.Token == "" {
			t.Fatalf("bob accepts: %d %s", st, body)
		}
		// A third player a moment late: the seek was taken meanwhile.
		late := &client{t: t, base: base}
		var lid table.Identity
		late.do("POST", "/api/v1/identity", `{"name": "Lou"}`, &lid)
		late.token = lid.Token
		if st, body := late.do("POST", "/api/v1/seeks/"+g.Seek.ID+"/accept", nil, nil); st != 409 || !strings.Contains(body, "this seek was taken meanwhile: its player has a game now") {
			t.Errorf("a seek accepted a moment after it was taken: %d %s, want 409", st, body)
		}
		v, err = sf.s.View(context.Background(), nil, acc.Table.Table)
		if err != nil {
			t.Fatal(err)
		}
		if v.Table.Rated || v.Table.Seats[1-acc.Table.Seat].Name != "Gus" {
			t.Fatalf("the guest's table: %+v", v.Table)
		}
		if st, body := gus.do("GET", "/api/v1/seeks", nil, &list); st != 200 || len(list.Seeks) != 0 {
			t.Fatalf("seeks left: %d %s", st, body)
		}
	})
}

// TestSeeksBadInput: each refusal names the problem, and nothing waits
// after it.
func TestSeeksBadInput(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	base := sf.srv.URL
	ann, bob := signUp(t, base, "Ann"), signUp(t, base, "Bob")
	gus := &client{t: t, base: base}
	var id table.Identity
	gus.do("POST", "/api/v1/identity", `{"name": "Gus"}`, &id)
	gus.token = id.Token
	nobody := &client{t: t, base: base}

	var a seekAnswer
	if st, body := ann.do("POST", "/api/v1/seeks", `{"game": "quizl"}`, &a); st != 201 {
		t.Fatalf("ann seeks: %d %s", st, body)
	}
	for _, c := range []struct {
		name   string
		who    *client
		method string
		path   string
		body   string
		status int
		says   string
	}{
		{"impossible clock", bob, "POST", "/api/v1/seeks", `{"game": "quizl", "clock": 5}`, 400, "clock"},
		{"clock of words", bob, "POST", "/api/v1/seeks", `{"game": "quizl", "clock": "soon"}`, 400, "clock"},
		{"rating range of a guest", gus, "POST", "/api/v1/seeks", `{"game": "quizl", "rating_range": {"within": 100}}`, 403, "guest"},
		{"rated guest", gus, "POST", "/api/v1/seeks", `{"game": "quizl", "rated": true}`, 403, "accounts"},
		{"rated with the computer", bob, "POST", "/api/v1/seeks", `{"game": "quizl", "rated": true, "opponent": "computer"}`, 400, "between people"},
		{"second seek for the game", ann, "POST", "/api/v1/seeks", `{"game": "quizl", "clock": 60}`, 409, "already"},
		{"rated with changed rules", bob, "POST", "/api/v1/seeks", `{"game": "salvo", "rated": true, "rules": {"fleet": "small"}}`, 400, ""},
		{"a mode Quizl has not", bob, "POST", "/api/v1/seeks", `{"game": "quizl", "mode": "cyclic"}`, 400, "no modes"},
		{"unknown mode", bob, "POST", "/api/v1/seeks", `{"game": "nymphabet", "mode": "sideways"}`, 400, "sideways"},
		{"unknown field", bob, "POST", "/api/v1/seeks", `{"game": "quizl", "speed": 3}`, 400, "speed"},
		{"unknown game", bob, "POST", "/api/v1/seeks", `{"game": "nope"}`, 400, "nope"},
		{"no identity", nobody, "POST", "/api/v1/seeks", `{"game": "quizl"}`, 401, ""},
		{"cancel another's", bob, "DELETE", "/api/v1/seeks/" + a.Seek.ID, "", 404, "no seek"},
		{"accept one's own", ann, "POST", "/api/v1/seeks/" + a.Seek.ID + "/accept", "", 400, "yours"},
		{"accept a missing one", bob, "POST", "/api/v1/seeks/nope/accept", "", 404, "no seek"},
		{"list an unknown game's", nobody, "GET", "/api/v1/seeks?game=chess", "", 400, "chess"},
	} {
		var body any
		if c.body != "" {
			body = c.body
		}
		st, got := c.who.do(c.method, c.path, body, nil)
		if st != c.status || !strings.Contains(got, c.says) {
			t.Errorf("%s: %d %s, want %d saying %q", c.name, st, got, c.status, c.says)
		}
	}
	if n := sf.s.seeks.Len(); n != 1 {
		t.Fatalf("%d seeks wait, want Ann's alone", n)
	}
	// A game's seeks are listed by its name in any case, as a seek
	// names it.
	for _, q := range []string{"quizl", "Quizl", " QUIZL "} {
		var list struct{ Seeks []seek.Seek }
		if st, body := nobody.do("GET", "/api/v1/seeks?game="+url.QueryEscape(q), nil, &list); st != 200 || len(list.Seeks) != 1 {
			t.Errorf("the seeks of %q: %d %s, want Ann's", q, st, body)
		}
	}
	if st, body := ann.do("DELETE", "/api/v1/seeks/"+a.Seek.ID, nil, nil); st != 204 {
		t.Fatalf("ann cancels: %d %s", st, body)
	}
	if n := sf.s.seeks.Len(); n != 0 {
		t.Fatalf("%d seeks wait after the cancel", n)
	}
	// A seek of the computer: a table against it at once, casual.
	var c seekAnswer
	if st, body := gus.do("POST", "/api/v1/seeks", `{"game": "quizl", "opponent": "computer"}`, &c); st != 201 || c.Status != "computer" || c.Table.Token == "" {
		t.Fatalf("gus seeks the computer: %d %s", st, body)
	}
}

// TestNoWordsNoLexicon: a word list named for a game without words
// (Salvo) is refused in a seek, a challenge and a table's creation, named
// in any case, rated or not: the game never reads it, and a seek kept
// with one waited apart from the same seek without it. The same without
// the list, and a word game with it, are taken.
func TestNoWordsNoLexicon(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	ann := signUp(t, sf.srv.URL, "Ann")
	signUp(t, sf.srv.URL, "Bob")
	for _, c := range []struct {
		name, path, body string
		want             int
	}{
		{"seek", "/api/v1/seeks", `{"game": "salvo", "clock": 51, "lexicon": "en-large"}`, 400},
		{"rated seek", "/api/v1/seeks", `{"game": "salvo", "rated": true, "lexicon": "en"}`, 400},
		{"seek of the computer", "/api/v1/seeks", `{"game": "salvo", "opponent": "computer", "lexicon": "EN"}`, 400},
		{"challenge", "/api/v1/challenges", `{"to": "bob", "game": "salvo", "lexicon": "en-large"}`, 400},
		{"rated challenge", "/api/v1/challenges", `{"to": "bob", "game": "salvo", "rated": true, "lexicon": "en"}`, 400},
		{"table", "/api/v1/tables", `{"game": "salvo", "seats": ["me", "open"], "lexicon": "en-common"}`, 400},
		{"rated table", "/api/v1/tables", `{"game": "salvo", "seats": ["me", "open"], "rated": true, "lexicon": "en-large"}`, 400},
		{"seek without", "/api/v1/seeks", `{"game": "salvo", "clock": 51}`, 201},
		{"challenge without", "/api/v1/challenges", `{"to": "bob", "game": "salvo"}`, 201},
		{"word game's table", "/api/v1/tables", `{"game": "nymphabet", "seats": ["me", "open"], "lexicon": "en-large"}`, 201},
	} {
		st, body := ann.do("POST", c.path, c.body, nil)
		if st != c.want || c.want == 400 && !strings.Contains(body, "Salvo uses no words: leave out the lexicon") {
			t.Errorf("%s: %d %s, want %d", c.name, st, body, c.want)
		}
	}
}

// TestSeeksRateLimited: an identity that seeks too often is refused for
// a while.
func TestSeeksRateLimited(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	ann := signUp(t, sf.srv.URL, "Ann")
	refused := 0
	for range seek.PerIdentityBurst + 2 {
		var a seekAnswer
		st, body := ann.do("POST", "/api/v1/seeks", `{"game": "quizl"}`, &a)
		switch st {
		case 201:
			if st, body := ann.do("DELETE", "/api/v1/seeks/"+a.Seek.ID, nil, nil); st != 204 {
				t.Fatalf("cancel: %d %s", st, body)
			}
		case 429:
			refused++
		default:
			t.Fatalf("seek: %d %s", st, body)
		}
	}
	if refused == 0 {
		t.Fatal("no seek refused")
	}
}

// TestSeekLastsWhileThePlayerIsAbout: a seek outlives seek.Window while
// its player holds the player stream open, and goes when the stream
// closes (told on the stream as it goes, listed on it when it opens);
// a guest's seek with no stream goes a Window after its last request.
func TestSeekLastsWhileThePlayerIsAbout(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	base := sf.srv.URL
	ann := signUp(t, base, "Ann")
	gus := &client{t: t, base: base}
	var id table.Identity
	gus.do("POST", "/api/v1/identity", `{"name": "Gus"}`, &id)
	gus.token = id.Token
	first := openStream(t, base, ann.token)
	// The stream is held from before its answer's headers.

	var a, g seekAnswer
	if st, body := ann.do("POST", "/api/v1/seeks", `{"game": "quizl"}`, &a); st != 201 {
		t.Fatalf("ann seeks: %d %s", st, body)
	}
	if st, body := gus.do("POST", "/api/v1/seeks", `{"game": "salvo"}`, &g); st != 201 {
		t.Fatalf("gus seeks: %d %s", st, body)
	}
	second := openStream(t, base, ann.token)
	if ev := second.next("seek"); !strings.Contains(string(ev.Seek), a.Seek.ID) {
		t.Fatalf("the stream opens with %s", ev.Seek)
	}
	sf.clock.Advance(seek.Window + 1) // the sweep runs
	var list struct{ Seeks []seek.Seek }
	if st, body := (&client{t: t, base: base}).do("GET", "/api/v1/seeks", nil, &list); st != 200 || len(list.Seeks) != 1 || list.Seeks[0].Player != "Ann" {
		t.Fatalf("after a while: %d %s", st, body)
	}
	annID := ann.identityOf(t, sf)
	first.res.Body.Close()
	second.res.Body.Close()
	servertest.Eventually(t, 10*time.Second, "Ann's streams closed", func() bool { return !sf.s.social.Holding(annID) })
	sf.clock.Advance(seek.Window + 1)
	if st, body := (&client{t: t, base: base}).do("GET", "/api/v1/seeks", nil, &list); st != 200 || len(list.Seeks) != 0 {
		t.Fatalf("after Ann left: %d %s", st, body)
	}
	third := openStream(t, base, ann.token)
	if st, body := ann.do("POST", "/api/v1/seeks", `{"game": "quizl"}`, &a); st != 201 || a.Status != "waiting" {
		t.Fatalf("ann seeks again: %d %s", st, body)
	}
	third.next("seek")
}

// TestDeletedAccountsSeekLeaves: a player who deletes their account
// while their seek waits takes the seek with them, at once: nobody is
// paired with an account that no longer exists.
func TestDeletedAccountsSeekLeaves(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		base := sf.srv.URL
		ann, rob := signUp(t, base, "Ann"), signUp(t, base, "Robin")
		var sk seekAnswer
		if st, body := rob.do("POST", "/api/v1/seeks", `{"game": "nymphabet"}`, &sk); st != 201 || sk.Status != "waiting" {
			t.Fatalf("Robin seeks: %d %s", st, body)
		}
		if st, body := rob.do("DELETE", "/api/v1/account", map[string]string{"password": testPassword}, nil); st != 204 && st != 200 {
			t.Fatalf("Robin deletes the account: %d %s", st, body)
		}
		var list struct{ Seeks []seek.Seek }
		if st, body := ann.do("GET", "/api/v1/seeks", nil, &list); st != 200 || len(list.Seeks) != 0 {
			t.Errorf("the seeks after Robin left: %d %s", st, body)
		}
		var a seekAnswer
		if st, body := ann.do("POST", "/api/v1/seeks", `{"game": "nymphabet"}`, &a); st != 201 || a.Status != "waiting" {
			t.Errorf("Ann's seek, which only Robin's matched: %d %s", st, body)
		}
	})
}

// TestSeeksListLeavesOutBlocks: Ann blocks Ben. Each has a seek waiting.
// The lobby Ben reads leaves Ann's seek out, which he could not accept
// and which would tell him she is about; the lobby Ann reads leaves his
// out, as her accepting it would be refused; Cat and anybody without a
// token see both. An unblock shows them again.
func TestSeeksListLeavesOutBlocks(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	base := sf.srv.URL
	ann, ben, cat := signUp(t, base, "Ann"), signUp(t, base, "Ben"), signUp(t, base, "Cat")
	if st, body := ann.do("POST", "/api/v1/blocks", `{"name": "Ben"}`, nil); st != 201 {
		t.Fatalf("block: %d %s", st, body)
	}
	for _, c := range []*client{ann, ben} {
		var a seekAnswer
		if st, body := c.do("POST", "/api/v1/seeks", `{"game": "salvo"}`, &a); st != 201 || a.Status != "waiting" {
			t.Fatalf("seek: %d %s", st, body)
		}
	}
	players := func(c *client) []string {
		t.Helper()
		var list struct{ Seeks []seek.Seek }
		if st, body := c.do("GET", "/api/v1/seeks?game=salvo", nil, &list); st != 200 {
			t.Fatalf("the list: %d %s", st, body)
		}
		var names []string
		for _, s := range list.Seeks {
			names = append(names, s.Player)
		}
		slices.Sort(names) // the fixture's clock stands still: seeks made at once are in the order of their ids
		return names
	}
	for _, tc := range []struct {
		who  string
		c    *client
		want []string
	}{
		{"Ann", ann, []string{"Ann"}},
		{"Ben", ben, []string{"Ben"}},
		{"Cat", cat, []string{"Ann", "Ben"}},
		{"nobody", &client{t: t, base: base}, []string{"Ann", "Ben"}},
	} {
		if got := players(tc.c); !slices.Equal(got, tc.want) {
			t.Errorf("the seeks %s reads: %q, want %q", tc.who, got, tc.want)
		}
	}
	if st, body := ann.do("DELETE", "/api/v1/blocks/Ben", nil, nil); st != 204 {
		t.Fatalf("unblock: %d %s", st, body)
	}
	if got := players(ben); !slices.Equal(got, []string{"Ann", "Ben"}) {
		t.Errorf("the seeks Ben reads once unblocked: %q", got)
	}
}

// TestSeekPairsUnderTheNameOfNow: a guest seeks, then makes an account
// of themselves while the seek waits, as a moderator may rename an
// account meanwhile. The table each seek makes seats its player as they
// are when it is made, as a rematch does: the account, under its name,
// whether another accepts the seek or seeks the same.
func TestSeekPairsUnderTheNameOfNow(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	base := sf.srv.URL
	bob := signUp(t, base, "Bob")
	for _, tc := range []struct {
		name, how string
	}{{"Gina", "accept"}, {"Hana", "seek"}} {
		gus := &client{t: t, base: base}
		var id table.Identity
		gus.do("POST", "/api/v1/identity", `{}`, &id)
		gus.token = id.Token
		var g seekAnswer
		if st, body := gus.do("POST", "/api/v1/seeks", `{"game": "salvo"}`, &g); st != 201 || g.Status != "waiting" {
			t.Fatalf("the guest seeks: %d %s", st, body)
		}
		if st, body := gus.do("POST", "/api/v1/accounts", map[string]string{"name": tc.name, "password": testPassword}, nil); st != 201 {
			t.Fatalf("the guest signs up: %d %s", st, body)
		}
		var b seekAnswer
		var st int
		var body string
		if tc.how == "accept" {
			st, body = bob.do("POST", "/api/v1/seeks/"+g.Seek.ID+"/accept", nil, &b)
		} else {
			st, body = bob.do("POST", "/api/v1/seeks", `{"game": "salvo"}`, &b)
		}
		if st != 201 || b.Status != "paired" {
			t.Fatalf("Bob's %s: %d %s", tc.how, st, body)
		}
		v, err := sf.s.View(context.Background(), nil, b.Table.Table)
		if err != nil {
			t.Fatal(err)
		}
		if s := v.Table.Seats[1-b.Table.Seat]; s.Name != tc.name || s.Player != "account" {
			t.Errorf("Bob's %s: the other seat is %q (%s); want %s, an account", tc.how, s.Name, s.Player, tc.name)
		}
	}
}

// TestSeekListedUnderTheNameOfNow: a moderator renames Bob, whose seek
// waits, for an offensive name: the lobby lists the seek under the new
// name at once, and Bob reads it so, rather than showing the old name
// to everybody for as long as his page keeps the seek alive.
func TestSeekListedUnderTheNameOfNow(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	base := sf.srv.URL
	bob, moe := signUp(t, base, "Bob"), signUp(t, base, "Moe")
	grant(t, sf.st, "Moe", true)
	var a seekAnswer
	if st, body := bob.do("POST", "/api/v1/seeks", `{"game": "salvo"}`, &a); st != 201 || a.Status != "waiting" {
		t.Fatalf("seek: %d %s", st, body)
	}
	if st, body := moe.do("POST", "/api/v1/moderation/rename", `{"name": "Bob", "new_name": "Robin", "reason": "offensive name"}`, nil); st != 200 {
		t.Fatalf("rename: %d %s", st, body)
	}
	var list struct{ Seeks []seek.Seek }
	if st, body := moe.do("GET", "/api/v1/seeks", nil, &list); st != 200 || len(list.Seeks) != 1 {
		t.Fatalf("the list: %d %s", st, body)
	}
	if got := list.Seeks[0].Player; got != "Robin" {
		t.Errorf("the lobby lists the seek under %q, want Robin", got)
	}
	var mine seek.Mine
	if st, body := bob.do("GET", "/api/v1/seeks/"+a.Seek.ID, nil, &mine); st != 200 || mine.Seek == nil {
		t.Fatalf("Bob reads his seek: %d %s", st, body)
	}
	if got := mine.Seek.Player; got != "Robin" {
		t.Errorf("Bob reads his seek under %q, want Robin", got)
	}
}

// TestSeeksLeaveWhenTheirPlayerStartsAGame: Cat seeks Word Fight and
// Salvo. A game against the computer keeps both waiting; Ann's Word
// Fight seek then pairs with Cat's, and Cat's Salvo seek leaves the book
// ("seekGone", reason "playing", naming the table), so that Dan's Salvo
// seek waits rather than pair Cat into a second game.
func TestSeeksLeaveWhenTheirPlayerStartsAGame(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	base := sf.srv.URL
	ann, cat, dan := signUp(t, base, "Ann"), signUp(t, base, "Cat"), signUp(t, base, "Dan")
	catStream := openStream(t, base, cat.token)
	var salvo seekAnswer
	for _, g := range []string{"wordfight", "salvo"} {
		var a seekAnswer
		if st, body := cat.do("POST", "/api/v1/seeks", `{"game": "`+g+`", "clock": 20}`, &a); st != 201 || a.Status != "waiting" {
			t.Fatalf("Cat seeks %s: %d %s", g, st, body)
		}
		catStream.next("seek")
		if g == "salvo" {
			salvo = a
		}
	}
	waiting := func() []string {
		t.Helper()
		var list struct{ Seeks []seek.Seek }
		if st, body := dan.do("GET", "/api/v1/seeks", nil, &list); st != 200 {
			t.Fatalf("the list: %d %s", st, body)
		}
		var out []string
		for _, s := range list.Seeks {
			out = append(out, s.Player+" "+s.Game)
		}
		slices.Sort(out)
		return out
	}
	if st, body := cat.do("POST", "/api/v1/tables", `{"game": "nymphabet", "seats": ["me", "computer:easy"]}`, nil); st != 201 {
		t.Fatalf("Cat plays the computer: %d %s", st, body)
	}
	if got := waiting(); !slices.Equal(got, []string{"Cat salvo", "Cat wordfight"}) {
		t.Fatalf("the seeks while Cat plays the computer: %q", got)
	}
	var a seekAnswer
	if st, body := ann.do("POST", "/api/v1/seeks", `{"game": "wordfight", "clock": 20}`, &a); st != 201 || a.Status != "paired" {
		t.Fatalf("Ann seeks Word Fight: %d %s", st, body)
	}
	if got := waiting(); len(got) != 0 {
		t.Errorf("the seeks once Cat's game began: %q", got)
	}
	for {
		ev := catStream.next("seekGone")
		if !strings.Contains(string(ev.Seek), salvo.Seek.ID) {
			continue // the Word Fight seek's, paired
		}
		if !strings.Contains(string(ev.Seek), `"reason":"playing"`) || !strings.Contains(string(ev.Seek), a.Table.Table) {
			t.Errorf("Cat's Salvo seek went with %s", ev.Seek)
		}
		break
	}
	var d seekAnswer
	if st, body := dan.do("POST", "/api/v1/seeks", `{"game": "salvo", "clock": 20}`, &d); st != 201 || d.Status != "waiting" {
		t.Errorf("Dan's Salvo seek, which only Cat's matched: %d %s", st, body)
	}
	for _, method := range []string{"GET", "DELETE"} {
		if st, body := cat.do(method, "/api/v1/seeks/"+salvo.Seek.ID, nil, nil); st != 404 || !strings.Contains(body, "stopped waiting when your game at table "+a.Table.Table+" began") {
			t.Errorf("Cat's %s of the Salvo seek: %d %s", method, st, body)
		}
	}
}

// TestSeeksWaitThroughRestart: on both stores, a seek waiting as the
// server restarts waits after it, listed on the same terms, read by its
// player and paired with the next matching seek; a guest's too. One that
// paired just before the stop reads as paired after it. A stop longer
// than seek.HeldKept drops what waited.
func TestSeeksWaitThroughRestart(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		ann, bob := signUp(t, sf.srv.URL, "Ann"), signUp(t, sf.srv.URL, "Bob")
		gus := newGuest(t, sf.srv.URL, "Gus")
		var a, g seekAnswer
		if st, body := ann.do("POST", "/api/v1/seeks", `{"game": "nymphabet", "mode": "standard", "rated": true, "clock": 60, "rating_range": {"within": 200}}`, &a); st != 201 || a.Status != "waiting" {
			t.Fatalf("Ann seeks: %d %s", st, body)
		}
		if st, body := gus.do("POST", "/api/v1/seeks", `{"game": "salvo"}`, &g); st != 201 || g.Status != "waiting" {
			t.Fatalf("Gus seeks: %d %s", st, body)
		}
		// Cat's seek pairs with Dan's as the server stops, before her
		// page has read it.
		cat, dan := signUp(t, sf.srv.URL, "Cat"), signUp(t, sf.srv.URL, "Dan")
		var c, d seekAnswer
		cat.do("POST", "/api/v1/seeks", `{"game": "quizl"}`, &c)
		if st, body := dan.do("POST", "/api/v1/seeks", `{"game": "quizl"}`, &d); st != 201 || d.Status != "paired" {
			t.Fatalf("Dan seeks Cat's game: %d %s", st, body)
		}
		var before, after struct{ Seeks []seek.Seek }
		(&client{t: t, base: sf.srv.URL}).do("GET", "/api/v1/seeks", nil, &before)

		// restart stops the server for d.
		restart := func(d time.Duration) {
			sf.close()
			sf.srv.Close()
			sf.clock.Advance(d)
			sf.openSocial()
			ann.base, bob.base, gus.base, cat.base = sf.srv.URL, sf.srv.URL, sf.srv.URL, sf.srv.URL
		}
		restart(2 * time.Minute)
		(&client{t: t, base: sf.srv.URL}).do("GET", "/api/v1/seeks", nil, &after)
		if b, a := jsonOf(t, before.Seeks), jsonOf(t, after.Seeks); len(after.Seeks) != 2 || a != b {
			t.Fatalf("listed after the restart:\n%s\nbefore:\n%s", a, b)
		}
		var mine seek.Mine
		if st, body := ann.do("GET", "/api/v1/seeks/"+a.Seek.ID, nil, &mine); st != 200 || mine.Status != "waiting" {
			t.Fatalf("Ann reads her seek after the restart: %d %s", st, body)
		}
		if st, body := cat.do("GET", "/api/v1/seeks/"+c.Seek.ID, nil, &mine); st != 200 || mine.Status != "paired" || mine.Pairing.Table != d.Table.Table {
			t.Fatalf("Cat reads her seek, paired before the restart: %d %s", st, body)
		}
		var b seekAnswer
		if st, body := bob.do("POST", "/api/v1/seeks", `{"game": "nymphabet", "rated": true, "clock": 60}`, &b); st != 201 || b.Status != "paired" {
			t.Fatalf("Bob seeks after the restart: %d %s", st, body)
		}
		if st, body := ann.do("GET", "/api/v1/seeks/"+a.Seek.ID, nil, &mine); st != 200 || mine.Status != "paired" || mine.Pairing.Table != b.Table.Table {
			t.Fatalf("Ann reads her seek once Bob's paired: %d %s", st, body)
		}

		// Gus's seek waits through a second restart, but not through a
		// stop longer than HeldKept.
		restart(10 * time.Second)
		if st, body := gus.do("GET", "/api/v1/seeks/"+g.Seek.ID, nil, &mine); st != 200 || mine.Status != "waiting" {
			t.Fatalf("Gus reads his seek after the restart: %d %s", st, body)
		}
		restart(seek.HeldKept + time.Second)
		if st, body := gus.do("GET", "/api/v1/seeks/"+g.Seek.ID, nil, nil); st != 404 {
			t.Fatalf("Gus reads his seek after a long stop: %d %s", st, body)
		}
	})
}

// jsonOf returns v as JSON.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
