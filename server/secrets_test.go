package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"parlour/games"
	"parlour/server"
	"parlour/server/limit"
	"parlour/store/sqlite"
)

// fetch sends a GET with token and returns the status and the body; a
// stream (the table's events) is read for a moment, its first lines.
func fetch(t *testing.T, url, token string) (int, string) {
	t.Helper()
	// The answer may take its time on a loaded machine; only a stream's
	// reading is cut short.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); strings.HasPrefix(ct, "text/event-stream") || strings.HasPrefix(ct, "application/x-ndjson") {
		time.AfterFunc(500*time.Millisecond, cancel)
	}
	b, _ := io.ReadAll(res.Body) // a stream ends with ctx: what came by then
	return res.StatusCode, string(b)
}

// socketHello opens the table's socket, says hello with token and
// returns the first update it is sent.
func socketHello(t *testing.T, base, id, token string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/api/v1/tables/"+id+"/socket", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	hello, _ := json.Marshal(map[string]any{"type": "hello", "token": token})
	if err := c.Write(ctx, websocket.MessageText, hello); err != nil {
		t.Fatal(err)
	}
	_, b, err := c.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSecretsStayHidden: while two players' hidden setups are in play
// (a Quizl grid and password, a Salvo fleet), or their hidden moves (where
// each placed a word in Sightless Word Fight), nothing another player, a
// spectator with an identity or a visitor without one can ask for holds
// any part of them that has not been revealed in play: the table, its
// record, chat and analysis, its event stream and socket, the lobby's
// lists, the players' pages. A player's own view holds their own setup,
// which shows the test looks where a leak would be.
func TestSecretsStayHidden(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "p.db"), sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc, err := server.New(ctx, server.Config{Store: db, Games: games.Registry(), NewBot: games.NewBot})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	srv := httptest.NewServer(server.NewHandler(svc, limit.Limits{}))
	defer srv.Close()
	base := srv.URL + "/api/v1"

	for _, tc := range []struct {
		game string
		// secrets returns the strings of a setup that must not leave
		// the server: the rows of a grid and its password, a fleet's
		// ships.
		secrets func(setup json.RawMessage) []string
	}{
		{"quizl", func(raw json.RawMessage) []string {
			var s struct {
				Grid     []string
				Password string
			}
			json.Unmarshal(raw, &s)
			return append(s.Grid, s.Password)
		}},
		{"salvo", func(raw json.RawMessage) []string {
			var s struct{ Fleet []string }
			json.Unmarshal(raw, &s)
			return s.Fleet
		}},
	} {
		t.Run(tc.game, func(t *testing.T) {
			id, ann, ben, cy := twoSeated(t, base, tc.game)
			secrets := map[string][]string{} // by the seat's token
			setups := map[string]json.RawMessage{}
			for _, tok := range []string{ann, ben} {
				var r struct{ Setup json.RawMessage }
				if st, err := call(base+"/tools/random-setup", "POST", "", map[string]string{"game": tc.game}, &r); st != 200 {
					t.Fatalf("random setup: %d %v", st, err)
				}
				if st, err := call(base+"/tables/"+id+"/setup", "POST", tok, map[string]any{"setup": r.Setup}, nil); st != 200 {
					t.Fatalf("setup: %d %v", st, err)
				}
				secrets[tok], setups[tok] = tc.secrets(r.Setup), r.Setup
				if len(secrets[tok]) == 0 {
					t.Fatalf("no secrets read from the setup %s", r.Setup)
				}
			}
			// Two random setups may share a part (the same ship, the same
			// password): in a player's own view it is their own, no leak.
			for _, mine := range []string{ann, ben} {
				theirs := ben
				if mine == ben {
					theirs = ann
				}
				secrets[mine] = slices.DeleteFunc(secrets[mine], func(s string) bool {
					return slices.Contains(tc.secrets(setups[theirs]), s)
				})
			}
			unread(t, srv.URL, id, cy, secrets)
			// The check looks where a leak would be: a player's own
			// view holds their own setup.
			_, own := fetch(t, base+"/tables/"+id, ann)
			for _, s := range secrets[ann] {
				if !strings.Contains(own, s) {
					t.Errorf("Ann's own view lacks %q of her setup: the test looks in the wrong place\n%s", s, own)
				}
			}
		})
	}
	// Sightless Word Fight hides no setup but each player's grid: where
	// each placed the word everyone answers.
	t.Run("wordfight", func(t *testing.T) {
		id, ann, ben, cy := twoSeated(t, base, "wordfight")
		for _, m := range []struct{ tok, move string }{{ann, "declare TOPIC"}, {ann, "place B2 across"}, {ben, "place E1 down"}} {
			if st, err := call(base+"/tables/"+id+"/moves", "POST", m.tok, map[string]any{"move": m.move}, nil); st != 200 {
				t.Fatalf("%s: %d %v", m.move, st, err)
			}
		}
		secrets := map[string][]string{ann: {"B2 across"}, ben: {"E1 down"}}
		for _, tok := range []string{ann, ben} {
			var v struct{ View struct{ Grid []string } }
			if st, err := call(base+"/tables/"+id, "GET", tok, nil, &v); st != 200 {
				t.Fatalf("view: %d %v", st, err)
			}
			for _, row := range v.View.Grid {
				// A row with a letter of the word and an empty square:
				// no public list of words holds it.
				if strings.Trim(row, ".#") != "" && strings.ContainsAny(row, ".#") {
					secrets[tok] = append(secrets[tok], row)
				}
			}
			if len(secrets[tok]) < 2 {
				t.Fatalf("no row of the grid holds the word placed: %q", v.View.Grid)
			}
		}
		unread(t, srv.URL, id, cy, secrets)
	})
}

