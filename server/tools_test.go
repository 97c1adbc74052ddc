package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"parlour/games"
	"parlour/server/httpapi"
	"parlour/server/limit"
	"parlour/store/sqlite"
)

// postTool posts body to path from addr on h and returns the status and
// the answer's bytes.
func postTool(t *testing.T, h http.Handler, addr, path, body string) (int, []byte) {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	r.RemoteAddr = addr + ":4000"
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if ct := w.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("POST %s: Content-Type %q, want application/json", path, ct)
	}
	return w.Code, w.Body.Bytes()
}

// TestToolsRoutes: each helper answers under /api/v1/tools/ in the API's
// error format ({"error": ...} with its status), and its old path answers
// the same, byte for byte.
func TestToolsRoutes(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	h := NewHandler(f.s, limit.Limits{})
	fleet := `{"fleet":["B2-B6","D2-G2","I4-I6","D8-E8","G9-G10"]}`
	nymphabet := `{"parlour":1,"game":"nymphabet","players":["Ann","Ben"],"moves":[{"by":"Ann","move":"abdicated"},{"by":"Ben","move":"effigy"}]}`
	tests := []struct {
		name, tool, body string
		status           int
		has              string // in the answer's JSON
	}{
		{"check, legal", "check-setup", `{"game":"salvo","setup":` + fleet + `}`, 200, `{"setup":{"fleet":["B2-B6",`},
		{"check, refused", "check-setup", `{"game":"salvo","setup":{"fleet":["B2-B6","B2-E2","I4-I6","D8-E8","G9-G10"]}}`, 422, `{"error":"the cruiser B2-E2 overlaps the battleship B2-B6 on B2`},
		{"check, bad JSON", "check-setup", `{"game":`, 422, `"error":"not a setup check`},
		{"check, unknown game", "check-setup", `{"game":"chess","setup":{}}`, 422, "chess"},
		{"check, oversize", "check-setup", `{"game":"salvo","setup":"` + strings.Repeat("x", games.MaxSetupRequest) + `"}`, 413, `{"error":"a setup to check is at most 16 KiB"}`},
		{"random", "random-setup", `{"game":"salvo","seed":7}`, 200, `{"setup":{"fleet":[`},
		{"random, bad JSON", "random-setup", `fleet`, 422, "not a request for a random setup"},
		{"random, unknown game", "random-setup", `{"game":"chess"}`, 422, "chess"},
		{"random, oversize", "random-setup", `{"game":"` + strings.Repeat("x", games.MaxSetupRequest) + `"}`, 413, "a request for a random setup is at most 16 KiB"},
		{"fill", "fill-setup", `{"game":"quizl","password":"crane","line":2,"seed":3}`, 200, `"password":"CRANE"`},
		{"fill, bad JSON", "fill-setup", ``, 422, "not a request to fill a grid"},
		{"fill, unknown game", "fill-setup", `{"game":"chess","password":"crane","line":2}`, 422, `only a Quizl grid can be filled around a password, not \"chess\"`},
		{"fill, oversize", "fill-setup", `{"game":"` + strings.Repeat("x", games.MaxSetupRequest) + `"}`, 413, "a request to fill a grid is at most 16 KiB"},
		{"preview", "preview", `{"grid":[".....",".CAT.",".....",".....","....."],"word":"tar","placement":"D2 down"}`, 200, `{"legal":true,"reused":1,"points":3,"crossings":[]}`},
		{"preview, illegal", "preview", `{"grid":[".....",".CAT.",".....",".....","....."],"word":"dog","placement":"A1 across"}`, 200, `"legal":false,"problem":"`},
		{"preview, bad JSON", "preview", `grid`, 400, "not a placement preview"},
		{"preview, unknown rule", "preview", `{"rules":{"colour":"red"},"grid":["....."],"word":"CAT","placement":"A1 across"}`, 422, "colour"},
		{"preview, oversize", "preview", `{"word":"` + strings.Repeat("A", games.MaxPreviewRequest) + `"}`, 413, "a placement preview is at most 8 KiB"},
		{"replay", "replay", nymphabet, 200, `"game":"nymphabet","title":"Nymphabet","players":["Ann","Ben"]`},
		{"replay, refused move", "replay", strings.Replace(nymphabet, "effigy", "zebra", 1), 200, `"refused":"move 2 by Ben`},
		{"replay, bad JSON", "replay", `hello`, 400, "not a Parlour game record"},
		{"replay, unknown game", "replay", `{"parlour":1,"game":"chess","players":["A","B"],"moves":[]}`, 422, "chess"},
		{"replay, oversize", "replay", `{"parlour":1,"pad":"` + strings.Repeat("x", games.MaxReplayRecord) + `"}`, 413, "the record is larger than 1024 KiB"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			addr := fmt.Sprintf("192.0.2.%d", i+1)
			code, body := postTool(t, h, addr, "/api/v1/tools/"+tt.tool, tt.body)
			if code != tt.status || !strings.Contains(string(body), tt.has) {
				t.Fatalf("status %d, %s; want %d with %s", code, body, tt.status, tt.has)
			}
			var m map[string]any
			if err := json.Unmarshal(body, &m); err != nil {
				t.Fatalf("the answer is not a JSON object: %v: %s", err, body)
			}
			if _, refused := m["error"]; refused != (code != 200) {
				t.Errorf("status %d with %s", code, body)
			}
			oldCode, oldBody := postTool(t, h, addr, "/"+tt.tool, tt.body)
			if oldCode != code || string(oldBody) != string(body) {
				t.Errorf("the old path /%s answers %d, %s; the new one %d, %s", tt.tool, oldCode, oldBody, code, body)
			}
		})
	}
}

