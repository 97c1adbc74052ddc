package tables

import (
	"testing"

	"parlour/web/e2e"
)

// TestRulesOptionsOnAPhone: on a phone each game's table of rule options
// reads without sideways scrolling, every cell of it inside the table:
// squeezed into a fourth column, the meanings ran past the screen's edge.
func TestRulesOptionsOnAPhone(t *testing.T) {
	t.Parallel()
	srv := e2e.NewTestServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", srv.Base)
	ann.Phone(false)
	for _, game := range []string{"quizl", "salvo", "wordfight"} {
		ann.Open("/rules/" + game)
		ann.Wait("the table of options", `!!document.querySelector("article.doc table.options")`)
		over := e2e.Eval[[]string](ann, `(() => {
			const tb = document.querySelector("article.doc table.options"), edge = tb.getBoundingClientRect().right + 1;
			const out = [...tb.querySelectorAll("th, td")].filter(c => c.getBoundingClientRect().right > edge || c.scrollWidth > c.clientWidth + 1).map(c => c.textContent.slice(0, 30));
			if (tb.scrollWidth > tb.clientWidth + 1) out.push("the table scrolls sideways");
			return out;
		})()`)
		if len(over) > 0 {
			t.Errorf("/rules/%s on a phone: cells past the table's edge or cut: %q", game, over)
		}
		ann.FitsWidth("/rules/" + game)
	}
}
