package keyboard

import (
	"fmt"
	"testing"

	"parlour/web/e2e"
)

// TestPencilMarksNotByHueAlone marks one square "hit?" and another
// "miss?" with the pencil on Salvo's tracking ocean: the two marks differ
// by more than their colour, whose red and grey rings are of one
// lightness and alike to a player who does not see red: each has a glyph
// of its own, and the rings' strokes differ. The glyphs are drawn, not
// read: the square's name already says the mark.
func TestPencilMarksNotByHueAlone(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.CreateTable("salvo", "Practice")
	sq := func(s string) string { return `[data-board="1"] [data-sq="` + s + `"]` }
	ann.Wait("the ocean", `!!document.querySelector('`+sq("J10")+`')`)
	ann.Click("#s-mode")
	ann.Wait("pencil mode", `document.querySelector("#s-mode").getAttribute("aria-pressed") === "true"`)
	ann.Click(sq("A1"))
	ann.Wait("A1 pencilled hit", `document.querySelector('`+sq("A1")+`').classList.contains("pm-hit")`)
	ann.Click(sq("B1"))
	ann.Wait("B1 pencilled hit", `document.querySelector('`+sq("B1")+`').classList.contains("pm-hit")`)
	ann.Click(sq("B1"))
	ann.Wait("B1 pencilled miss", `document.querySelector('`+sq("B1")+`').classList.contains("pm-miss")`)
	for _, dark := range []bool{false, true} {
		ann.Theme(dark)
		ann.ShotView(fmt.Sprintf("salvo-pencil-marks-dark-%v", dark))
		look := func(s string) [3]string {
			return e2e.Eval[[3]string](ann, fmt.Sprintf(`(e => [getComputedStyle(e, "::after").content, getComputedStyle(e, "::before").borderTopStyle, getComputedStyle(e).boxShadow])(document.querySelector('%s'))`, sq(s)))
		}
		hit, miss := look("A1"), look("B1")
		for _, m := range []struct {
			name string
			look [3]string
		}{{"hit?", hit}, {"miss?", miss}} {
			if m.look[0] == "none" || m.look[0] == "normal" || m.look[0] == "" {
				t.Errorf("dark %v: a %s mark has no glyph: %q", dark, m.name, m.look)
			}
		}
		if hit[0] == miss[0] {
			t.Errorf("dark %v: hit? and miss? show the same glyph %s", dark, hit[0])
		}
		if hit[1] == miss[1] && hit[2] == miss[2] {
			t.Errorf("dark %v: hit? and miss? have rings of one stroke: %q", dark, hit[1:])
		}
	}
	ann.Theme(false)
	if got := ann.AXNames(sq("A1") + ", " + sq("B1")); len(got) != 2 || got[0] != "A1: not fired at, pencil: hit?" || got[1] != "B1: not fired at, pencil: miss?" {
		t.Errorf("the pencilled squares are read %q", got)
	}
}

// TestPlaceholderContrast reads the colour of the placeholders the forms
// show (an example in an empty box) against their box, in the light and
// the dark theme: at least 4.5:1 as for any text. The browser's own grey
// was 3.6:1 on a dark box.
func TestPlaceholderContrast(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	for _, page := range []struct{ path, box string }{
		{"/new/salvo", "#my-name"},
		{"/replay", "#replay-link"},
	} {
		ann.Open(page.path)
		ann.Wait("the box "+page.box, `!!document.querySelector("`+page.box+`")`)
		for _, dark := range []bool{false, true} {
			ann.Theme(dark)
			got := e2e.Eval[[3]any](ann, fmt.Sprintf(`(e => { const p = getComputedStyle(e, "::placeholder").color, bg = getComputedStyle(e).backgroundColor; return [p, bg, %s(p, bg)]; })(document.querySelector(%q))`, e2e.Contrast, page.box))
			if ratio, _ := got[2].(float64); ratio < 4.5 {
				t.Errorf("%s, dark %v: the placeholder of %s is %v on %v, %.2f:1, want 4.5:1", page.path, dark, page.box, got[0], got[1], ratio)
			}
		}
		ann.Theme(false)
	}
}
