package tables

import (
	"strconv"
	"strings"
	"testing"

	"parlour/web/e2e"
)

// TestGameOverAway: a game of Annie's that ends while her page is not
// its table's (Ben resigns it) is told on the page she is on, with how
// it went for her.
func TestGameOverAway(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Ann", base)
	p.SignUp("Annie", "correct horse battery")
	ann := annieAbdicates(t, base, p, `{}`)
	ben := ann.ben
	p.Open("/")
	// A seek made outside the page shows only through the player's
	// stream: once its banner is up, the stream is open.
	if b := postFrom(p, "/seeks", `{game: "quizl"}`); !strings.Contains(b, `"id"`) {
		t.Fatalf("seek: %s", b)
	}
	p.Wait("the stream's first news", `!!document.querySelector(".banner.seek")`)
	for _, mv := range []string{"defog", "resign"} {
		if st, body := e2e.API(t, base, "POST", "/tables/"+ann.Table+"/moves", ben.Token, map[string]any{"move": mv}); st != 200 {
			t.Fatalf("Ben's %s: %d %s", mv, st, body)
		}
	}
	want := "Your Nymphabet game " + ann.Table + " is over: you won."
	p.Wait("the news of the end", `(document.getElementById("toast")||{}).textContent === `+strconv.Quote(want))
}
