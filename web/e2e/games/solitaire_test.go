package games

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"parlour/web/e2e"
)

// TestQuizlSolitaire plays solitaire Quizl on a phone screen in the dark
// theme, with the keyboard only: arrow keys move over the computer's
// grid and Enter calls a square, until the calls uncover the password.
// Every call must show its letter, and the end must show the grid.
func TestQuizlSolitaire(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.Phone(true)
	ann.Open("/")
	ann.Wait("the games", `document.querySelectorAll("#main .cards .card h2").length === 4`)
	ann.FitsWidth("the home page")
	ann.Shot("home-phone-dark")
	// The Quizl card's Solitaire link opens the form with solitaire
	// chosen.
	ann.Click("#quizl-solitaire")
	ann.WaitPage("the new table form", `location.pathname === "/new/quizl" && !!document.querySelector("form button[type=submit]")`)
	ann.FitsWidth("the new table form")
	if got := e2e.Eval[string](ann, `[...document.querySelectorAll("#main form button[aria-pressed=true]")].map(b => b.textContent).join()`); got != "Solitaire" {
		t.Errorf("the Solitaire link opens the form with %q chosen", got)
	}
	ann.CreateTable("quizl", "Solitaire")
	ann.Wait("the computer's grid", `document.querySelectorAll('[data-board="0"] [data-sq]').length === 25`)
	ann.FitsWidth("the play screen")
	if got := ann.Text(`[data-board="0"] h3`); got != "Tracking the computer's grid" {
		t.Errorf("the board's heading: %q", got)
	}
	ann.Do("focus the grid", chromedp.Focus(chromedp.CSS(`[data-board="0"] [data-sq="50"]`)))
	calls := 0
	for r := 5; r <= 9; r++ {
		for c := 0; c <= 4; c++ {
			sq := fmt.Sprintf("%d%d", r, c)
			if focused := e2e.Eval[string](ann, `document.activeElement.dataset.sq || ""`); focused != sq {
				t.Fatalf("focus is on %q, want square %s", focused, sq)
			}
			ann.Do("call "+sq, chromedp.KeyEvent(kb.Enter))
			calls++
			ann.Wait("the letter at "+sq, fmt.Sprintf(`/^[A-Z]$/.test((document.querySelector('[data-board="0"] [data-sq="%s"]')||{dataset:{}}).dataset.letter)`, sq))
			ann.Wait("the move list", fmt.Sprintf(`document.querySelectorAll("#moves li").length >= %d`, calls))
			if calls == 4 { // before the calls can have uncovered all five letters
				ann.Shot("quizl-solitaire-phone-dark")
			}
			if e2e.Eval[bool](ann, `!!document.querySelector("#game-over")`) {
				goto over
			}
			ann.Wait("focus kept on the grid", fmt.Sprintf(`document.activeElement.dataset.sq === %q`, sq))
			key := kb.ArrowRight
			if c == 4 {
				// Down a row and back to column 0.
				ann.Do("next row", chromedp.KeyEvent(kb.ArrowDown))
				key = kb.Home
			}
			ann.Do("move", chromedp.KeyEvent(key))
		}
	}
	t.Fatal("every square called and the game is not over")
over:
	end := ann.Text("#game-over")
	if !strings.Contains(end, "Scores: Ann 0") {
		t.Errorf("tripping over the password scores 0; the end says %q", end)
	}
	if got := ann.Text("#end-reason"); !strings.Contains(got, "Ann has uncovered every letter of the grid's password without announcing it") {
		t.Errorf("the end does not say Ann tripped over the password: %q", got)
	}
	if n := e2e.Eval[int](ann, `[...document.querySelectorAll('[data-board="0"] [data-sq]')].filter(e => /^[A-Z]$/.test(e.dataset.letter)).length`); n != 25 {
		t.Errorf("the end shows %d letters of the computer's grid, want 25", n)
	}
	if n := e2e.Eval[int](ann, `document.querySelectorAll('[data-board="0"] .pw').length`); n != 5 {
		t.Errorf("the end marks %d squares as the password, want 5", n)
	}
	t.Logf("solitaire Quizl: tripped over the password after %d calls", calls)
	ann.Shot("quizl-solitaire-over")
}
