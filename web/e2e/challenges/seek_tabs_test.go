package challenges

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"parlour/web/e2e"
)

// openTab opens path in a new window of p's page, as a click on a link to
// a new tab would (same browser context: same cookies, storage, stream),
// and returns a JavaScript expression for that window.
func openTab(t *testing.T, p *e2e.Player, path string) string {
	t.Helper()
	opened, err := chromedp.Run(p.Ctx, chromedp.Evaluate[bool](`(w => ((window.__tabs = window.__tabs || []).push(w), !!w))(window.open(`+strconv.Quote(path)+`, "_blank"))`,
		func(e *runtime.EvaluateParams) { yes := true; e.UserGesture = &yes }))
	if err != nil || !opened {
		t.Fatalf("opening %s beside %s's page: %v, %v", path, p.Name, opened, err)
	}
	w := "window.__tabs[" + strconv.Itoa(e2e.Eval[int](p, `window.__tabs.length`)-1) + "]"
	p.Wait("the page in the new tab", w+`.document && `+w+`.document.readyState === "complete" && !!`+w+`.document.querySelector("#main h1")`)
	return w
}

// cancelsOnClose reports whether window w's page withdraws a seek when it
// closes: its pagehide is run with fetch recording instead of sending, so
// that the page's seek (if any) stays as it was.
func cancelsOnClose(p *e2e.Player, w string) bool {
	return e2e.Eval[bool](p, `(w => {
		const sent = [], real = w.fetch;
		w.fetch = (u, o) => { sent.push((o && o.method || "GET") + " " + u); return new Promise(() => {}); };
		try { w.dispatchEvent(new w.PageTransitionEvent("pagehide", { persisted: false })); } finally { w.fetch = real; }
		return sent.some(s => s.startsWith("DELETE /api/v1/seeks/"));
	})(`+w+`)`)
}

