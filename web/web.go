// Package web is Parlour's browser client: plain ES modules, CSS and HTML
// embedded in the binary and served by Handler. The client holds no game
// rules; it draws each seat's view as the server sends it and posts moves
// in the games' notation, so the server stays the only referee.
//
// main.js is the page's one script: it routes each path to a page's
// module, which it imports. The modules import each other in no circle
// (TestModulesImportNoCircle): a page moves the player with nav.js, which
// main.js listens to, and never imports main.js.
//
// Nothing is built at compile time and nothing is fetched from elsewhere:
// every file the browser needs is under static/, and the handler sends a
// Content-Security-Policy that keeps the page on its own origin.
package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"regexp"
	"slices"
	"strings"

	"parlour/docs"
)

//go:embed static
var static embed.FS

// csp confines the page to its own origin: scripts, styles, images and
// sockets all come from the server that served it.
const csp = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; " +
	"connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

// asset is one file ready to serve: its bytes, a gzipped copy when that is
// smaller, and a strong ETag.
type asset struct {
	name string
	typ  string
	raw  []byte
	gz   []byte
	etag string
}

// handler serves the embedded client.
type handler struct {
	files map[string]*asset // by URL path
	index *asset
	pages []*asset // the rules pages, rendered from docs/rules
	// routes are the paths the page has a screen for, read from main.js's
	// own table so that the two never disagree: the page is served with
	// 404 at any other path, where it says there is no such page.
	routes []*regexp.Regexp
}

// Handler returns the handler for the browser client. Mount it at "/"
// beneath the server's API routes. It serves the files under /static/,
// each game's rules as a page of its own at /rules/GAME (rendered from
// docs/rules on the server, so that it reads without JavaScript and can
// be linked) and as Markdown at /rules/GAME.md, and the client's page for
// every other GET path (the client routes /, /lobby, /t/ID and so on
// itself), with 404 at a path the client has no screen for, so that a
// mistyped or stale link is a 404 to crawlers and link checkers too. It
// answers 404 for paths under /api/ so that a missing API
// route is not mistaken for the page, and 405 for any method but GET and
// HEAD: what the pages ask of the games (checking a setup, a preview, a
// replay) is the API's, under /api/v1/tools/.
func Handler() http.Handler {
	h, err := newHandler()
	if err != nil {
		// The files are embedded at build time; failing to read them is a
		// broken build, not a runtime condition.
		panic(fmt.Sprintf("web: reading embedded files: %v", err))
	}
	return h
}

func newHandler() (*handler, error) {
	h := &handler{files: map[string]*asset{}}
	err := fs.WalkDir(static, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := static.ReadFile(p)
		if err != nil {
			return err
		}
		h.files["/"+p] = newAsset(p, b)
		return nil
	})
	if err != nil {
		return nil, err
	}
	rules, err := fs.Glob(docs.Rules, "rules/*.md")
	if err != nil {
		return nil, err
	}
	for _, p := range rules {
		b, err := fs.ReadFile(docs.Rules, p)
		if err != nil {
			return nil, err
		}
		h.files["/"+p] = newAsset(p, b)
	}
	h.index = h.files["/static/index.html"]
	if h.index == nil {
		return nil, fmt.Errorf("static/index.html is missing")
	}
	main := h.files["/static/js/main.js"]
	if main == nil {
		return nil, fmt.Errorf("static/js/main.js is missing")
	}
	if h.routes, err = clientRoutes(main.raw); err != nil {
		return nil, err
	}
	header, err := siteHeader(h.index.raw)
	if err != nil {
		return nil, err
	}
	pages, err := rulesPages(header)
	if err != nil {
		return nil, err
	}
	for p, a := range pages {
		h.files[p] = a
		h.pages = append(h.pages, a)
	}
	return h, nil
}

