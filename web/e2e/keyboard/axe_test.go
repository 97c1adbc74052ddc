package keyboard

import (
	_ "embed"
	"strings"
	"testing"

	"parlour/web/e2e"
)

// TestAccessibility runs axe-core on the home page, the new-table form
// and each game's play screen (and Salvo's fleet placement), in the light
// and the dark theme: no serious or critical violation, and every control
// and square has a name.
func TestAccessibility(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Ann", base)
	check := func(where string) {
		t.Helper()
		p.AccessibleThemes(where)
		p.Labelled(where)
	}
	p.Open("/")
	p.Wait("the games", `document.querySelectorAll("#main .cards .card h2").length === 4`)
	check("the home page")
	p.Open("/new/salvo")
	p.Wait("the new table form", `!!document.querySelector("#opt-placement")`)
	check("the new table form")

	for _, tc := range []struct {
		game, preset, ready, where string
	}{
		{"quizl", "Solitaire", `document.querySelectorAll('[data-board="0"] [data-sq]').length === 25`, "solitaire Quizl"},
		{"salvo", "Practice", `document.querySelectorAll('[data-board="1"] [data-sq]').length === 100`, "Salvo practice"},
		{"salvo", "The computer", `!!document.querySelector("#s-random")`, "Salvo's fleet placement"},
		{"wordfight", "The computer", `document.querySelectorAll(".wordfight [data-sq]").length === 400`, "Word Fight against the computer"},
		{"nymphabet", "The computer", `document.querySelectorAll(".alphabet span").length === 26`, "Nymphabet against the computer"},
	} {
		p.CreateTable(tc.game, tc.preset)
		p.Wait(tc.where, tc.ready)
		if tc.game == "salvo" && tc.preset == "Practice" {
			// A square aimed at, so that the aimed look is checked too.
			p.Click(`[data-board="1"] [data-sq="E5"]`)
			p.Wait("the aimed square", `document.querySelector('[data-board="1"] [data-sq="E5"]').classList.contains("aim")`)
		}
		check(tc.where)
		if off := p.OffOrigin(); len(off) > 0 {
			t.Errorf("requests left the origin on %s: %v", tc.where, strings.Join(off, " "))
		}
	}
}
