package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"testing"

	"parlour/server/social"
	"parlour/server/table"
)

// TestRatedGamesPerPair: two players may finish RatedPerPair rated games
// together in a day; the next, by a join or by a challenge, is refused
// with nothing changed, while casual games and other opponents go on.
// Aborted games do not count.
func TestRatedGamesPerPair(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	ann, bob, cat := signUp(t, srv.URL, "Ann"), signUp(t, srv.URL, "Bob"), signUp(t, srv.URL, "Cat")
	for i := range table.RatedPerPair - 1 {
		playNymphabet(t, ann, bob, map[string]any{"rated": true}, i%2)
	}
	// An aborted one counts for nothing: one more rated game may follow.
	var ab, bb table.Seated
	if st, body := ann.do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "rated": true}, &ab); st != 201 {
		t.Fatalf("create: %d %s", st, body)
	}
	if st, body := bob.do("POST", "/api/v1/tables/"+ab.Table+"/join", map[string]any{}, &bb); st != 200 {
		t.Fatalf("join: %d %s", st, body)
	}
	if st, body := (&client{t: t, base: srv.URL, token: bb.Token}).do("POST", "/api/v1/tables/"+ab.Table+"/abort", nil, nil); st != 200 {
		t.Fatalf("abort: %d %s", st, body)
	}
	last := playNymphabet(t, ann, bob, map[string]any{"rated": true}, 0)
	var sa table.Seated
	if st, body := ann.do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "rated": true}, &sa); st != 201 {
		t.Fatalf("create: %d %s", st, body)
	}
	st, body := bob.do("POST", "/api/v1/tables/"+sa.Table+"/join", map[string]any{}, nil)
	if st != 429 || !strings.Contains(body, "rated games together") {
		t.Fatalf("an 11th rated game for the pair: %d %s", st, body)
	}
	var u table.Update
	if st, body := ann.do("GET", "/api/v1/tables/"+sa.Table, nil, &u); st != 200 || u.Table.Seats[1].Kind != "open" {
		t.Fatalf("the table after the refused join: %d %s", st, body)
	}
	var ch social.Challenge
	if st, body := ann.do("POST", "/api/v1/challenges", map[string]any{"to": "Bob", "game": "nymphabet", "rated": true}, &ch); st != 201 {
		t.Fatalf("a rated challenge: %d %s", st, body)
	}
	if st, body := bob.do("POST", "/api/v1/challenges/"+ch.ID+"/accept", nil, nil); st != 429 {
		t.Fatalf("accepting it: %d %s, want 429", st, body)
	}
	// Nor does a rematch of their last rated game start an 11th.
	if st, body := bob.do("POST", "/api/v1/tables/"+last+"/rematch", map[string]any{}, nil); st != 429 || !strings.Contains(body, "rated games together") {
		t.Fatalf("a rematch of the pair's 10th rated game: %d %s, want 429", st, body)
	}
	if st, body := ann.do("GET", "/api/v1/tables/"+last, nil, &u); st != 200 || u.Table.Rematch != "" {
		t.Fatalf("the finished table after the refused rematch: %d %s", st, body)
	}
	playNymphabet(t, ann, bob, map[string]any{}, 0) // casual: no cap
	if st, body := cat.do("POST", "/api/v1/tables/"+sa.Table+"/join", map[string]any{}, nil); st != 200 {
		t.Fatalf("another opponent: %d %s", st, body)
	}
}

// TestRatedPerPairCountsEveryGame: the cap counts the rated games a pair
// has under way as well as those finished, so that tables opened side by
// side do not slip past it, and it counts them however many other games
// the players finished since.
func TestRatedPerPairCountsEveryGame(t *testing.T) {
	t.Parallel()
	// Two servers, so that the new accounts' allowance of rated games an
	// address starts holds up neither part.
	srv := startServer(t, newGamesFixture(t), generous)
	ann, bob, cat := signUp(t, srv.URL, "Ann"), signUp(t, srv.URL, "Bob"), signUp(t, srv.URL, "Cat")
	srv2 := startServer(t, newGamesFixture(t), generous)
	eve, dee := signUp(t, srv2.URL, "Eve"), signUp(t, srv2.URL, "Dee")
	open := func(who *client) string {
		t.Helper()
		var sa table.Seated
		if st, body := who.do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "rated": true}, &sa); st != 201 {
			t.Fatalf("create: %d %s", st, body)
		}
		return sa.Table
	}
	for i := range table.RatedPerPair {
		if st, body := bob.do("POST", "/api/v1/tables/"+open(ann)+"/join", map[string]any{}, nil); st != 200 {
			t.Fatalf("rated table %d side by side: %d %s", i+1, st, body)
		}
	}
	if st, body := bob.do("POST", "/api/v1/tables/"+open(ann)+"/join", map[string]any{}, nil); st != 429 || !strings.Contains(body, "rated games together") {
		t.Fatalf("one more with %d under way: %d %s, want 429", table.RatedPerPair, st, body)
	}
	if st, body := cat.do("POST", "/api/v1/tables/"+open(ann)+"/join", map[string]any{}, nil); st != 200 {
		t.Fatalf("another opponent: %d %s", st, body)
	}

	for i := range table.RatedPerPair {
		playNymphabet(t, eve, dee, map[string]any{"rated": true}, i%2)
	}
	// Dee's history fills with games of her own since.
	for i := range 4*table.RatedPerPair + 1 {
		var one table.Seated
		if st, body := dee.do("POST", "/api/v1/tables", map[string]any{"game": "quizl", "seats": []string{"me"}}, &one); st != 201 {
			t.Fatalf("Dee's game %d alone: %d %s", i+1, st, body)
		}
		if st, body := (&client{t: t, base: srv2.URL, token: one.Token}).do("POST", "/api/v1/tables/"+one.Table+"/moves", map[string]any{"move": "resign"}, nil); st != 200 {
			t.Fatalf("Dee resigning game %d alone: %d %s", i+1, st, body)
		}
	}
	if st, body := dee.do("POST", "/api/v1/tables/"+open(eve)+"/join", map[string]any{}, nil); st != 429 || !strings.Contains(body, "rated games together") {
		t.Fatalf("an 11th rated game after %d games alone: %d %s, want 429", 4*table.RatedPerPair+1, st, body)
	}
}

