package challenges

import (
	"strings"
	"testing"

	"parlour/web/e2e"
)

// TestJoinByCode: the table shows its invite code beside the link; a
// friend types it, in lower case with its dash, into the home page's
// "Join with a code" box and sits down; a wrong code says why, and /j/CODE
// opens the join page directly.
func TestJoinByCode(t *testing.T) {
	t.Parallel()
	srv := e2e.NewTestServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", srv.Base)
	ben := e2e.NewPlayer(t, b, "Ben", srv.Base)
	id := ann.CreateTable("nymphabet", "A friend")
	ann.Wait("the invite code", `!!document.querySelector("#invite-code")`)
	shown := ann.Text("#invite-code") // "K7M-4PX"
	if len(shown) != 7 || shown[3] != '-' {
		t.Fatalf("the invite code reads %q", shown)
	}

	ben.Open("/")
	ben.Wait("the code box", `!!document.querySelector("#join-code")`)
	ben.TypeIn("#join-code", "K7M0PX")
	ben.Click("#code-form button[type=submit]")
	ben.WaitPage("the refusal", `!!document.querySelector("#code-error")`)
	if got := ben.Text("#code-error"); !strings.Contains(got, "'0' is not in invite codes") {
		t.Errorf("a code with a 0 is refused with %q", got)
	}
	ben.TypeIn("#join-code", strings.ToLower(shown))
	ben.Click("#code-form button[type=submit]")
	ben.WaitPage("the join page", `location.pathname === "/t/`+id+`" && !!document.querySelector("#join-name")`)
	ben.TypeIn("#join-name", "Ben")
	ben.Click("#main form button[type=submit]")
	ben.Wait("the table", `!!document.querySelector("#turn")`)
	ann.WaitTurn(true)
	ben.WaitTurn(false)

	// /j/CODE for a code nobody has.
	ben.Open("/j/ABC-DEF")
	ben.Wait("the answer", `!!document.querySelector("#code-error")`)
	if got := ben.Text("#code-error"); !strings.Contains(got, "no table has the invite code") && shown != "ABC-DEF" {
		t.Errorf("an unknown code reads %q", got)
	}
}
