package tables

import (
	"fmt"
	"testing"

	"parlour/web/e2e"
)

// TestOutSeatOffersNoResign: a player of three who resigned is out of a
// game the others play on: their page offers them no Resign and no word
// of their turn, which the server would refuse; the players still in are
// offered both. A spectator waiting for the setups is not told that a
// setup of theirs is in.
func TestOutSeatOffersNoResign(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := newTable(t, base, "quizl", []string{"me", "open", "open"})
	toks := []string{ann.Token, join(t, base, ann.Table, "Ben"), join(t, base, ann.Table, "Cy")}

	cy := e2e.NewPlayer(t, b, "Cy", base)
	cy.Open("/t/" + ann.Table + "?watch=1")
	cy.Wait("the wait for the setups", `(document.querySelector("#stage .card p")||{}).textContent === "The game starts when every seat is taken and every setup is in."`)

	for i, tok := range toks {
		if st, body := e2e.API(t, base, "POST", "/tables/"+ann.Table+"/setup", tok, map[string]any{"auto": true}); st != 200 {
			t.Fatalf("setup %d: %d %s", i, st, body)
		}
	}
	// Each moves once, so that a resignation puts its player out rather
	// than abort the game.
	for i, m := range []string{"50", "61", "72"} {
		if st, body := e2e.API(t, base, "POST", "/tables/"+ann.Table+"/moves", toks[i], map[string]any{"move": m}); st != 200 {
			t.Fatalf("seat %d's call %s: %d %s", i, m, st, body)
		}
	}
	if st, body := e2e.API(t, base, "POST", "/tables/"+ann.Table+"/moves", toks[1], map[string]any{"move": "resign"}); st != 200 {
		t.Fatalf("Ben resigns: %d %s", st, body)
	}
	for seat, p := range []*e2e.Player{e2e.NewPlayer(t, b, "Ann", base), e2e.NewPlayer(t, b, "Ben", base)} {
		p.Open("/")
		e2e.Eval[bool](p, fmt.Sprintf(`(localStorage.setItem("parlour.seats", JSON.stringify({%q: {seat: %d, token: %q}})), true)`, ann.Table, seat, toks[seat]))
		p.Open("/t/" + ann.Table)
		p.Wait("the game", `!!document.querySelector("#tools #download") && !!document.querySelector("#turn")`)
		in := seat == 0
		if got := e2e.Eval[bool](p, `!!document.querySelector("#resign")`); got != in {
			t.Errorf("%s (in the game %v) is offered Resign: %v", p.Name, in, got)
		}
		if got := e2e.Eval[bool](p, `!!document.querySelector("#notify-sound")`); got != in {
			t.Errorf("%s (in the game %v) is offered word of their turn: %v", p.Name, in, got)
		}
	}
}

// TestHomeListsOpenTables: the home page's Open tables lists the tables
// waiting for a player, with who sits there, and says nobody is waiting
// only when nobody is.
func TestHomeListsOpenTables(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ben.Open("/")
	ben.Wait("nobody waiting", `(document.querySelector("#home-lobby")||{}).textContent === "Nobody is waiting for a player right now."`)
	made := newTable(t, base, "nymphabet", []string{"me", "open"})
	ben.Open("/")
	ben.Wait("Ann's table listed", fmt.Sprintf(`!!document.querySelector('#home-lobby a[href="/t/%s"]') && document.querySelector("#home-lobby").textContent.includes("with Ann")`, made.Table))
}