// TestQuickSeekOtherTab: Ann has the home page open and opens it again in
// a new tab, where she seeks a quick Salvo game. Her first page, which
// holds her player stream, shows the seek too, with Cancel, and so does a
// third page opened after it; only the page that made it withdraws it on
// closing. Her seeking tab then dies without a word (its close's cancel
// never sent): the seek lives on, held by her stream, and her first page
// is her way to it. A second Quick game of Salvo there points at the seek
// rather than being refused with no way to cancel, and when Gus's quick
// game pairs with it, that page takes her to her table.
func TestQuickSeekOtherTab(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	gus := e2e.NewPlayer(t, b, "Gus", base)
	ann.SignUp("Ann", "correct horse battery")
	ann.Open("/")
	ann.Wait("the quick buttons", `!!document.querySelector(".quick-seek[data-game=salvo][data-rated=false]")`)
	// This page leads the player stream before any other opens.
	if !e2e.Eval[bool](ann, `new Promise(res => { const f = () => navigator.locks.query().then(q => q.held.some(l => l.name.startsWith("parlour.stream.")) ? res(true) : setTimeout(f, 50)); f(); })`) {
		t.Fatal("Ann's page never held the player stream")
	}

	seeker := openTab(t, ann, "/")
	ann.Wait("the quick buttons in the new tab", `!!`+seeker+`.document.querySelector(".quick-seek[data-game=salvo][data-rated=false]")`)
	e2e.Eval[bool](ann, `(`+seeker+`.document.querySelector(".quick-seek[data-game=salvo][data-rated=false]").click(), true)`)
	ann.Wait("the seek's banner in its tab", `!!`+seeker+`.document.querySelector(".banner.seek .seek-cancel")`)
	id := e2e.Eval[string](ann, seeker+`.document.querySelector(".banner.seek").dataset.seek`)

	ann.Wait("the seek, with Cancel, on the first page", `!!document.querySelector('.banner.seek[data-seek="`+id+`"] .seek-cancel')`)
	if got := ann.Text(".banner.seek"); !strings.Contains(got, "Looking for an opponent for a casual Salvo game") {
		t.Errorf("the first page's banner reads %q", got)
	}
	late := openTab(t, ann, "/lobby")
	ann.Wait("the seek on a page opened later", `!!`+late+`.document.querySelector('.banner.seek[data-seek="`+id+`"] .seek-cancel')`)
	ann.Wait("the seek as hers in that lobby", `(`+late+`.document.querySelector('#lobby-seeks li[data-seek="`+id+`"]') || {textContent: ""}).textContent.includes("Your seek")`)
	if cancelsOnClose(ann, late) {
		t.Error("closing a page that did not make the seek withdraws it")
	}
	if cancelsOnClose(ann, `window`) {
		t.Error("closing the first page, which did not make the seek, withdraws it")
	}
	if !cancelsOnClose(ann, seeker) {
		t.Error("closing the page that made the seek does not withdraw it")
	}
	// The seeking tab dies: its close's cancel is never sent.
	e2e.Eval[bool](ann, `(`+late+`.close(), `+seeker+`.fetch = () => new Promise(() => {}), `+seeker+`.close(), true)`)
	ann.Wait("the tabs closed", seeker+`.closed && `+late+`.closed`)
	if n := e2e.Eval[int](ann, `fetch("/api/v1/seeks").then(r => r.json()).then(l => l.seeks.filter(s => s.id === `+strconv.Quote(id)+`).length)`); n != 1 {
		t.Fatalf("the seek is listed %d times after its tab died, want once", n)
	}

	// A second Quick game of Salvo points at the seek waiting.
	ann.Click(".quick-seek[data-game=salvo][data-rated=false]")
	ann.Wait("the seek's Cancel offered", `document.activeElement && document.activeElement.matches('.banner.seek[data-seek="`+id+`"] .seek-cancel')`)
	if n := e2e.Eval[int](ann, `document.querySelectorAll(".banner.seek").length`); n != 1 {
		t.Errorf("the first page shows %d seeks, want 1", n)
	}

	// Gus pairs with it: the first page takes Ann to the table.
	gus.Open("/")
	gus.Wait("the quick buttons", `!!document.querySelector(".quick-seek[data-game=salvo][data-rated=false]")`)
	gus.Click(".quick-seek[data-game=salvo][data-rated=false]")
	gus.Wait("Gus's table", `location.pathname.startsWith("/t/")`)
	ann.Wait("Ann's table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	if a, g := e2e.Eval[string](ann, `location.pathname`), e2e.Eval[string](gus, `location.pathname`); a != g {
		t.Fatalf("Ann is at %s, Gus at %s", a, g)
	}
	ann.Wait("a seat for Ann", `!!document.querySelector("#turn") && ["0","1"].includes(document.querySelector("#turn").dataset.mine)`)
}

// TestQuickSeekRefusedShowsIt: a guest seeks a quick Salvo game in one
// tab and presses the same Quick game in another. The server refuses a
// second seek for the game; the page says so and shows the seek waiting,
// with a Cancel that withdraws it.
func TestQuickSeekRefusedShowsIt(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	hal := e2e.NewPlayer(t, b, "Hal", base)
	hal.Open("/")
	hal.Wait("the quick buttons", `!!document.querySelector(".quick-seek[data-game=salvo][data-rated=false]")`)
	seeker := openTab(t, hal, "/")
	hal.Wait("the quick buttons in the new tab", `!!`+seeker+`.document.querySelector(".quick-seek[data-game=salvo][data-rated=false]")`)
	e2e.Eval[bool](hal, `(`+seeker+`.document.querySelector(".quick-seek[data-game=salvo][data-rated=false]").click(), true)`)
	hal.Wait("the seek's banner in its tab", `!!`+seeker+`.document.querySelector(".banner.seek .seek-cancel")`)
	id := e2e.Eval[string](hal, seeker+`.document.querySelector(".banner.seek").dataset.seek`)

	hal.Click(".quick-seek[data-game=salvo][data-rated=false]")
	hal.Wait("the seek waiting, with Cancel", `!!document.querySelector('.banner.seek[data-seek="`+id+`"] .seek-cancel')`)
	if got := hal.Text(".banner.seek"); !strings.Contains(got, "Looking for an opponent for a casual Salvo game") {
		t.Errorf("the banner reads %q", got)
	}
	hal.Click(".banner.seek .seek-cancel")
	hal.Wait("the banner gone", `document.querySelectorAll(".banner.seek").length === 0`)
	if n := e2e.Eval[int](hal, `fetch("/api/v1/seeks").then(r => r.json()).then(l => l.seeks.length)`); n != 0 {
		t.Errorf("%d seeks listed after the cancel", n)
	}
	hal.Wait("the seek's end in its tab", `(`+seeker+`.document.querySelector(".banner.seek") || {textContent: ""}).textContent.includes("ended")`)
}

