package e2e

import (
	"strings"
	"testing"
)

// TestJoinByCode: the table shows its invite code beside the link; a
// friend types it, in lower case with its dash, into the home page's
// "Join with a code" box and sits down; a wrong code says why, and /j/CODE
// opens the join page directly.
func TestJoinByCode(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", srv.base)
	ben := newPlayer(t, b, "Ben", srv.base)
	id := ann.createTable("nymphabet", "A friend")
	ann.wait("the invite code", `!!document.querySelector("#invite-code")`)
	shown := ann.text("#invite-code") // "K7M-4PX"
	if len(shown) != 7 || shown[3] != '-' {
		t.Fatalf("the invite code reads %q", shown)
	}

	ben.open("/")
	ben.wait("the code box", `!!document.querySelector("#join-code")`)
	ben.typeIn("#join-code", "K7M0PX")
	ben.click("#code-form button[type=submit]")
	ben.waitPage("the refusal", `!!document.querySelector("#code-error")`)
	if got := ben.text("#code-error"); !strings.Contains(got, "'0' is not in invite codes") {
		t.Errorf("a code with a 0 is refused with %q", got)
	}
	ben.typeIn("#join-code", strings.ToLower(shown))
	ben.click("#code-form button[type=submit]")
	ben.waitPage("the join page", `location.pathname === "/t/`+id+`" && !!document.querySelector("#join-name")`)
	ben.typeIn("#join-name", "Ben")
	ben.click("#main form button[type=submit]")
	ben.wait("the table", `!!document.querySelector("#turn")`)
	ann.waitTurn(true)
	ben.waitTurn(false)

	// /j/CODE for a code nobody has.
	ben.open("/j/ABC-DEF")
	ben.wait("the answer", `!!document.querySelector("#code-error")`)
	if got := ben.text("#code-error"); !strings.Contains(got, "no table has the invite code") && shown != "ABC-DEF" {
		t.Errorf("an unknown code reads %q", got)
	}
}
