package tables

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"parlour/web/e2e"
)

// TestHomeFirstLoad opens the home page in a fresh browser: everything it
// fetches comes from the server's origin, and the whole first load stays
// within 150 KB on the wire.
func TestHomeFirstLoad(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "visitor", base)
	p.Open("/")
	p.Wait("the games", `document.querySelectorAll("#main .cards .card h2").length === 4`)
	got := p.Text("#main")
	for _, want := range []string{"Quizl", "Salvo", "Sightless Word Fight", "Nymphabet"} {
		if !strings.Contains(got, want) {
			t.Errorf("home page lacks %q:\n%s", want, got)
		}
	}
	if off := p.OffOrigin(); len(off) > 0 {
		t.Errorf("requests left the origin: %v", off)
	}
	n := p.Transferred()
	t.Logf("first load of the home page: %d bytes transferred in %d requests", n, len(p.Requested()))
	if n > 150_000 {
		t.Errorf("first load transferred %d bytes, over 150 KB", n)
	}
	p.Shot("home")
	p.Labelled("the home page")
	// A visitor with no seat yet is not counted online: with nobody
	// else about, the news says so rather than "0 players online".
	p.Wait("who is about", `(document.querySelector("#home-news") || {textContent: ""}).textContent !== ""`)
	if got := p.Text("#home-news"); got != "Nobody else is online just now · the lobby" {
		t.Errorf("the home page's news reads %q", got)
	}
	p.Click("#home-news a")
	p.WaitPage("the lobby", `(document.querySelector("#online-count") || {textContent: ""}).textContent !== ""`)
	if got := p.Text("#online-count"); got != "Nobody else is online just now." {
		t.Errorf("the lobby counts %q", got)
	}
	if got := e2e.Eval[string](p, `document.querySelector("#online-list").textContent`); got != "" {
		t.Errorf("with nobody online, the list says more: %q", got)
	}
	p.Open("/")
	p.Wait("the games again", `document.querySelectorAll("#main .cards .card h2").length === 4`)
	// Four cards a row, each card's actions on one line.
	for _, width := range []int64{1280, 1024} {
		p.Do("a screen "+fmt.Sprint(width)+" wide", chromedp.EmulateViewport(width, 900))
		if bad := e2e.Eval[string](p, `[...document.querySelectorAll("#main .cards .card > .row:not(.quick)")].filter(r => { const bs = [...r.children].map(c => c.getBoundingClientRect()); return Math.max(...bs.map(b => b.top)) >= Math.min(...bs.map(b => b.bottom)); }).map(r => r.closest(".card").querySelector("h2").textContent).join(", ")`); bad != "" {
			t.Errorf("at %d px the actions of %s take more than a line", width, bad)
		}
	}
	p.Do("the window's own size again", chromedp.EmulateReset())

	// Each game's rules page comes from docs/rules, rendered by the server.
	p.Click(`a[aria-label="Salvo rules"]`)
	p.WaitPage("the rules", `location.pathname === "/rules/salvo" && !!document.querySelector("article.doc h1")`)
	if got := p.Text("article.doc h1"); !strings.Contains(got, "Salvo") {
		t.Errorf("the Salvo rules page is headed %q", got)
	}
	if n := e2e.Eval[int](p, `document.querySelectorAll("article.doc p").length`); n < 5 {
		t.Errorf("the Salvo rules page has %d paragraphs", n)
	}
	p.Click(`a[href="/new/salvo"]`)
	p.WaitPage("the new table form", `!!document.querySelector("#opt-placement")`)
	p.Labelled("the new table form")
	if got := p.Text("#opt-placement-help"); !strings.Contains(got, "strict") {
		t.Errorf("the placement option's help reads %q", got)
	}
	if got := e2e.Eval[string](p, `document.querySelector("#opt-placement").value`); got != "strict" {
		t.Errorf("the placement option starts at %q, want the default strict", got)
	}

	// A table that does not exist: the join screen says so, and a seat
	// this browser remembers for it stops retrying and says why.
	p.Open("/t/nosuchtable")
	p.Wait("the answer", `document.querySelector("#main h1") && document.querySelector("#main h1").textContent === "No such table"`)
	e2e.Eval[bool](p, `(localStorage.setItem("parlour.seats", JSON.stringify({gonetable: {seat: 0, token: "forgotten"}})), true)`)
	p.Open("/t/gonetable")
	p.Wait("the refusal", `!!document.querySelector("#stage [role=alert]")`)
	if got := p.Text("#stage [role=alert]"); !strings.Contains(got, "Cannot follow this table") {
		t.Errorf("a lost table reads %q", got)
	}
}
