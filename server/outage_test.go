package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"parlour/game"
	"parlour/lexicon"
	"parlour/server/internal/servertest"
	"parlour/store"
	"parlour/store/postgres/pgtest"
)

// gatedBot is servertest.GuessBot whose moves wait until gate is closed.
type gatedBot struct {
	servertest.GuessBot
	gate <-chan struct{}
}

func (b gatedBot) Move(ctx context.Context, cfg game.Config, seat game.Seat, view any) (string, error) {
	select {
	case <-b.gate:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	return b.GuessBot.Move(ctx, cfg, seat, view)
}

// TestStoreOutage stops the PostgreSQL server under a running service
// (as an operator would, and as a crash does) and starts it again:
// meanwhile what needs the store (a move, an unknown table, a token not
// yet seen, a new table) is answered 503 at once, what does not (a live
// table's view) is answered as ever, and a computer seat whose move could
// not be saved neither resigns nor stalls; once PostgreSQL is back the
// same service serves everything again by itself, and the computer plays
// its move.
func TestStoreOutage(t *testing.T) {
	// Not parallel: it stops the test run's PostgreSQL, which the other tests share.
	if servertest.PG() == nil {
		pgtest.Missing(t) // skips, or fails under CI
	}
	k, _ := servertest.StoreKindNamed("postgres")
	for _, down := range []struct {
		name string
		stop func()
	}{{"stopped", servertest.PG().Stop}, {"crashed", servertest.PG().Crash}} {
		t.Run(down.name, func(t *testing.T) {
			ctx := context.Background()
			f := newFixtureOn(t, k)
			gate := make(chan struct{})
			f.s.cfg.NewBot = func(g, level string, seed uint64, lex *lexicon.Lexicon) (game.Bot, error) {
				return gatedBot{servertest.GuessBot{Level: level}, gate}, nil
			}
			srv := startServer(t, f, generous)
			a, ann, ben := annAndBen(t, srv.URL)
			// Numbers nobody guesses below, so that no guess ends the
			// game.
			for i, c := range []*client{ann, ben} {
				if st, body := c.do("POST", "/api/v1/tables/"+a.Table+"/setup", map[string]any{"setup": setupOf(41 + i)}, nil); st != 200 {
					t.Fatalf("setup: %d %s", st, body)
				}
			}
			if st, body := ann.do("POST", "/api/v1/tables/"+a.Table+"/moves", `{"move": "guess 50"}`, nil); st != 200 {
				t.Fatalf("move: %d %s", st, body)
			}
			// A table against the computer, whose answer waits for the gate.
			cara := &client{t: t, base: srv.URL}
			var c Seated
			if st, body := cara.do("POST", "/api/v1/tables", `{"game": "guess", "seats": ["me", "computer:easy"], "name": "Cara", "rules": {"max": 1000}}`, &c); st != 201 {
				t.Fatalf("create against the computer: %d %s", st, body)
			}
			cara.token = c.Token
			// A number the computer's first guess (it bisects: 500) cannot
			// be: an automatic one was, one time in a thousand, and ended
			// the game on the guess the test waits to see stored.
			if st, body := cara.do("POST", "/api/v1/tables/"+c.Table+"/setup", map[string]any{"setup": setupOf(1)}, nil); st != 200 {
				t.Fatalf("setup: %d %s", st, body)
			}
			waitFor := func(what string, d time.Duration, ok func() bool) time.Duration {
				t.Helper()
				start := time.Now()
				for !ok() {
					if time.Since(start) > d {
						t.Fatalf("%s: not after %v", what, d)
					}
					time.Sleep(20 * time.Millisecond)
				}
				return time.Since(start)
			}
			var cv struct{ Table TableInfo }
			waitFor("the table against the computer starts", 5*time.Second, func() bool {
				cara.do("GET", "/api/v1/tables/"+c.Table, nil, &cv)
				return cv.Table.Status == store.Playing
			})
			if len(cv.Table.ToMove) != 1 || cv.Table.ToMove[0] != 0 {
				t.Fatalf("the person does not move first: %+v", cv.Table)
			}
			if st, body := cara.do("POST", "/api/v1/tables/"+c.Table+"/moves", `{"move": "guess 50"}`, nil); st != 200 {
				t.Fatalf("move against the computer: %d %s", st, body)
			}

			down.stop()
			t.Cleanup(func() { servertest.PG().Restart(context.Background()) }) // should the test stop half way
			close(gate)                                                         // the computer moves, and cannot save it

			start := time.Now()
			for _, tc := range []struct {
				what, method, path, body string
				c                        *client
				want                     int
			}{
				{"Ben's move", "POST", "/api/v1/tables/" + a.Table + "/moves", `{"move": "guess 50"}`, ben, 503},
				{"a live table", "GET", "/api/v1/tables/" + a.Table, "", ben, 200},
				{"a table not in memory", "GET", "/api/v1/tables/" + newID(), "", ann, 503},
				{"a new table", "POST", "/api/v1/tables", `{"game": "guess", "seats": ["me", "open"]}`, &client{t: t, base: srv.URL}, 503},
			} {
				var in any
				if tc.body != "" {
					in = tc.body
				}
				st, body := tc.c.do(tc.method, tc.path, in, nil)
				if st != tc.want {
					t.Errorf("%s while PostgreSQL is %s: %d %s, want %d", tc.what, down.name, st, body, tc.want)
				}
				if st == 503 && !strings.Contains(body, "try again") {
					t.Errorf("%s: the 503 does not say to try again: %s", tc.what, body)
				}
			}
			sum := hashToken(ben.token)
			f.s.creds.drop(sum[:])
			if st, body := ben.do("POST", "/api/v1/tables/"+a.Table+"/moves", `{"move": "guess 50"}`, nil); st != 503 {
				t.Errorf("a token not seen since PostgreSQL went away: %d %s, want 503", st, body)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("the answers while PostgreSQL was away took %v", d)
			}
			time.Sleep(2 * storeRetry) // the computer tries, and tries again

			if err := servertest.PG().Restart(ctx); err != nil {
				t.Fatal(err)
			}
			back := time.Now()
			took := waitFor("Ben's move after PostgreSQL is back", 30*time.Second, func() bool {
				st, _ := ben.do("POST", "/api/v1/tables/"+a.Table+"/moves", `{"move": "guess 50"}`, nil)
				return st == 200
			})
			waitFor("the computer's move after PostgreSQL is back", 30*time.Second, func() bool {
				cara.do("GET", "/api/v1/tables/"+c.Table, nil, &cv)
				return len(cv.Table.ToMove) == 1 && cv.Table.ToMove[0] == 0
			})
			var rec game.Record
			cara.do("GET", "/api/v1/tables/"+c.Table+"/record", nil, &rec)
			if cv.Table.Status != store.Playing || len(rec.Moves) != 2 || !strings.HasPrefix(rec.Moves[1].Move, "guess ") {
				t.Errorf("the game against the computer after the outage: %s, moves %+v; want it playing, the computer's guess stored", cv.Table.Status, rec.Moves)
			}
			if st, body := ann.do("GET", "/api/v1/tables/"+newID(), nil, nil); st != 404 {
				t.Errorf("an unknown table after the outage: %d %s", st, body)
			}
			var d Seated
			if st, body := (&client{t: t, base: srv.URL}).do("POST", "/api/v1/tables", `{"game": "guess", "seats": ["me", "open"]}`, &d); st != 201 {
				t.Errorf("a new table after the outage: %d %s", st, body)
			}
			t.Logf("PostgreSQL %s: served again %v after its restart (everything in %v)", down.name, took.Round(time.Millisecond), time.Since(back).Round(time.Millisecond))
		})
	}
}
