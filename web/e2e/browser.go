package e2e

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/input"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// chromiumPath finds the browser: $PARLOUR_CHROMIUM, else Debian's
// chromium or another Chrome on $PATH. Without one the test is skipped,
// unless CI is set (to anything but false or 0): then a missing browser is
// a failure, so that CI never passes by skipping the browser tests.
func chromiumPath(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("PARLOUR_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if ci := os.Getenv("CI"); ci != "" && ci != "false" && ci != "0" {
		t.Fatal("no Chromium found (install Debian's chromium, or set PARLOUR_CHROMIUM); CI must run the browser tests")
	}
	t.Skip("no Chromium found: install Debian's chromium (apt-get install -y chromium) or set PARLOUR_CHROMIUM to run the browser tests")
	return ""
}

// NewBrowser returns the test binary's headless Chromium, started by the
// first test that asks for it with a fresh profile and nothing that
// reaches for the network by itself, and closed by Main. The tests share
// one browser because starting one costs more CPU than most of them
// spend in it; each player still gets a browser context of its own
// (NewPlayer), with its own cookies, storage and permissions.
func NewBrowser(t testing.TB) context.Context {
	t.Helper()
	path := chromiumPath(t)
	if testing.Short() {
		t.Skip("browser tests are skipped with -short")
	}
	ctx, err := chromium.get(path)
	if err != nil {
		t.Fatalf("starting Chromium (%s): %v", path, err)
	}
	return ctx
}

// chromium is the browser a test binary's tests share.
var chromium browserProcess

// browserProcess is one Chromium, started on first use and again if it
// went away.
type browserProcess struct {
	mu     sync.Mutex
	ctx    context.Context // its first tab, which stays open
	dir    string          // its profile
	cancel func()
}

// get returns the first tab's context of the running browser, starting
// the browser if none runs.
func (b *browserProcess) get(path string) (context.Context, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ctx != nil && b.ctx.Err() == nil {
		return b.ctx, nil
	}
	b.stopLocked()
	dir, err := os.MkdirTemp("", "parlour-e2e-chromium-")
	if err != nil {
		return nil, err
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(dir),
		chromedp.WindowSize(1200, 900),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-features", "Translate,OptimizationHints,MediaRouter"),
		chromedp.Flag("no-pings", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
	}
	alloc, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	b.dir, b.ctx = dir, ctx
	b.cancel = func() { cancel(); acancel() }
	if err := chromedp.Do(ctx); err != nil {
		b.stopLocked()
		return nil, err
	}
	return ctx, nil
}

// stop closes the browser, if one runs, and removes its profile.
func (b *browserProcess) stop() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stopLocked()
}

func (b *browserProcess) stopLocked() {
	if b.cancel != nil {
		b.cancel()
	}
	if b.dir != "" {
		os.RemoveAll(b.dir)
	}
	b.ctx, b.dir, b.cancel = nil, "", nil
}

// Player is one person at the table: a browser context of their own
// (cookies and storage apart from every other player's), and everything
// it received: page bodies and socket messages.
type Player struct {
	t    testing.TB
	Name string
	Ctx  context.Context
	base string

	mu       sync.Mutex
	frames   []string          // socket messages received
	bodies   map[string]string // request id -> body, for same-origin responses
	requests []string          // every URL requested
	sizes    map[string]int64  // request id -> encoded bytes received
	ids      []network.RequestID
	errors   []string // JavaScript exceptions and console errors
	logged   []string // the browser's own console errors, such as a failed request's
	urls     map[network.RequestID]string
}

// NewPlayer opens a tab in a new browser context of b.
func NewPlayer(t testing.TB, b context.Context, name, base string) *Player {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b, chromedp.WithNewBrowserContext())
	p := &Player{t: t, Name: name, Ctx: ctx, base: base, bodies: map[string]string{}, sizes: map[string]int64{}, urls: map[network.RequestID]string{}}
	t.Cleanup(func() {
		p.mu.Lock()
		if len(p.errors) > 0 {
			t.Errorf("%s's page had script errors:\n%s", p.Name, strings.Join(p.errors, "\n"))
		}
		p.mu.Unlock()
		cancel()
	})
	if err := chromedp.Listen(ctx, p.listen); err != nil {
		t.Fatalf("%s: listening: %v", name, err)
	}
	return p
}

