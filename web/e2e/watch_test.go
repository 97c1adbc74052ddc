package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// TestWatchLiveGame: Ann opens a Quizl table on the common-words list and
// Ben joins; both let the computer make their setups and play begins, and
// the table names its word list. Cy opens the lobby: its games to watch
// list the game, with nobody watching yet, and feature it; the game
// choice keeps one game's tables (the table's own page names its list
// before anyone sits down). Cy opens it as a spectator and sees
// neither password nor grid. Dee's lobby then counts one spectator.
func TestWatchLiveGame(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", srv.base)
	ben := newPlayer(t, b, "Ben", srv.base)

	ann.open("/new/salvo")
	ann.wait("the Salvo form", `!!document.querySelector("form button[type=submit]")`)
	if eval[bool](ann, `!!document.querySelector("#lexicon")`) {
		t.Error("the Salvo form offers a word list")
	}
	ann.open("/new/quizl")
	ann.wait("the word lists", `!!document.querySelector("#lexicon option[value=en-common]")`)
	if got := eval[string](ann, `document.querySelector("#lexicon").value`); got != "en" {
		t.Errorf("the word list chosen at first: %q, want the default, en", got)
	}
	eval[bool](ann, `(document.querySelector("#lexicon").value = "en-common", true)`)
	ann.clickText("#main form button", "A friend")
	ann.typeIn("#my-name", "Ann")
	ann.click("form button[type=submit]")
	ann.wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	id := strings.TrimPrefix(eval[string](ann, `location.pathname`), "/t/")
	ben.join(ann.inviteLink())
	for _, p := range []*player{ann, ben} {
		p.wait("the grid editor", `!!document.querySelector("#q-auto")`)
		p.click("#q-auto")
	}
	annGrid, annPw := ann.quizlGrid()
	benGrid, benPw := ben.quizlGrid()
	ann.waitTurn(true)
	ben.waitTurn(false)
	for _, p := range []*player{ann, ben} {
		p.wait("the word list named", `!!document.querySelector("#lexicon")`)
		if got := p.text("#lexicon"); got != "Word list: English, common words (en-common)" {
			t.Errorf("%s's table names its word list %q", p.name, got)
		}
	}

	cy := newPlayer(t, b, "Cy", srv.base)
	// The table's own page names the list before anyone sits down.
	cy.open("/t/" + id)
	cy.wait("the join screen's word list", `!!document.querySelector("#join-lexicon:not([hidden])")`)
	if got := cy.text("#join-lexicon"); got != "Word list: English, common words (en-common)" {
		t.Errorf("the join screen names the word list %q", got)
	}
	cy.open("/lobby")
	row := fmt.Sprintf(`#watch-list tr[data-table=%q]`, id)
	cy.wait("the game to watch", fmt.Sprintf(`!!document.querySelector(%q)`, row))
	if got := cy.text(row + " .spectators"); got != "nobody watching yet" {
		t.Errorf("the game's spectators before Cy watches: %q", got)
	}
	if got := cy.text(row); !strings.Contains(got, "Ann (guest) v Ben (guest)") {
		t.Errorf("the game's row: %q", got)
	}
	cy.wait("the featured game", fmt.Sprintf(`(document.querySelector("#watch-featured-link")||{}).pathname === "/t/%s"`, id))
	eval[bool](cy, `(s => (s.value = "salvo", s.dispatchEvent(new Event("change")), true))(document.querySelector("#watch-game"))`)
	cy.wait("no Salvo game", `document.querySelector("#watch-list").textContent === "No Salvo game is being played just now."`)
	eval[bool](cy, `(s => (s.value = "quizl", s.dispatchEvent(new Event("change")), true))(document.querySelector("#watch-game"))`)
	cy.wait("the Quizl game", fmt.Sprintf(`!!document.querySelector(%q)`, row))
	cy.click(row + " a")
	cy.wait("the table, watched", `location.pathname === "/t/`+id+`" && !!document.querySelector("#turn") && document.querySelector("#turn").textContent.startsWith("Watching")`)
	cy.wait("the word list named", `!!document.querySelector("#lexicon")`)
	if eval[bool](cy, `!!document.querySelector("#resign")`) {
		t.Error("the spectator is offered a resignation")
	}
	secrets := []string{`"` + annPw + `"`, "say " + annPw, `"` + benPw + `"`, "say " + benPw}
	for _, g := range []map[string]string{annGrid, benGrid} {
		for r := 5; r <= 9; r++ {
			line := ""
			for c := 0; c <= 4; c++ {
				line += g[fmt.Sprintf("%d%d", r, c)]
			}
			secrets = append(secrets, line)
		}
	}
	cy.noSecrets("watching the game", secrets...)

	dee := newPlayer(t, b, "Dee", srv.base)
	dee.open("/lobby")
	dee.wait("the game to watch", fmt.Sprintf(`!!document.querySelector(%q)`, row))
	if got := dee.text(row + " .spectators"); got != "1 watching" {
		t.Errorf("the game's spectators while Cy watches: %q, want 1 watching", got)
	}
	if got := dee.text("#watch-featured"); !strings.Contains(got, "1 watching") {
		t.Errorf("the featured game while Cy watches: %q", got)
	}
	dee.shot("watch-list")
	for _, dark := range []bool{false, true} {
		dee.theme(dark)
		dee.accessible(fmt.Sprintf("the games to watch (dark %v)", dark))
	}
	dee.labelled("the games to watch")
}

// TestChallengeWordList: Ann challenges Ben to Nymphabet on the
// common-words list from his profile; his banner names the list, and the
// table his acceptance opens names it to both. The form offers no list
// for Salvo, whose words are no part of the game.
func TestChallengeWordList(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", base)
	ben := newPlayer(t, b, "Ben", base)
	ann.signUp("Ann", "correct horse battery")
	ben.signUp("Ben", "another fine phrase")
	ben.open("/players/Ben")
	ann.open("/players/Ben")
	ann.wait("the Challenge button", `!!document.querySelector("#profile-actions .challenge-open")`)
	ann.click("#profile-actions .challenge-open")
	ann.wait("the word lists", `!!document.querySelector("#challenge-lexicon option[value=en-common]")`)
	eval[bool](ann, `(s => { s.value = "salvo"; s.dispatchEvent(new Event("change")); return true; })(document.querySelector("#challenge-game"))`)
	if eval[bool](ann, `!!document.querySelector("#challenge-lexicon").offsetParent`) {
		t.Error("the challenge form offers a word list for Salvo")
	}
	eval[bool](ann, `(s => { s.value = "nymphabet"; s.dispatchEvent(new Event("change")); return true; })(document.querySelector("#challenge-game"))`)
	eval[bool](ann, `(document.querySelector("#challenge-lexicon").value = "en-common", true)`)
	ann.click("#challenge-send")
	ben.wait("the challenge", `!!document.querySelector(".banner.challenge[data-dir=in] .challenge-accept")`)
	if got := ben.text(".banner.challenge[data-dir=in]"); !strings.Contains(got, "Ann challenges you to Nymphabet on the en-common word list") {
		t.Errorf("Ben's banner reads %q", got)
	}
	ben.click(".banner.challenge[data-dir=in] .challenge-accept")
	for _, p := range []*player{ben, ann} {
		p.wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#lexicon")`)
		// The page names the list by its key at once, and by its title
		// once the lists are read.
		p.wait("the word list's title", `document.querySelector("#lexicon").textContent.includes("(")`)
		if got := p.text("#lexicon"); got != "Word list: English, common words (en-common)" {
			t.Errorf("%s's table names its word list %q", p.name, got)
		}
	}
}
