package tournaments

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"parlour/web/e2e"
)

// TestTournamentStandingsByKeyboard finds the player's own line in an
// event's standings by its words, and picks a player with the keyboard: the standings are drawn anew with the
// player's games, and the focus stays on the player's button, so that
// Enter again, or the next Tab, goes on from there rather than from the
// top of the page.
func TestTournamentStandingsByKeyboard(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.SignUp("Ann", "correct horse battery")
	ann.Open("/tournaments")
	ann.Wait("the form", `!!document.querySelector("#t-create-form") && document.querySelectorAll("#t-game option").length > 0`)
	ann.Pick("#t-clock", `{"kind":"fischer","initial":180,"increment":2}`)
	ann.Click("#t-create-form button[type=submit]")
	ann.Wait("the event's page", `!!document.querySelector("#t-join")`)
	ann.Click("#t-join")
	pick := `#t-standings tr[data-player=Ann] .player-pick`
	ann.Wait("Ann in the standings", `!!document.querySelector("`+pick+`")`)
	// The player's own line is bold, and says so in words too.
	if got := ann.Text("#t-standings tr[data-player=Ann] td:nth-child(2)"); !strings.Contains(got, "(you)") {
		t.Errorf("Ann's own line in the standings reads %q: nothing says it is hers but its bold type", got)
	}
	for _, want := range []string{"true", "false"} {
		ann.Do("press Enter on Ann", chromedp.Focus(chromedp.CSS(pick)), chromedp.KeyEvent(kb.Enter))
		ann.Wait("Ann picked or not", `document.querySelector("`+pick+`").getAttribute("aria-pressed") === "`+want+`"`)
		if !e2e.Eval[bool](ann, `document.activeElement === document.querySelector("`+pick+`")`) {
			t.Errorf("after Enter on Ann's name (pressed %s) the focus is on %s", want, e2e.Eval[string](ann, `document.activeElement.outerHTML.slice(0, 80)`))
		}
	}
}
