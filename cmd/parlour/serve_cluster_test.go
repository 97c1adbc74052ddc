package main

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"parlour/bus/nats/natstest"
	"parlour/store/postgres/pgtest"
)

// clusterEngines starts a throwaway PostgreSQL and an in-process NATS
// server for a cluster test, both removed when t ends, and returns a new
// database's URL and the NATS server's. Without PostgreSQL the test
// skips (fails under CI).
func clusterEngines(t *testing.T) (pgURL, natsURL string) {
	t.Helper()
	return pgDatabase(t), natstest.URL(natstest.Run(t, -1))
}

// pgDatabase starts a throwaway PostgreSQL server for t and returns the
// URL of a new database on it. Without PostgreSQL the test skips (fails
// under CI).
func pgDatabase(t *testing.T) string {
	t.Helper()
	pg, err := pgtest.Start(context.Background(), pgtest.Options{})
	if err != nil {
		if _, missing := pgtest.Bin(); missing != nil {
			pgtest.Missing(t)
		}
		t.Fatal(err)
	}
	t.Cleanup(func() { pg.Close() })
	return pg.NewDatabase(t)
}

// TestServeCluster runs two parlour serve nodes on one throwaway
// PostgreSQL and one NATS server (in-process; the nats-server module is a
// test-only dependency): a table made through node a is joined and played
// through node b, which forwards to the owner, and each node answers its
// state alike.
func TestServeCluster(t *testing.T) {
	url, natsURL := clusterEngines(t)

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	a, _, doneA := startServe(t, ctx, "--data", t.TempDir(), "--store", url, "--nats", natsURL, "--node", "a")
	b, _, doneB := startServe(t, ctx, "--data", t.TempDir(), "--store", url, "--nats", natsURL, "--node", "b")
	post := func(base, path, token, body string, out any) int { return postJSON(t, base, path, token, body, out) }
	var ann, ben struct{ Table, Token string }
	var seat struct{ Seat int }
	if st := post(a, "/api/v1/tables", "", `{"game": "nymphabet", "seats": ["me", "open"]}`, &ann); st != 201 {
		t.Fatalf("create through a: %d", st)
	}
	if st := post(b, "/api/v1/tables/"+ann.Table+"/join", "", `{}`, &ben); st != 200 {
		t.Fatalf("join through b: %d", st)
	}
	// Seat 0 moves first: whoever holds it plays a, through node b.
	first := ann.Token
	if st := post(b, "/api/v1/tables/"+ann.Table+"/moves", first, `{"move": "a"}`, &seat); st != 200 {
		first = ben.Token
		if st := post(b, "/api/v1/tables/"+ann.Table+"/moves", first, `{"move": "a"}`, &seat); st != 200 {
			t.Fatalf("neither seat could play a through b: %d", st)
		}
	}
	for _, base := range []string{a, b} {
		res, err := http.Get(base + "/api/v1/tables/" + ann.Table + "/record")
		if err != nil {
			t.Fatal(err)
		}
		var rec struct{ Moves []struct{ Move string } }
		json.NewDecoder(res.Body).Decode(&rec)
		res.Body.Close()
		if res.StatusCode != 200 || len(rec.Moves) != 1 || rec.Moves[0].Move != "a" {
			t.Errorf("the record through %s: %d %+v, want the one move a", base, res.StatusCode, rec.Moves)
		}
	}
	stop()
	for _, done := range []<-chan int{doneA, doneB} {
		if code := <-done; code != 0 {
			t.Errorf("a node returned %d", code)
		}
	}
}
