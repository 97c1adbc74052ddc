package e2e

import (
	_ "embed"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// axeSource is axe-core 4.14.1, vendored (see testdata/axe-core/README.md):
// the accessibility check runs the same rules offline every time.
//
//go:embed testdata/axe-core/axe.min.js
var axeSource string

// Theme switches p's page to the light or the dark colour scheme.
func (p *Player) Theme(dark bool) {
	p.t.Helper()
	scheme := map[bool]string{true: "dark", false: "light"}[dark]
	if _, err := chromedp.Call(p.Ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
	}); err != nil {
		p.fail("emulating the %s theme: %v", scheme, err)
	}
}

// Accessible runs axe-core's rules on p's page and fails the test for
// every serious or critical violation, naming the rule and the elements.
func (p *Player) Accessible(where string) {
	p.t.Helper()
	if !Eval[bool](p, `typeof window.axe === "object"`) {
		Eval[bool](p, axeSource+";\ntrue")
	}
	// axe-core checks every element against every rule: on a finished
	// Word Fight board of a few hundred squares that took over 20 s on
	// a machine of two processors running the other packages' tests.
	found := evalWithin[[]string](p, 2*time.Minute, `axe.run(document, { resultTypes: ["violations"] }).then(r => r.violations
		.filter(v => v.impact === "serious" || v.impact === "critical")
		.map(v => v.impact + " " + v.id + " (" + v.help + "): " + v.nodes.slice(0, 4).map(n => n.target.join(" ") + (n.failureSummary ? " [" + n.failureSummary.replace(/\s+/g, " ").slice(0, 160) + "]" : "")).join("; ")))`)
	for _, f := range found {
		p.t.Errorf("%s: %s: %s", p.Name, where, f)
	}
}

// AccessibleThemes runs accessible on p's page in the light and then the
// dark theme, and leaves the page in the light one.
func (p *Player) AccessibleThemes(where string) {
	p.t.Helper()
	for _, dark := range []bool{false, true} {
		p.Theme(dark)
		p.Accessible(fmt.Sprintf("%s (%s theme)", where, map[bool]string{true: "dark", false: "light"}[dark]))
	}
	p.Theme(false)
}

// Phone makes p's page a 375-pixel-wide phone screen, in the dark theme
// when dark is set.
func (p *Player) Phone(dark bool) {
	p.t.Helper()
	p.Do("emulate a phone", chromedp.EmulateViewport(375, 740, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	scheme := "light"
	if dark {
		scheme = "dark"
	}
	if _, err := chromedp.Call(p.Ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
	}); err != nil {
		p.fail("emulating the %s theme: %v", scheme, err)
	}
}

// FitsWidth checks that the page needs no sideways scrolling.
func (p *Player) FitsWidth(where string) {
	p.t.Helper()
	if w := Eval[int](p, `document.documentElement.scrollWidth`); w > 375 {
		wide := Eval[[]string](p, `[...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > 376 && !e.closest(".board-frame, .table-frame")).slice(0, 12).map(e => e.tagName + "." + e.className + " " + Math.round(e.getBoundingClientRect().right))`)
		p.t.Errorf("%s: %s is %d pixels wide on a 375-pixel screen; the widest: %v", p.Name, where, w, wide)
	}
}
