package web

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func get(t *testing.T, h http.Handler, path string, hdr map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, path, nil)
	for k, v := range hdr {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestHandlerRoutes(t *testing.T) {
	h := Handler()
	tests := []struct {
		path   string
		status int
		typ    string
		has    string
	}{
		{"/", 200, "text/html", `<script type="module" src="/static/js/main.js">`},
		{"/lobby", 200, "text/html", "<title>Parlour</title>"},
		{"/t/abc123", 200, "text/html", "Parlour"},
		{"/new/quizl", 200, "text/html", "Parlour"},
		{"/static/js/main.js", 200, "text/javascript", "import"},
		{"/static/app.css", 200, "text/css", "prefers-color-scheme"},
		{"/rules/quizl.md", 200, "text/markdown", "Quizl"},
		{"/static/nope.js", 404, "", ""},
		{"/rules/nope.md", 404, "", ""},
		{"/rules/nope", 404, "", ""},
		{"/rules", 200, "text/html", `<a href="/rules/quizl">Quizl</a>`},
		{"/rules/", 200, "text/html", "<h1"},
		{"/rules/quizl", 200, "text/html", `<h2 id="scoring">Scoring</h2>`},
		{"/rules/salvo", 200, "text/html", "<h1"},
		{"/rules/wordfight", 200, "text/html", "<h1"},
		{"/rules/nymphabet", 200, "text/html", "<h1"},
		{"/replay", 200, "text/html", `src="/static/js/main.js"`},
		{"/new/salvo", 200, "text/html", `src="/static/js/main.js"`},
		{"/favicon.ico", 404, "", ""},
		{"/api/v1/nothing", 404, "", ""},
		{"/api", 404, "", ""},
	}
	for _, tt := range tests {
		w := get(t, h, tt.path, nil)
		if w.Code != tt.status {
			t.Errorf("GET %s: status %d, want %d", tt.path, w.Code, tt.status)
			continue
		}
		if tt.status != 200 {
			continue
		}
		if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, tt.typ) {
			t.Errorf("GET %s: Content-Type %q, want %s", tt.path, ct, tt.typ)
		}
		if !strings.Contains(w.Body.String(), tt.has) {
			t.Errorf("GET %s: body lacks %q", tt.path, tt.has)
		}
	}
}

// TestRulesPages: each rules page is a whole page of HTML rendered from
// docs/rules on the server, with the site's stylesheet and header, its
// own title, the document's headings, links between the documents turned
// into links between the pages, and no script (it reads without one).
func TestRulesPages(t *testing.T) {
	h := Handler()
	for _, tt := range []struct{ path, title, heading string }{
		{"/rules/quizl", "Quizl · Parlour", `<h1 id="quizl">Quizl</h1>`},
		{"/rules/salvo", "Salvo · Parlour", "<h2"},
		{"/rules/wordfight", "Sightless Word Fight · Parlour", "<h2"},
		{"/rules/nymphabet", "Nymphabet · Parlour", "<h2"},
		{"/rules", "Rules · Parlour", `<h1 id="rules">Rules</h1>`},
	} {
		w := get(t, h, tt.path, nil)
		body := w.Body.String()
		if w.Code != 200 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
			t.Errorf("GET %s: %d %s", tt.path, w.Code, w.Header().Get("Content-Type"))
			continue
		}
		for _, want := range []string{"<title>" + tt.title + "</title>", tt.heading, `<link rel="stylesheet" href="/static/app.css">`, `<header class="top">`, `<a href="/lobby">Lobby</a>`} {
			if !strings.Contains(body, want) {
				t.Errorf("GET %s: the page lacks %q", tt.path, want)
			}
		}
		if strings.Contains(body, "<script") || strings.Contains(body, ".md\"") {
			t.Errorf("GET %s: the page has a script or a link to a Markdown file", tt.path)
		}
		if w.Header().Get("Content-Security-Policy") == "" {
			t.Errorf("GET %s: no Content-Security-Policy", tt.path)
		}
	}
	if body := get(t, h, "/rules/quizl", nil).Body.String(); !strings.Contains(body, `href="/new/quizl"`) || !strings.Contains(body, "<table>") {
		t.Errorf("the Quizl rules page has no link to open a table, or its table of options is not a table")
	}
}

