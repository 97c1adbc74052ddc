package tables

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"parlour/web/e2e"
)

// quizlSetGame plays one Quizl game of a set to target through the API:
// Ann calls a square, Ben announces Ann's password at once (25 points),
// Ann resigns (0). It answers the table and Ann's token.
func quizlSetGame(t *testing.T, base string, target int) (string, string) {
	t.Helper()
	ann, ben := annAndBen(t, base, "quizl", map[string]any{"set_target": target})
	for _, tok := range []string{ann.Token, ben.Token} {
		if st, b := e2e.API(t, base, "POST", "/tables/"+ann.Table+"/setup", tok, map[string]any{"auto": true}); st != 200 {
			t.Fatalf("setup: %d %s", st, b)
		}
	}
	_, b := e2e.API(t, base, "GET", "/tables/"+ann.Table, ann.Token, nil)
	var u struct {
		Setup struct{ Password string } `json:"setup"`
	}
	json.Unmarshal(b, &u)
	for _, m := range []struct{ tok, move string }{{ann.Token, "72"}, {ben.Token, "say " + u.Setup.Password}, {ann.Token, "resign"}} {
		if st, b := e2e.API(t, base, "POST", "/tables/"+ann.Table+"/moves", m.tok, map[string]any{"move": m.move}); st != 200 {
			t.Fatalf("move %q: %d %s", m.move, st, b)
		}
	}
	return ann.Table, ann.Token
}

// TestSetEnds: at the end of a Quizl game that ends its set, the banner
// says who won the set and by how much, beside the game's result, and the
// rematch button offers a new set; while the set goes on it shows the
// totals and offers the set's next game. The new set starts from nothing.
func TestSetEnds(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Ann", base)
	p.Open("/")
	for _, c := range []struct {
		target       int
		set, rematch string
	}{
		{1, "Ben wins the set 25-0", "New set"},
		{40, "Set to 40, after 1 game: Ann 0, Ben 25. The next game carries the totals on.", "Next game of the set"},
	} {
		id, tok := quizlSetGame(t, base, c.target)
		e2e.Eval[bool](p, `(localStorage.setItem("parlour.seats", JSON.stringify({"`+id+`": {seat: 0, token: "`+tok+`"}})), true)`)
		p.Open("/t/" + id)
		p.Wait("the end", `!!document.querySelector("#game-over #set-result")`)
		if got := p.Text("#game-over h2"); !strings.Contains(got, "Ben won") {
			t.Errorf("target %d: the game's result reads %q", c.target, got)
		}
		if got := p.Text("#set-result"); got != c.set {
			t.Errorf("target %d: the set's result reads %q, want %q", c.target, got, c.set)
		}
		if got := p.Text("#rematch"); got != c.rematch {
			t.Errorf("target %d: the rematch button reads %q, want %q", c.target, got, c.rematch)
		}
		p.Shot(fmt.Sprintf("set-end-%d", c.target))
		if c.target == 1 {
			p.Accessible("the end of a set")
			p.Click("#rematch")
			p.Wait("the new set", `location.pathname !== "/t/`+id+`" && /Set to 1: Ben 0, Ann 0/.test(document.querySelector("#players").textContent)`)
		}
	}
}