// exceptionText says what a script exception was.
func exceptionText(d *runtime.ExceptionDetails) string {
	if d == nil {
		return ""
	}
	if d.Exception != nil && d.Exception.Description != "" {
		return d.Exception.Description
	}
	return fmt.Sprintf("at %s:%d:%d", d.URL, d.LineNumber, d.ColumnNumber)
}

func (p *Player) listen(ev any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		p.requests = append(p.requests, e.Request.URL)
		p.urls[e.RequestID] = e.Request.URL
	case *network.EventWebSocketFrameReceived:
		p.frames = append(p.frames, string(e.Response.PayloadData))
	case *runtime.EventExceptionThrown:
		p.errors = append(p.errors, e.ExceptionDetails.Text+" "+exceptionText(e.ExceptionDetails))
	case *runtime.EventConsoleAPICalled:
		if e.Type == "error" {
			var parts []string
			for _, a := range e.Args {
				parts = append(parts, string(a.Value)+a.Description)
			}
			p.errors = append(p.errors, "console.error: "+strings.Join(parts, " "))
		}
	case *cdplog.EventEntryAdded:
		if e.Entry.Level == cdplog.EntryLevelError {
			p.logged = append(p.logged, e.Entry.Text+" "+e.Entry.URL)
		}
	case *network.EventLoadingFinished:
		p.sizes[string(e.RequestID)] = int64(e.EncodedDataLength)
		p.ids = append(p.ids, e.RequestID)
	}
}

// received returns every page, API answer and socket message the player
// has received so far, fetching bodies it has not read yet. Left out are
// what is the same for everybody whatever the games, whose prose may hold
// any word of a grid: the client's scripts and styles, the rules and the
// catalogue of games with each option's help. So are the answers of the
// setup helpers, /api/v1/tools/random-setup, check-setup and fill-setup,
// and their old paths: they know no table, and what they answer is the
// player's own setup, of which a player may be dealt several before
// choosing one.
func (p *Player) received() []string {
	p.mu.Lock()
	ids := append([]network.RequestID(nil), p.ids...)
	p.mu.Unlock()
	for _, id := range ids {
		p.mu.Lock()
		_, done := p.bodies[string(id)]
		u := p.urls[id]
		p.mu.Unlock()
		if done || !strings.HasPrefix(u, p.base+"/") || strings.HasPrefix(u, p.base+"/static/") || strings.HasPrefix(u, p.base+"/rules/") || u == p.base+"/api/v1/games" || ownSetup(p.base, u) {
			continue
		}
		res, err := chromedp.Call(p.Ctx, network.GetResponseBody, network.GetResponseBodyParams{RequestID: id})
		body := ""
		if err == nil {
			body = string(res.Body) // already decoded from base64
		}
		p.mu.Lock()
		p.bodies[string(id)] = body
		p.mu.Unlock()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	out := append([]string(nil), p.frames...)
	for _, b := range p.bodies {
		out = append(out, b)
	}
	return out
}

// Do runs actions, failing the test with what the player was doing.
func (p *Player) Do(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.fail("%s: %v", what, err)
	}
}

func (p *Player) fail(format string, args ...any) {
	p.t.Helper()
	msg := fmt.Sprintf(format, args...)
	p.Shot("failure-" + p.Name)
	p.mu.Lock()
	errs := strings.Join(p.errors, "\n")
	p.mu.Unlock()
	p.t.Fatalf("%s: %s\n%s\nscript errors:\n%s", p.Name, msg, p.Text("#main"), errs)
}