func TestHandlerPageHeaders(t *testing.T) {
	h := Handler()
	w := get(t, h, "/", nil)
	csp := w.Header().Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'self'", "connect-src 'self'", "script-src 'self'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if w.Header().Get("X-Content-Type-Options") != "nosniff" {
		t.Error("no nosniff header")
	}
}

func TestHandlerGzipAndETag(t *testing.T) {
	h := Handler()
	plain := get(t, h, "/static/app.css", nil)
	zipped := get(t, h, "/static/app.css", map[string]string{"Accept-Encoding": "gzip, deflate"})
	if zipped.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("no gzip for a client that accepts it")
	}
	zr, err := gzip.NewReader(zipped.Body)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(zr)
	if !bytes.Equal(b, plain.Body.Bytes()) {
		t.Error("gzipped body differs from the plain one")
	}
	if zipped.Body.Len() >= plain.Body.Len() {
		t.Errorf("gzip did not shrink the stylesheet (%d >= %d)", zipped.Body.Len(), plain.Body.Len())
	}
	refused := get(t, h, "/static/app.css", map[string]string{"Accept-Encoding": "gzip;q=0"})
	if refused.Header().Get("Content-Encoding") != "" {
		t.Error("gzip sent to a client that refused it")
	}
	etag := plain.Header().Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	again := get(t, h, "/static/app.css", map[string]string{"If-None-Match": etag})
	if again.Code != http.StatusNotModified || again.Body.Len() != 0 {
		t.Errorf("revalidation: status %d, %d bytes; want 304 and none", again.Code, again.Body.Len())
	}
}

func TestHandlerMethods(t *testing.T) {
	h := Handler()
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(m, "/static/app.css", nil))
		if w.Code != http.StatusMethodNotAllowed {
			t.Errorf("%s: status %d, want 405", m, w.Code)
		}
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodHead, "/", nil))
	if w.Code != 200 || w.Body.Len() != 0 {
		t.Errorf("HEAD: status %d with %d bytes", w.Code, w.Body.Len())
	}
}

// TestFirstLoadSize keeps the home page's first load within the budget of
// 150 KB transferred: the page, the stylesheet and script it links, every
// module those import, and the modules main.js loads for the home route
// and at its top level, gzipped as the handler sends them. The list is
// read from the files (see homeLoad), so that a module the home page
// starts loading counts without anybody adding it here.
func TestFirstLoadSize(t *testing.T) {
	h := Handler()
	files := homeLoad(t, h)
	for _, want := range []string{"/", "/static/app.css", "/static/js/main.js", "/static/js/home.js", "/static/js/account.js", "/static/js/dom.js", "/static/js/api.js"} {
		if !slices.Contains(files, want) {
			t.Errorf("the home page's first load %v lacks %s, which it loads", files, want)
		}
	}
	total := 0
	for _, p := range files {
		w := get(t, h, p, map[string]string{"Accept-Encoding": "gzip"})
		if w.Code != 200 {
			t.Fatalf("GET %s: %d", p, w.Code)
		}
		total += w.Body.Len()
	}
	if total > 150_000 {
		t.Errorf("first load is %d bytes, over 150 KB", total)
	}
	t.Logf("first load: %d bytes gzipped in %d files: %s", total, len(files), strings.Join(files, " "))
}

