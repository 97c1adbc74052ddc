package server_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"parlour/store"
)

// TestWordFightShapeRefusedAtCreate: a Word Fight table whose shape holds
// no word is refused when it is created, saying why, and nothing is left
// in the lobby.
func TestWordFightShapeRefusedAtCreate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct {
		rules, want string
	}{
		{`{"width": 5, "height": 5, "shape": "#####/#####/#####/#####/#####"}`, "masks every square"},
		{`{"width": 5, "height": 5, "shape": "#.#.#/.#.#./#.#.#/.#.#./#.#.#"}`, "no two usable squares side by side"},
		{`{"shape": "#..../...../...../...../....#"}`, "set width 5 and height 5"},
	} {
		body := `{"game": "wordfight", "seats": ["me", "open"], "rules": ` + tc.rules + `}`
		resp, err := http.Post(e.srv.URL+"/api/v1/tables", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var out struct{ Error string }
		json.Unmarshal(b, &out)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(out.Error, tc.want) {
			t.Errorf("rules %s: %d %s, want a 400 saying %q", tc.rules, resp.StatusCode, b, tc.want)
		}
	}
	if l, err := e.svc.Lobby(t.Context(), store.Open, 10); err != nil || len(l) != 0 {
		t.Fatalf("refused tables in the lobby: %+v, %v", l, err)
	}
}
