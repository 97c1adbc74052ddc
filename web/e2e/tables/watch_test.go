package tables

import (
	"fmt"
	"strings"
	"testing"

	"parlour/web/e2e"
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
	srv := e2e.NewTestServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", srv.Base)
	ben := e2e.NewPlayer(t, b, "Ben", srv.Base)

	ann.Open("/new/salvo")
	ann.Wait("the Salvo form", `!!document.querySelector("form button[type=submit]")`)
	if e2e.Eval[bool](ann, `!!document.querySelector("#lexicon")`) {
		t.Error("the Salvo form offers a word list")
	}
	ann.Open("/new/quizl")
	ann.Wait("the word lists", `!!document.querySelector("#lexicon option[value=en-common]")`)
	if got := e2e.Eval[string](ann, `document.querySelector("#lexicon").value`); got != "en" {
		t.Errorf("the word list chosen at first: %q, want the default, en", got)
	}
	e2e.Eval[bool](ann, `(document.querySelector("#lexicon").value = "en-common", true)`)
	ann.ClickText("#main form button", "A friend")
	ann.TypeIn("#my-name", "Ann")
	ann.Click("form button[type=submit]")
	ann.Wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	id := strings.TrimPrefix(e2e.Eval[string](ann, `location.pathname`), "/t/")
	ben.Join(ann.InviteLink())
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("the grid editor", `!!document.querySelector("#q-auto")`)
		p.Click("#q-auto")
	}
	annGrid, annPw := ann.QuizlGrid()
	benGrid, benPw := ben.QuizlGrid()
	ann.WaitTurn(true)
	ben.WaitTurn(false)
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("the word list named", `!!document.querySelector("#lexicon")`)
		if got := p.Text("#lexicon"); got != "Word list: English, common words (en-common)" {
			t.Errorf("%s's table names its word list %q", p.Name, got)
		}
	}

	cy := e2e.NewPlayer(t, b, "Cy", srv.Base)
	// The table's own page names the list before anyone sits down.
	cy.Open("/t/" + id)
	cy.Wait("the join screen's word list", `!!document.querySelector("#join-lexicon:not([hidden])")`)
	if got := cy.Text("#join-lexicon"); got != "Word list: English, common words (en-common)" {
		t.Errorf("the join screen names the word list %q", got)
	}
	cy.Open("/lobby")
	row := fmt.Sprintf(`#watch-list tr[data-table=%q]`, id)
	cy.Wait("the game to watch", fmt.Sprintf(`!!document.querySelector(%q)`, row))
	if got := cy.Text(row + " .spectators"); got != "nobody watching yet" {
		t.Errorf("the game's spectators before Cy watches: %q", got)
	}
	if got := cy.Text(row); !strings.Contains(got, "Ann (guest) v Ben (guest)") {
		t.Errorf("the game's row: %q", got)
	}
	cy.Wait("the featured game", fmt.Sprintf(`(document.querySelector("#watch-featured-link")||{}).pathname === "/t/%s"`, id))
	e2e.Eval[bool](cy, `(s => (s.value = "salvo", s.dispatchEvent(new Event("change")), true))(document.querySelector("#watch-game"))`)
	cy.Wait("no Salvo game", `document.querySelector("#watch-list").textContent === "No Salvo game is being played just now."`)
	e2e.Eval[bool](cy, `(s => (s.value = "quizl", s.dispatchEvent(new Event("change")), true))(document.querySelector("#watch-game"))`)
	cy.Wait("the Quizl game", fmt.Sprintf(`!!document.querySelector(%q)`, row))
	cy.Click(row + " a")
	cy.Wait("the table, watched", `location.pathname === "/t/`+id+`" && !!document.querySelector("#turn") && document.querySelector("#turn").textContent.startsWith("Watching")`)
	cy.Wait("the word list named", `!!document.querySelector("#lexicon")`)
	if e2e.Eval[bool](cy, `!!document.querySelector("#resign")`) {
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
	cy.NoSecrets("watching the game", secrets...)

	dee := e2e.NewPlayer(t, b, "Dee", srv.Base)
	dee.Open("/lobby")
	dee.Wait("the game to watch", fmt.Sprintf(`!!document.querySelector(%q)`, row))
	if got := dee.Text(row + " .spectators"); got != "1 watching" {
		t.Errorf("the game's spectators while Cy watches: %q, want 1 watching", got)
	}
	if got := dee.Text("#watch-featured"); !strings.Contains(got, "1 watching") {
		t.Errorf("the featured game while Cy watches: %q", got)
	}
	dee.Shot("watch-list")
	for _, dark := range []bool{false, true} {
		dee.Theme(dark)
		dee.Accessible(fmt.Sprintf("the games to watch (dark %v)", dark))
	}
	dee.Labelled("the games to watch")
}

