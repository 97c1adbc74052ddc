package server

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"parlour/server/internal/servertest"
	"parlour/server/players"
	"parlour/server/relations"
	"parlour/server/social"
	"parlour/server/table"
)

type followList struct {
	Follows []social.Followed `json:"follows"`
}

type blockList struct {
	Blocks []relations.Entry `json:"blocks"`
}

func followsOf(t *testing.T, c *client) []social.Followed {
	t.Helper()
	var l followList
	if st, body := c.do("GET", "/api/v1/follows", nil, &l); st != 200 {
		t.Fatalf("GET follows: %d %s", st, body)
	}
	return l.Follows
}

// TestFollowEndToEnd: Ann follows Ben. Her list shows him online; when
// both have been away and she keeps her stream open, Ben's stream opening
// reaches hers as followOnline while it is open (the time it took is
// logged), and his starting a game as followPlaying with the table, which
// her list then shows. An unfollow ends it.
func TestFollowEndToEnd(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		ann, ben := signUp(t, sf.srv.URL, "Ann"), signUp(t, sf.srv.URL, "Ben")
		ben.do("GET", "/api/v1/account", nil, nil) // Ben is about
		var e relations.Entry
		if st, body := ann.do("POST", "/api/v1/follows", `{"name": "BEN"}`, &e); st != 201 || e.Name != "Ben" {
			t.Fatalf("follow: %d %s", st, body)
		}
		if st, body := ann.do("POST", "/api/v1/follows", `{"name": "ben"}`, nil); st != 201 {
			t.Fatalf("follow again: %d %s", st, body)
		}
		if l := followsOf(t, ann); len(l) != 1 || l[0].Name != "Ben" || !l[0].Online || len(l[0].Playing) != 0 || !l[0].Since.Equal(e.Since) {
			t.Fatalf("Ann's follows: %+v, want Ben online since %v", l, e.Since)
		}
		if l := followsOf(t, ben); len(l) != 0 {
			t.Fatalf("Ben's follows: %+v, want none (following is one way)", l)
		}

		// Both go away; Ann comes back with her stream, then Ben with his.
		sf.clock.Advance(social.OnlineWindow + time.Second)
		if l := followsOf(t, ann); len(l) != 1 || l[0].Online {
			t.Fatalf("Ann's follows after Ben went away: %+v", l)
		}
		annStream := openStream(t, sf.srv.URL, ann.token)
		start := time.Now()
		openStream(t, sf.srv.URL, ben.token)
		ev := annStream.next("followOnline")
		took := time.Since(start)
		if ev.Follow == nil || ev.Follow.Name != "Ben" || ev.Follow.Table != nil {
			t.Fatalf("followOnline: %+v", ev)
		}
		t.Logf("Ben's coming online reached Ann's stream %v after his stream opened", took)

		var seated table.Seated
		if st, body := ben.do("POST", "/api/v1/tables", `{"game": "quizl", "seats": ["me"]}`, &seated); st != 201 {
			t.Fatalf("Ben's table: %d %s", st, body)
		}
		ev = annStream.next("followPlaying")
		if ev.Follow == nil || ev.Follow.Name != "Ben" || ev.Follow.Table == nil || *ev.Follow.Table != (social.FollowTable{ID: seated.Table, Game: "quizl"}) {
			t.Fatalf("followPlaying: %+v", ev.Follow)
		}
		if l := followsOf(t, ann); len(l) != 1 || !l[0].Online || !slices.Equal(l[0].Playing, []social.FollowTable{{ID: seated.Table, Game: "quizl"}}) {
			t.Fatalf("Ann's follows with Ben playing: %+v", l)
		}

		if st, body := ann.do("DELETE", "/api/v1/follows/ben", nil, nil); st != 204 {
			t.Fatalf("unfollow: %d %s", st, body)
		}
		if st, body := ann.do("DELETE", "/api/v1/follows/Ben", nil, nil); st != 404 || !strings.Contains(body, "you are not following Ben") {
			t.Fatalf("unfollow again: %d %s", st, body)
		}
		if l := followsOf(t, ann); len(l) != 0 {
			t.Fatalf("Ann's follows after the unfollow: %+v", l)
		}

		// Cat, followed, hides from the list of players online: Ann
		// sees her offline. Then Cat deletes her account, and with it
		// goes Ann's follow.
		cat := signUp(t, sf.srv.URL, "Cat")
		cat.do("GET", "/api/v1/account", nil, nil) // Cat is about
		if st, body := ann.do("POST", "/api/v1/follows", `{"name": "Cat"}`, nil); st != 201 {
			t.Fatalf("follow Cat: %d %s", st, body)
		}
		if l := followsOf(t, ann); len(l) != 1 || !l[0].Online {
			t.Fatalf("Ann's follows: %+v, want Cat online", l)
		}
		if st, body := cat.do("PUT", "/api/v1/account/settings", `{"hidden": true}`, nil); st != 200 {
			t.Fatalf("Cat hides: %d %s", st, body)
		}
		if l := followsOf(t, ann); len(l) != 1 || l[0].Online {
			t.Errorf("Ann's follows with Cat hidden: %+v, want her offline", l)
		}
		if st, body := cat.do("DELETE", "/api/v1/account", `{"password": "`+testPassword+`"}`, nil); st >= 300 {
			t.Fatalf("Cat deletes her account: %d %s", st, body)
		}
		if l := followsOf(t, ann); len(l) != 0 {
			t.Errorf("Ann's follows after Cat's account went: %+v", l)
		}
	})
}

