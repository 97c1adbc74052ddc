package games

import (
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"parlour/web/e2e"
)

// TestControlsKeepTheFocus presses, with the keyboard, controls whose
// press draws them anew: the focus stays on the control drawn in the
// pressed one's place, so that a player without a mouse goes on from
// there rather than from the top of the page.
func TestControlsKeepTheFocus(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	for _, tc := range []struct {
		what, open, press, done, focused string
	}{
		{"Salvo's cruiser chosen to place", "salvo",
			`#main [role=radiogroup] [role=radio]:nth-child(2)`,
			`document.querySelector("#main [role=radiogroup] [role=radio]:nth-child(2)").getAttribute("aria-checked") === "true"`,
			`document.activeElement === document.querySelector("#main [role=radiogroup] [role=radio]:nth-child(2)")`},
		{"a seat added on the new-table form", "/new/quizl",
			`#seats button:last-child`,
			`!!document.querySelector("#seat-3")`,
			`document.activeElement.closest("#seats") && document.activeElement.textContent === "Add a seat"`},
	} {
		t.Run(tc.what, func(t *testing.T) {
			t.Parallel()
			p := e2e.NewPlayer(t, b, "Ann", base)
			if tc.open == "salvo" {
				p.CreateTable("salvo", "The computer")
			} else {
				p.Open(tc.open)
			}
			p.Wait(tc.what, `!!document.querySelector(`+quote(tc.press)+`)`)
			p.Do("press Enter", chromedp.Focus(chromedp.CSS(tc.press)), chromedp.KeyEvent(kb.Enter))
			p.Wait(tc.what, tc.done)
			if !e2e.Eval[bool](p, `!!(`+tc.focused+`)`) {
				t.Errorf("after Enter the focus is on %s", e2e.Eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
			}
		})
	}
}

// quote writes s as a JavaScript string.
func quote(s string) string { return strconv.Quote(s) }
