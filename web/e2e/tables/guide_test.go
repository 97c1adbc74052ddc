package tables

import (
	"fmt"
	"strings"
	"testing"

	"parlour/web/e2e"
)

// TestFirstGameGuide: the first table of a game in a browser opens a
// short guide on the play screen that steps through what to click,
// points at it, can be skipped, is not opened again by itself, and
// reopens from the table's side panel.
func TestFirstGameGuide(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.CreateTable("quizl", "Solitaire")
	ann.Wait("the guide", `!!document.querySelector("#guide")`)
	// A solitaire's guide hunts the computer's grid, and has no step
	// about a grid of the player's own.
	if got := ann.Text("#guide-step"); got != "Step 1 of 4" {
		t.Errorf("the guide starts at %q", got)
	}
	if got := ann.Text("#guide-text"); !strings.Contains(got, "the grid the computer hid a password in") {
		t.Errorf("a solitaire's first step says %q", got)
	}
	ann.Wait("the first step's target marked", `!!document.querySelector('.board.guide-target')`)
	ann.Shot("guide-quizl")
	ann.Click("#guide-next")
	ann.Wait("step 2", `document.querySelector("#guide-step").textContent === "Step 2 of 4" && document.querySelector("#q-call").classList.contains("guide-target")`)
	if !strings.Contains(ann.Text("#guide-text"), "click it once to select it") {
		t.Errorf("step 2 says %q", ann.Text("#guide-text"))
	}
	ann.Labelled("the guide")
	ann.Click("#guide-skip")
	ann.Wait("the guide gone", `!document.querySelector("#guide") && !document.querySelector(".guide-target")`)
	ann.Open(e2e.Eval[string](ann, `location.pathname`))
	ann.Wait("the table again", `document.querySelectorAll('[data-board="0"] [data-sq]').length === 25 && !!document.querySelector("#guide-open")`)
	if e2e.Eval[bool](ann, `!!document.querySelector("#guide")`) {
		t.Error("the guide opened by itself again after it was skipped")
	}
	ann.Click("#guide-open")
	ann.Wait("the guide reopened, focused", `!!document.querySelector("#guide") && document.activeElement.id === "guide-next"`)
	for i := 0; i < 4; i++ {
		ann.Click("#guide-next")
	}
	ann.Wait("the guide done", `!document.querySelector("#guide")`)
}

// TestGuideEveryGame: each game's guide, opened at a first table against
// the computer, points every step at a part of that game's play screen.
func TestGuideEveryGame(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	for _, tc := range []struct {
		game  string
		steps int
		setup func()
	}{
		{"nymphabet", 3, nil},
		{"wordfight", 4, nil},
		{"salvo", 4, func() {
			ann.Wait("the fleet editor", `!!document.querySelector("#s-random")`)
			ann.Click("#s-random")
			ann.Wait("a fleet", `document.querySelector("#s-setup-h").parentElement.querySelector("[role=status]").textContent.startsWith("Every ship is placed")`)
			ann.Click("#s-submit")
		}},
	} {
		ann.CreateTable(tc.game, "The computer")
		if tc.setup != nil {
			tc.setup()
		}
		ann.Wait(tc.game+"'s guide", `!!document.querySelector("#guide")`)
		for i := 1; i <= tc.steps; i++ {
			ann.Wait(fmt.Sprintf("%s step %d pointing at something", tc.game, i), fmt.Sprintf(`document.querySelector("#guide-step").textContent === "Step %d of %d" && !!document.querySelector(".guide-target")`, i, tc.steps))
			if i == 2 {
				ann.Shot("guide-" + tc.game)
			}
			ann.Click("#guide-next")
		}
		ann.Wait(tc.game+"'s guide done", `!document.querySelector("#guide")`)
	}
}

// TestGuideFollowsTheRules: the guide says the table's own rules where
// they change what it says: a cyclic Nymphabet table's alphabet goes
// round and its last word wins, where a standard one's Z loses; a Salvo
// practice's hunts the computer's fleet, with none of the player's own.
func TestGuideFollowsTheRules(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.Open("/new/nymphabet")
	ann.Wait("the new table form", `!!document.querySelector("#opt-mode")`)
	ann.ClickText("#main form button", "The computer")
	ann.Pick("#opt-mode", "cyclic")
	ann.TypeIn("#my-name", ann.Name)
	ann.Click("form button[type=submit]")
	ann.Wait("the guide", `!!document.querySelector("#guide")`)
	if got := ann.Text("#guide-text"); !strings.Contains(got, "goes round from Z to A") || !strings.Contains(got, "any letter") {
		t.Errorf("a cyclic table's first step says %q", got)
	}
	ann.Click("#guide-next")
	ann.Click("#guide-next")
	ann.Wait("step 3", `document.querySelector("#guide-step").textContent === "Step 3 of 3"`)
	if got := ann.Text("#guide-text"); !strings.Contains(got, "crosses off the last one wins") || strings.Contains(got, "Z loses") {
		t.Errorf("a cyclic table's last step says %q", got)
	}

	// A Salvo practice hunts the computer's fleet, and nobody fires back.
	ann.Open("/")
	ann.Wait("the games", `!!document.querySelector("#salvo-practice")`)
	ann.Click("#salvo-practice")
	ann.Wait("the new table form", `!!document.querySelector("#seats")`)
	ann.TypeIn("#my-name", ann.Name)
	ann.Click("form button[type=submit]")
	ann.Wait("the practice's guide", `!!document.querySelector("#guide") && document.querySelectorAll('[data-board="1"] [data-sq]').length === 100`)
	if got := ann.Text("#guide-text"); !strings.Contains(got, "The computer's five ships are hidden in it, and nobody fires back.") {
		t.Errorf("a practice's first step says %q", got)
	}
	for range 3 {
		ann.Click("#guide-next")
	}
	ann.Wait("step 4", `document.querySelector("#guide-step").textContent === "Step 4 of 4"`)
	if got := ann.Text("#guide-text"); !strings.Contains(got, "the right one wins") || strings.Contains(got, "hunter") {
		t.Errorf("a practice's last step says %q", got)
	}
}

// TestGuideNotAfterAGame: a browser that kept nothing (a new one, or
// storage cleared) opens no guide for a player who has finished a game of
// the kind already, and remembers so; the player's first game of another
// kind still has one.
func TestGuideNotAfterAGame(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.CreateTable("nymphabet", "The computer")
	ann.Wait("the guide", `!!document.querySelector("#guide")`)
	e2e.Eval[bool](ann, `(window.confirm = () => true, true)`)
	ann.Click("#resign")
	ann.Wait("the end", `!!document.querySelector("#game-over")`)
	e2e.Eval[bool](ann, `(localStorage.removeItem("parlour.guide.nymphabet"), true)`)
	ann.CreateTable("nymphabet", "The computer")
	ann.Wait("the guide kept as seen", `localStorage.getItem("parlour.guide.nymphabet") === "1"`)
	if e2e.Eval[bool](ann, `!!document.querySelector("#guide")`) {
		t.Error("the guide opened for a player who has played Nymphabet")
	}
	ann.CreateTable("wordfight", "The computer")
	ann.Wait("Word Fight's guide", `!!document.querySelector("#guide")`)
}