// TestFollowBadInput: following or blocking nobody, oneself or a player
// who does not exist, as a guest or with no token, is refused in words
// that name the problem, and nothing changes.
func TestFollowBadInput(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) { followBadInput(t, newSocialOn(t, k)) })
}

func followBadInput(t *testing.T, sf *socialFixture) {
	ann := signUp(t, sf.srv.URL, "Ann")
	signUp(t, sf.srv.URL, "Ben")
	guest := &client{t: t, base: sf.srv.URL}
	var id table.Identity
	guest.do("POST", "/api/v1/identity", `{"name": "Gus"}`, &id)
	guest.token = id.Token
	nobody := &client{t: t, base: sf.srv.URL}
	for _, kind := range []string{"follows", "blocks"} {
		do := strings.TrimSuffix(kind, "s")
		for _, c := range []struct {
			name   string
			who    *client
			method string
			path   string
			body   string
			status int
			says   string
		}{
			{"yourself", ann, "POST", "", `{"name": "ann"}`, 400, "you cannot " + do + " yourself"},
			{"nobody named", ann, "POST", "", `{"name": " "}`, 400, `"name" is a player's account name`},
			{"a missing player", ann, "POST", "", `{"name": "Zed"}`, 404, `there is no player called "Zed"`},
			{"an unknown field", ann, "POST", "", `{"name": "Ben", "loud": true}`, 400, "loud"},
			{"a guest", guest, "POST", "", `{"name": "Ben"}`, 403, "is for players with accounts"},
			{"no token", nobody, "POST", "", `{"name": "Ben"}`, 401, ""},
			{"a guest's list", guest, "GET", "", "", 403, "is for players with accounts"},
			{"undoing what was not done", ann, "DELETE", "/Ben", "", 404, "you are not " + do + "ing Ben"},
			{"undoing of a missing player", ann, "DELETE", "/Zed", "", 404, `there is no player called "Zed"`},
			{"undoing of yourself", ann, "DELETE", "/Ann", "", 400, "you cannot " + do + " yourself"},
		} {
			var body any
			if c.body != "" {
				body = c.body
			}
			st, got := c.who.do(c.method, "/api/v1/"+kind+c.path, body, nil)
			var refused struct{ Error string }
			json.Unmarshal([]byte(got), &refused)
			if st != c.status || !strings.Contains(refused.Error, c.says) {
				t.Errorf("%s %s: %d %s; want %d saying %q", do, c.name, st, got, c.status, c.says)
			}
		}
	}
	if l := followsOf(t, ann); len(l) != 0 {
		t.Errorf("refusals left follows: %+v", l)
	}
	var bl blockList
	if st, body := ann.do("GET", "/api/v1/blocks", nil, &bl); st != 200 || len(bl.Blocks) != 0 {
		t.Errorf("refusals left blocks: %d %s", st, body)
	}
}

