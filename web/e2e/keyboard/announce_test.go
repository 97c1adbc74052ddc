package keyboard

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"parlour/lexicon"
	"parlour/web/e2e"
)

// spoken is a script that reports whether a live region of the page (one
// a screen reader reads out as it changes) holds the text %q, in any case.
const spoken = `[...document.querySelectorAll('[aria-live]:not([aria-live="off"]), [role=status], [role=alert], [role=log]')]
	.some(r => r.textContent.toUpperCase().includes(%q.toUpperCase()))`

// TestMovesAreSpoken checks that a player who cannot see the board hears
// what a move did as it happens: the other side's move (the computer's
// word in Nymphabet), and the report on the player's own salvo in Salvo,
// reach a live region, not only the move list.
func TestMovesAreSpoken(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)

	t.Run("the other side's word", func(t *testing.T) {
		t.Parallel()
		ann := e2e.NewPlayer(t, b, "Ann", base)
		ann.CreateTable("nymphabet", "The computer")
		ann.Wait("the alphabet", `document.querySelectorAll(".alphabet span").length === 26`)
		ann.WaitTurn(true)
		cur := strings.ToLower(e2e.Eval[string](ann, `(document.querySelector(".alphabet .cur") || {textContent: "a"}).textContent`))
		word := ""
		for _, w := range lexicon.Default().OfLength(6) {
			if w[0] == cur[0] {
				word = w
				break
			}
		}
		if word == "" {
			t.Fatalf("no six-letter word begins with %s", cur)
		}
		n := e2e.Eval[int](ann, `document.querySelectorAll(".nwords li").length`)
		ann.TypeIn("#n-word", word)
		ann.Click("#n-controls button[type=submit]")
		ann.Wait("the computer's answer", fmt.Sprintf(`document.querySelectorAll(".nwords li").length >= %d`, n+2))
		label := e2e.Eval[string](ann, `[...document.querySelectorAll(".nwords li")].pop().getAttribute("aria-label")`)
		theirs, _, _ := strings.Cut(label, ",") // "Computer (medium): WORD"
		if !strings.HasPrefix(theirs, "Computer") {
			t.Fatalf("the last word is not the computer's: %q", label)
		}
		ann.Wait("the computer's word in a live region", fmt.Sprintf(spoken, theirs[strings.LastIndex(theirs, " ")+1:]))
	})

	t.Run("the report on one's own salvo", func(t *testing.T) {
		t.Parallel()
		ann := e2e.NewPlayer(t, b, "Ann", base)
		ann.CreateTable("salvo", "Practice")
		ann.Wait("the ocean", `document.querySelectorAll('[data-board="1"] [data-sq]').length === 100`)
		ann.WaitTurn(true)
		ann.TypeIn("#s-fire", "A1 C3 E5 G7 I9")
		ann.Click("#s-fire-btn")
		ann.Wait("the report", `document.querySelectorAll("#s-reports li").length === 1`)
		report := ann.Text("#s-reports li em")
		ann.Wait("the report in a live region", fmt.Sprintf(spoken, "salvo 1")+" && "+fmt.Sprintf(spoken, report))
	})
}

// TestSalvoDirectionSpoken turns the ship being placed with R on the
// ocean, as a player without sight does: the new direction is spoken in
// a live region (the Direction button's text changed silently), and the
// ocean's name says which way the ship will be laid, so that a player
// coming back to it hears the direction too.
func TestSalvoDirectionSpoken(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.CreateTable("salvo", "The computer")
	const ocean = `#s-setup-h ~ [data-board="fleet"]`
	ann.Wait("fleet placement", `document.querySelectorAll('`+ocean+` [data-sq]').length === 100`)
	for _, dir := range []string{"down", "across"} {
		ann.Do("press R on C3", chromedp.Focus(chromedp.CSS(ocean+` [data-sq="C3"]`)), chromedp.KeyEvent("r"))
		ann.Wait("the direction "+dir+" spoken", fmt.Sprintf(spoken, "direction: "+dir))
		if got := ann.AXNames(ocean + ` [role=grid]`); len(got) != 1 || !strings.Contains(got[0], dir) {
			t.Errorf("after R the ocean is read %q, without %q", got, dir)
		}
		if got := e2e.Eval[string](ann, `document.activeElement.dataset.sq || ""`); got != "C3" {
			t.Errorf("after R the keyboard is on %s, not C3", e2e.Eval[string](ann, focusedNow))
		}
	}
}
