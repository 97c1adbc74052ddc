package tables

import (
	"strconv"
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

// TestAbortedGameAsksNoMove: a game aborted against the computer, in
// each game, leaves no move asked for: its move controls go with the
// game, as at an ordinary end, and nobody is marked to move, though the
// referee's view goes on as it stood (an abort is no move).
func TestAbortedGameAsksNoMove(t *testing.T) {
	t.Parallel()
	srv := e2e.NewTestServer(t)
	b := e2e.NewBrowser(t)
	for _, c := range []struct {
		game, setup, controls string
	}{
		{"quizl", "#q-auto", "#q-controls"},
		{"salvo", "#s-random", "#s-controls"},
		{"wordfight", "", "#w-controls"},
		{"nymphabet", "", "#n-controls"},
	} {
		t.Run(c.game, func(t *testing.T) {
			t.Parallel()
			ann := e2e.NewPlayer(t, b, "Ann", srv.Base)
			ann.CreateTable(c.game, "The computer")
			if c.setup != "" {
				ann.Wait("the setup", `!!document.querySelector(`+strconv.Quote(c.setup)+`)`)
				ann.Click(c.setup)
				if c.game == "salvo" {
					ann.Click("#s-submit")
				}
			}
			ann.Wait("the game's controls and the Abort button", `!!document.querySelector(`+strconv.Quote(c.controls)+`) && !!document.querySelector("#abort")`)
			e2e.Eval[bool](ann, `(window.confirm = () => true, true)`)
			ann.Click("#abort")
			ann.Wait("the aborted end", `!!document.querySelector("#game-over h2") && document.querySelector("#game-over h2").textContent.includes("aborted")`)
			if e2e.Eval[bool](ann, `!document.querySelector(`+strconv.Quote(c.controls)+`).hidden`) {
				t.Errorf("the aborted game still shows its move controls (%s)", c.controls)
			}
			if n := e2e.Eval[int](ann, `document.querySelectorAll("#players li.to-move").length`); n != 0 {
				t.Errorf("the aborted game marks %d players to move", n)
			}
			if got := ann.Text("#turn"); got != "Game over" {
				t.Errorf("the turn line of the aborted game: %q", got)
			}
		})
	}
}

// TestQuizlResignAfterBeingFound: Ann announces Ben's password at once;
// Ben, who has called a square since, is told that resigning ends the
// game now, Ann being done with his grid, not that she may hunt on; and
// so it does, Ann winning.
func TestQuizlResignAfterBeingFound(t *testing.T) {
	t.Parallel()
	srv := e2e.NewTestServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", srv.Base)
	ben := e2e.NewPlayer(t, b, "Ben", srv.Base)
	ann.Open("/")
	ann.CreateTable("quizl", "A friend")
	ben.Join(ann.InviteLink())
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("the grid editor", `!!document.querySelector("#q-auto")`)
		p.Click("#q-auto")
	}
	_, benPw := ben.QuizlGrid()
	first, second := ann, ben
	ann.Wait("a seat", `["0","1"].includes(document.querySelector("#turn").dataset.mine)`)
	if e2e.Eval[string](ann, `document.querySelector("#turn").dataset.mine`) != "1" {
		first, second = ben, ann
	}
	// Whoever moves first, Ann ends up done with Ben's grid and Ben has
	// called a square, Ben to move.
	if first == ben {
		ben.WaitTurn(true)
		ben.TypeIn("#q-call", "50")
		ben.Click("#q-controls form button[type=submit]")
	}
	ann.WaitTurn(true)
	ann.TypeIn("#q-say", benPw)
	ann.Click("#q-controls form:nth-of-type(2) button[type=submit]")
	if second == ben {
		ben.WaitTurn(true)
		ben.TypeIn("#q-call", "50")
		ben.Click("#q-controls form button[type=submit]")
	}
	ben.WaitTurn(true)
	e2e.Eval[bool](ben, `(window.confirm = m => (window.asked = m, true), true)`)
	ben.Click("#resign")
	if got := e2e.Eval[string](ben, `window.asked || ""`); got != "Resign? You score 0 against Ann, who is done with your grid, so the game ends now." {
		t.Errorf("the resign confirm once Ann found Ben's password: %q", got)
	}
	ben.Wait("the end", `!!document.querySelector("#game-over")`)
	if got := ben.Text("#game-over h2"); !strings.Contains(got, "Ann won") {
		t.Errorf("Ben's end banner: %q", got)
	}
}
