package games

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"parlour/web/e2e"
)

// TestQuizlSetupKeepsPassword: the editor's helpers fill around the
// password the player wrote and never send anything by themselves. The
// empty editor warns of nothing; asking for a filling without a password,
// with a short one or with one that is not a word says so; "Fill the rest
// for me" and "Make me a deceptive grid" keep CRANE on row 7 and fill the
// other 20 squares; the grid is sent only by "Use this grid".
func TestQuizlSetupKeepsPassword(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.CreateTable("quizl", "The computer")
	ann.Wait("the grid editor", `!!document.querySelector("#q-password")`)
	if note := ann.Text("#q-note"); strings.Contains(note, "holds no letter") || strings.Contains(note, "square") {
		t.Errorf("the empty editor warns before anything was done: %q", note)
	}
	ann.Shot("quizl-setup-empty")

	for _, tc := range []struct{ pw, want string }{
		{"", "Write your password first"},
		{"cra", "A password has five letters; CRA has 3"},
		{"sheep", "SHEEP repeats a letter"},
		{"qxzvj", "QXZVJ is not a word"},
	} {
		ann.TypeIn("#q-password", tc.pw)
		if tc.pw == "" {
			e2e.Eval[bool](ann, `(document.querySelector("#q-password").value = "", true)`)
		}
		ann.ClickText("#main button", "Make me a deceptive grid")
		ann.Wait("the editor's refusal", fmt.Sprintf(`document.querySelector("#main .error[role=alert]").textContent.includes(%q)`, tc.want))
	}

	ann.TypeIn("#q-password", "crane")
	e2e.Eval[bool](ann, `(document.querySelector("#q-line").value = "2", true)`)
	ann.ClickText("#main button", "Write it in")
	// The empty squares are work to do, not a mistake to warn of.
	ann.Wait("the squares still to fill", `/^\d+ squares still to fill/.test(document.querySelector("#q-note").textContent)`)
	if cls := e2e.Eval[string](ann, `document.querySelector("#q-note").className`); cls == "warn" {
		t.Errorf("right after Write it in the note is a warning: %q", ann.Text("#q-note"))
	}
	ann.ClickText("#main button", "Fill the rest for me")
	ann.Wait("a filled grid", `[...document.querySelectorAll("#main input.cell")].every(e => /^[A-Z]$/.test(e.value))`)
	if got := ann.EditorRow(7); got != "CRANE" {
		t.Fatalf("after filling at random, row 7 reads %q, want CRANE", got)
	}
	random := e2e.Eval[string](ann, `[...document.querySelectorAll("#main input.cell")].map(e => e.value).join("")`)
	ann.Wait("the referee's word", `document.querySelector("#q-note").textContent.startsWith("The referee accepts this grid")`)

	ann.ClickText("#main button", "Make me a deceptive grid")
	ann.Wait("the deceptive filling", fmt.Sprintf(`[...document.querySelectorAll("#main input.cell")].map(e => e.value).join("") !== %q && [...document.querySelectorAll("#main input.cell")].every(e => /^[A-Z]$/.test(e.value))`, random))
	if got := ann.EditorRow(7); got != "CRANE" {
		t.Fatalf("after the deceptive filling, row 7 reads %q, want CRANE", got)
	}
	ann.Wait("the referee's word", `document.querySelector("#q-note").textContent.startsWith("The referee accepts this grid")`)
	if !e2e.Eval[bool](ann, `!!document.querySelector("#q-submit")`) || ann.Text("#players") == "" || strings.Contains(ann.Text("#players"), "Ann (you) · ready") {
		t.Fatalf("the grid was sent before \"Use this grid\": %q", ann.Text("#players"))
	}
	ann.Labelled("the grid editor")
	ann.AccessibleThemes("the Quizl grid editor")
	ann.Shot("quizl-setup-deceptive")
	// The computer's seat is named once, with its level once: not
	// "Computer (medium) · computer, medium", before the game and in it.
	seatLabel := func(when string) {
		t.Helper()
		if got := ann.Text(`#players li[data-seat="1"]`); !strings.HasPrefix(got, "Computer (medium)") || strings.Count(strings.ToLower(got), "medium") != 1 || strings.Contains(got, "computer, ") {
			t.Errorf("%s the computer's seat reads %q, want \"Computer (medium)\" with no repeat", when, got)
		}
	}
	seatLabel("while Ann sets up,")
	grid := e2e.Eval[string](ann, `[...document.querySelectorAll("#main input.cell")].map(e => e.value).join("")`)
	ann.Phone(true)
	ann.FitsWidth("the grid editor")
	ann.Shot("quizl-setup-phone-dark")

	ann.Click("#q-submit")
	mine, pw := ann.QuizlGrid()
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
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.CreateTable("quizl", "Solitaire")
	ann.Wait("the computer's grid", `document.querySelectorAll('[data-board="0"] [data-sq]').length === 25`)
	sq := func(s string) string { return fmt.Sprintf(`[data-board="0"] [data-sq="%s"]`, s) }
	calls := func() int { return e2e.Eval[int](ann, `document.querySelectorAll("#moves li").length`) }

	ann.Click(sq("61"))
	ann.Wait("61 selected", fmt.Sprintf(`document.querySelector(%q).getAttribute("aria-selected") === "true"`, sq("61")))
	if n := calls(); n != 0 {
		t.Fatalf("a first click called a square: %d moves", n)
	}
	if got := ann.Text("#q-chosen"); !strings.Contains(got, "Square 61 is selected") {
		t.Errorf("the choice bar says %q", got)
	}
	ann.Shot("quizl-selected")
	ann.Do("Escape", chromedp.KeyEvent(kb.Escape))
	ann.Wait("the choice cleared", fmt.Sprintf(`document.querySelector(%q).getAttribute("aria-selected") === "false" && document.querySelector("#q-chosen").hidden`, sq("61")))

	ann.Click(sq("61"))
	ann.Click(sq("62"))
	ann.Wait("62 selected instead", fmt.Sprintf(`document.querySelector(%q).getAttribute("aria-selected") === "true" && document.querySelector(%q).getAttribute("aria-selected") === "false"`, sq("62"), sq("61")))
	ann.Click(sq("62"))
	ann.Wait("62 called", `document.querySelectorAll("#moves li").length === 1`)
	ann.Wait("62's letter", fmt.Sprintf(`/^[A-Z]$/.test(document.querySelector(%q).dataset.letter)`, sq("62")))

	// The keyboard: focus, an arrow selects the next square, Enter calls.
	ann.Do("focus 62", chromedp.Focus(chromedp.CSS(sq("62"))))
	ann.Do("right", chromedp.KeyEvent(kb.ArrowRight))
	ann.Wait("63 selected", fmt.Sprintf(`document.activeElement.dataset.sq === "63" && document.querySelector(%q).getAttribute("aria-selected") === "true"`, sq("63")))
	if n := calls(); n != 1 {
		t.Fatalf("an arrow key called a square: %d moves", n)
	}
	ann.Do("Enter", chromedp.KeyEvent(kb.Enter))
	ann.Wait("63 called", `document.querySelectorAll("#moves li").length === 2 || !!document.querySelector("#game-over")`)
	if e2e.Eval[bool](ann, `!!document.querySelector("#game-over")`) {
		return // two calls tripped over the password: nothing more to try
	}

	// One click, remembered.
	ann.Click("#q-oneclick")
	ann.Open(e2e.Eval[string](ann, `location.pathname`))
	ann.Wait("the grid again", `document.querySelectorAll('[data-board="0"] [data-sq]').length === 25`)
	if !e2e.Eval[bool](ann, `document.querySelector("#q-oneclick").checked`) {
		t.Fatal("the one-click setting was forgotten after a reload")
	}
	ann.Click(sq("84"))
	ann.Wait("84 called with one click", `document.querySelectorAll("#moves li").length === 3 || !!document.querySelector("#game-over")`)
	ann.Labelled("the Quizl play screen")
}
