package tables

import (
	"strings"
	"testing"

	"parlour/web/e2e"
)

// TestDeepLinks opens every route of the client directly, as a reload, a
// bookmark or a link in a new tab does: each loads its screen, and the
// rules pages, rendered by the server, read without any script and keep
// the site's header; a path with no screen says so.
func TestDeepLinks(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "visitor", base)
	p.Open("/")
	p.Wait("the games", `document.querySelectorAll("#main .cards .card h2").length === 4`)
	id := p.CreateTable("nymphabet", "A friend")
	p.Wait("the invite code", `!!document.querySelector("#invite-code")`)
	code := p.Text("#invite-code")
	if len(code) != 7 {
		t.Fatalf("the invite code reads %q", code)
	}
	atTable := `location.pathname === "/t/` + id + `" && !!document.querySelector("#turn") && document.querySelector("#main h1").textContent.startsWith("Nymphabet")`
	for _, tc := range []struct{ path, ready, has string }{
		{"/", `document.querySelectorAll("#main .cards .card h2").length === 4`, "Pick a game"},
		{"/lobby", `!!document.querySelector("#main h1") && document.querySelector("#main h1").textContent === "Open tables"`, "Open tables"},
		{"/lobby/", `!!document.querySelector("#main h1") && document.querySelector("#main h1").textContent === "Open tables"`, "Open tables"},
		{"/new/quizl", `!!document.querySelector("#opt-set_target")`, "New Quizl table"},
		{"/replay", `!!document.querySelector("#replay-file")`, "Replay a game"},
		{"/moderation", `!!document.querySelector("#moderation-denied")`, "for the server's moderators"},
		{"/replay?table=" + id, `!!document.querySelector("#replay-table")`, "That game is not over yet"},
		{"/t/" + id, `!!document.querySelector("#turn") && document.querySelector("#main h1").textContent.startsWith("Nymphabet")`, "Invite a friend"},
		{"/t/" + id + "/join", `!!document.querySelector("#turn") && document.querySelector("#main h1").textContent.startsWith("Nymphabet")`, "Invite a friend"},
		{"/t/" + id + "?watch=1", `!!document.querySelector("#turn") && document.querySelector("#main h1").textContent.startsWith("Nymphabet")`, "Nymphabet"},
		{"/j/" + code, atTable, "Invite a friend"},
		{"/j/" + strings.ToLower(code), atTable, "Invite a friend"},
		{"/tournaments", `!!document.querySelector("#t-list-created")`, "Tournaments"},
		{"/events", `location.pathname === "/tournaments" && !!document.querySelector("#t-list-created")`, "Tournaments"},
		{"/tournaments/nosuchevent", `!!document.querySelector("#main h1")`, "No such event"},
		{"/daily", `!!document.querySelector("#daily-quizl") && !!document.querySelector("#daily-salvo")`, "Daily puzzles"},
		{"/daily/quizl", `!!document.querySelector("#daily-play")`, "Daily Quizl"},
		{"/account", `!!document.querySelector("#signup-name")`, "Sign up"},
		{"/leaderboards", `!!document.querySelector("#lb-quizl")`, "Leaderboards"},
		{"/players", `location.pathname === "/leaderboards" && !!document.querySelector("#find-name")`, "Find a player"},
		{"/players/nobody", `!!document.querySelector("#profile-missing")`, "The lobby lists the players online, and the leaderboards the rated ones."},
		{"/rules", `!!document.querySelector("article.doc h1")`, "Rules"},
		{"/rules/quizl", `!!document.querySelector("article.doc h2#scoring")`, "Scoring"},
		{"/rules/salvo", `!!document.querySelector("article.doc h1")`, "Salvo"},
		{"/rules/wordfight", `!!document.querySelector("article.doc h1")`, "Sightless Word Fight"},
		{"/rules/nymphabet", `!!document.querySelector("article.doc h1")`, "Nymphabet"},
	} {
		p.Open(tc.path)
		p.Wait(tc.path, tc.ready)
		if got := p.Text("body"); !strings.Contains(got, tc.has) || strings.Contains(got, "404 page not found") || strings.Contains(got, "No such page") {
			t.Errorf("%s: the page reads %q", tc.path, e2e.Clip(got))
		}
		if !e2e.Eval[bool](p, `!!document.querySelector("header.top a[href='/lobby']")`) {
			t.Errorf("%s: no site header", tc.path)
		}
		// A link drawn as a button reads as one: its words centred, as
		// when a card stretches it (the daily puzzles' Today's buttons).
		if off := e2e.Eval[string](p, `[...document.querySelectorAll("a.button")].filter(a => getComputedStyle(a).textAlign !== "center").map(a => a.textContent).join(", ")`); off != "" {
			t.Errorf("%s: links drawn as buttons with their words not centred: %s", tc.path, off)
		}
	}
	// A server that sends no mail offers no password reset link.
	p.Open("/account")
	p.Wait("the sign-in page, the server asked about mail", `(f => f && f.dataset.offered === "false")(document.querySelector("#forgot"))`)
	if e2e.Eval[bool](p, `!document.querySelector("#forgot").hidden`) {
		t.Error("a server without mail offers to mail a password reset link")
	}
	// A path with no screen (served with a 404) says so, under the header.
	p.Open("/no-such-screen")
	p.Wait("the missing page", `!!document.querySelector("#main h1") && document.querySelector("#main h1").textContent === "No such page"`)
	if !e2e.Eval[bool](p, `!!document.querySelector("header.top a[href='/lobby']")`) {
		t.Error("the missing page has no site header")
	}
	p.Open("/rules/quizl#scoring")
	p.Wait("the rules", `!!document.querySelector("#scoring")`)
	p.Shot("rules-quizl")
	p.AccessibleThemes("the Quizl rules page")
	// A link between rules pages leads to the page, and back to a game's
	// screen from the header loads the client.
	p.Open("/rules")
	p.Click(`article.doc a[href="/rules/wordfight"]`)
	p.WaitPage("the Word Fight rules", `location.pathname === "/rules/wordfight" && !!document.querySelector("article.doc h1")`)
	p.Click(`header.top a[href="/lobby"]`)
	p.WaitPage("the lobby", `location.pathname === "/lobby" && !!document.querySelector("#main h1") && document.querySelector("#main h1").textContent === "Open tables"`)
	// Inside the client, a link to the rules leaves it for the rules page.
	p.Open("/")
	p.Wait("the games", `document.querySelectorAll("#main .cards .card h2").length === 4`)
	p.Click(`a[aria-label="Quizl rules"]`)
	p.WaitPage("the Quizl rules", `location.pathname === "/rules/quizl" && !!document.querySelector("article.doc h1")`)
	if got := e2e.Eval[[]string](p, `[...document.scripts].map(s => new URL(s.src).pathname)`); len(got) != 1 || got[0] != "/static/js/top.js" {
		t.Errorf("the rules page has the scripts %v; it should read without any but the header's", got)
	}
}

