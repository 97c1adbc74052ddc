package keyboard

import (
	"fmt"
	"testing"

	"parlour/web/e2e"
)

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
