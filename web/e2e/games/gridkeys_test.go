package games

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"parlour/web/e2e"
)

// focusedNow says where the keyboard's focus is, for a test's failure.
const focusedNow = `(a => a === document.body ? "the page's body" : a.outerHTML.slice(0, 80))(document.activeElement)`

// TestGridKeepsItsTabStop moves about the other player's grid with the
// arrow keys, goes to the move box, and has a chat line from the other
// player redraw the table: the grid's one stop of the Tab key stays on
// the square Ann left, so that Shift+Tab back into the grid finds her
// where she was, not at its first square.
func TestGridKeepsItsTabStop(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	for _, tc := range []struct {
		game, auto, from, want, box string
	}{
		{"quizl", "#q-auto", "50", "61", "#q-call"},
		{"salvo", "#s-submit + button", "A1", "B2", "#s-fire"},
	} {
		t.Run(tc.game, func(t *testing.T) {
			t.Parallel()
			ann := e2e.NewPlayer(t, b, "Ann", base)
			ben := e2e.NewPlayer(t, b, "Ben", base)
			ann.CreateTable(tc.game, "A friend")
			ben.Join(ann.InviteLink())
			for _, p := range []*e2e.Player{ann, ben} {
				p.Wait("the setup", `!!document.querySelector(`+quote(tc.auto)+`)`)
				p.Click(tc.auto)
			}
			ann.WaitTurn(true)
			from := `[data-board="1"] [data-sq="` + tc.from + `"]`
			ann.Wait("Ben's grid", `!!document.querySelector(`+quote(from)+`)`)
			ann.Do("move about Ben's grid", chromedp.Focus(chromedp.CSS(from)), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowDown))
			if got := e2e.Eval[string](ann, `document.activeElement.dataset.sq || ""`); got != tc.want {
				t.Fatalf("after the arrow keys the keyboard is on %s", e2e.Eval[string](ann, focusedNow))
			}
			ann.Do("go to the move box", chromedp.Focus(chromedp.CSS(tc.box)))
			ben.TypeIn("#chat-text", "good luck")
			ben.Click("#chat-send")
			ann.Wait("Ben's chat line", `document.querySelector("#chat-log").textContent.includes("good luck")`)
			if got := e2e.Eval[string](ann, `(e => e ? e.dataset.sq : "none")(document.querySelector('[data-board="1"] [data-sq][tabindex="0"]'))`); got != tc.want {
				t.Errorf("after the chat line the Tab stop of Ben's grid is on %s, not %s where Ann left it", got, tc.want)
			}
			ann.Do("back into Ben's grid", chromedp.Focus(chromedp.CSS(`[data-board="own"] [data-sq][tabindex="0"]`)), chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)))
			if got := e2e.Eval[string](ann, `document.activeElement.closest("[data-board]") ? document.activeElement.closest("[data-board]").dataset.board + " " + document.activeElement.dataset.sq : ""`); got != "1 "+tc.want {
				t.Errorf("Shift+Tab back into Ben's grid goes to %s", e2e.Eval[string](ann, focusedNow))
			}
		})
	}
}