// homeLoad lists what a browser fetches to show the home page: the page,
// what it links, and every module reached from main.js through static
// imports, top-level dynamic imports and the route table's entry for
// "/". Imports inside functions that run only on some condition (a
// signed-in player's challenges) are not part of a first load.
func homeLoad(t *testing.T, h http.Handler) []string {
	t.Helper()
	// linked finds the stylesheets and scripts a page links.
	linked := regexp.MustCompile(`<(?:link[^>]*\brel="stylesheet"[^>]*\bhref|script[^>]*\bsrc)="([^"]+)"`)
	// staticImport finds a module's static imports and re-exports.
	staticImport := regexp.MustCompile(`(?m)^\s*(?:import|export)\s+(?:[^"';]*?\s+from\s+)?["']([^"']+)["']`)
	// topImport finds a dynamic import at a module's top level, which
	// runs whenever the module loads.
	topImport := regexp.MustCompile(`(?m)^import\(["']([^"']+)["']\)`)
	// route finds a line of main.js's route table: the path's regular
	// expression and the module it loads.
	route := regexp.MustCompile(`(?m)^\s*\[/(.+)/, \(\) => import\(["']([^"']+)["']\)`)
	body := func(p string) string {
		w := get(t, h, p, nil)
		if w.Code != 200 {
			t.Fatalf("GET %s: %d", p, w.Code)
		}
		return w.Body.String()
	}
	out := []string{"/"}
	seen := map[string]bool{"/": true}
	var queue []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
			queue = append(queue, p)
		}
	}
	for _, m := range linked.FindAllStringSubmatch(body("/"), -1) {
		add(m[1])
	}
	routed := false
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if !strings.HasSuffix(p, ".js") {
			continue
		}
		src := body(p)
		resolve := func(spec string) string { return path.Join(path.Dir(p), spec) }
		for _, m := range staticImport.FindAllStringSubmatch(src, -1) {
			add(resolve(m[1]))
		}
		for _, m := range topImport.FindAllStringSubmatch(src, -1) {
			add(resolve(m[1]))
		}
		if p != "/static/js/main.js" {
			continue
		}
		for _, m := range route.FindAllStringSubmatch(src, -1) {
			re, err := regexp.Compile(m[1])
			if err != nil {
				t.Fatalf("main.js's route /%s/: %v", m[1], err)
			}
			if re.MatchString("/") {
				add(resolve(m[2]))
				routed = true
				break
			}
		}
	}
	if !routed {
		t.Fatalf("no route of main.js loads a module for the home page %v", out)
	}
	return out
}

func postReplay(t *testing.T, h http.Handler, body string) (*httptest.ResponseRecorder, map[string]any) {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/replay", strings.NewReader(body)))
	var m map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
		t.Fatalf("replay answer is not JSON: %v: %s", err, w.Body)
	}
	return w, m
}

func TestReplay(t *testing.T) {
	h := Handler()
	rec := `{"parlour":1,"game":"nymphabet","players":["Ann","Ben"],"moves":[{"by":"Ann","move":"abdicated"},{"by":"Ben","move":"effigy"}]}`
	w, m := postReplay(t, h, rec)
	if w.Code != 200 {
		t.Fatalf("status %d: %v", w.Code, m)
	}
	steps := m["steps"].([]any)
	if len(steps) != 2 {
		t.Fatalf("%d steps, want 2", len(steps))
	}
	first := steps[0].(map[string]any)
	views := first["views"].([]any)
	if len(views) != 2 {
		t.Fatalf("%d views per step, want 2", len(views))
	}
	if cur := views[0].(map[string]any)["current"]; cur != "E" {
		t.Errorf("after ABDICATED the current letter is %v, want E", cur)
	}
	if start := m["start"].([]any)[0].(map[string]any)["current"]; start != "A" {
		t.Errorf("before any move the current letter is %v, want A", start)
	}

	refusedRec := `{"parlour":1,"game":"nymphabet","players":["Ann","Ben"],"moves":[{"by":"Ann","move":"abdicated"},{"by":"Ben","move":"zebra"}]}`
	w, m = postReplay(t, h, refusedRec)
	if w.Code != 200 || !strings.Contains(m["refused"].(string), "move 2 by Ben") {
		t.Errorf("refused move: status %d, refused %v", w.Code, m["refused"])
	}
	if n := len(m["steps"].([]any)); n != 1 {
		t.Errorf("refused at move 2: %d steps, want 1", n)
	}
}