// TestFollowsRateLimited: an identity that follows and unfollows on and
// on is stopped after relations.ChangesBurst changes (and the few its
// bucket refilled while they went, on a slow machine), and the refused
// change changes nothing.
func TestFollowsRateLimited(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	ann := signUp(t, sf.srv.URL, "Ann")
	signUp(t, sf.srv.URL, "Ben")
	start := time.Now()
	accepted := 0
	for {
		method, path, body := "POST", "/api/v1/follows", any(`{"name": "Ben"}`)
		if accepted%2 == 1 {
			method, path, body = "DELETE", "/api/v1/follows/Ben", nil
		}
		st, got := ann.do(method, path, body, nil)
		if st == 429 {
			if !strings.Contains(got, "too many follows") {
				t.Fatalf("the refusal: %s", got)
			}
			break
		}
		if st >= 300 {
			t.Fatalf("change %d: %d %s", accepted+1, st, got)
		}
		accepted++
		// The bucket refills one change every 3 s while the requests go.
		if most := relations.ChangesBurst + 1 + int(time.Since(start).Seconds()*relations.ChangesPerIdentity); accepted > most {
			t.Fatalf("%d changes accepted, more than the burst of %d and what refilled", accepted, relations.ChangesBurst)
		}
	}
	if accepted < relations.ChangesBurst {
		t.Fatalf("refused after %d changes, fewer than the burst of %d", accepted, relations.ChangesBurst)
	}
	// An even count left Ben unfollowed; the refused change was a follow.
	if l := followsOf(t, ann); len(l) != accepted%2 {
		t.Errorf("after %d changes and a refused one Ann follows %+v", accepted, l)
	}
}