// TestNavSaysWhere: the header's link to the screen shown is marked as
// the current page, for a screen reader (aria-current) and to the eye,
// as the screens change inside the page; a screen under another (a
// daily puzzle under Daily) marks the one it is under.
func TestNavSaysWhere(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "visitor", base)
	current := `[...document.querySelectorAll("header.top nav a[aria-current=page]")].map(a => a.textContent).join(" ")`
	for _, tc := range []struct{ path, ready, want string }{
		{"/lobby", `document.querySelector("#main h1") && document.querySelector("#main h1").textContent === "Open tables"`, "Lobby"},
		{"/daily/quizl", `!!document.querySelector("#daily-play")`, "Daily"},
		{"/new/salvo", `!!document.querySelector("#opt-placement")`, "Play"},
		{"/players", `location.pathname === "/leaderboards" && !!document.querySelector("#find-name")`, "Leaderboards"},
		{"/players/nobody", `!!document.querySelector("#profile-missing")`, ""},
	} {
		p.Open(tc.path)
		p.Wait(tc.path, tc.ready)
		if got := e2e.Eval[string](p, current); got != tc.want {
			t.Errorf("%s: the header marks %q as the current page, want %q", tc.path, got, tc.want)
		}
	}
	// Followed inside the page, a link moves the mark along.
	p.ClickText("header.top nav a", "Tournaments")
	p.Wait("the tournaments", `!!document.querySelector("#t-list-created")`)
	if got := e2e.Eval[string](p, current); got != "Tournaments" {
		t.Errorf("after following Tournaments the header marks %q", got)
	}
	if w := e2e.Eval[string](p, `getComputedStyle(document.querySelector("header.top nav a[aria-current=page]")).borderBottomColor`); w == e2e.Eval[string](p, `getComputedStyle(document.querySelector("header.top nav a:not([aria-current])")).borderBottomColor`) {
		t.Errorf("the current page's link looks as the others do (border %s)", w)
	}
}
