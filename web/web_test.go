package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"slices"
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
		{"/lobby/", 200, "text/html", "Parlour"},
		{"/players/Ann_b-2", 200, "text/html", "Parlour"},
		{"/players", 200, "text/html", `src="/static/js/main.js"`},
		{"/events", 200, "text/html", `src="/static/js/main.js"`},
		// A game's name in any case; a player's name no account has is
		// the page's to say (No such player), as a mistyped one is.
		{"/daily/Quizl", 200, "text/html", `src="/static/js/main.js"`},
		{"/new/SALVO", 200, "text/html", `src="/static/js/main.js"`},
		{"/players/Ann%20B", 200, "text/html", `src="/static/js/main.js"`},
		{"/players/Zo%C3%AB", 200, "text/html", `src="/static/js/main.js"`},
		{"/rules/Quizl", 301, "", ""},
		{"/rules/QUIZL.md", 301, "", ""},
		{"/rules/Nope", 404, "", ""},
		{"/tournaments/x7k2", 200, "text/html", "Parlour"},
		{"/j/KQ%2FPX", 200, "text/html", "Parlour"},
		// No screen of the page's: the page, which says so, with a 404.
		{"/games", 404, "text/html", `src="/static/js/main.js"`},
		{"/players/Ann/games", 404, "text/html", `src="/static/js/main.js"`},
		{"/lobby/more", 404, "text/html", `src="/static/js/main.js"`},
		{"/new/", 404, "text/html", `src="/static/js/main.js"`},
	}
	for _, tt := range tests {
		w := get(t, h, tt.path, nil)
		if w.Code != tt.status {
			t.Errorf("GET %s: status %d, want %d", tt.path, w.Code, tt.status)
			continue
		}
		if tt.typ == "" {
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

// TestClientRoutes: the handler reads every route of main.js's table, and
// refuses a table it cannot read.
func TestClientRoutes(t *testing.T) {
	t.Parallel()
	main, err := static.ReadFile("static/js/main.js")
	if err != nil {
		t.Fatal(err)
	}
	routes, err := clientRoutes(main)
	if err != nil {
		t.Fatal(err)
	}
	if want := bytes.Count(main, []byte("() => import(")); len(routes) != want {
		t.Errorf("read %d routes of main.js's %d", len(routes), want)
	}
	for _, bad := range []string{"", "const routes = [];", "  [/^\\/(?=a)$/, () => import(\"./a.js\")],", "  [/^\\/a$/g, () => import(\"./a.js\")],"} {
		if _, err := clientRoutes([]byte(bad)); err == nil {
			t.Errorf("clientRoutes(%q) read a table", bad)
		}
	}
}

// TestNotFoundIsFresh: the page served with a 404 is never a 304, so a
// cache never turns a missing page into a found one.
func TestNotFoundIsFresh(t *testing.T) {
	t.Parallel()
	h := Handler()
	etag := get(t, h, "/", nil).Header().Get("ETag")
	if w := get(t, h, "/nothing-here", map[string]string{"If-None-Match": etag}); w.Code != http.StatusNotFound || w.Body.Len() == 0 {
		t.Errorf("a missing page revalidated: %d, %d bytes", w.Code, w.Body.Len())
	}
	if w := get(t, h, "/lobby", map[string]string{"If-None-Match": etag}); w.Code != http.StatusNotModified {
		t.Errorf("a page revalidated: %d, want 304", w.Code)
	}
}

// TestRulesPages: each rules page is a whole page of HTML rendered from
// docs/rules on the server, with the site's stylesheet and header, its
// own title, the document's headings, links between the documents turned
// into links between the pages, the header's Rules link marked as the
// current page (main.js marks it on the other screens), and no script
// (it reads without one).
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
		for _, want := range []string{"<title>" + tt.title + "</title>", tt.heading, `<link rel="stylesheet" href="/static/app.css">`, `<header class="top">`, `<a href="/lobby">Lobby</a>`, `<a href="/rules" aria-current="page">Rules</a>`} {
			if !strings.Contains(body, want) {
				t.Errorf("GET %s: the page lacks %q", tt.path, want)
			}
		}
		// The header's script alone: the rules read without JavaScript.
		if scripts := regexp.MustCompile(`<script[^>]*>`).FindAllString(body, -1); len(scripts) != 1 || scripts[0] != `<script type="module" src="/static/js/top.js">` || strings.Contains(body, ".md\"") {
			t.Errorf("GET %s: the page has scripts %q, want only the header's, or a link to a Markdown file", tt.path, scripts)
		}
		if w.Header().Get("Content-Security-Policy") == "" {
			t.Errorf("GET %s: no Content-Security-Policy", tt.path)
		}
	}
	if body := get(t, h, "/rules/quizl", nil).Body.String(); !strings.Contains(body, `href="/new/quizl"`) || !strings.Contains(body, `<table class="options">`) {
		t.Errorf("the Quizl rules page has no link to open a table, or its table of options is not a table marked as options")
	}
	// Only a table of options is marked: Nymphabet's example is a table
	// as any other.
	if body := get(t, h, "/rules/nymphabet", nil).Body.String(); !strings.Contains(body, "<table>") {
		t.Errorf("Nymphabet's example table is not a plain table")
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
	// The helpers the pages call are the API's (/api/v1/tools/), which
	// also answers their old paths: the client's handler serves none.
	for _, p := range []string{"/replay", "/check-setup", "/random-setup", "/fill-setup", "/preview"} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, p, strings.NewReader(`{}`)))
		if w.Code != http.StatusMethodNotAllowed {
			t.Errorf("POST %s: status %d, want 405", p, w.Code)
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