// TestBlockEndToEnd: Ann blocks Ben. He cannot challenge her (the
// refusal does not say she blocked him), nor write in her table's chat,
// nor see her in the list of players online or in his follows, nor hear
// that she came online; she cannot challenge him while she blocks him.
// Cat, whom Ann does not block, sees her and may challenge her. An
// unblock undoes it all.
func TestBlockEndToEnd(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		ann, ben, cat := signUp(t, sf.srv.URL, "Ann"), signUp(t, sf.srv.URL, "Ben"), signUp(t, sf.srv.URL, "Cat")
		for _, c := range []*client{ben, cat} {
			if st, body := c.do("POST", "/api/v1/follows", `{"name": "Ann"}`, nil); st != 201 {
				t.Fatalf("follow Ann: %d %s", st, body)
			}
		}
		// A challenge Ben made before the block.
		var before social.Challenge
		if st, body := ben.do("POST", "/api/v1/challenges", `{"to": "Ann", "game": "salvo"}`, &before); st != 201 {
			t.Fatalf("Ben's challenge before the block: %d %s", st, body)
		}
		var e relations.Entry
		if st, body := ann.do("POST", "/api/v1/blocks", `{"name": "ben"}`, &e); st != 201 || e.Name != "Ben" {
			t.Fatalf("block: %d %s", st, body)
		}
		var bl blockList
		if st, body := ann.do("GET", "/api/v1/blocks", nil, &bl); st != 200 || len(bl.Blocks) != 1 || bl.Blocks[0].Name != "Ben" {
			t.Fatalf("Ann's blocks: %d %s", st, body)
		}
		if st, body := ben.do("GET", "/api/v1/blocks", nil, &bl); st != 200 || len(bl.Blocks) != 0 {
			t.Fatalf("Ben's blocks: %d %s; want none", st, body)
		}

		// Challenges.
		st, body := ben.do("POST", "/api/v1/challenges", `{"to": "Ann", "game": "nymphabet"}`, nil)
		if st != 403 || !strings.Contains(body, "Ann is not taking challenges from you") || strings.Contains(strings.ToLower(body), "block") {
			t.Errorf("Ben challenges Ann: %d %s; want 403 that does not tell of the block", st, body)
		}
		if st, body := ann.do("POST", "/api/v1/challenges", `{"to": "Ben", "game": "nymphabet"}`, nil); st != 409 || !strings.Contains(body, "you have blocked Ben") {
			t.Errorf("Ann challenges Ben: %d %s; want 409", st, body)
		}
		if l := listOf(t, ann); len(l.In) != 0 || len(l.Out) != 0 {
			t.Errorf("Ann's challenges: %+v; want none (the refused were not made, Ben's earlier one is hidden from her)", l)
		}
		if st, body := ann.do("POST", "/api/v1/challenges/"+before.ID+"/accept", nil, nil); st != 409 || !strings.Contains(body, "you have blocked Ben") {
			t.Errorf("Ann accepts Ben's earlier challenge: %d %s; want 409", st, body)
		}
		if st, body := cat.do("POST", "/api/v1/challenges", `{"to": "Ann", "game": "nymphabet"}`, nil); st != 201 {
			t.Errorf("Cat challenges Ann: %d %s", st, body)
		}

		// Presence: Ann comes online while Ben and Cat listen.
		sf.clock.Advance(social.OnlineWindow + time.Second)
		benStream, catStream := openStream(t, sf.srv.URL, ben.token), openStream(t, sf.srv.URL, cat.token)
		openStream(t, sf.srv.URL, ann.token)
		if ev := catStream.next("followOnline"); ev.Follow == nil || ev.Follow.Name != "Ann" {
			t.Errorf("Cat's followOnline: %+v", ev)
		}
		online := func(c *client) []string {
			t.Helper()
			var on social.Online
			if st, body := c.do("GET", "/api/v1/online", nil, &on); st != 200 {
				t.Fatalf("online: %d %s", st, body)
			}
			var names []string
			for _, p := range on.Players {
				names = append(names, p.Name)
			}
			return names
		}
		if names := online(ben); slices.Contains(names, "Ann") || !slices.Contains(names, "Cat") {
			t.Errorf("Ben's list of players online: %q; want Cat and not Ann", names)
		}
		if names := online(cat); !slices.Contains(names, "Ann") {
			t.Errorf("Cat's list of players online: %q; want Ann", names)
		}
		if l := followsOf(t, ben); len(l) != 1 || l[0].Online {
			t.Errorf("Ben's follows: %+v; want Ann, not online", l)
		}
		if l := followsOf(t, cat); len(l) != 1 || !l[0].Online {
			t.Errorf("Cat's follows: %+v; want Ann online", l)
		}

		// Chat at Ann's table.
		var seated table.Seated
		if st, body := ann.do("POST", "/api/v1/tables", `{"game": "nymphabet", "seats": ["me", "open"]}`, &seated); st != 201 {
			t.Fatalf("Ann's table: %d %s", st, body)
		}
		chat := `{"channel": "spectators", "text": "hello"}`
		st, body = ben.do("POST", "/api/v1/tables/"+seated.Table+"/chat", chat, nil)
		if st != 403 || strings.Contains(strings.ToLower(body), "block") {
			t.Errorf("Ben writes in Ann's table's chat: %d %s; want 403 that does not tell of the block", st, body)
		}
		if st, body := cat.do("POST", "/api/v1/tables/"+seated.Table+"/chat", chat, nil); st != 201 {
			t.Errorf("Cat writes in Ann's table's chat: %d %s", st, body)
		}

		// Ann's followPlaying reaches Cat but not Ben; nor did her
		// coming online reach Ben, whose stream has had nothing since.
		if st, body := ann.do("POST", "/api/v1/tables", `{"game": "quizl", "seats": ["me"]}`, nil); st != 201 {
			t.Fatalf("Ann's game: %d %s", st, body)
		}
		catStream.next("followPlaying")
		// Ben is told Ben's own news after Ann's would have come: a
		// challenge from Cat.
		if st, body := cat.do("POST", "/api/v1/challenges", `{"to": "Ben", "game": "nymphabet"}`, nil); st != 201 {
			t.Fatalf("Cat challenges Ben: %d %s", st, body)
		}
		for _, ev := range benStream.until("challenge") {
			if ev.Follow != nil {
				t.Errorf("Ben heard of Ann: %+v", ev)
			}
		}

		if st, body := ann.do("DELETE", "/api/v1/blocks/Ben", nil, nil); st != 204 {
			t.Fatalf("unblock: %d %s", st, body)
		}
		if st, body := ben.do("POST", "/api/v1/challenges", `{"to": "Ann", "game": "nymphabet"}`, nil); st != 201 {
			t.Errorf("Ben challenges Ann once unblocked: %d %s", st, body)
		}
		if st, body := ben.do("POST", "/api/v1/tables/"+seated.Table+"/chat", chat, nil); st != 201 {
			t.Errorf("Ben writes in Ann's table's chat once unblocked: %d %s", st, body)
		}
		if names := online(ben); !slices.Contains(names, "Ann") {
			t.Errorf("Ben's list of players online once unblocked: %q; want Ann", names)
		}
	})
}