// TestToolsUnseeded: a random setup asked without a seed is a fresh one
// each time, by either path.
func TestToolsUnseeded(t *testing.T) {
	t.Parallel()
	h := NewHandler(newGamesFixture(t).s, limit.Limits{})
	_, a := postTool(t, h, "192.0.2.1", "/api/v1/tools/random-setup", `{"game":"salvo"}`)
	_, b := postTool(t, h, "192.0.2.1", "/random-setup", `{"game":"salvo"}`)
	if !strings.HasPrefix(string(a), `{"setup":`) || string(a) == string(b) {
		t.Errorf("two unseeded random fleets: %s and %s", a, b)
	}
}

// TestToolsRateLimit: an address that asks the helpers faster than
// httpapi.ToolsPerAddr, by either path, is refused with 429 once its burst is
// spent, while another address is still answered; one that fills grids
// faster than httpapi.FillsPerAddr is refused its next fill while its other
// helpers still answer. (The buckets refill with time, so each is
// drained until it refuses rather than counted exactly.)
func TestToolsRateLimit(t *testing.T) {
	t.Parallel()
	h := NewHandler(newGamesFixture(t).s, limit.Limits{})
	check := `{"game":"salvo","setup":{"fleet":["B2-B6","D2-G2","I4-I6","D8-E8","G9-G10"]}}`
	// drain asks until refused and returns how many were answered.
	drain := func(addr, path, body string, most int) int {
		t.Helper()
		for i := range most {
			code, answer := postTool(t, h, addr, path, body)
			if code == http.StatusTooManyRequests {
				if want := `{"error":"too many requests to the editors' helpers from your address: slow down"}`; !strings.Contains(string(answer), want) {
					t.Errorf("%s refused with %s, want %s", path, answer, want)
				}
				return i
			}
			if code != 200 {
				t.Fatalf("%s, request %d: %d %s", path, i+1, code, answer)
			}
		}
		t.Fatalf("%s: %d requests from %s, none refused", path, most, addr)
		return most
	}
	if n := drain("198.51.100.1", "/api/v1/tools/check-setup", check, 100*httpapi.ToolsPerAddrBurst); n < httpapi.ToolsPerAddrBurst {
		t.Errorf("refused after %d checks, before the burst of %d", n, httpapi.ToolsPerAddrBurst)
	}
	if n := drain("198.51.100.1", "/check-setup", check, 100*httpapi.ToolsPerAddrBurst); n >= httpapi.ToolsPerAddrBurst/2 {
		t.Errorf("the old path answered %d more checks: it has a bucket of its own", n)
	}
	if code, body := postTool(t, h, "198.51.100.2", "/api/v1/tools/check-setup", check); code != 200 {
		t.Errorf("another address: %d %s", code, body)
	}

	fill := `{"game":"quizl","password":"crane","line":2}`
	if n := drain("198.51.100.3", "/api/v1/tools/fill-setup", fill, 20*httpapi.FillsPerAddrBurst); n < httpapi.FillsPerAddrBurst {
		t.Errorf("refused after %d fills, before the burst of %d", n, httpapi.FillsPerAddrBurst)
	}
	if code, body := postTool(t, h, "198.51.100.3", "/api/v1/tools/check-setup", check); code != 200 {
		t.Errorf("a check after the fills: %d %s", code, body)
	}
}

