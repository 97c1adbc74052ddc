package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
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
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
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
// (a Quizl grid and password, a Salvo fleet), nothing another player, a
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
			var ann, ben, cy struct{ Token string }
			for _, who := range []struct {
				name string
				out  any
			}{{"Ann", &ann}, {"Ben", &ben}, {"Cy", &cy}} {
				if st, err := call(base+"/identity", "POST", "", map[string]string{"name": who.name}, who.out); st != 201 {
					t.Fatalf("identity %s: %d %v", who.name, st, err)
				}
			}
			var sa, sb struct{ Table, Token string }
			if st, err := call(base+"/tables", "POST", ann.Token, map[string]any{"game": tc.game, "seats": []string{"me", "open"}}, &sa); st != 201 {
				t.Fatalf("create: %d %v", st, err)
			}
			if st, err := call(base+"/tables/"+sa.Table+"/join", "POST", ben.Token, map[string]any{}, &sb); st != 200 {
				t.Fatalf("join: %d %v", st, err)
			}
			secrets := map[string][]string{} // by the seat's token
			for _, tok := range []string{sa.Token, sb.Token} {
				var r struct{ Setup json.RawMessage }
				if st, err := call(base+"/tools/random-setup", "POST", "", map[string]string{"game": tc.game}, &r); st != 200 {
					t.Fatalf("random setup: %d %v", st, err)
				}
				if st, err := call(base+"/tables/"+sa.Table+"/setup", "POST", tok, map[string]any{"setup": r.Setup}, nil); st != 200 {
					t.Fatalf("setup: %d %v", st, err)
				}
				secrets[tok] = tc.secrets(r.Setup)
				if len(secrets[tok]) == 0 {
					t.Fatalf("no secrets read from the setup %s", r.Setup)
				}
			}
			id := sa.Table
			paths := []string{"/tables/" + id, "/tables/" + id + "/record", "/tables/" + id + "/chat", "/tables/" + id + "/analysis",
				"/tables/" + id + "/events", "/tables?status=playing", "/tv", "/online", "/players/Ann/games", "/identity/tables"}
			for _, asker := range []struct {
				who   string
				token string
				not   []string // whose secrets it must not see
			}{
				{"a visitor", "", append(secrets[sa.Token], secrets[sb.Token]...)},
				{"a spectator", cy.Token, append(secrets[sa.Token], secrets[sb.Token]...)},
				{"Ben, the other player", sb.Token, secrets[sa.Token]},
				{"Ann, the other player", sa.Token, secrets[sb.Token]},
			} {
				answers := map[string]string{}
				for _, p := range paths {
					_, answers[p] = fetch(t, base+p, asker.token)
				}
				answers["the socket"] = socketHello(t, srv.URL, id, asker.token)
				for where, body := range answers {
					for _, s := range asker.not {
						if strings.Contains(strings.ToUpper(body), s) {
							t.Errorf("%s reads %q of a hidden setup in %s:\n%s", asker.who, s, where, body)
						}
					}
				}
			}
			// The check looks where a leak would be: a player's own
			// view holds their own setup.
			_, own := fetch(t, base+"/tables/"+id, sa.Token)
			for _, s := range secrets[sa.Token] {
				if !strings.Contains(own, s) {
					t.Errorf("Ann's own view lacks %q of her setup: the test looks in the wrong place\n%s", s, own)
				}
			}
		})
	}
}
