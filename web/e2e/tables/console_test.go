package tables

import (
	"strings"
	"testing"

	"parlour/web/e2e"
)

// TestGuestConsoleClean opens every main page as a guest who never signed
// in, straight from the address bar: none may log a console error. A
// guest has no session, so the page must not ask the server who is
// signed in (that answer is an error status, which browsers log), and
// nothing else a guest's page asks may fail either.
func TestGuestConsoleClean(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	// An account to look at, made without the guest's browser.
	if st, body := e2e.API(t, base, "POST", "/accounts", "", map[string]string{"name": "Ann", "password": "correct horse battery"}); st != 201 {
		t.Fatalf("sign up Ann: %d %s", st, body)
	}
	p := e2e.NewPlayer(t, b, "Gwen", base) // "guest" is kept for the server's own guest names
	p.Open("/")
	p.Wait("the games", `document.querySelectorAll("#main .cards .card h2").length === 4`)
	id := p.CreateTable("nymphabet", "A friend")
	p.ConsoleErrors()
	for _, tc := range []struct{ path, ready string }{
		{"/", `document.querySelectorAll("#main .cards .card h2").length === 4`},
		{"/lobby", `!!document.querySelector("#main h1") && document.querySelector("#main h1").textContent === "Open tables"`},
		{"/new/quizl", `!!document.querySelector("#opt-set_target")`},
		{"/new/salvo", `!!document.querySelector("#main form")`},
		{"/new/wordfight", `!!document.querySelector("#main form")`},
		{"/new/nymphabet", `!!document.querySelector("#main form")`},
		{"/replay", `!!document.querySelector("#replay-file")`},
		{"/daily", `!!document.querySelector("#daily-quizl") && !!document.querySelector("#daily-salvo")`},
		{"/daily/quizl", `!!document.querySelector("#daily-play")`},
		{"/daily/salvo", `!!document.querySelector("#daily-play")`},
		{"/account", `!!document.querySelector("#signup-name")`},
		{"/leaderboards", `!!document.querySelector("#lb-quizl")`},
		{"/players/Ann", `!!document.querySelector("#main h1") && document.querySelector("#main h1").textContent.includes("Ann")`},
		{"/t/" + id, `!!document.querySelector("#turn")`},
		{"/t/" + id + "?watch=1", `!!document.querySelector("#turn")`},
		{"/rules", `!!document.querySelector("article.doc h1")`},
		{"/rules/salvo", `!!document.querySelector("article.doc h1")`},
	} {
		p.Open(tc.path)
		p.Wait(tc.path, tc.ready)
		// Whatever the page loads once it shows has had its chance to
		// fail: a round trip to the server after the page is ready.
		e2e.Eval[int](p, `fetch("/api/v1/games").then(r => r.status)`)
		if errs := p.ConsoleErrors(); len(errs) > 0 {
			t.Errorf("%s logs console errors for a guest:\n%s", tc.path, strings.Join(errs, "\n"))
		}
	}
	for _, u := range p.Requested() {
		if strings.HasSuffix(u, "/api/v1/account") {
			t.Errorf("a guest's page asked who is signed in: %s", u)
		}
	}
}