func TestReplayBadInput(t *testing.T) {
	h := Handler()
	tests := []struct {
		name, body string
		status     int
		has        string
	}{
		{"empty", "", 400, "not a Parlour game record"},
		{"not json", "hello", 400, "not a Parlour game record"},
		{"wrong version", `{"parlour":2,"game":"quizl","players":["A"],"moves":[]}`, 400, "format version"},
		{"unknown game", `{"parlour":1,"game":"chess","players":["A","B"],"moves":[]}`, 422, "chess"},
		{"foreign lexicon", `{"parlour":1,"game":"nymphabet","lexicon":"/etc/passwd","players":["A","B"],"moves":[]}`, 422, "does not hold"},
		{"too big", `{"parlour":1,"pad":"` + strings.Repeat("x", MaxReplaySize) + `"}`, 413, "larger"},
		{"hidden setup", `{"parlour":1,"game":"quizl","players":["A","B"],"setup":{"A":"hidden","B":"hidden"},"moves":[]}`, 422, "setup"},
	}
	for _, tt := range tests {
		w, m := postReplay(t, h, tt.body)
		if w.Code != tt.status {
			t.Errorf("%s: status %d, want %d (%v)", tt.name, w.Code, tt.status, m)
			continue
		}
		if msg, _ := m["error"].(string); !strings.Contains(msg, tt.has) {
			t.Errorf("%s: error %q lacks %q", tt.name, msg, tt.has)
		}
	}
}