// TestNewAccountsRatedPerAddress: accounts a week old or younger start
// at most NewRatedPerAddr rated games from one address in a burst, however
// many accounts share it; another address is not held up.
func TestNewAccountsRatedPerAddress(t *testing.T) {
	t.Parallel()
	// Two players only, with no cap of their own on rated games
	// together: the address's is the one tried.
	f := newGamesFixtureTuned(t, func(c *Config) { c.RatedPerPair = -1 })
	lim := generous
	lim.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	srv := startServer(t, f, lim)
	ann, bob := signUp(t, srv.URL, "Ann"), signUp(t, srv.URL, "Bob")
	// from sends one request of who's as if from addr, behind the proxy.
	from := func(addr string, who *client, path, body string) (int, string) {
		req, _ := http.NewRequest("POST", srv.URL+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+who.token)
		req.Header.Set("X-Forwarded-For", addr)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	joinFrom := func(addr string) (int, string) {
		var sa table.Seated
		if st, body := ann.do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "rated": true}, &sa); st != 201 {
			t.Fatalf("create: %d %s", st, body)
		}
		return from(addr, bob, "/api/v1/tables/"+sa.Table+"/join", `{}`)
	}
	// Requests refused for another reason start nothing and use none of
	// the address's share: Ann accepting her own rated challenge.
	var c struct{ ID string }
	if st, body := ann.do("POST", "/api/v1/challenges", map[string]any{"to": "Bob", "game": "nymphabet", "rated": true}, &c); st != 201 {
		t.Fatalf("Ann's challenge: %d %s", st, body)
	}
	for i := range table.NewRatedPerAddr + 5 {
		if st, body := from("203.0.113.5", ann, "/api/v1/challenges/"+c.ID+"/accept", `{}`); st != 403 {
			t.Fatalf("Ann accepting her own challenge, %d: %d %s, want 403", i+1, st, body)
		}
	}
	for i := range table.NewRatedPerAddr {
		if st, body := joinFrom("203.0.113.5"); st != 200 {
			t.Fatalf("rated join %d: %d %s", i+1, st, body)
		}
	}
	if st, body := joinFrom("203.0.113.5"); st != 429 || !strings.Contains(body, "your address") {
		t.Fatalf("one more from the address: %d %s, want 429", st, body)
	}
	if st, body := joinFrom("198.51.100.9"); st != 200 {
		t.Fatalf("another address: %d %s", st, body)
	}
	// A rated game's rematch starts a rated game too.
	done := playNymphabet(t, ann, bob, map[string]any{"rated": true}, 0)
	if st, body := from("203.0.113.5", bob, "/api/v1/tables/"+done+"/rematch", `{}`); st != 429 || !strings.Contains(body, "your address") {
		t.Fatalf("a rated rematch from the address: %d %s, want 429", st, body)
	}
	if st, body := from("198.51.100.9", bob, "/api/v1/tables/"+done+"/rematch", `{}`); st != 200 && st != 201 {
		t.Fatalf("a rated rematch from another address: %d %s", st, body)
	}
	// And so does a rated seek, posted or accepted, that pairs.
	const rated = `{"game": "salvo", "rated": true}`
	if st, body := from("203.0.113.5", ann, "/api/v1/seeks", rated); st != 429 || !strings.Contains(body, "your address") {
		t.Fatalf("a rated seek from the address: %d %s, want 429", st, body)
	}
	var waiting struct{ Seek struct{ ID string } }
	st, body := from("198.51.100.9", ann, "/api/v1/seeks", rated)
	if err := json.Unmarshal([]byte(body), &waiting); st != 201 || err != nil || waiting.Seek.ID == "" {
		t.Fatalf("a rated seek from another address: %d %s", st, body)
	}
	if st, body := from("203.0.113.5", bob, "/api/v1/seeks/"+waiting.Seek.ID+"/accept", `{}`); st != 429 || !strings.Contains(body, "your address") {
		t.Fatalf("accepting a rated seek from the address: %d %s, want 429", st, body)
	}
	if st, body := from("198.51.100.9", bob, "/api/v1/seeks/"+waiting.Seek.ID+"/accept", `{}`); st != 201 || !strings.Contains(body, `"paired"`) {
		t.Fatalf("accepting it from another address: %d %s", st, body)
	}
	// A casual seek is not counted.
	if st, body := from("203.0.113.5", ann, "/api/v1/seeks", `{"game": "salvo"}`); st != 201 {
		t.Fatalf("a casual seek from the address: %d %s", st, body)
	}
}

