package e2e

import (
	"strconv"
	"strings"
	"testing"
)

// TestLeaveTable: before a game begins a player leaves with the table's
// "Leave the table" button; the seat opens again on the other player's
// screen, and the table leaves the leaver's recent games. When the last
// person leaves, the table is closed: its page says so.
func TestLeaveTable(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", srv.base)
	ben := newPlayer(t, b, "Ben", srv.base)
	id := ann.createTable("quizl", "A friend")
	ben.join(ann.inviteLink())
	ben.wait("Ben's leave button", `!!document.querySelector("#leave")`)
	ann.wait("Ann sees Ben seated", `!document.querySelector("#invite") && document.querySelector("#players").textContent.includes("Ben")`)

	eval[bool](ben, `(window.confirm = () => true, true)`)
	ben.click("#leave")
	ben.waitPage("Ben back home", `location.pathname === "/"`)
	if eval[bool](ben, `JSON.parse(localStorage.getItem("parlour.recent") || "[]").some(r => r.table === `+strconv.Quote(id)+`)`) {
		t.Error("the table Ben left is still among his recent games")
	}
	ann.wait("the seat open again", `!!document.querySelector("#invite") && !document.querySelector("#players").textContent.includes("Ben")`)
	if got := ann.text("#players"); !strings.Contains(got, "open seat") {
		t.Errorf("Ann's players after Ben left: %q", got)
	}

	eval[bool](ann, `(window.confirm = () => true, true)`)
	ann.click("#leave")
	ann.waitPage("Ann back home", `location.pathname === "/"`)
	ben.open("/t/" + id + "?watch=1")
	ben.wait("the closed table", `document.body.textContent.includes("closed before its game began")`)
}
