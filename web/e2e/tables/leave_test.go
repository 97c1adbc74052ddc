package tables

import (
	"strconv"
	"strings"
	"testing"

	"parlour/web/e2e"
)

// TestLeaveTable: before a game begins a player leaves with the table's
// "Leave the table" button; the seat opens again on the other player's
// screen, and the table leaves the leaver's recent games. When the last
// person leaves, the table is closed: its page says so.
func TestLeaveTable(t *testing.T) {
	t.Parallel()
	srv := e2e.NewTestServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", srv.Base)
	ben := e2e.NewPlayer(t, b, "Ben", srv.Base)
	id := ann.CreateTable("quizl", "A friend")
	ben.Join(ann.InviteLink())
	ben.Wait("Ben's leave button", `!!document.querySelector("#leave")`)
	ann.Wait("Ann sees Ben seated", `!document.querySelector("#invite") && document.querySelector("#players").textContent.includes("Ben")`)

	e2e.Eval[bool](ben, `(window.confirm = () => true, true)`)
	ben.Click("#leave")
	ben.WaitPage("Ben back home", `location.pathname === "/"`)
	if e2e.Eval[bool](ben, `JSON.parse(localStorage.getItem("parlour.recent") || "[]").some(r => r.table === `+strconv.Quote(id)+`)`) {
		t.Error("the table Ben left is still among his recent games")
	}
	ann.Wait("the seat open again", `!!document.querySelector("#invite") && !document.querySelector("#players").textContent.includes("Ben")`)
	if got := ann.Text("#players"); !strings.Contains(got, "open seat") {
		t.Errorf("Ann's players after Ben left: %q", got)
	}

	e2e.Eval[bool](ann, `(window.confirm = () => true, true)`)
	ann.Click("#leave")
	ann.WaitPage("Ann back home", `location.pathname === "/"`)
	ben.Open("/t/" + id + "?watch=1")
	ben.Wait("the closed table", `document.body.textContent.includes("closed before its game began")`)

	// A friend who follows the invite link only now is told the table is
	// closed at once, and offered no seat to fill in a name for.
	cat := e2e.NewPlayer(t, b, "Cat", srv.Base)
	cat.Open("/t/" + id)
	cat.Wait("the closed invite", `!!document.querySelector("#table-closed")`)
	if got := cat.Text("#table-closed"); !strings.Contains(got, "closed before its game began") {
		t.Errorf("Cat's closed invite says %q", got)
	}
	if e2e.Eval[bool](cat, `!!document.querySelector("#join-name, button[type=submit]")`) {
		t.Error("the closed table's invite still offers a seat")
	}
}
