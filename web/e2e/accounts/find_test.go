package accounts

import (
	"strconv"
	"strings"
	"testing"

	"parlour/web/e2e"
)

// TestFindAPlayer: a visitor finds a player by the start of their name.
// The leaderboards' Find a player offers the names that begin with what
// is typed, in any case, and opens the one sent; the challenge form
// offers them too; a profile not found lists the names that begin as it
// does.
func TestFindAPlayer(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Annabel", base)
	ann.SignUp("Annabel", "correct horse battery")
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ben.SignUp("Ben", "another fine phrase")

	ben.Open("/leaderboards")
	ben.Wait("the find form", `!!document.querySelector("#find-name")`)
	ben.TypeIn("#find-name", "anna")
	ben.Wait("Annabel offered", `[...document.querySelectorAll("#find-name-names option")].map(o => o.value).join() === "Annabel"`)
	ben.Accessible("the leaderboards with a name offered")
	ben.Click("#find-go")
	ben.WaitPage("Annabel's page", `location.pathname === "/players/Annabel" && !!document.querySelector("#profile-name")`)

	ben.Open("/leaderboards")
	ben.Wait("the find form", `!!document.querySelector("#find-name")`)
	ben.TypeIn("#find-name", "zed")
	ben.Click("#find-go")
	ben.Wait("nobody found", `document.querySelector("#find-said").textContent !== ""`)
	if got := ben.Text("#find-said"); got != "No player's name begins with “zed”." {
		t.Errorf("a name nobody has: %q", got)
	}

	ben.Open("/players/Annabelle")
	ben.Wait("the names like it", `!!document.querySelector("#profile-like")`)
	if got := ben.Text("#profile-like"); !strings.Contains(got, "Annabel") {
		t.Errorf("the page of a name not found lists %q", got)
	}
	ben.Click(`#profile-like a[href="/players/Annabel"]`)
	ben.WaitPage("Annabel's page", `location.pathname === "/players/Annabel" && !!document.querySelector("#profile-name")`)

	ben.Wait("the Challenge button", `!!document.querySelector("#profile-actions .challenge-open")`)
	ben.Click("#profile-actions .challenge-open")
	ben.Wait("the challenge form", `!!document.querySelector("#challenge-to")`)
	ben.TypeIn("#challenge-to", "ANN")
	ben.Wait("Annabel offered", `[...document.querySelectorAll("#challenge-to-names option")].map(o => o.value).join() === "Annabel"`)
}

// TestAddressesInAnyCase: an address typed with a game's name in capitals
// opens that game's page, put right to the name's own spelling; a
// player's address with a name no account can have (names are ASCII)
// says no such player, as a mistyped one does, not "No such page".
func TestAddressesInAnyCase(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Cy", base)
	for _, tc := range []struct{ open, path, heading string }{
		{"/daily/Quizl", "/daily/quizl", "Daily Quizl"},
		{"/new/SALVO?practice", "/new/salvo", "New Salvo table"},
		{"/players/Zo%C3%AB", "/players/Zo%C3%AB", "No such player"},
		{"/players/Zo%E0%A4", "/players/Zo%E0%A4", "No such player"},
	} {
		p.Open(tc.open)
		p.WaitPage(tc.open, `location.pathname === `+strconv.Quote(tc.path)+` && !!document.querySelector("#main h1")`)
		if got := p.Text("#main h1"); got != tc.heading {
			t.Errorf("%s: the page's heading is %q, want %q", tc.open, got, tc.heading)
		}
		if _, query, _ := strings.Cut(tc.open, "?"); query != "" && !e2e.Eval[bool](p, `location.search === "?`+query+`"`) {
			t.Errorf("%s: the address put right lost its query", tc.open)
		}
	}
}