// FuzzReplay feeds the replay viewer's record decoder arbitrary bytes: it
// must answer (a record or an error), never panic.
func FuzzReplay(f *testing.F) {
	f.Add([]byte(`{"parlour":1,"game":"nymphabet","players":["Ann","Ben"],"moves":[{"by":"Ann","move":"abdicated"}]}`))
	f.Add([]byte(`{"parlour":1,"game":"salvo","players":["A","B"],"setup":{"A":{"fleet":[]}},"moves":[]}`))
	f.Add([]byte(`{"parlour":1,"game":"wordfight","players":["A"],"moves":[{"by":"A","move":"declare cat"}]}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`[`))
	reg := Handler().(*handler).reg
	f.Fuzz(func(t *testing.T, b []byte) {
		ans, err := replay(reg, b)
		if err == nil && ans == nil {
			t.Fatal("no answer and no error")
		}
		if err == nil {
			if _, err := json.Marshal(ans); err != nil {
				t.Fatalf("answer does not encode: %v", err)
			}
		}
	})
}

func postCheck(t *testing.T, h http.Handler, body string) (int, map[string]any) {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/check-setup", strings.NewReader(body)))
	var m map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
		t.Fatalf("check answer is not JSON: %v: %s", err, w.Body)
	}
	return w.Code, m
}

func TestCheckSetup(t *testing.T) {
	h := Handler()
	tests := []struct {
		name, body string
		status     int
		has        string
	}{
		{"legal quizl", `{"game":"quizl","setup":{"grid":["tqufp","wzves","ogbra","chinl","kyxdm"],"password":"psalm"}}`, 200, `"PSALM"`},
		{"second word", `{"game":"quizl","setup":{"grid":["CRANE","BLIMP","DFGHJ","KOQST","UVWXY"],"password":"CRANE"}}`, 422, "row 6 reads BLIMP"},
		{"repeated letter", `{"game":"quizl","setup":{"grid":["CRANE","CRANE","BDFGH","IJKMQ","UVWXY"],"password":"CRANE"}}`, 422, "twice"},
		{"legal fleet", `{"game":"salvo","setup":{"fleet":["B2-B6","D2-G2","I4-I6","D8-E8","G9-G10"]}}`, 200, `B2-B6`},
		{"overlapping fleet", `{"game":"salvo","setup":{"fleet":["B2-B6","B2-E2","I4-I6","D8-E8","G9-G10"]}}`, 422, "the cruiser B2-E2 overlaps the battleship B2-B6 on B2"},
		{"strict edge", `{"game":"salvo","setup":{"fleet":["A1-E1","D3-G3","I4-I6","D8-E8","G8-G9"]}}`, 422, "the battleship A1-E1 has 5 squares on the edge of the ocean"},
		{"touching", `{"game":"salvo","setup":{"fleet":["B2-B6","C2-C5","I4-I6","E8-F8","H8-H9"]}}`, 422, "the cruiser C2-C5 touches the battleship B2-B6 on more than one square"},
		{"diagonal refused", `{"game":"salvo","setup":{"fleet":["B2-F6","D2-G2","I4-I6","D8-E8","G9-G10"]}}`, 422, "lies diagonally"},
		{"free rules", `{"game":"salvo","rules":{"placement":"free"},"setup":{"fleet":["A1-E1","A2-D2","A3-C3","A4-B4","A5-B5"]}}`, 200, "A1-E1"},
		{"bad rule", `{"game":"salvo","rules":{"placement":"loose"},"setup":{}}`, 422, "loose"},
		{"no setup game", `{"game":"nymphabet","setup":{}}`, 422, "no secret setup"},
		{"default lexicon", `{"game":"quizl","setup":{"grid":["ADIEU","BCFGH","JKLMN","OPQRS","TVWXY"],"password":"adieu"}}`, 200, `"ADIEU"`},
		{"the table's lexicon", `{"game":"quizl","lexicon":"en-common","setup":{"grid":["ADIEU","BCFGH","JKLMN","OPQRS","TVWXY"],"password":"adieu"}}`, 422, "ADIEU"},
		{"named default", `{"game":"quizl","lexicon":"en","setup":{"grid":["ADIEU","BCFGH","JKLMN","OPQRS","TVWXY"],"password":"adieu"}}`, 200, `"ADIEU"`},
		{"no such lexicon", `{"game":"quizl","lexicon":"klingon","setup":{}}`, 422, `there is no lexicon \"klingon\"`},
		{"a path is no lexicon", `{"game":"quizl","lexicon":"/etc/passwd","setup":{}}`, 422, "there is no lexicon"},
		{"unknown game", `{"game":"chess","setup":{}}`, 422, "chess"},
		{"unknown field", `{"game":"quizl","grid":[]}`, 422, "grid"},
		{"not json", `grid`, 422, "not a setup check"},
		{"trailing", `{"game":"salvo","setup":{"fleet":["B2-B6","D2-G2","I4-I6","D8-E8","G9-G10"]}} {}`, 422, "more after"},
		{"too big", `{"game":"salvo","setup":"` + strings.Repeat("x", MaxCheckSize) + `"}`, 413, "at most"},
	}
	for _, tt := range tests {
		code, m := postCheck(t, h, tt.body)
		if code != tt.status {
			t.Errorf("%s: status %d, want %d (%v)", tt.name, code, tt.status, m)
			continue
		}
		b, _ := json.Marshal(m)
		if !strings.Contains(string(b), tt.has) {
			t.Errorf("%s: answer %s lacks %q", tt.name, b, tt.has)
		}
	}
}

// FuzzCheckSetup feeds the setup check arbitrary bytes: it must answer,
// never panic.
func FuzzCheckSetup(f *testing.F) {
	f.Add([]byte(`{"game":"quizl","setup":{"grid":["tqufp","wzves","ogbra","chinl","kyxdm"],"password":"psalm"}}`))
	f.Add([]byte(`{"game":"salvo","setup":{"fleet":["B2-B6","D2-G2","I4-I6","D8-E8","G9-G10"]}}`))
	f.Add([]byte(`{"game":"salvo","rules":{"diagonal_ships":true},"setup":{"fleet":["A1-E5"]}}`))
	f.Add([]byte(`{}`))
	reg := Handler().(*handler).reg
	f.Fuzz(func(t *testing.T, b []byte) {
		checkSetup(reg, b)
	})
}

func TestRandomSetup(t *testing.T) {
	h := Handler()
	tests := []struct {
		name, rules string
	}{
		{"strict", `{}`},
		{"free", `{"placement":"free"}`},
		{"strict diagonal", `{"placement":"strict","diagonal_ships":true}`},
	}
	for _, tt := range tests {
		seen := map[string]bool{}
		for seed := range 5 {
			code, m := post(t, h, "/random-setup", `{"game":"salvo","rules":`+tt.rules+`,"seed":`+strconv.Itoa(seed)+`}`)
			if code != 200 {
				t.Fatalf("%s, seed %d: status %d (%v)", tt.name, seed, code, m)
			}
			setup, _ := json.Marshal(m["setup"])
			seen[string(setup)] = true
			// The referee passes what it made, under the same rules.
			code, c := post(t, h, "/check-setup", `{"game":"salvo","rules":`+tt.rules+`,"setup":`+string(setup)+`}`)
			if code != 200 {
				t.Errorf("%s, seed %d: the random fleet %s is refused: %v", tt.name, seed, setup, c["error"])
			}
			// The same seed gives the same fleet.
			_, again := post(t, h, "/random-setup", `{"game":"salvo","rules":`+tt.rules+`,"seed":`+strconv.Itoa(seed)+`}`)
			if b, _ := json.Marshal(again["setup"]); string(b) != string(setup) {
				t.Errorf("%s, seed %d: %s, then %s", tt.name, seed, setup, b)
			}
		}
		if len(seen) < 4 {
			t.Errorf("%s: five seeds made only %d fleets", tt.name, len(seen))
		}
	}
	// Without a seed, two asks (almost surely) differ.
	_, a := post(t, h, "/random-setup", `{"game":"salvo"}`)
	_, b := post(t, h, "/random-setup", `{"game":"salvo"}`)
	if ja, jb := fmt.Sprint(a["setup"]), fmt.Sprint(b["setup"]); ja == jb {
		t.Errorf("two unseeded random fleets are the same: %s", ja)
	}
	code, m := post(t, h, "/random-setup", `{"game":"quizl","seed":7}`)
	if g, _ := m["setup"].(map[string]any); code != 200 || g == nil || g["password"] == nil {
		t.Errorf("random Quizl setup: status %d, %v", code, m)
	}
}

func TestRandomSetupBadInput(t *testing.T) {
	h := Handler()
	tests := []struct {
		name, body string
		status     int
		has        string
	}{
		{"empty", "", 422, "not a request for a random setup"},
		{"not json", "fleet", 422, "not a request for a random setup"},
		{"unknown field", `{"game":"salvo","fleet":[]}`, 422, "fleet"},
		{"negative seed", `{"game":"salvo","seed":-1}`, 422, "seed"},
		{"trailing", `{"game":"salvo"}{}`, 422, "more after"},
		{"unknown game", `{"game":"chess"}`, 422, "chess"},
		{"no setup game", `{"game":"wordfight"}`, 422, "no secret setup"},
		{"bad rule", `{"game":"salvo","rules":{"placement":"loose"}}`, 422, "loose"},
		{"too big", `{"game":"` + strings.Repeat("x", MaxCheckSize) + `"}`, 413, "at most"},
	}
	for _, tt := range tests {
		code, m := post(t, h, "/random-setup", tt.body)
		if code != tt.status {
			t.Errorf("%s: status %d, want %d (%v)", tt.name, code, tt.status, m)
			continue
		}
		if msg, _ := m["error"].(string); !strings.Contains(msg, tt.has) {
			t.Errorf("%s: error %q lacks %q", tt.name, msg, tt.has)
		}
	}
}

// FuzzRandomSetup feeds the random setup request decoder arbitrary bytes:
// it must answer (a setup or an error), never panic, and whatever setup it
// makes must pass the game's own check.
func FuzzRandomSetup(f *testing.F) {
	f.Add([]byte(`{"game":"salvo","seed":1}`))
	f.Add([]byte(`{"game":"salvo","rules":{"placement":"free","diagonal_ships":true},"seed":18446744073709551615}`))
	f.Add([]byte(`{"game":"quizl","seed":0}`))
	f.Add([]byte(`{"game":"nymphabet"}`))
	f.Add([]byte(`{}`))
	reg := Handler().(*handler).reg
	f.Fuzz(func(t *testing.T, b []byte) {
		setup, err := randomSetup(reg, b)
		if err != nil {
			return
		}
		var req randomRequest
		json.Unmarshal(b, &req)
		check, _ := json.Marshal(checkRequest{Game: req.Game, Rules: req.Rules, Setup: setup})
		if _, err := checkSetup(reg, check); err != nil {
			t.Fatalf("%s made %s, which its check refuses: %v", b, setup, err)
		}
	})
}