func newAsset(name string, b []byte) *asset {
	typ := mime.TypeByExtension(path.Ext(name))
	switch path.Ext(name) {
	case ".js":
		typ = "text/javascript; charset=utf-8"
	case ".md":
		typ = "text/markdown; charset=utf-8"
	case ".svg":
		typ = "image/svg+xml"
	}
	if typ == "" {
		typ = "application/octet-stream"
	}
	sum := sha256.Sum256(b)
	a := &asset{name: name, typ: typ, raw: b, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	if buf.Len() < len(b) {
		a.gz = buf.Bytes()
	}
	return a
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p := r.URL.Path
	if p == "/api" || strings.HasPrefix(p, "/api/") {
		http.NotFound(w, r)
		return
	}
	if p != "/" && strings.HasSuffix(p, "/") && !strings.HasPrefix(p, "/static/") {
		p = strings.TrimRight(p, "/") // "/rules/" is "/rules"
	}
	a := h.files[p]
	if a == nil {
		// A game's rules are asked for by its name in any case, as the
		// API reads it; the address is put right to the page's own.
		if low := strings.ToLower(p); strings.HasPrefix(p, "/rules/") && low != p && h.files[low] != nil {
			http.Redirect(w, r, low, http.StatusMovedPermanently)
			return
		}
		if strings.HasPrefix(p, "/static/") || strings.HasPrefix(p, "/rules/") || path.Ext(p) != "" {
			http.NotFound(w, r)
			return
		}
		a = h.index
		if !h.routed(r.URL.EscapedPath()) {
			h.serveStatus(w, r, a, http.StatusNotFound)
			return
		}
	}
	h.serve(w, r, a)
}

// clientRoutes reads the routes table of main.js: each entry is a line
// that opens with a regular expression literal anchored at both ends,
// such as [/^\/lobby$/, () => import("./lobby.js")...], written in the
// subset JavaScript and Go share, with "/" escaped as JavaScript literals
// need; the flag i (any case) is the only one it may carry.
func clientRoutes(mainJS []byte) ([]*regexp.Regexp, error) {
	jsRoute := regexp.MustCompile(`(?m)^\s*\[/(\^.*?\$)/([a-z]*), \(\) =>`)
	var out []*regexp.Regexp
	for _, m := range jsRoute.FindAllSubmatch(mainJS, -1) {
		expr := strings.ReplaceAll(string(m[1]), `\/`, "/")
		switch string(m[2]) {
		case "":
		case "i":
			expr = "(?i)" + expr
		default:
			return nil, fmt.Errorf("main.js route /%s/%s: flags other than i are not read", m[1], m[2])
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			return nil, fmt.Errorf("main.js route /%s/: %w", m[1], err)
		}
		out = append(out, re)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("main.js: no routes table found")
	}
	return out, nil
}

// routed says whether the page has a screen for path (as the browser
// sends it, escaped), which the page reads with trailing slashes cut.
func (h *handler) routed(p string) bool {
	if t := strings.TrimRight(p, "/"); t != "" {
		p = t
	}
	return slices.ContainsFunc(h.routes, func(re *regexp.Regexp) bool { return re.MatchString(p) })
}

func (h *handler) serve(w http.ResponseWriter, r *http.Request, a *asset) {
	h.serveStatus(w, r, a, http.StatusOK)
}

// serveStatus serves a with status; only a 200 is revalidated (304).
func (h *handler) serveStatus(w http.ResponseWriter, r *http.Request, a *asset, status int) {
	hd := w.Header()
	hd.Set("Content-Type", a.typ)
	hd.Set("ETag", a.etag)
	// Revalidate every time: the ETag makes that a cheap 304, and a new
	// binary's files are never mixed with an old one's.
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "same-origin")
	if a == h.index || slices.Contains(h.pages, a) {
		hd.Set("Content-Security-Policy", csp)
	}
	hd.Add("Vary", "Accept-Encoding")
	if match := r.Header.Get("If-None-Match"); status == http.StatusOK && match != "" && strings.Contains(match, a.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := a.raw
	if a.gz != nil && acceptsGzip(r) {
		hd.Set("Content-Encoding", "gzip")
		body = a.gz
	}
	hd.Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(status)
	if r.Method == http.MethodHead {
		return
	}
	w.Write(body)
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(enc) != "gzip" {
			continue
		}
		q = strings.ReplaceAll(q, " ", "")
		return !(q == "q=0" || q == "q=0." || strings.HasPrefix(q, "q=0.0") && strings.Trim(q[len("q=0.0"):], "0") == "")
	}
	return false
}