// Open goes to path on the server.
func (p *Player) Open(path string) {
	p.t.Helper()
	p.Do("open "+path, chromedp.Navigate(p.base+path))
}

// Eval evaluates a JavaScript expression in the page, giving it 20 s.
func Eval[T any](p *Player, expr string) T {
	p.t.Helper()
	return evalWithin[T](p, 20*time.Second, expr)
}

// evalWithin evaluates a JavaScript expression in the page, giving up
// after d: an expression that does much work, as axe-core's whole run on
// a large page does, needs longer than Eval gives on a loaded machine.
func evalWithin[T any](p *Player, d time.Duration, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, d)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.fail("evaluating %s: %v", Clip(expr), err)
	}
	return v
}

// Wait polls until the JavaScript expression is true, for at most 30 s.
// It polls in slices of a few seconds, each a new evaluation in the page
// as it is then: an evaluation whose page a navigation replaced may end
// with an error or may never answer, and the next slice polls the new
// page either way. The page ends each slice itself; the test gives up on
// one only at three times its length, so that a browser slowed by a
// loaded machine is not cut off while it answers.
func (p *Player) Wait(what, expr string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, 30*time.Second)
	defer cancel()
	const slice = 2 * time.Second
	for {
		sctx, scancel := context.WithTimeout(ctx, 3*slice)
		_, err := chromedp.Run(sctx, chromedp.Poll[bool](expr,
			chromedp.WithPollingInterval(5*time.Millisecond), chromedp.WithPollingTimeout(slice)))
		scancel()
		switch {
		case err == nil:
			return
		case ctx.Err() != nil:
			p.fail("waiting for %s (%s): %v", what, Clip(expr), ctx.Err())
		case errors.Is(err, chromedp.ErrPollingTimeout), errors.Is(err, context.DeadlineExceeded):
			continue
		case contextGone(err):
			time.Sleep(20 * time.Millisecond)
			continue
		}
		p.fail("waiting for %s (%s): %v", what, Clip(expr), err)
	}
}

// contextGone reports whether err says that the page's JavaScript context
// an evaluation ran in is gone, replaced by a navigation. The browser says
// so in one of three ways, depending on how far the navigation had gone.
func contextGone(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "Cannot find context with specified id") ||
		strings.Contains(msg, "Execution context was destroyed") ||
		strings.Contains(msg, "Inspected target navigated or closed")
}

// Text returns the visible text of the first element matching sel, or "".
func (p *Player) Text(sel string) string {
	ctx, cancel := context.WithTimeout(p.Ctx, 5*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`(document.querySelector(%q)||{}).innerText||""`, sel)))
	if err != nil {
		return ""
	}
	return v
}