// TestToolsMethods: the helpers answer POST only; a GET of an old path is
// the browser client's page (when it is served), and a GET of a new one
// is no endpoint.
func TestToolsMethods(t *testing.T) {
	t.Parallel()
	h := NewHandler(newGamesFixture(t).s, limit.Limits{})
	h.ServeStatic(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "the page") }))
	for _, tt := range []struct {
		path   string
		status int
		has    string
	}{
		{"/replay", 200, "the page"},
		{"/check-setup", 200, "the page"},
		{"/api/v1/tools/replay", 404, "no such endpoint"},
	} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, tt.path, nil))
		if w.Code != tt.status || !strings.Contains(w.Body.String(), tt.has) {
			t.Errorf("GET %s: %d %s; want %d with %q", tt.path, w.Code, w.Body, tt.status, tt.has)
		}
	}
}

// FuzzTools posts arbitrary bodies to each helper: every answer is a JSON
// object, 200 with no error or 400, 413 or 422 with one.
func FuzzTools(f *testing.F) {
	for _, b := range []string{
		`{"game":"salvo","setup":{"fleet":["B2-B6","D2-G2","I4-I6","D8-E8","G9-G10"]}}`,
		`{"game":"quizl","seed":7}`,
		`{"game":"quizl","password":"crane","line":2,"seed":3}`,
		`{"grid":[".....",".CAT.",".....",".....","....."],"word":"tar","placement":"D2 down"}`,
		`{"parlour":1,"game":"nymphabet","players":["Ann","Ben"],"moves":[{"by":"Ann","move":"abdicated"}]}`,
		`{}`, `[`,
	} {
		for tool := range 5 {
			f.Add(uint8(tool), []byte(b))
		}
	}
	db, err := sqlite.Open(context.Background(), filepath.Join(f.TempDir(), "parlour.db"), sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		f.Fatal(err)
	}
	s, err := New(context.Background(), Config{Store: db, Games: games.Registry(), NewBot: games.NewBot, BaseURL: "http://test"})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { s.Close(); db.Close() })
	f.Fuzz(func(t *testing.T, tool uint8, b []byte) {
		name := []string{"check-setup", "random-setup", "fill-setup", "preview", "replay"}[tool%5]
		var fill struct{ Maker string }
		if name == "fill-setup" && json.Unmarshal(b, &fill) == nil && fill.Maker != "" && fill.Maker != "random" {
			return // the computer's grid makers are slow; games.FuzzFillSetup covers the decoding
		}
		h := NewHandler(s, limit.Limits{}) // fresh limits each time
		code, body := postTool(t, h, "203.0.113.1", "/api/v1/tools/"+name, string(b))
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("%s %s: the answer is not a JSON object: %v: %s", name, b, err, body)
		}
		_, refused := m["error"]
		switch {
		case code == 200 && !refused:
		case (code == 400 || code == 413 || code == 422) && refused:
		default:
			t.Fatalf("%s %s: %d %s", name, b, code, body)
		}
	})
}