// TestChallengeWordList: Ann challenges Ben to Nymphabet on the
// common-words list from his profile; his banner names the list, and the
// table his acceptance opens names it to both. The form offers no list
// for Salvo, whose words are no part of the game.
func TestChallengeWordList(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.SignUp("Ann", "correct horse battery")
	ben.SignUp("Ben", "another fine phrase")
	ben.Open("/players/Ben")
	ann.Open("/players/Ben")
	ann.Wait("the Challenge button", `!!document.querySelector("#profile-actions .challenge-open")`)
	ann.Click("#profile-actions .challenge-open")
	ann.Wait("the word lists", `!!document.querySelector("#challenge-lexicon option[value=en-common]")`)
	e2e.Eval[bool](ann, `(s => { s.value = "salvo"; s.dispatchEvent(new Event("change")); return true; })(document.querySelector("#challenge-game"))`)
	if e2e.Eval[bool](ann, `!!document.querySelector("#challenge-lexicon").offsetParent`) {
		t.Error("the challenge form offers a word list for Salvo")
	}
	e2e.Eval[bool](ann, `(s => { s.value = "nymphabet"; s.dispatchEvent(new Event("change")); return true; })(document.querySelector("#challenge-game"))`)
	e2e.Eval[bool](ann, `(document.querySelector("#challenge-lexicon").value = "en-common", true)`)
	ann.Click("#challenge-send")
	ben.Wait("the challenge", `!!document.querySelector(".banner.challenge[data-dir=in] .challenge-accept")`)
	if got := ben.Text(".banner.challenge[data-dir=in]"); !strings.Contains(got, "Ann challenges you to Nymphabet on the en-common word list") {
		t.Errorf("Ben's banner reads %q", got)
	}
	ben.Click(".banner.challenge[data-dir=in] .challenge-accept")
	for _, p := range []*e2e.Player{ben, ann} {
		p.Wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#lexicon")`)
		// The page names the list by its key at once, and by its title
		// once the lists are read.
		p.Wait("the word list's title", `document.querySelector("#lexicon").textContent.includes("(")`)
		if got := p.Text("#lexicon"); got != "Word list: English, common words (en-common)" {
			t.Errorf("%s's table names its word list %q", p.Name, got)
		}
	}
}

// TestLobbyOnAPhone: on a phone, the lobby's games to watch, long game
// titles and names among them, fit the screen: the page needs no sideways
// scrolling, nor does the list's own frame.
func TestLobbyOnAPhone(t *testing.T) {
	t.Parallel()
	srv := e2e.NewTestServer(t)
	for _, g := range []string{"wordfight", "nymphabet"} {
		if st, b := e2e.API(t, srv.Base, "POST", "/tables", "", map[string]any{"game": g, "seats": []string{"me", "computer:easy"}, "name": "Bartholomew"}); st != 201 {
			t.Fatalf("a %s table: %d %s", g, st, b)
		}
	}
	b := e2e.NewBrowser(t)
	cy := e2e.NewPlayer(t, b, "Cy", srv.Base)
	cy.Phone(false)
	cy.Open("/lobby")
	cy.Wait("the games to watch", `document.querySelectorAll("#watch-list tr[data-table]").length === 2`)
	cy.FitsWidth("the lobby's games to watch")
	// A computer's level is said in brackets, so that a list of seats
	// reads as one name a seat.
	if got := cy.Text("#watch-list tr[data-table]"); !strings.Contains(got, "Bartholomew (guest) v the computer (easy)") {
		t.Errorf("the game's row: %q", got)
	}
	if w := e2e.Eval[string](cy, `(f => f.scrollWidth > f.clientWidth ? f.scrollWidth + " in " + f.clientWidth : "")(document.querySelector("#watch-list .table-frame"))`); w != "" {
		t.Errorf("the games to watch scroll sideways on a phone: %s pixels", w)
	}
}

// TestFinishedGameOpenedLater: a game over, opened afresh by somebody
// who did not see it end, says who resigned (from its last move, asked
// for once), shows the end once rather than in a strip above the banner
// too, and says how many letters were left.
func TestFinishedGameOpenedLater(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	id := finishedTable(t, base, "nymphabet", []string{"me", "open"}, "0", "abdicate", "1", "defog", "0", "hijack", "1", "resign")
	cy := e2e.NewPlayer(t, b, "Cy", base)
	cy.Phone(false)
	cy.Open("/t/" + id)
	cy.Wait("who resigned", `(document.querySelector("#end-reason")||{}).textContent === "Ben resigned."`)
	if got := cy.Text("#game-over h2"); got != "Game over: Ann won" {
		t.Errorf("the banner's heading: %q", got)
	}
	if h := e2e.Eval[int](cy, `Math.round(document.querySelector(".status").getBoundingClientRect().height)`); h > 1 {
		t.Errorf("the turn strip shows above the banner, %d pixels high", h)
	}
	if got, want := cy.Text("#n-current"), "15 letters left when the game ended."; got != want {
		t.Errorf("the alphabet says %q, want %q", got, want)
	}
	cy.FitsWidth("the finished game on a phone")
}
