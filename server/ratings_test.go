package server_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"testing"

	"parlour/glicko"
	"parlour/server/internal/servertest"
	"parlour/server/players"
	"parlour/server/table"
	"parlour/store"
	"parlour/store/postgres"
	"parlour/store/sqlite"
)

// dieAtEndEnv makes the child server of the crash tests kill itself at
// the first game end it stores: "before" the store's transaction, or
// "after" it commits and before the server answers the move.
const dieAtEndEnv = "PARLOUR_TEST_DIE_AT_END"

// dieAtEndSQLite and dieAtEndPostgres are the child's store when
// dieAtEndEnv is set: the store itself (with every optional interface,
// store.Players among them), whose AppendMove kills the process at a
// game's end.
type dieAtEndSQLite struct {
	*sqlite.Store
	when string
}

type dieAtEndPostgres struct {
	*postgres.Store
	when string
}

func (d dieAtEndSQLite) AppendMove(ctx context.Context, id string, m store.Move, u *store.Update) error {
	return dieAppend(ctx, d.Store, d.when, id, m, u)
}

func (d dieAtEndPostgres) AppendMove(ctx context.Context, id string, m store.Move, u *store.Update) error {
	return dieAppend(ctx, d.Store, d.when, id, m, u)
}

// dieAtEndOf wraps st to die at the first game end it stores.
func dieAtEndOf(st store.Store, when string) store.Store {
	switch st := st.(type) {
	case *sqlite.Store:
		return dieAtEndSQLite{st, when}
	case *postgres.Store:
		return dieAtEndPostgres{st, when}
	}
	panic(fmt.Sprintf("dieAtEndOf: a store of type %T", st))
}

// dieAppend appends m to st, and when u ends a game kills the process,
// before the write or after it commits, as when says.
func dieAppend(ctx context.Context, st store.Store, when, id string, m store.Move, u *store.Update) error {
	if u == nil || u.End == nil {
		return st.AppendMove(ctx, id, m, u)
	}
	if when == "before" {
		die()
	}
	if err := st.AppendMove(ctx, id, m, u); err != nil {
		return err // not committed: answer as the server would
	}
	die()
	return nil
}

// die kills the process as kill -9 would: nothing deferred runs, nothing
// is closed or flushed.
func die() {
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		p.Kill()
	}
	select {}
}

// TestRatedEndCrash kills the server between a rated game's end and the
// answer to its last move, once just before the store's transaction and
// once just after it commits, restarts it, and finds the game over with
// both ratings changed, or the game on with neither: never one rating
// without the other, never a finished game without its ratings.
func TestRatedEndCrash(t *testing.T) {
	// Not parallel: it sets the process's environment for the server it starts.
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		if testing.Short() {
			t.Skip("short: no crash test")
		}
		for _, when := range []string{"before", "after"} {
			t.Run(when, func(t *testing.T) {
				dir := k.Fresh(t)
				os.Setenv(dieAtEndEnv, when)
				c := startChild(t, k, dir)
				os.Unsetenv(dieAtEndEnv)
				var ann, ben players.Session
				for _, a := range []struct {
					name string
					out  *players.Session
				}{{"Ann", &ann}, {"Ben", &ben}} {
					if st, err := call(c.url+"/api/v1/accounts", "POST", "", map[string]string{"name": a.name, "password": "a long secret phrase"}, a.out); st != 201 {
						t.Fatalf("sign up %s: %d %v", a.name, st, err)
					}
				}
				var sa, sb table.Seated
				if st, err := call(c.url+"/api/v1/tables", "POST", ann.Token, map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "rated": true}, &sa); st != 201 {
					t.Fatalf("create: %d %v", st, err)
				}
				if st, err := call(c.url+"/api/v1/tables/"+sa.Table+"/join", "POST", ben.Token, map[string]any{}, &sb); st != 200 {
					t.Fatalf("join: %d %v", st, err)
				}
				// A word each first: a resignation before then aborts
				// the game, which rates nobody.
				for i, w := range []string{"apple", "bed"} {
					if st, err := call(c.url+"/api/v1/tables/"+sa.Table+"/moves", "POST", []string{sa.Token, sb.Token}[i], map[string]any{"move": w}, nil); st != 200 {
						t.Fatalf("move %s: %d %v", w, st, err)
					}
				}
				if st, err := call(c.url+"/api/v1/tables/"+sa.Table+"/moves", "POST", sa.Token, map[string]any{"move": "resign"}, nil); err == nil {
					t.Fatalf("the server answered the last move (%d) instead of dying", st)
				}
				c.cmd.Wait()

				c = startChild(t, k, dir)
				var v table.Update
				if st, err := call(c.url+"/api/v1/tables/"+sa.Table, "GET", "", nil, &v); st != 200 {
					t.Fatalf("table after restart: %d %v", st, err)
				}
				var pa, pb players.Profile
				call(c.url+"/api/v1/players/Ann", "GET", "", nil, &pa)
				call(c.url+"/api/v1/players/Ben", "GET", "", nil, &pb)
				ra, aok := pa.Ratings["nymphabet-standard"]
				rb, bok := pb.Ratings["nymphabet-standard"]
				finished := v.Table.Status == store.Finished
				switch {
				case finished && aok && bok:
					wa, wb, _ := glicko.System{}.Game(glicko.New(), glicko.New(), glicko.Loss)
					if math.Abs(ra.Rating-wa.Value) > 0.05 || math.Abs(rb.Rating-wb.Value) > 0.05 || pa.Games != 1 || pb.Games != 1 {
						t.Fatalf("ratings after the crash: Ann %+v Ben %+v, want %v and %v", ra, rb, wa, wb)
					}
				case !finished && !aok && !bok:
					// Neither: the game goes on, and its end rates both.
					if st, err := call(c.url+"/api/v1/tables/"+sa.Table+"/moves", "POST", sa.Token, map[string]any{"move": "resign"}, nil); st != 200 {
						t.Fatalf("resign after the restart: %d %v", st, err)
					}
					call(c.url+"/api/v1/players/Ann", "GET", "", nil, &pa)
					call(c.url+"/api/v1/players/Ben", "GET", "", nil, &pb)
					if pa.Ratings["nymphabet-standard"].Games != 1 || pb.Ratings["nymphabet-standard"].Games != 1 {
						t.Fatalf("after the replayed end: Ann %+v Ben %+v", pa.Ratings, pb.Ratings)
					}
				default:
					t.Fatalf("half a game end survived the crash: finished %v, Ann rated %v, Ben rated %v", finished, aok, bok)
				}
				if when == "after" && !finished {
					t.Fatal("the end was committed before the kill, yet the table is not finished")
				}
				if when == "before" && finished {
					t.Fatal("the end was never written, yet the table is finished")
				}
				t.Logf("killed %s the commit: finished %v, Ann %+v, Ben %+v", when, finished, ra, rb)
			})
		}
	})
}
