package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// editorRow reads row r (5-9) of the Quizl grid editor.
func (p *player) editorRow(r int) string {
	p.t.Helper()
	return eval[string](p, fmt.Sprintf(`[...document.querySelectorAll("#main input.cell")].slice(%d, %d).map(e => e.value).join("")`, (r-5)*5, (r-5)*5+5))
}

// TestQuizlSetupKeepsPassword: the editor's helpers fill around the
// password the player wrote and never send anything by themselves. The
// empty editor warns of nothing; asking for a filling without a password,
// with a short one or with one that is not a word says so; "Fill the rest
// for me" and "Make me a deceptive grid" keep CRANE on row 7 and fill the
// other 20 squares; the grid is sent only by "Use this grid".
func TestQuizlSetupKeepsPassword(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", base)
	ann.createTable("quizl", "The computer")
	ann.wait("the grid editor", `!!document.querySelector("#q-password")`)
	if note := ann.text("#q-note"); strings.Contains(note, "holds no letter") || strings.Contains(note, "square") {
		t.Errorf("the empty editor warns before anything was done: %q", note)
	}
	ann.shot("quizl-setup-empty")

	for _, tc := range []struct{ pw, want string }{
		{"", "Write your password first"},
		{"cra", "A password has five letters; CRA has 3"},
		{"sheep", "SHEEP repeats a letter"},
		{"qxzvj", "QXZVJ is not a word"},
	} {
		ann.typeIn("#q-password", tc.pw)
		if tc.pw == "" {
			eval[bool](ann, `(document.querySelector("#q-password").value = "", true)`)
		}
		ann.clickText("#main button", "Make me a deceptive grid")
		ann.wait("the editor's refusal", fmt.Sprintf(`document.querySelector("#main .error[role=alert]").textContent.includes(%q)`, tc.want))
	}

	ann.typeIn("#q-password", "crane")
	eval[bool](ann, `(document.querySelector("#q-line").value = "2", true)`)
	ann.clickText("#main button", "Write it in")
	// The empty squares are work to do, not a mistake to warn of.
	ann.wait("the squares still to fill", `/^\d+ squares still to fill/.test(document.querySelector("#q-note").textContent)`)
	if cls := eval[string](ann, `document.querySelector("#q-note").className`); cls == "warn" {
		t.Errorf("right after Write it in the note is a warning: %q", ann.text("#q-note"))
	}
	ann.clickText("#main button", "Fill the rest for me")
	ann.wait("a filled grid", `[...document.querySelectorAll("#main input.cell")].every(e => /^[A-Z]$/.test(e.value))`)
	if got := ann.editorRow(7); got != "CRANE" {
		t.Fatalf("after filling at random, row 7 reads %q, want CRANE", got)
	}
	random := eval[string](ann, `[...document.querySelectorAll("#main input.cell")].map(e => e.value).join("")`)
	ann.wait("the referee's word", `document.querySelector("#q-note").textContent.startsWith("The referee accepts this grid")`)

	ann.clickText("#main button", "Make me a deceptive grid")
	ann.wait("the deceptive filling", fmt.Sprintf(`[...document.querySelectorAll("#main input.cell")].map(e => e.value).join("") !== %q && [...document.querySelectorAll("#main input.cell")].every(e => /^[A-Z]$/.test(e.value))`, random))
	if got := ann.editorRow(7); got != "CRANE" {
		t.Fatalf("after the deceptive filling, row 7 reads %q, want CRANE", got)
	}
	ann.wait("the referee's word", `document.querySelector("#q-note").textContent.startsWith("The referee accepts this grid")`)
	if !eval[bool](ann, `!!document.querySelector("#q-submit")`) || ann.text("#players") == "" || strings.Contains(ann.text("#players"), "Ann (you) · ready") {
		t.Fatalf("the grid was sent before \"Use this grid\": %q", ann.text("#players"))
	}
	ann.labelled("the grid editor")
	ann.accessibleThemes("the Quizl grid editor")
	ann.shot("quizl-setup-deceptive")
	// The computer's seat is named once, with its level once: not
	// "Computer (medium) · computer, medium", before the game and in it.
	seatLabel := func(when string) {
		t.Helper()
		if got := ann.text(`#players li[data-seat="1"]`); !strings.HasPrefix(got, "Computer (medium)") || strings.Count(strings.ToLower(got), "medium") != 1 || strings.Contains(got, "computer, ") {
			t.Errorf("%s the computer's seat reads %q, want \"Computer (medium)\" with no repeat", when, got)
		}
	}
	seatLabel("while Ann sets up,")
	grid := eval[string](ann, `[...document.querySelectorAll("#main input.cell")].map(e => e.value).join("")`)
	ann.phone(true)
	ann.fitsWidth("the grid editor")
	ann.shot("quizl-setup-phone-dark")

	ann.click("#q-submit")
	mine, pw := ann.quizlGrid()
	seatLabel("in play")
	if pw != "CRANE" {
		t.Errorf("the game's password is %q, want CRANE", pw)
	}
	got := ""
	for r := 5; r <= 9; r++ {
		for c := 0; c <= 4; c++ {
			got += mine[fmt.Sprintf("%d%d", r, c)]
		}
	}
	if got != grid {
		t.Errorf("the game's grid %s is not the one the editor showed, %s", got, grid)
	}
}

