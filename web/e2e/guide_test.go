package e2e

import (
	"strings"
	"testing"
)

// TestFirstGameGuide: the first table of a game in a browser opens a
// short guide on the play screen that steps through what to click,
// points at it, can be skipped, is not opened again by itself, and
// reopens from the table's side panel.
func TestFirstGameGuide(t *testing.T) {
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