// TestNewRatedPerAddrSet: an operator's cap on the rated games new accounts
// start from one address (limit.Limits.NewRatedPerAddr, serve's
// --rate-new-rated) takes the default's place.
func TestNewRatedPerAddrSet(t *testing.T) {
	t.Parallel()
	f := newGamesFixtureTuned(t, func(c *Config) { c.RatedPerPair = -1 })
	lim := generous
	lim.NewRatedPerAddr = 3
	srv := startServer(t, f, lim)
	ann, bob := signUp(t, srv.URL, "Ann"), signUp(t, srv.URL, "Bob")
	for i := range 4 {
		var sa table.Seated
		if st, body := ann.do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "rated": true}, &sa); st != 201 {
			t.Fatalf("create: %d %s", st, body)
		}
		st, body := bob.do("POST", "/api/v1/tables/"+sa.Table+"/join", map[string]any{}, nil)
		if want := map[bool]int{true: 200, false: 429}[i < 3]; st != want {
			t.Fatalf("rated join %d: %d %s, want %d", i+1, st, body, want)
		}
	}
}

// TestRatedCapsAtOnce: the caps on rated games hold against requests
// sent side by side, which each passed the count before any was seated:
// a pair's joins of many tables at once, a pair's rematches of many
// finished games at once, and one address's joins for new accounts.
func TestRatedCapsAtOnce(t *testing.T) {
	t.Parallel()
	// atOnce sends every request of send at once and counts the answers
	// by status.
	atOnce := func(n int, send func(i int) int) map[int]int {
		statuses := make([]int, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range n {
			wg.Go(func() {
				<-start
				statuses[i] = send(i)
			})
		}
		close(start)
		wg.Wait()
		counts := map[int]int{}
		for _, st := range statuses {
			counts[st]++
		}
		return counts
	}
	open := func(t *testing.T, who *client, n int) []string {
		ids := make([]string, n)
		for i := range ids {
			var sa table.Seated
			if st, body := who.do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "rated": true}, &sa); st != 201 {
				t.Fatalf("create: %d %s", st, body)
			}
			ids[i] = sa.Table
		}
		return ids
	}
	t.Run("joins of a pair", func(t *testing.T) {
		t.Parallel()
		lim := generous
		lim.NewRatedPerAddr = 1000
		srv := startServer(t, newGamesFixture(t), lim)
		ann, bob := signUp(t, srv.URL, "Ann"), signUp(t, srv.URL, "Bob")
		ids := open(t, ann, 2*table.RatedPerPair)
		got := atOnce(len(ids), func(i int) int {
			st, _ := bob.do("POST", "/api/v1/tables/"+ids[i]+"/join", map[string]any{}, nil)
			return st
		})
		if got[200] != table.RatedPerPair || got[429] != table.RatedPerPair {
			t.Errorf("%d joins at once: %v, want %d of each of 200 and 429", len(ids), got, table.RatedPerPair)
		}
	})
	t.Run("rematches of a pair", func(t *testing.T) {
		t.Parallel()
		lim := generous
		lim.NewRatedPerAddr = 1000
		srv := startServer(t, newGamesFixture(t), lim)
		ann, bob := signUp(t, srv.URL, "Ann"), signUp(t, srv.URL, "Bob")
		var done []string
		for i := range table.RatedPerPair - 1 {
			done = append(done, playNymphabet(t, ann, bob, map[string]any{"rated": true}, i%2))
		}
		got := atOnce(len(done), func(i int) int {
			st, _ := bob.do("POST", "/api/v1/tables/"+done[i]+"/rematch", map[string]any{}, nil)
			return st
		})
		if got[200]+got[201] != 1 || got[429] != len(done)-1 {
			t.Errorf("%d rematches at once with one rated game left: %v, want one made and the rest 429", len(done), got)
		}
	})
	t.Run("joins from an address", func(t *testing.T) {
		t.Parallel()
		lim := generous
		lim.NewRatedPerAddr = 5
		srv := startServer(t, newGamesFixtureTuned(t, func(c *Config) { c.RatedPerPair = -1 }), lim)
		ann, bob := signUp(t, srv.URL, "Ann"), signUp(t, srv.URL, "Bob")
		ids := open(t, ann, 12)
		got := atOnce(len(ids), func(i int) int {
			st, _ := bob.do("POST", "/api/v1/tables/"+ids[i]+"/join", map[string]any{}, nil)
			return st
		})
		if got[200] != 5 || got[429] != 7 {
			t.Errorf("12 joins at once from one address: %v, want 5 200s and 7 429s", got)
		}
	})
}
