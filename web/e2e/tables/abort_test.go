package tables

import (
	"strings"
	"testing"

	"parlour/web/e2e"
)

// TestAbortButton: while some player has not moved, each player has an
// Abort button; the resign button's confirm says a resignation aborts
// the game then. Ann writes a word and Ben aborts: both see the game end
// aborted, without a result, and the buttons go. After both have moved,
// the confirm says what resigning does instead, and "resign" typed in the
// word box asks it too.
func TestAbortButton(t *testing.T) {
	t.Parallel()
	srv := e2e.NewTestServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", srv.Base)
	ben := e2e.NewPlayer(t, b, "Ben", srv.Base)
	ann.CreateTable("nymphabet", "A friend")
	ben.Join(ann.InviteLink())
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("the Abort button", `!!document.querySelector("#abort") && !!document.querySelector("#resign")`)
	}
	// A resignation now would abort: the confirm says so (and, answered
	// no, changes nothing).
	e2e.Eval[bool](ann, `(window.confirm = m => (window.asked = m, false), true)`)
	ann.Click("#resign")
	if got := e2e.Eval[string](ann, `window.asked || ""`); !strings.Contains(got, "aborted instead") || !strings.Contains(got, "without a result") {
		t.Errorf("the resign confirm before every player has moved: %q", got)
	}
	ann.WaitTurn(true)
	ann.TypeIn("#n-word", "abdicate")
	ann.Click("#n-controls button[type=submit]")
	ben.Wait("Ann's word", `document.querySelectorAll(".nwords li").length === 1`)
	// Ben has not moved: he may still abort.
	ben.Wait("the Abort button", `!!document.querySelector("#abort")`)
	e2e.Eval[bool](ben, `(window.confirm = () => true, true)`)
	ben.Click("#abort")
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("the aborted end", `!!document.querySelector("#game-over") && document.querySelector("#game-over h2").textContent.includes("aborted")`)
		if got := p.Text("#game-over h2"); !strings.Contains(got, "aborted, no result") {
			t.Errorf("%s's end banner: %q", p.Name, got)
		}
		if got := p.Text("#end-reason"); got != "Ben aborted the game before every player had moved." {
			t.Errorf("%s's end reason: %q", p.Name, got)
		}
		if e2e.Eval[bool](p, `!!document.querySelector("#abort") || !!document.querySelector("#resign")`) {
			t.Errorf("%s still has an Abort or Resign button after the end", p.Name)
		}
	}
	rec := string(ben.Download("#download"))
	if !strings.Contains(rec, `"aborted": {`) || !strings.Contains(rec, `"by": "Ben"`) || !strings.Contains(rec, `"move": "abdicate"`) {
		t.Errorf("the downloaded record does not say Ben aborted it:\n%s", rec)
	}

	// A game in which both have moved: no Abort button, and the resign
	// confirm names the winner.
	ann.Open("/")
	ann.CreateTable("nymphabet", "A friend")
	ben.Join(ann.InviteLink())
	ann.WaitTurn(true)
	ann.TypeIn("#n-word", "abdicate")
	ann.Click("#n-controls button[type=submit]")
	ben.WaitTurn(true)
	ben.TypeIn("#n-word", "defog")
	ben.Click("#n-controls button[type=submit]")
	ann.WaitTurn(true)
	ann.Wait("no Abort button", `!document.querySelector("#abort") && !!document.querySelector("#resign")`)
	e2e.Eval[bool](ben, `(window.confirm = m => (window.asked = m, false), true)`)
	ben.Click("#resign")
	if got := e2e.Eval[string](ben, `window.asked || ""`); got != "Resign? Ann wins." {
		t.Errorf("the resign confirm after both moved: %q", got)
	}
	// "resign" typed as a word asks the same, saying it is no word to
	// play: answered no, nothing is sent; answered yes, Ann resigns.
	e2e.Eval[bool](ann, `(window.confirm = m => (window.asked = m, false), true)`)
	ann.TypeIn("#n-word", "resign")
	ann.Click("#n-controls button[type=submit]")
	if got := e2e.Eval[string](ann, `window.asked || ""`); got != "RESIGN cannot be played as a word: it resigns the game. Resign? Ben wins." {
		t.Errorf("the confirm of resign typed as a word: %q", got)
	}
	if e2e.Eval[bool](ann, `!!document.querySelector("#game-over") || document.querySelector("#n-word").value !== ""`) {
		t.Error("resign typed as a word and answered no: the game ended, or the word stayed in the box")
	}
	e2e.Eval[bool](ann, `(window.confirm = () => true, true)`)
	ann.TypeIn("#n-word", "Resign")
	ann.Click("#n-controls button[type=submit]")
	for p, want := range map[*e2e.Player]string{ann: "Ben won", ben: "you won"} {
		p.Wait("Ann's resignation", `!!document.querySelector("#game-over h2")`)
		if got := p.Text("#game-over h2"); !strings.Contains(got, want) {
			t.Errorf("%s's end banner after Ann resigned: %q, want %q", p.Name, got, want)
		}
	}
}
