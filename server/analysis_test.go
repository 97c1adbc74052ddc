package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"parlour/server"
)

// TestAnalysisEndpoint checks GET /api/v1/tables/{id}/analysis: 404 for
// no table, 409 while the game goes on, the analysis once it is over, and
// the cached answer the second time.
func TestAnalysisEndpoint(t *testing.T) {
	e := newEnv(t)
	get := func(id string) (int, []byte, time.Duration) {
		t.Helper()
		start := time.Now()
		res, err := http.Get(e.srv.URL + "/api/v1/tables/" + id + "/analysis")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		return res.StatusCode, b, time.Since(start)
	}
	if code, body, _ := get("nosuchtable"); code != http.StatusNotFound || !strings.Contains(string(body), "no table") {
		t.Errorf("no table: %d %s, want 404", code, body)
	}
	a, err := e.svc.Create(context.Background(), nil, server.CreateRequest{Game: "nymphabet", Seats: []string{"me", "computer:strong"}})
	if err != nil {
		t.Fatal(err)
	}
	if code, body, _ := get(a.Table); code != http.StatusConflict || !strings.Contains(string(body), "has not ended") {
		t.Errorf("in progress: %d %s, want 409", code, body)
	}
	req, _ := http.NewRequest("POST", e.srv.URL+"/api/v1/tables/"+a.Table+"/moves", strings.NewReader(`{"move": "resign"}`))
	req.Header.Set("Authorization", "Bearer "+a.Token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("resign: %d", res.StatusCode)
	}
	// Several players ask at once as the game ends: one analysis, the
	// same answer for all.
	bodies := make(chan []byte, 4)
	for range 4 {
		go func() {
			res, err := http.Get(e.srv.URL + "/api/v1/tables/" + a.Table + "/analysis")
			if err != nil {
				bodies <- nil
				return
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			bodies <- b
		}()
	}
	var together [][]byte
	for range 4 {
		together = append(together, <-bodies)
	}
	code, first, took := get(a.Table)
	if code != http.StatusOK {
		t.Fatalf("finished: %d %s", code, first)
	}
	for _, b := range together {
		if !bytes.Equal(b, first) {
			t.Errorf("a request made at the same time got %s, want %s", b, first)
		}
	}
	var got struct {
		Game      string `json:"game"`
		Moves     int    `json:"moves"`
		Winners   []int  `json:"winners"`
		Nymphabet struct {
			FirstPlayer string `json:"first_player"`
			Moves       []struct {
				Before, After string
				Mistake       bool
				Best          string
			} `json:"moves"`
		} `json:"nymphabet"`
	}
	if err := json.Unmarshal(first, &got); err != nil {
		t.Fatal(err)
	}
	n := got.Nymphabet
	if got.Game != "nymphabet" || got.Moves != 1 || len(got.Winners) != 1 || got.Winners[0] != 1 || len(n.Moves) != 1 {
		t.Fatalf("analysis: %s", first)
	}
	// With the en lexicon the first player wins: resigning threw the win away.
	if m := n.Moves[0]; n.FirstPlayer != "win" || m.Before != "win" || m.After != "loss" || !m.Mistake || m.Best == "" {
		t.Errorf("resigning a won game: %+v", m)
	}
	t.Logf("request after the simultaneous ones %v", took)
	code, second, took := get(a.Table)
	if code != http.StatusOK || !bytes.Equal(first, second) {
		t.Errorf("second request: %d, same body %v", code, bytes.Equal(first, second))
	}
	if took > 10*time.Millisecond {
		t.Errorf("second request took %v, want under 10ms (cached)", took)
	}
	t.Logf("second request %v", took)
}
