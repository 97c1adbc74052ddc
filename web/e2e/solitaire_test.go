package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// phone makes p's page a 375-pixel-wide phone screen, in the dark theme
// when dark is set.
func (p *player) phone(dark bool) {
	p.t.Helper()
	p.do("emulate a phone", chromedp.EmulateViewport(375, 740, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	scheme := "light"
	if dark {
		scheme = "dark"
	}
	if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
	}); err != nil {
		p.fail("emulating the %s theme: %v", scheme, err)
	}
}

// fitsWidth checks that the page needs no sideways scrolling.
func (p *player) fitsWidth(where string) {
	p.t.Helper()
	if w := eval[int](p, `document.documentElement.scrollWidth`); w > 375 {
		wide := eval[[]string](p, `[...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > 376 && !e.closest(".board-frame, .table-frame")).slice(0, 12).map(e => e.tagName + "." + e.className + " " + Math.round(e.getBoundingClientRect().right))`)
		p.t.Errorf("%s: %s is %d pixels wide on a 375-pixel screen; the widest: %v", p.name, where, w, wide)
	}
}

// TestQuizlSolitaire plays solitaire Quizl on a phone screen in the dark
// theme, with the keyboard only: arrow keys move over the computer's
// grid and Enter calls a square, until the calls uncover the password.
// Every call must show its letter, and the end must show the grid.
func TestQuizlSolitaire(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", base)
	ann.phone(true)
	ann.open("/")
	ann.wait("the games", `document.querySelectorAll("#main .cards .card h2").length === 4`)
	ann.fitsWidth("the home page")
	ann.shot("home-phone-dark")
	ann.createTable("quizl", "Solitaire")
	ann.wait("the computer's grid", `document.querySelectorAll('[data-board="0"] [data-sq]').length === 25`)
	ann.fitsWidth("the play screen")
	if got := ann.text(`[data-board="0"] h3`); got != "Tracking the computer's grid" {
		t.Errorf("the board's heading: %q", got)
	}
	ann.do("focus the grid", chromedp.Focus(chromedp.CSS(`[data-board="0"] [data-sq="50"]`)))
	calls := 0
	for r := 5; r <= 9; r++ {
		for c := 0; c <= 4; c++ {
			sq := fmt.Sprintf("%d%d", r, c)
			if focused := eval[string](ann, `document.activeElement.dataset.sq || ""`); focused != sq {
				t.Fatalf("focus is on %q, want square %s", focused, sq)
			}
			ann.do("call "+sq, chromedp.KeyEvent(kb.Enter))
			calls++
			ann.wait("the letter at "+sq, fmt.Sprintf(`/^[A-Z]$/.test((document.querySelector('[data-board="0"] [data-sq="%s"]')||{dataset:{}}).dataset.letter)`, sq))
			ann.wait("the move list", fmt.Sprintf(`document.querySelectorAll("#moves li").length >= %d`, calls))
			if calls == 4 { // before the calls can have uncovered all five letters
				ann.shot("quizl-solitaire-phone-dark")
			}
			if eval[bool](ann, `!!document.querySelector("#game-over")`) {
				goto over
			}
			ann.wait("focus kept on the grid", fmt.Sprintf(`document.activeElement.dataset.sq === %q`, sq))
			key := kb.ArrowRight
			if c == 4 {
				// Down a row and back to column 0.
				ann.do("next row", chromedp.KeyEvent(kb.ArrowDown))
				key = kb.Home
			}
			ann.do("move", chromedp.KeyEvent(key))
		}
	}
	t.Fatal("every square called and the game is not over")
over:
	end := ann.text("#game-over")
	if !strings.Contains(end, "Scores: Ann 0") {
		t.Errorf("tripping over the password scores 0; the end says %q", end)
	}
	if got := ann.text("#end-reason"); !strings.Contains(got, "Ann has uncovered every letter of the grid's password without announcing it") {
		t.Errorf("the end does not say Ann tripped over the password: %q", got)
	}
	if n := eval[int](ann, `[...document.querySelectorAll('[data-board="0"] [data-sq]')].filter(e => /^[A-Z]$/.test(e.dataset.letter)).length`); n != 25 {
		t.Errorf("the end shows %d letters of the computer's grid, want 25", n)
	}
	if n := eval[int](ann, `document.querySelectorAll('[data-board="0"] .pw').length`); n != 5 {
		t.Errorf("the end marks %d squares as the password, want 5", n)
	}
	t.Logf("solitaire Quizl: tripped over the password after %d calls", calls)
	ann.shot("quizl-solitaire-over")
}