// until returns the events before the next of type typ.
func (ls *lineStream) until(typ string) []social.StreamEvent {
	ls.t.Helper()
	before, _ := ls.scan(typ)
	return before
}

// TestBlockHidesChallengeMadeBefore: Ann challenges Ben, then blocks
// him. Her challenge leaves her list and her stream's opening lines, as
// one of his to her would, and Ben can no longer accept it; an unblock
// brings it back while it waits.
func TestBlockHidesChallengeMadeBefore(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	ann, ben := signUp(t, sf.srv.URL, "Ann"), signUp(t, sf.srv.URL, "Ben")
	var ch social.Challenge
	if st, body := ann.do("POST", "/api/v1/challenges", `{"to": "Ben", "game": "salvo"}`, &ch); st != 201 {
		t.Fatalf("Ann's challenge: %d %s", st, body)
	}
	if st, body := ann.do("POST", "/api/v1/blocks", `{"name": "Ben"}`, nil); st != 201 {
		t.Fatalf("block: %d %s", st, body)
	}
	if l := listOf(t, ann); len(l.In) != 0 || len(l.Out) != 0 {
		t.Errorf("Ann's challenges once she blocks Ben: %+v; want none", l)
	}
	stream := openStream(t, sf.srv.URL, ann.token)
	if st, body := ann.do("POST", "/api/v1/tables", `{"game": "quizl", "seats": ["me"]}`, nil); st != 201 {
		t.Fatalf("Ann's table: %d %s", st, body)
	}
	for _, ev := range stream.until("gameStart") {
		if ev.Challenge != nil {
			t.Errorf("Ann's stream opens with %s %+v; want nothing of her challenge to Ben", ev.Type, ev.Challenge)
		}
	}
	if st, body := ben.do("POST", "/api/v1/challenges/"+ch.ID+"/accept", nil, nil); st != 409 || strings.Contains(strings.ToLower(body), "block") {
		t.Errorf("Ben accepts: %d %s; want 409 that does not tell of the block", st, body)
	}
	if st, body := ann.do("DELETE", "/api/v1/blocks/Ben", nil, nil); st != 204 {
		t.Fatalf("unblock: %d %s", st, body)
	}
	if l := listOf(t, ann); len(l.Out) != 1 || l.Out[0].ID != ch.ID {
		t.Errorf("Ann's challenges once she unblocks Ben: %+v; want hers to him", l)
	}
}