// TestQuickSeekPairsInItsTab: Ann seeks a quick Salvo game from a second
// tab, which stays open; when Gus pairs with it, that tab takes her to
// the table, and her first page, which showed the seek too, offers the
// table by a link rather than taking her there a second time.
func TestQuickSeekPairsInItsTab(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	gus := e2e.NewPlayer(t, b, "Gus", base)
	ann.SignUp("Ann", "correct horse battery")
	ann.Open("/")
	ann.Wait("the quick buttons", `!!document.querySelector(".quick-seek[data-game=salvo][data-rated=false]")`)
	seeker := openTab(t, ann, "/")
	ann.Wait("the quick buttons in the new tab", `!!`+seeker+`.document.querySelector(".quick-seek[data-game=salvo][data-rated=false]")`)
	e2e.Eval[bool](ann, `(`+seeker+`.document.querySelector(".quick-seek[data-game=salvo][data-rated=false]").click(), true)`)
	ann.Wait("the seek's banner in its tab", `!!`+seeker+`.document.querySelector(".banner.seek .seek-cancel")`)
	ann.Wait("the seek on the first page", `!!document.querySelector(".banner.seek .seek-cancel")`)

	gus.Open("/")
	gus.Wait("the quick buttons", `!!document.querySelector(".quick-seek[data-game=salvo][data-rated=false]")`)
	gus.Click(".quick-seek[data-game=salvo][data-rated=false]")
	gus.Wait("Gus's table", `location.pathname.startsWith("/t/")`)
	table := e2e.Eval[string](gus, `location.pathname`)
	ann.Wait("the seeking tab at the table", seeker+`.location.pathname === `+strconv.Quote(table))
	ann.Wait("the link to the table on the first page", `!!document.querySelector('.banner.seek .seek-go[href=`+strconv.Quote(table)+`]')`)
	if got := e2e.Eval[string](ann, `location.pathname`); got != "/" {
		t.Errorf("the first page went to %s as well", got)
	}
}

// TestQuickSeekSignOut: Ann's first page shows the seek her second tab
// made; when she signs out there, the page puts it away, no longer hers
// to ask about, rather than keep asking with no session.
func TestQuickSeekSignOut(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.SignUp("Ann", "correct horse battery")
	ann.Open("/account")
	ann.Wait("the account screen", `!!document.querySelector("#signout")`)
	seeker := openTab(t, ann, "/")
	ann.Wait("the quick buttons in the new tab", `!!`+seeker+`.document.querySelector(".quick-seek[data-game=salvo][data-rated=false]")`)
	e2e.Eval[bool](ann, `(`+seeker+`.document.querySelector(".quick-seek[data-game=salvo][data-rated=false]").click(), true)`)
	ann.Wait("the seek's banner in its tab", `!!`+seeker+`.document.querySelector(".banner.seek .seek-cancel")`)
	ann.Wait("the seek on the first page", `!!document.querySelector(".banner.seek .seek-cancel")`)
	ann.Click("#signout")
	ann.Wait("the seek put away", `!document.querySelector("#signout") && document.querySelectorAll(".banner.seek").length === 0`)
	if got := e2e.Eval[string](ann, `localStorage.getItem("parlour.identity") || ""`); got != "" {
		t.Errorf("the signed-out page made a guest identity to ask about the seek: %s", got)
	}
}
