package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"parlour/games"
	"parlour/server"
	"parlour/server/limit"
	"parlour/server/table"
	"parlour/store/sqlite"
)

// TestAnalysisEndpoint checks GET /api/v1/tables/{id}/analysis: 404 for
// no table, 409 while the game goes on, the analysis once it is over, and
// the cached answer the second time.
func TestAnalysisEndpoint(t *testing.T) {
	t.Parallel()
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
	a, err := e.svc.Create(context.Background(), nil, table.CreateRequest{Game: "nymphabet", Seats: []string{"me", "computer:strong"}})
	if err != nil {
		t.Fatal(err)
	}
	if code, body, _ := get(a.Table); code != http.StatusConflict || !strings.Contains(string(body), "has not ended") {
		t.Errorf("in progress: %d %s, want 409", code, body)
	}
	// A word each first (a resignation before then aborts the game, and
	// an aborted game has no analysis), then the resignation.
	req, _ := http.NewRequest("POST", e.srv.URL+"/api/v1/tables/"+a.Table+"/moves", strings.NewReader(`{"move": "apple", "wait": true}`))
	req.Header.Set("Authorization", "Bearer "+a.Token)
	req.Header.Set("Content-Type", "application/json")
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("first move: %v %v", res, err)
	} else {
		res.Body.Close()
	}
	req, _ = http.NewRequest("POST", e.srv.URL+"/api/v1/tables/"+a.Table+"/moves", strings.NewReader(`{"move": "resign"}`))
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
	if n := computed(t, e.srv.URL); n != 1 {
		t.Errorf("four requests at once computed the analysis %v times, want once", n)
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
	if got.Game != "nymphabet" || got.Moves != 3 || len(got.Winners) != 1 || got.Winners[0] != 1 || len(n.Moves) != 3 {
		t.Fatalf("analysis: %s", first)
	}
	// With the en lexicon the first player wins; the resignation lost.
	if m := n.Moves[2]; n.FirstPlayer != "win" || m.After != "loss" {
		t.Errorf("the resignation: %+v", m)
	}
	t.Logf("request after the simultaneous ones %v", took)
	code, second, took := get(a.Table)
	if code != http.StatusOK || !bytes.Equal(first, second) {
		t.Errorf("second request: %d, same body %v", code, bytes.Equal(first, second))
	}
	t.Logf("second request %v (BenchmarkAnalysisCached measures it)", took)

	// The same analysis in words, as `parlour analyse` prints it; a
	// format it does not know is refused.
	for _, c := range []struct {
		query, ctype string
		code         int
		want         string
	}{
		{"?format=text", "text/plain; charset=utf-8", http.StatusOK, "Analysis of a Nymphabet game between"},
		{"?format=json", "application/json", http.StatusOK, `"first_player":"win"`},
		{"?format=html", "application/json", http.StatusBadRequest, `format \"html\" is not json or text`},
	} {
		res, err := http.Get(e.srv.URL + "/api/v1/tables/" + a.Table + "/analysis" + c.query)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != c.code || !strings.HasPrefix(res.Header.Get("Content-Type"), c.ctype) || !strings.Contains(string(b), c.want) {
			t.Errorf("%s: %d %s %s; want %d %s with %q", c.query, res.StatusCode, res.Header.Get("Content-Type"), b, c.code, c.ctype, c.want)
		}
	}
	if n := computed(t, e.srv.URL); n != 1 {
		t.Errorf("the analysis was computed %v times, want once: the text is made from the kept one", n)
	}
}

// BenchmarkAnalysisCached measures a request for the analysis of a
// finished game once it has been computed, which must take under 10 ms
// for a finished game's page to open at once: GET over HTTP on loopback,
// answered from memory.
func BenchmarkAnalysisCached(b *testing.B) {
	path := filepath.Join(b.TempDir(), "p.db")
	db, err := sqlite.Open(context.Background(), path, sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	svc, err := server.New(context.Background(), server.Config{Store: db, Games: games.Registry(), NewBot: games.NewBot})
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	srv := httptest.NewServer(server.NewHandler(svc, limit.Limits{}))
	defer srv.Close()
	// A Nymphabet game resigned after a word each: the size of the analysis does
	// not matter to a request answered from memory.
	a, err := svc.Create(context.Background(), nil, table.CreateRequest{Game: "nymphabet", Seats: []string{"me", "computer:strong"}})
	if err != nil {
		b.Fatal(err)
	}
	for _, mv := range []string{`{"move": "apple", "wait": true}`, `{"move": "resign"}`} {
		req, _ := http.NewRequest("POST", srv.URL+"/api/v1/tables/"+a.Table+"/moves", strings.NewReader(mv))
		req.Header.Set("Authorization", "Bearer "+a.Token)
		req.Header.Set("Content-Type", "application/json")
		if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusOK {
			b.Fatalf("%s: %v %v", mv, res, err)
		} else {
			res.Body.Close()
		}
	}
	get := func() {
		res, err := http.Get(srv.URL + "/api/v1/tables/" + a.Table + "/analysis")
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			b.Fatalf("analysis: %d", res.StatusCode)
		}
	}
	get()
	b.ResetTimer()
	for b.Loop() {
		get()
	}
}

// computed reads parlour_analyses_computed_total from the server at base.
func computed(t *testing.T, base string) float64 {
	t.Helper()
	res, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "parlour_analyses_computed_total "); ok {
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			return n
		}
	}
	t.Fatal("no parlour_analyses_computed_total in /metrics")
	return 0
}