// Click clicks the first element matching the CSS selector with the
// mouse, as a player would, once it is ready for it: drawn, in view, where
// it was a moment before, and what lies under its middle (nothing covers
// it). A part of the page that arrives late and moves the element could
// still move it between that answer and the click: the page then lets
// the stray click through to nothing, and Click tries again.
func (p *Player) Click(sel string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, 20*time.Second)
	defer cancel()
	var last clickPoint
	for {
		at, err := chromedp.Run(ctx, chromedp.Evaluate[clickPoint](fmt.Sprintf(clickReady, sel), chromedp.EvalAwaitPromise))
		switch {
		case err != nil && ctx.Err() == nil && contextGone(err):
			at.Why = "the page was being replaced"
		case err != nil:
			p.fail("click %s: %v (last seen: %s)", sel, err, last.Why)
		}
		if at.Why == "" {
			if err := chromedp.Do(ctx, chromedp.MouseClickXY(at.X, at.Y)); err != nil {
				p.fail("click %s: %v", sel, err)
			}
			missed, err := chromedp.Run(ctx, chromedp.Evaluate[bool](clickMissed))
			if err != nil || !missed {
				return // hit, or it led to another page
			}
			at.Why = "the element moved as it was clicked"
			p.t.Logf("%s: the click on %s landed beside it; clicking again", p.Name, sel)
		}
		last = at
		select {
		case <-ctx.Done():
			p.fail("click %s: %s", sel, at.Why)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// clickPoint is where Click may click, in the page's viewport, or Why it
// may not yet.
type clickPoint struct {
	X, Y float64
	Why  string
}

// clickReady is the page's side of Click: given the selector (%q), it
// finds the element, scrolls it into view, and answers its middle once
// the element has kept its place over a few frames' time and is hit there.
// It then guards the click to come: pressed or released anywhere but on
// the element, it reaches nothing on the page and is noted as missed.
const clickReady = `(async sel => {
	const el = document.querySelector(sel);
	if (!el) return { Why: "no element matches" };
	el.scrollIntoView({ block: "nearest", inline: "nearest" });
	const box = () => { const r = el.getBoundingClientRect(); return [r.x, r.y, r.width, r.height].join(); };
	const before = box();
	await new Promise(done => setTimeout(done, 30));
	if (!el.isConnected) return { Why: "the element left the page" };
	if (box() !== before) return { Why: "the element is moving" };
	const r = el.getBoundingClientRect();
	if (r.width === 0 || r.height === 0) return { Why: "the element is not drawn" };
	const x = r.x + r.width / 2, y = r.y + r.height / 2;
	const on = t => !!t && (t === el || el.contains(t) || (t.closest && t.closest("label") && t.closest("label").control === el));
	const hit = document.elementFromPoint(x, y);
	if (!on(hit)) return { Why: "something else is where it is drawn: " + (hit ? hit.outerHTML.slice(0, 120) : "nothing") };
	if (window.__e2eGuard) window.__e2eGuard.off();
	const kinds = ["pointerdown", "mousedown", "pointerup", "mouseup", "click"];
	const guard = { missed: false };
	const check = e => {
		if (!on(e.target)) {
			guard.missed = true;
			e.preventDefault();
			e.stopImmediatePropagation();
		}
		if (e.type === "click") guard.off();
	};
	guard.off = () => kinds.forEach(k => window.removeEventListener(k, check, true));
	kinds.forEach(k => window.addEventListener(k, check, true));
	window.__e2eGuard = guard;
	// The mouse moves over what the screen shows (the visual viewport),
	// which a phone zooms out over a page wider than itself.
	const v = window.visualViewport;
	return { X: (x - v.offsetLeft) * v.scale, Y: (y - v.offsetTop) * v.scale, Why: "" };
})(%q)`

// clickMissed reports, after Click's click, whether the page's guard
// stopped it for landing beside the element.
const clickMissed = `(() => { const g = window.__e2eGuard; window.__e2eGuard = null; if (!g) return false; g.off(); return g.missed; })()`

// TypeIn replaces the value of the input matching sel and types text.
// All but the last few characters of a long text go in at once, as from
// an input method, and the rest key by key: typed key by key, 201
// characters took more than 20 s of a loaded machine.
func (p *Player) TypeIn(sel, text string) {
	p.t.Helper()
	if !Eval[bool](p, fmt.Sprintf(`(() => { const el = document.querySelector(%q); if (!el) return false; el.value = ""; el.focus(); return true; })()`, sel)) {
		p.fail("no %s to type in", sel)
	}
	const keyed = 16
	if r := []rune(text); len(r) > keyed {
		ctx, cancel := context.WithTimeout(p.Ctx, 20*time.Second)
		_, err := chromedp.Call(ctx, input.InsertText, input.InsertTextParams{Text: string(r[:len(r)-keyed])})
		cancel()
		if err != nil {
			p.fail("putting text in %s: %v", sel, err)
		}
		text = string(r[len(r)-keyed:])
	}
	p.Do("type in "+sel, chromedp.SendKeys(chromedp.CSS(sel), text, chromedp.NodeVisible))
}

// shotDir is where screenshots go: $PARLOUR_SCREENSHOTS, or a temporary
// directory of the test run, which Main removes after a run that
// passed. It is empty when no directory could be made.
var shotDir = sync.OnceValue(func() string {
	if d := os.Getenv("PARLOUR_SCREENSHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			fmt.Fprintf(os.Stderr, "screenshots: %v\n", err)
			return ""
		}
		return d
	}
	d, err := os.MkdirTemp("", "parlour-e2e-shots-")
	if err != nil {
		fmt.Fprintf(os.Stderr, "screenshots: %v\n", err)
		return ""
	}
	return d
})

// Main runs a package's tests (call it from TestMain), then closes the
// browser they shared and removes their screenshots if they passed,
// unless $PARLOUR_SCREENSHOTS asked to keep them, so that every run does
// not leave its pictures behind; a failed run keeps them and says where.
func Main(m *testing.M) int {
	code := m.Run()
	chromium.stop()
	if os.Getenv("PARLOUR_SCREENSHOTS") == "" {
		if d := shotDir(); d != "" {
			if shots, _ := os.ReadDir(d); code == 0 || len(shots) == 0 {
				os.RemoveAll(d)
			} else {
				fmt.Fprintf(os.Stderr, "screenshots of the failed run: %s\n", d)
			}
		}
	}
	return code
}

// Shot saves a screenshot of the whole page as NAME.png.
func (p *Player) Shot(name string) { p.capture(name, chromedp.FullScreenshot(100)) }

// ShotView saves a screenshot of what the screen shows now (the viewport
// only, as a phone's player sees it) as NAME.png.
func (p *Player) ShotView(name string) { p.capture(name, chromedp.CaptureScreenshot()) }

func (p *Player) capture(name string, take chromedp.Action[[]byte]) {
	ctx, cancel := context.WithTimeout(p.Ctx, 10*time.Second)
	defer cancel()
	// A passing toast would cover part of the page.
	chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const t = document.getElementById("toast"); if (t) { t.style.transition = "none"; t.classList.remove("show"); } return true; })()`))
	b, err := chromedp.Run(ctx, take)
	if err != nil {
		p.t.Logf("screenshot %s: %v", name, err)
		return
	}
	dir := shotDir()
	if dir == "" {
		return
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		p.t.Logf("screenshot %s: %v", name, err)
	}
}

// Requested returns every URL p's page has requested so far.
func (p *Player) Requested() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.requests)
}

// OffOrigin lists requests that left the server's origin.
func (p *Player) OffOrigin() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	base, _ := url.Parse(p.base)
	var out []string
	for _, r := range p.requests {
		u, err := url.Parse(r)
		if err != nil || u.Scheme == "data" || u.Scheme == "blob" {
			continue
		}
		if u.Host != base.Host {
			out = append(out, r)
		}
	}
	return out
}

// Transferred sums the encoded bytes of every response received.
func (p *Player) Transferred() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	var n int64
	for _, s := range p.sizes {
		n += s
	}
	return n
}

// Clip shortens s to 80 bytes for a failure's message.
func Clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// Download clicks sel and returns the file the page saved.
func (p *Player) Download(sel string) []byte {
	p.t.Helper()
	dir := p.t.TempDir()
	c := chromedp.FromContext(p.Ctx)
	if _, err := chromedp.CallBrowser(p.Ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllow, BrowserContextID: c.BrowserContextID, DownloadPath: dir,
	}); err != nil {
		p.fail("allowing downloads: %v", err)
	}
	p.Click(sel)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".crdownload") {
				b, err := os.ReadFile(filepath.Join(dir, e.Name()))
				if err == nil && len(b) > 0 {
					return b
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	p.fail("no file downloaded after clicking %s", sel)
	return nil
}

// ownSetup reports whether u is one of the setup helpers, whose answers
// are the asking player's own setup (see received).
func ownSetup(base, u string) bool {
	for _, h := range []string{"/random-setup", "/check-setup", "/fill-setup"} {
		if u == base+"/api/v1/tools"+h || u == base+h {
			return true
		}
	}
	return false
}
