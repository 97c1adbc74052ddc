package e2e

import (
	"strings"
	"testing"
)

// TestAbortButton: while some player has not moved, each player has an
// Abort button; the resign button's confirm says a resignation aborts
// the game then. Ann writes a word and Ben aborts: both see the game end
// aborted, without a result, and the buttons go. After both have moved,
// the confirm says what resigning does instead.
func TestAbortButton(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", srv.base)
	ben := newPlayer(t, b, "Ben", srv.base)
	ann.createTable("nymphabet", "A friend")
	ben.join(ann.inviteLink())
	for _, p := range []*player{ann, ben} {
		p.wait("the Abort button", `!!document.querySelector("#abort") && !!document.querySelector("#resign")`)
	}
	// A resignation now would abort: the confirm says so (and, answered
	// no, changes nothing).
	eval[bool](ann, `(window.confirm = m => (window.asked = m, false), true)`)
	ann.click("#resign")
	if got := eval[string](ann, `window.asked || ""`); !strings.Contains(got, "aborted instead") || !strings.Contains(got, "without a result") {
		t.Errorf("the resign confirm before every player has moved: %q", got)
	}
	ann.waitTurn(true)
	ann.typeIn("#n-word", "abdicate")
	ann.click("#n-controls button[type=submit]")
	ben.wait("Ann's word", `document.querySelectorAll(".nwords li").length === 1`)
	// Ben has not moved: he may still abort.
	ben.wait("the Abort button", `!!document.querySelector("#abort")`)
	eval[bool](ben, `(window.confirm = () => true, true)`)
	ben.click("#abort")
	for _, p := range []*player{ann, ben} {
		p.wait("the aborted end", `!!document.querySelector("#game-over") && document.querySelector("#game-over h2").textContent.includes("aborted")`)
		if got := p.text("#game-over h2"); !strings.Contains(got, "aborted, no result") {
			t.Errorf("%s's end banner: %q", p.name, got)
		}
		if got := p.text("#end-reason"); got != "Ben aborted the game before every player had moved." {
			t.Errorf("%s's end reason: %q", p.name, got)
		}
		if eval[bool](p, `!!document.querySelector("#abort") || !!document.querySelector("#resign")`) {
			t.Errorf("%s still has an Abort or Resign button after the end", p.name)
		}
	}
	rec := string(ben.download("#download"))
	if !strings.Contains(rec, `"aborted": {`) || !strings.Contains(rec, `"by": "Ben"`) || !strings.Contains(rec, `"move": "abdicate"`) {
		t.Errorf("the downloaded record does not say Ben aborted it:\n%s", rec)
	}

	// A game in which both have moved: no Abort button, and the resign
	// confirm names the winner.
	ann.open("/")
	ann.createTable("nymphabet", "A friend")
	ben.join(ann.inviteLink())
	ann.waitTurn(true)
	ann.typeIn("#n-word", "abdicate")
	ann.click("#n-controls button[type=submit]")
	ben.waitTurn(true)
	ben.typeIn("#n-word", "defog")
	ben.click("#n-controls button[type=submit]")
	ann.waitTurn(true)
	ann.wait("no Abort button", `!document.querySelector("#abort") && !!document.querySelector("#resign")`)
	eval[bool](ben, `(window.confirm = m => (window.asked = m, false), true)`)
	ben.click("#resign")
	if got := eval[string](ben, `window.asked || ""`); got != "Resign? Ann wins." {
		t.Errorf("the resign confirm after both moved: %q", got)
	}
}