// unread checks that nobody reads a player's secrets but the player:
// secrets holds each seat's token and the strings of its hidden play. A
// visitor without a token, a spectator (spectator, an identity's token)
// and each other player ask for every route of table id, its stream and
// socket, the lobby's lists and the players' pages.
func unread(t *testing.T, url, id, spectator string, secrets map[string][]string) {
	t.Helper()
	base := url + "/api/v1"
	var all []string
	for _, s := range secrets {
		all = append(all, s...)
	}
	askers := []struct {
		who, token string
		not        []string
	}{{"a visitor", "", all}, {"a spectator", spectator, all}}
	for tok := range secrets {
		var others []string
		for o, s := range secrets {
			if o != tok {
				others = append(others, s...)
			}
		}
		askers = append(askers, struct {
			who, token string
			not        []string
		}{"a player", tok, others})
	}
	paths := []string{"/tables/" + id, "/tables/" + id + "/record", "/tables/" + id + "/chat", "/tables/" + id + "/analysis",
		"/tables/" + id + "/events", "/tables?status=playing", "/tv", "/online", "/players/Ann/games", "/identity/tables"}
	for _, asker := range askers {
		answers := map[string]string{}
		for _, p := range paths {
			_, answers[p] = fetch(t, base+p, asker.token)
		}
		answers["the socket"] = socketHello(t, url, id, asker.token)
		for where, body := range answers {
			for _, s := range asker.not {
				if holds(body, s) {
					t.Errorf("%s reads %q of another's hidden play in %s:\n%s", asker.who, s, where, body)
				}
			}
		}
	}
}

// holds reports whether body holds secret, in any case, as a word of its
// own: not inside a longer word or number (a password CORES is not in
// "scores", a ship B2-B6 not in B2-B60) and not as a key of a JSON object
// (SEATS is not in "seats":), where no secret goes, but anywhere else,
// however it is quoted.
func holds(body, secret string) bool {
	re := regexp.MustCompile(`(?i)(^|[^a-z0-9])(` + regexp.QuoteMeta(secret) + `)([^a-z0-9]|$)`)
	for _, m := range re.FindAllStringSubmatchIndex(body, -1) {
		start, end := m[4], m[5]
		key := start > 0 && body[start-1] == '"' && strings.HasPrefix(body[end:], `":`)
		if !key {
			return true
		}
	}
	return false
}

// twoSeated makes three guests, Ann, Ben and Cy, and a table of game at
// which Ann and Ben sit; it returns the table and Ann's and Ben's seats'
// tokens, and Cy's identity token.
func twoSeated(t *testing.T, base, game string) (id, ann, ben, cy string) {
	t.Helper()
	var a, b, c struct{ Token string }
	for _, who := range []struct {
		name string
		out  any
	}{{"Ann", &a}, {"Ben", &b}, {"Cy", &c}} {
		if st, err := call(base+"/identity", "POST", "", map[string]string{"name": who.name}, who.out); st != 201 {
			t.Fatalf("identity %s: %d %v", who.name, st, err)
		}
	}
	var sa, sb struct{ Table, Token string }
	if st, err := call(base+"/tables", "POST", a.Token, map[string]any{"game": game, "seats": []string{"me", "open"}}, &sa); st != 201 {
		t.Fatalf("create: %d %v", st, err)
	}
	if st, err := call(base+"/tables/"+sa.Table+"/join", "POST", b.Token, map[string]any{}, &sb); st != 200 {
		t.Fatalf("join: %d %v", st, err)
	}
	return sa.Table, sa.Token, sb.Token, c.Token
}

// TestHolds: the secrets check finds a secret wherever a leak would put
// it, and not inside a longer word or as a key.
func TestHolds(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		body, secret string
		want         bool
	}{
		{`{"password":"CORES"}`, "CORES", true},
		{`{"moves":[{"move":"say cores"}]}`, "CORES", true},
		{`Ann wrote CORES, deleting C`, "CORES", true},
		{`{"grid":["TWQHL","CORES"]}`, "CORES", true},
		{`{"fleet":["B2-B6","D2-G2"]}`, "B2-B6", true},
		{`{"scores":[0,0]}`, "CORES", false},
		{`{"seats":[{"seat":0}]}`, "SEATS", false},
		{`{"seats":["SEATS"]}`, "SEATS", true},
		{`{"fleet":["B2-B60"]}`, "B2-B6", false},
	} {
		if got := holds(c.body, c.secret); got != c.want {
			t.Errorf("holds(%s, %s) = %v, want %v", c.body, c.secret, got, c.want)
		}
	}
}