// TestBlockKeepsFromJoin: a block keeps two players from one table as it
// keeps them from a challenge: neither's lobby lists the other's open
// table, Ben, whom Ann blocks, cannot take the open seat at her table (he
// is not told why), nor she the one at his; Cat takes either, and so does
// Ben once Ann unblocks him.
func TestBlockKeepsFromJoin(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		base := sf.srv.URL
		ann, ben, cat := signUp(t, base, "Ann"), signUp(t, base, "Ben"), signUp(t, base, "Cat")
		if st, body := ann.do("POST", "/api/v1/blocks", `{"name": "Ben"}`, nil); st != 201 {
			t.Fatalf("block: %d %s", st, body)
		}
		open := func(c *client) string {
			t.Helper()
			var s table.Seated
			if st, body := c.do("POST", "/api/v1/tables", `{"game": "nymphabet", "seats": ["me", "open"]}`, &s); st != 201 {
				t.Fatalf("a table: %d %s", st, body)
			}
			return s.Table
		}
		annsTable, bensTable := open(ann), open(ben)
		// Nor does the lobby list either the other's open table, as it
		// does not their seeks; Cat, and a reader without an identity,
		// see both.
		anon := &client{t: t, base: base}
		for _, c := range []struct {
			name string
			who  *client
			want []string
		}{
			{"Ann", ann, []string{annsTable}},
			{"Ben", ben, []string{bensTable}},
			{"Cat", cat, []string{annsTable, bensTable}},
			{"nobody", anon, []string{annsTable, bensTable}},
		} {
			var l struct{ Tables []table.Info }
			if st, body := c.who.do("GET", "/api/v1/tables?status=open", nil, &l); st != 200 {
				t.Fatalf("%s's lobby: %d %s", c.name, st, body)
			}
			var got []string
			for _, in := range l.Tables {
				got = append(got, in.ID)
			}
			slices.Sort(got)
			if want := slices.Sorted(slices.Values(c.want)); !slices.Equal(got, want) {
				t.Errorf("%s's lobby lists %v, want %v", c.name, got, want)
			}
		}
		for _, c := range []struct {
			who    *client
			table  string
			status int
			want   string
		}{
			{ben, annsTable, 403, "Ann is not taking a game with you"},
			{ann, bensTable, 409, "you have blocked Ben"},
		} {
			st, body := c.who.do("POST", "/api/v1/tables/"+c.table+"/join", `{}`, nil)
			if st != c.status || !strings.Contains(body, c.want) || (c.status == 403 && strings.Contains(strings.ToLower(body), "block")) {
				t.Errorf("join %s: %d %s; want %d saying %q", c.table, st, body, c.status, c.want)
			}
		}
		// The limit counts the tables Ben may take: Ann's newer tables,
		// left out, do not crowd Cat's out of it.
		catsTable := open(cat)
		for range 3 {
			open(ann)
		}
		var short struct{ Tables []table.Info }
		if st, body := ben.do("GET", "/api/v1/tables?status=open&limit=2", nil, &short); st != 200 || len(short.Tables) != 2 || short.Tables[0].ID != catsTable || short.Tables[1].ID != bensTable {
			t.Errorf("Ben's lobby of 2, Ann's newest tables left out: %d %s, want Cat's table and his own", st, body)
		}
		// Nothing changed: the seats are still open.
		expect(t, cat, "POST", "/api/v1/tables/"+bensTable+"/join", `{}`, 200, `"seat":1`)
		if st, body := ann.do("DELETE", "/api/v1/blocks/Ben", nil, nil); st != 204 {
			t.Fatalf("unblock: %d %s", st, body)
		}
		var l struct{ Tables []table.Info }
		ben.do("GET", "/api/v1/tables?status=open", nil, &l)
		if !slices.ContainsFunc(l.Tables, func(in table.Info) bool { return in.ID == annsTable }) {
			t.Errorf("unblocked, Ann's table is not in Ben's lobby: %+v", l.Tables)
		}
		expect(t, ben, "POST", "/api/v1/tables/"+annsTable+"/join", `{}`, 200, `"seat":1`)
	})
}

// TestBlockKeepsSignedUpGuestsTableApart: a guest who opened a table
// and signed up as Gus still sits there under the guest's name; once Ann
// blocks Gus, her lobby leaves his table out as it does his account's
// tables, where it listed it by the seat's name, and a join there is
// refused naming Gus, whom she blocked, not the guest.
func TestBlockKeepsSignedUpGuestsTableApart(t *testing.T) {
	t.Parallel()
	base := newSocial(t).srv.URL
	ann, cat := signUp(t, base, "Ann"), signUp(t, base, "Cat")
	gus := newGuest(t, base, "")
	var s table.Seated
	if st, body := gus.do("POST", "/api/v1/tables", `{"game": "nymphabet", "seats": ["me", "open"]}`, &s); st != 201 {
		t.Fatalf("the guest's table: %d %s", st, body)
	}
	var session players.Session
	if st, body := gus.do("POST", "/api/v1/accounts", `{"name": "Gus", "password": "a long secret phrase"}`, &session); st != 201 {
		t.Fatalf("sign-up: %d %s", st, body)
	}
	if st, body := ann.do("POST", "/api/v1/blocks", `{"name": "Gus"}`, nil); st != 201 {
		t.Fatalf("block: %d %s", st, body)
	}
	for _, c := range []struct {
		name   string
		who    *client
		listed bool
	}{{"Ann", ann, false}, {"Cat", cat, true}} {
		var l struct{ Tables []table.Info }
		if st, body := c.who.do("GET", "/api/v1/tables?status=open", nil, &l); st != 200 {
			t.Fatalf("%s's lobby: %d %s", c.name, st, body)
		}
		if got := slices.ContainsFunc(l.Tables, func(in table.Info) bool { return in.ID == s.Table }); got != c.listed {
			t.Errorf("%s's lobby lists the table Gus opened as a guest: %v, want %v (%+v)", c.name, got, c.listed, l.Tables)
		}
	}
	expect(t, ann, "POST", "/api/v1/tables/"+s.Table+"/join", `{}`, 409, "you have blocked Gus")
}

