package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"parlour/server/internal/servertest"
	"parlour/server/table"
	"parlour/store"
)

// TestParkedGameOverHTTP: on each store, a game in play that nobody uses
// leaves memory; its players' list of games still shows it, and a view
// and a move over HTTP bring it back to play on.
func TestParkedGameOverHTTP(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		ctx := context.Background()
		f := &fixture{t: t, dir: t.TempDir(), kind: &k, where: k.Fresh(t), tune: func(c *Config) { c.ParkAfter = 20 * time.Millisecond }}
		f.open()
		t.Cleanup(f.close)
		srv := httptest.NewServer(newHandler(f.s, generous, nil))
		t.Cleanup(srv.Close)

		a, err := f.s.Create(ctx, nil, table.CreateRequest{Game: "guess", Seats: []string{"me", "open"}, Name: "Ann"})
		if err != nil {
			t.Fatal(err)
		}
		b, err := f.s.Join(ctx, nil, a.Table, table.JoinRequest{Name: "Ben"})
		if err != nil {
			t.Fatal(err)
		}
		for i, tok := range []string{a.Token, b.Token} {
			if _, err := f.s.Setup(ctx, f.principal(tok), a.Table, table.SetupRequest{Setup: setupOf(3 + i)}); err != nil {
				t.Fatal(err)
			}
		}
		servertest.Eventually(t, 10*time.Second, "the game to leave memory", func() bool { return f.s.Parked() == 1 && !f.s.Loaded(a.Table) })

		pa := f.principal(a.Token)
		seated, err := f.s.Seated(ctx, pa.Identity)
		if err != nil || len(seated) != 1 || seated[0].ID != a.Table || seated[0].Status != store.Playing {
			t.Fatalf("Ann's games while hers is parked: %+v, %v", seated, err)
		}

		var u table.Update
		url := srv.URL + "/api/v1/tables/" + a.Table
		if code, err := httpJSON(url, http.MethodGet, a.Token, nil, &u); code != http.StatusOK || err != nil {
			t.Fatalf("GET the parked table: %d, %v", code, err)
		}
		if !f.s.Loaded(a.Table) || f.s.Parked() != 0 {
			t.Fatalf("after a view: loaded %v, %d parked", f.s.Loaded(a.Table), f.s.Parked())
		}
		// The game's first move: a guess in the middle of its range.
		tok := a.Token
		if slices.Contains(u.Table.ToMove, 1) {
			tok = b.Token
		}
		servertest.Eventually(t, 10*time.Second, "the game to leave memory again", func() bool { return f.s.Parked() == 1 })
		var res struct {
			table.MoveResult
			Error string `json:"error"`
		}
		code, err := httpJSON(url+"/moves", http.MethodPost, tok, map[string]any{"move": "guess 50"}, &res)
		if code != http.StatusOK || err != nil || res.Version != u.Version+1 {
			t.Fatalf("a move on the parked table: %d %q, %v, version %d after %d", code, res.Error, err, res.Version, u.Version)
		}
		if !f.s.Loaded(a.Table) {
			t.Errorf("the table played at is not in memory (%d parked)", f.s.Parked())
		}
	})
}

// httpJSON asks url with method, as token, sending body as JSON, and
// decodes the answer into out; it returns the status.
func httpJSON(url, method, token string, body, out any) (int, error) {
	var rd bytes.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		rd.Reset(b)
	}
	req, err := http.NewRequest(method, url, &rd)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	return res.StatusCode, json.NewDecoder(res.Body).Decode(out)
}
