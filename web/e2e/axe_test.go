package e2e

import (
	_ "embed"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// axeSource is axe-core 4.14.1, vendored (see testdata/axe-core/README.md):
// the accessibility check runs the same rules offline every time.
//
//go:embed testdata/axe-core/axe.min.js
var axeSource string

// theme switches p's page to the light or the dark colour scheme.
func (p *player) theme(dark bool) {
	p.t.Helper()
	scheme := map[bool]string{true: "dark", false: "light"}[dark]
	if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
	}); err != nil {
		p.fail("emulating the %s theme: %v", scheme, err)
	}
}

// accessible runs axe-core's rules on p's page and fails the test for
// every serious or critical violation, naming the rule and the elements.
func (p *player) accessible(where string) {
	p.t.Helper()
	if !eval[bool](p, `typeof window.axe === "object"`) {
		eval[bool](p, axeSource+";\ntrue")
	}
	found := eval[[]string](p, `axe.run(document, { resultTypes: ["violations"] }).then(r => r.violations
		.filter(v => v.impact === "serious" || v.impact === "critical")
		.map(v => v.impact + " " + v.id + " (" + v.help + "): " + v.nodes.slice(0, 4).map(n => n.target.join(" ") + (n.failureSummary ? " [" + n.failureSummary.replace(/\s+/g, " ").slice(0, 160) + "]" : "")).join("; ")))`)
	for _, f := range found {
		p.t.Errorf("%s: %s: %s", p.name, where, f)
	}
}

// accessibleThemes runs accessible on p's page in the light and then the
// dark theme, and leaves the page in the light one.
func (p *player) accessibleThemes(where string) {
	p.t.Helper()
	for _, dark := range []bool{false, true} {
		p.theme(dark)
		p.accessible(fmt.Sprintf("%s (%s theme)", where, map[bool]string{true: "dark", false: "light"}[dark]))
	}
	p.theme(false)
}

// TestAccessibility runs axe-core on the home page, the new-table form
// and each game's play screen (and Salvo's fleet placement), in the light
// and the dark theme: no serious or critical violation, and every control
// and square has a name.
func TestAccessibility(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	b := newBrowser(t)
	p := newPlayer(t, b, "Ann", base)
	check := func(where string) {
		t.Helper()
		p.accessibleThemes(where)
		p.labelled(where)
	}
	p.open("/")
	p.wait("the games", `document.querySelectorAll("#main .cards .card h2").length === 4`)
	check("the home page")
	p.open("/new/salvo")
	p.wait("the new table form", `!!document.querySelector("#opt-placement")`)
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
		p.createTable(tc.game, tc.preset)
		p.wait(tc.where, tc.ready)
		if tc.game == "salvo" && tc.preset == "Practice" {
			// A square aimed at, so that the aimed look is checked too.
			p.click(`[data-board="1"] [data-sq="E5"]`)
			p.wait("the aimed square", `document.querySelector('[data-board="1"] [data-sq="E5"]').classList.contains("aim")`)
		}
		check(tc.where)
		if off := p.offOrigin(); len(off) > 0 {
			t.Errorf("requests left the origin on %s: %v", tc.where, strings.Join(off, " "))
		}
	}
}
