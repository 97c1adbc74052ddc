package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// TestFirstGameGuide: the first table of a game in a browser opens a
// short guide on the play screen that steps through what to click,
// points at it, can be skipped, is not opened again by itself, and
// reopens from the table's side panel.
func TestFirstGameGuide(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", base)
	ann.createTable("quizl", "Solitaire")
	ann.wait("the guide", `!!document.querySelector("#guide")`)
	if got := ann.text("#guide-step"); got != "Step 1 of 5" {
		t.Errorf("the guide starts at %q", got)
	}
	ann.wait("the first step's target marked", `!!document.querySelector('.board.guide-target')`)
	ann.shot("guide-quizl")
	ann.click("#guide-next")
	ann.wait("step 2", `document.querySelector("#guide-step").textContent === "Step 2 of 5" && document.querySelector("#q-call").classList.contains("guide-target")`)
	if !strings.Contains(ann.text("#guide-text"), "click it once to select it") {
		t.Errorf("step 2 says %q", ann.text("#guide-text"))
	}
	ann.labelled("the guide")
	ann.click("#guide-skip")
	ann.wait("the guide gone", `!document.querySelector("#guide") && !document.querySelector(".guide-target")`)
	ann.open(eval[string](ann, `location.pathname`))
	ann.wait("the table again", `document.querySelectorAll('[data-board="0"] [data-sq]').length === 25 && !!document.querySelector("#guide-open")`)
	if eval[bool](ann, `!!document.querySelector("#guide")`) {
		t.Error("the guide opened by itself again after it was skipped")
	}
	ann.click("#guide-open")
	ann.wait("the guide reopened, focused", `!!document.querySelector("#guide") && document.activeElement.id === "guide-next"`)
	for i := 0; i < 5; i++ {
		ann.click("#guide-next")
	}
	ann.wait("the guide done", `!document.querySelector("#guide")`)
}

// TestGuideEveryGame: each game's guide, opened at a first table against
// the computer, points every step at a part of that game's play screen.
func TestGuideEveryGame(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", base)
	for _, tc := range []struct {
		game  string
		steps int
		setup func()
	}{
		{"nymphabet", 3, nil},
		{"wordfight", 4, nil},
		{"salvo", 4, func() {
			ann.wait("the fleet editor", `!!document.querySelector("#s-random")`)
			ann.click("#s-random")
			ann.wait("a fleet", `document.querySelector("#s-setup-h").parentElement.querySelector("[role=status]").textContent.startsWith("Every ship is placed")`)
			ann.click("#s-submit")
		}},
	} {
		ann.createTable(tc.game, "The computer")
		if tc.setup != nil {
			tc.setup()
		}
		ann.wait(tc.game+"'s guide", `!!document.querySelector("#guide")`)
		for i := 1; i <= tc.steps; i++ {
			ann.wait(fmt.Sprintf("%s step %d pointing at something", tc.game, i), fmt.Sprintf(`document.querySelector("#guide-step").textContent === "Step %d of %d" && !!document.querySelector(".guide-target")`, i, tc.steps))
			if i == 2 {
				ann.shot("guide-" + tc.game)
			}
			ann.click("#guide-next")
		}
		ann.wait(tc.game+"'s guide done", `!document.querySelector("#guide")`)
	}
}