// TestBlockHidesChatLines: Ann blocks Ben, and his lines reach her at no
// table, her own or another's: where both watch Cat's game, she reads
// the spectators' chat without his lines, in her chat pages, her view of
// the table and the table's events as they come, while Dee, watching
// too, reads them all. She may still report his line; once she unblocks
// him, she reads his lines again.
func TestBlockHidesChatLines(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		base := sf.srv.URL
		ann, ben, cat, dee := signUp(t, base, "Ann"), signUp(t, base, "Ben"), signUp(t, base, "Cat"), signUp(t, base, "Dee")
		var cats table.Seated
		if st, body := cat.do("POST", "/api/v1/tables", `{"game": "nymphabet", "seats": ["me", "computer:easy"]}`, &cats); st != 201 {
			t.Fatalf("Cat's table: %d %s", st, body)
		}
		path := "/api/v1/tables/" + cats.Table
		if st, body := ann.do("POST", "/api/v1/blocks", `{"name": "Ben"}`, nil); st != 201 {
			t.Fatalf("block: %d %s", st, body)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", base+path+"/events", nil)
		req.Header.Set("Authorization", "Bearer "+ann.token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		events := bufio.NewScanner(res.Body)
		events.Buffer(nil, 1<<20)
		nextChat := func() string {
			t.Helper()
			for events.Scan() {
				var u struct{ Chat []table.ChatLine }
				json.Unmarshal(events.Bytes(), &u)
				if len(u.Chat) > 0 {
					return chatTexts(u.Chat)
				}
			}
			t.Fatalf("Ann's events ended: %v", events.Err())
			return ""
		}
		for _, c := range []struct {
			who  *client
			text string
		}{{ben, "boo Ann"}, {dee, "hi all"}} {
			expect(t, c.who, "POST", path+"/chat", map[string]string{"channel": "spectators", "text": c.text}, 201, c.text)
		}
		if got := nextChat(); got != "spectators:Dee:hi all" {
			t.Errorf("Ann's events: %q", got)
		}
		read := func(c *client) (page, view string) {
			t.Helper()
			var p, v struct{ Chat []table.ChatLine }
			if st, body := c.do("GET", path+"/chat", nil, &p); st != 200 {
				t.Fatalf("chat page: %d %s", st, body)
			}
			if st, body := c.do("GET", path, nil, &v); st != 200 {
				t.Fatalf("view: %d %s", st, body)
			}
			return chatTexts(p.Chat), chatTexts(v.Chat)
		}
		all := "spectators:Ben:boo Ann | spectators:Dee:hi all"
		for _, c := range []struct {
			name string
			who  *client
			want string
		}{{"Ann", ann, "spectators:Dee:hi all"}, {"Dee", dee, all}} {
			if page, view := read(c.who); page != c.want || view != c.want {
				t.Errorf("%s reads %q in the chat page and %q in the view; want %q", c.name, page, view, c.want)
			}
		}
		// She may still report his line, which she read before.
		expect(t, ann, "POST", "/api/v1/reports", map[string]any{"table": cats.Table, "seq": 1, "reason": "chat"}, 201, `"name":"Ben"`)
		if st, body := ann.do("DELETE", "/api/v1/blocks/Ben", nil, nil); st != 204 {
			t.Fatalf("unblock: %d %s", st, body)
		}
		if page, view := read(ann); page != all || view != all {
			t.Errorf("Ann, once she unblocked Ben, reads %q and %q; want %q", page, view, all)
		}
	})
}

