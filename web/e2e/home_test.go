package e2e

import (
	"strings"
	"testing"
)

// TestHomeFirstLoad opens the home page in a fresh browser: everything it
// fetches comes from the server's origin, and the whole first load stays
// within 150 KB on the wire.
func TestHomeFirstLoad(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	b := newBrowser(t)
	p := newPlayer(t, b, "visitor", base)
	p.open("/")
	p.wait("the games", `document.querySelectorAll("#main .cards .card h2").length === 4`)
	got := p.text("#main")
	for _, want := range []string{"Quizl", "Salvo", "Sightless Word Fight", "Nymphabet"} {
		if !strings.Contains(got, want) {
			t.Errorf("home page lacks %q:\n%s", want, got)
		}
	}
	if off := p.offOrigin(); len(off) > 0 {
		t.Errorf("requests left the origin: %v", off)
	}
	n := p.transferred()
	t.Logf("first load of the home page: %d bytes transferred in %d requests", n, len(p.requests))
	if n > 150_000 {
		t.Errorf("first load transferred %d bytes, over 150 KB", n)
	}
	p.shot("home")
	p.labelled("the home page")

	// Each game's rules page comes from docs/rules, rendered by the server.
	p.click(`a[aria-label="Salvo rules"]`)
	p.waitPage("the rules", `location.pathname === "/rules/salvo" && !!document.querySelector("article.doc h1")`)
	if got := p.text("article.doc h1"); !strings.Contains(got, "Salvo") {
		t.Errorf("the Salvo rules page is headed %q", got)
	}
	if n := eval[int](p, `document.querySelectorAll("article.doc p").length`); n < 5 {
		t.Errorf("the Salvo rules page has %d paragraphs", n)
	}
	p.click(`a[href="/new/salvo"]`)
	p.waitPage("the new table form", `!!document.querySelector("#opt-placement")`)
	p.labelled("the new table form")
	if got := p.text("#opt-placement-help"); !strings.Contains(got, "strict") {
		t.Errorf("the placement option's help reads %q", got)
	}
	if got := eval[string](p, `document.querySelector("#opt-placement").value`); got != "strict" {
		t.Errorf("the placement option starts at %q, want the default strict", got)
	}

	// A table that does not exist: the join screen says so, and a seat
	// this browser remembers for it stops retrying and says why.
	p.open("/t/nosuchtable")
	p.wait("the answer", `document.querySelector("#main h1") && document.querySelector("#main h1").textContent === "No such table"`)
	eval[bool](p, `(localStorage.setItem("parlour.seats", JSON.stringify({gonetable: {seat: 0, token: "forgotten"}})), true)`)
	p.open("/t/gonetable")
	p.wait("the refusal", `!!document.querySelector("#stage [role=alert]")`)
	if got := p.text("#stage [role=alert]"); !strings.Contains(got, "Cannot follow this table") {
		t.Errorf("a lost table reads %q", got)
	}
}