// TestQuizlSelectThenCall: a click on a tracking square selects it, a
// second click calls it; Escape clears a choice; the arrow keys select
// and Enter calls; and with "Call a square with one click" (remembered
// by the browser) a click calls at once.
func TestQuizlSelectThenCall(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", base)
	ann.createTable("quizl", "Solitaire")
	ann.wait("the computer's grid", `document.querySelectorAll('[data-board="0"] [data-sq]').length === 25`)
	sq := func(s string) string { return fmt.Sprintf(`[data-board="0"] [data-sq="%s"]`, s) }
	calls := func() int { return eval[int](ann, `document.querySelectorAll("#moves li").length`) }

	ann.click(sq("61"))
	ann.wait("61 selected", fmt.Sprintf(`document.querySelector(%q).getAttribute("aria-selected") === "true"`, sq("61")))
	if n := calls(); n != 0 {
		t.Fatalf("a first click called a square: %d moves", n)
	}
	if got := ann.text("#q-chosen"); !strings.Contains(got, "Square 61 is selected") {
		t.Errorf("the choice bar says %q", got)
	}
	ann.shot("quizl-selected")
	ann.do("Escape", chromedp.KeyEvent(kb.Escape))
	ann.wait("the choice cleared", fmt.Sprintf(`document.querySelector(%q).getAttribute("aria-selected") === "false" && document.querySelector("#q-chosen").hidden`, sq("61")))

	ann.click(sq("61"))
	ann.click(sq("62"))
	ann.wait("62 selected instead", fmt.Sprintf(`document.querySelector(%q).getAttribute("aria-selected") === "true" && document.querySelector(%q).getAttribute("aria-selected") === "false"`, sq("62"), sq("61")))
	ann.click(sq("62"))
	ann.wait("62 called", `document.querySelectorAll("#moves li").length === 1`)
	ann.wait("62's letter", fmt.Sprintf(`/^[A-Z]$/.test(document.querySelector(%q).dataset.letter)`, sq("62")))

	// The keyboard: focus, an arrow selects the next square, Enter calls.
	ann.do("focus 62", chromedp.Focus(chromedp.CSS(sq("62"))))
	ann.do("right", chromedp.KeyEvent(kb.ArrowRight))
	ann.wait("63 selected", fmt.Sprintf(`document.activeElement.dataset.sq === "63" && document.querySelector(%q).getAttribute("aria-selected") === "true"`, sq("63")))
	if n := calls(); n != 1 {
		t.Fatalf("an arrow key called a square: %d moves", n)
	}
	ann.do("Enter", chromedp.KeyEvent(kb.Enter))
	ann.wait("63 called", `document.querySelectorAll("#moves li").length === 2 || !!document.querySelector("#game-over")`)
	if eval[bool](ann, `!!document.querySelector("#game-over")`) {
		return // two calls tripped over the password: nothing more to try
	}

	// One click, remembered.
	ann.click("#q-oneclick")
	ann.open(eval[string](ann, `location.pathname`))
	ann.wait("the grid again", `document.querySelectorAll('[data-board="0"] [data-sq]').length === 25`)
	if !eval[bool](ann, `document.querySelector("#q-oneclick").checked`) {
		t.Fatal("the one-click setting was forgotten after a reload")
	}
	ann.click(sq("84"))
	ann.wait("84 called with one click", `document.querySelectorAll("#moves li").length === 3 || !!document.querySelector("#game-over")`)
	ann.labelled("the Quizl play screen")
}