// TestGuestChatSetting: an account that takes chat from players with
// accounts only keeps guests out of both chats of its table, saying so,
// while accounts, itself included, write on; the setting comes and goes
// with the account's other settings, and a bad one changes nothing.
func TestGuestChatSetting(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		base := sf.srv.URL
		ann, dee := signUp(t, base, "Ann"), signUp(t, base, "Dee")
		guest := func(name string) *client { return newGuest(t, base, name) }
		gus, ida := guest("Gus"), guest("Ida")
		sf.clock.Advance(table.GuestSpectatorsDelay) // a new guest waits to write to spectators
		var anns, gusSeat table.Seated
		if st, body := ann.do("POST", "/api/v1/tables", `{"game": "nymphabet", "seats": ["me", "open"]}`, &anns); st != 201 {
			t.Fatalf("Ann's table: %d %s", st, body)
		}
		path := "/api/v1/tables/" + anns.Table
		if st, body := gus.do("POST", path+"/join", map[string]any{}, &gusSeat); st != 200 {
			t.Fatalf("Gus joins: %d %s", st, body)
		}
		gusAt := &client{t: t, base: base, token: gusSeat.Token}
		players := func(text string) map[string]string { return map[string]string{"channel": "players", "text": text} }
		spectators := func(text string) map[string]string { return map[string]string{"channel": "spectators", "text": text} }

		expect(t, ann, "GET", "/api/v1/account/settings", nil, 200, `{"hidden":false,"guest_chat":true}`)
		expect(t, gusAt, "POST", path+"/chat", players("good luck"), 201, `"seq":1`)
		expect(t, ann, "PUT", "/api/v1/account/settings", `{"guest_chat": false}`, 200, `{"hidden":false,"guest_chat":false}`)
		expect(t, ann, "GET", "/api/v1/account/settings", nil, 200, `{"hidden":false,"guest_chat":false}`)
		const refused = "Ann takes chat from players with accounts only: sign up or sign in to write here"
		for _, c := range []struct {
			name string
			who  *client
			body map[string]string
		}{{"Gus at his seat", gusAt, players("you lost")}, {"Gus as himself", gus, players("you lost")}, {"Ida watching", ida, spectators("boo")}} {
			if st, body := c.who.do("POST", path+"/chat", c.body, nil); st != 403 || !strings.Contains(body, refused) {
				t.Errorf("%s writes: %d %s; want 403 saying %q", c.name, st, body, refused)
			}
		}
		expect(t, ann, "POST", path+"/chat", players("thanks"), 201, `"seq":2`)
		expect(t, dee, "POST", path+"/chat", spectators("nice start"), 201, `"seq":3`)
		// Each chat holds its lines and nothing of the refused ones (the
		// players' is the players' until the end).
		for _, c := range []struct {
			name string
			who  *client
			want string
		}{{"Ann", ann, "players:Gus:good luck | players:Ann:thanks"}, {"Dee", dee, "spectators:Dee:nice start"}} {
			var page struct{ Chat []table.ChatLine }
			if st, body := c.who.do("GET", path+"/chat", nil, &page); st != 200 {
				t.Fatalf("chat page: %d %s", st, body)
			} else if got := chatTexts(page.Chat); got != c.want {
				t.Errorf("%s reads %q; want %q", c.name, got, c.want)
			}
		}

		// Refused, and nothing changes.
		for _, c := range []struct {
			name   string
			who    *client
			body   string
			status int
			want   string
		}{
			{"not a boolean", ann, `{"guest_chat": "no"}`, 400, "guest_chat"},
			{"a field of no setting", ann, `{"guest_chats": true}`, 400, "guest_chats"},
			{"a guest", gus, `{"guest_chat": true}`, 403, "accounts"},
			{"nobody", &client{t: t, base: base}, `{"guest_chat": true}`, 401, ""},
		} {
			if st, body := c.who.do("PUT", "/api/v1/account/settings", c.body, nil); st != c.status || !strings.Contains(body, c.want) {
				t.Errorf("%s: %d %s; want %d saying %q", c.name, st, body, c.status, c.want)
			}
		}
		expect(t, ann, "GET", "/api/v1/account/settings", nil, 200, `{"hidden":false,"guest_chat":false}`)

		// Hiding leaves the chat setting alone; taking guests' chat again
		// lets Gus write.
		expect(t, ann, "PUT", "/api/v1/account/settings", `{"hidden": true}`, 200, `{"hidden":true,"guest_chat":false}`)
		expect(t, ann, "PUT", "/api/v1/account/settings", `{"guest_chat": true, "hidden": false}`, 200, `{"hidden":false,"guest_chat":true}`)
		expect(t, gusAt, "POST", path+"/chat", players("rematch?"), 201, `"seq":4`)
	})
}

// chatTexts says lines as "channel:name:text", joined by " | ".
func chatTexts(lines []table.ChatLine) string {
	var out []string
	for _, l := range lines {
		out = append(out, l.Channel+":"+l.Name+":"+l.Text)
	}
	return strings.Join(out, " | ")
}
