package daily

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"parlour/game"
	"parlour/games"
	"parlour/lexicon"
	"parlour/server"
	"parlour/web/e2e"
)

// TestDailyPage plays today's daily Quizl in the browser as a guest: the
// home page's entry, the daily page's play button, the table, then back
// on the daily page the result, the share text with no letter of the
// grid, the copy button, the streak and the leaderboards; a second
// attempt is refused with the first result.
func TestDailyPage(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Ann", base)
	p.Open("/")
	p.Wait("the home page's daily entry", `!!document.querySelector("#home-daily-quizl")`)
	p.Click("#home-daily-quizl")
	p.Wait("the daily page", `!!document.querySelector("#daily-play")`)
	if got := p.Text("#daily-streak"); got != "Your streak: 0 days" {
		t.Errorf("the streak reads %q", got)
	}
	p.Accessible("the daily page before playing")
	p.Click("#daily-play")
	p.Wait("the daily table", `location.pathname.startsWith("/t/") && !!document.querySelector(".quizl, #board, main h1")`)
	id := e2e.Eval[string](p, `location.pathname.slice(3)`)
	tok := e2e.Eval[string](p, `JSON.parse(localStorage.getItem("parlour.seats"))["`+id+`"].token`)
	// Another visitor who follows the table's link during the attempt is
	// told it is hidden until the day ends, not offered a seat.
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ben.Open("/t/" + id)
	ben.Wait("the hidden table", `!!document.querySelector("#table-hidden")`)
	if got := ben.Text("#table-hidden"); !strings.Contains(got, "daily") || !strings.Contains(got, "midnight UTC") {
		t.Errorf("the hidden table says %q", got)
	}
	if n := e2e.Eval[int](ben, `document.querySelectorAll("#join-name, button[type=submit]").length`); n != 0 {
		t.Errorf("the hidden table offers a seat: %d fields and buttons", n)
	}
	for _, m := range []string{"50", "51", "resign"} {
		if st, b := e2e.API(t, base, "POST", "/tables/"+id+"/moves", tok, map[string]any{"move": m}); st != 200 {
			t.Fatalf("move %s: %d %s", m, st, b)
		}
	}
	var rec struct {
		Setup map[string]struct{ Grid []string } `json:"setup"`
	}
	if st, b := e2e.API(t, base, "GET", "/tables/"+id+"/record", tok, nil); st == 200 {
		json.Unmarshal(b, &rec)
	}
	p.Wait("the end screen's way back", `!!document.querySelector("#daily-back")`)
	// One attempt: no set goes on from it, and the other button deals an
	// ordinary game rather than offering a rematch.
	if got := p.Text("#rematch"); got != "New game" {
		t.Errorf("the daily's end offers %q, want New game", got)
	}
	if e2e.Eval[bool](p, `!!document.querySelector("#set-result")`) {
		t.Errorf("the daily's end shows a set: %s", p.Text("#set-result"))
	}
	if got := p.Text("#daily-hidden"); !strings.HasPrefix(got, "The hidden grid, the record and the analysis open") {
		t.Errorf("the daily's end says %q of its answer", got)
	}
	// What opens only when the day ends is not offered before.
	if got := e2e.Eval[[]string](p, `[...document.querySelectorAll('#game-over a[href^="/replay"], #download')].map(e => e.textContent)`); len(got) != 0 {
		t.Errorf("the daily's end offers %q before the day ends", got)
	}
	p.Click("#daily-back")
	p.Wait("the result", `!!document.querySelector("#daily-share")`)
	share := p.Text("#daily-share")
	// The two calls' outcomes, a symbol each, and no picture of the
	// squares called: it would point at the answer.
	lines := strings.Split(share, "\n")
	if !strings.Contains(share, "not solved: 2 calls, 0 wrong announcements") || len(lines) != 3 ||
		utf8.RuneCountInString(lines[2]) != 2 || strings.Trim(lines[2], "■□") != "" {
		t.Errorf("the share text:\n%s", share)
	}
	for _, s := range rec.Setup {
		for _, row := range s.Grid {
			if strings.Contains(share, row) {
				t.Errorf("the share text holds the grid's row %s", row)
			}
		}
	}
	if got := p.Text("#daily-result"); !strings.Contains(got, "not ranked") {
		t.Errorf("a guest's result reads %q", got)
	}
	if n := e2e.Eval[int](p, `document.querySelectorAll("#daily-copy").length`); n != 1 {
		t.Errorf("%d copy buttons", n)
	}
	p.Wait("the leaderboards", `document.querySelectorAll("#daily-board h2, #daily-yesterday h2").length === 2`)
	p.Accessible("the daily page with a result")
	p.Shot("daily-quizl")
	if st, b := e2e.API(t, base, "POST", "/daily/quizl", e2e.Eval[string](p, `JSON.parse(localStorage.getItem("parlour.identity")).token`), nil); st != 409 || !strings.Contains(string(b), `"moves":2`) {
		t.Errorf("a second attempt: %d %s", st, b)
	}
}

// TestDailyAccount plays today's daily Salvo signed in: the attempt is
// ranked on today's leaderboard, and the page lists the account's daily
// history (the section the profile page shows too).
func TestDailyAccount(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Ann", base)
	p.Open("/daily")
	p.Wait("the daily puzzles", `!!document.querySelector("#daily-salvo")`)
	if st := e2e.Eval[int](p, `fetch("/api/v1/accounts", {method: "POST", credentials: "same-origin", headers: {"Content-Type": "application/json"},
		body: JSON.stringify({name: "Ann", password: "correct horse battery"})}).then(r => r.status)`); st != 201 {
		t.Fatalf("sign up: %d", st)
	}
	p.Click("#daily-salvo")
	p.Wait("the daily page", `!!document.querySelector("#daily-play")`)
	p.Click("#daily-play")
	p.Wait("the daily table", `location.pathname.startsWith("/t/")`)
	id := e2e.Eval[string](p, `location.pathname.slice(3)`)
	tok := e2e.Eval[string](p, `JSON.parse(localStorage.getItem("parlour.seats"))["`+id+`"].token`)
	for _, m := range []string{"fire A1 C3 E5 G7 I9", "fire B2 D4 F6 H8 J10", "resign"} {
		if st, b := e2e.API(t, base, "POST", "/tables/"+id+"/moves", tok, map[string]any{"move": m}); st != 200 {
			t.Fatalf("move %s: %d %s", m, st, b)
		}
	}
	p.Wait("the end screen's way back", `!!document.querySelector("#daily-back")`)
	// The fleet stays hidden until the day ends, and the end says nothing
	// else: the ocean is the one Ann fired at, not the computer's fleet.
	if got := p.Text("#end-reason"); got != "You resigned after 2 salvos." {
		t.Errorf("the daily's end says %q", got)
	}
	if got := p.Text(`[data-board="1"] h3`); got != "Your shots at the computer" {
		t.Errorf("the daily's ocean at the end is headed %q", got)
	}
	if n := e2e.Eval[int](p, `document.querySelectorAll('[data-board="1"] .cell.ship').length`); n != 0 {
		t.Errorf("the daily's end shows %d squares of the computer's fleet", n)
	}
	p.Click("#daily-back")
	p.Wait("the result", `!!document.querySelector("#daily-share") && !!document.querySelector("#daily-board table") && !!document.querySelector(".daily-streak[data-game=salvo]")`)
	// A row a salvo, a symbol a shot.
	if got := p.Text("#daily-share"); !strings.Contains(got, "not solved: 2 salvos, 0 wrong outlines") ||
		strings.Count(got, "\n") != 3 || strings.Count(got, "■")+strings.Count(got, "□") != 10 {
		t.Errorf("the share text:\n%s", got)
	}
	if got := p.Text("#daily-board"); !strings.Contains(got, "Ann") {
		t.Errorf("today's leaderboard: %q", got)
	}
	// As on the ratings' leaderboards, a name leads to its player's page.
	if n := e2e.Eval[int](p, `document.querySelectorAll('#daily-board td a[href="/players/Ann"]').length`); n != 1 {
		t.Errorf("today's leaderboard links Ann's name to her page %d times", n)
	}
	if got := p.Text(".daily-streak[data-game=salvo]"); got != "Streak 0 · longest 0 · solved 0 of 1" {
		t.Errorf("the daily history's streak: %q", got)
	}
	p.Accessible("the daily page signed in")
	p.Shot("daily-salvo")

	// The profile shows the same daily history.
	p.Open("/players/Ann")
	p.Wait("the profile's daily section", `!!document.querySelector("#daily-profile .daily-streak[data-game=salvo]")`)
	if got := p.Text("#daily-profile .daily-streak[data-game=salvo]"); got != "Streak 0 · longest 0 · solved 0 of 1" {
		t.Errorf("the profile's daily streak: %q", got)
	}
	// A puzzle never played says so, with no streak of noughts.
	if e2e.Eval[bool](p, `!!document.querySelector("#daily-profile .daily-streak[data-game=quizl]")`) || !strings.Contains(p.Text("#daily-profile"), "Daily Quizl\n\nNot played yet.") {
		t.Errorf("the profile's daily section, Quizl never played: %q", p.Text("#daily-profile"))
	}
	// Its list of games names the attempt a daily one.
	p.Wait("the profile's games", `!!document.querySelector("#games li strong")`)
	if got := p.Text("#games li"); !strings.HasPrefix(got, "Lost Daily Salvo, alone") {
		t.Errorf("the profile lists the daily game as %q", got)
	}
}

// TestDailyStartedElsewhere: Ann's daily page still offers the play
// button when her attempt was started meanwhile (in another tab, on
// another device). Pressing it says she has played, and the page then
// leads back to that game, with the keyboard's focus on the way back,
// rather than leaving a button that can only be refused again.
func TestDailyStartedElsewhere(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Ann", base)
	p.Open("/daily/quizl")
	p.Wait("the play button", `!!document.querySelector("#daily-play")`)
	id := e2e.Eval[string](p, `JSON.parse(localStorage.getItem("parlour.identity")).token`)
	st, body := e2e.API(t, base, "POST", "/daily/quizl", id, nil)
	if st != 201 {
		t.Fatalf("starting the attempt in another tab: %d %s", st, body)
	}
	var s struct{ Table string }
	if err := json.Unmarshal(body, &s); err != nil {
		t.Fatal(err)
	}
	p.Click("#daily-play")
	p.Wait("the refusal", `document.querySelector("main .error").textContent !== ""`)
	if got := p.Text("main .error"); !strings.Contains(got, "one attempt a day") {
		t.Errorf("the refusal says %q", got)
	}
	p.Wait("the way back to the game", `!!document.querySelector('#daily-today a[href="/t/`+s.Table+`"]')`)
	if n := e2e.Eval[int](p, `document.querySelectorAll("#daily-play").length`); n != 0 {
		t.Errorf("the refused play button is still offered")
	}
	if got := e2e.Eval[string](p, `document.activeElement.getAttribute("href") || document.activeElement.tagName`); got != "/t/"+s.Table {
		t.Errorf("the keyboard's focus is on %q, not the way back to the game", got)
	}
}

// TestDailyPhone: on a phone, the daily Salvo page of a player with a
// long name fits the screen, its leaderboards and its share text
// included, today and, once the day is over, yesterday's with its
// Game column; the history counts one salvo as one.
func TestDailyPhone(t *testing.T) {
	t.Parallel()
	clk := &e2e.JumpClock{}
	srv := e2e.NewConfiguredServer(t, func(c *server.Config) { c.Clock = clk })
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Ann", srv.Base)
	const name = "Annabelle_Longbottom"
	p.SignUp(name, "correct horse battery")
	p.Open("/daily/salvo")
	p.Wait("the daily page", `!!document.querySelector("#daily-play")`)
	p.Click("#daily-play")
	p.Wait("the daily table", `location.pathname.startsWith("/t/")`)
	id := e2e.Eval[string](p, `location.pathname.slice(3)`)
	tok := e2e.Eval[string](p, `JSON.parse(localStorage.getItem("parlour.seats"))["`+id+`"].token`)
	for _, m := range []string{"fire A1 C3 E5 G7 I9", "resign"} {
		if st, b := e2e.API(t, srv.Base, "POST", "/tables/"+id+"/moves", tok, map[string]any{"move": m}); st != 200 {
			t.Fatalf("move %s: %d %s", m, st, b)
		}
	}
	p.Phone(false)
	p.Open("/daily/salvo")
	p.Wait("the result and the leaderboard", `!!document.querySelector("#daily-share") && !!document.querySelector("#daily-board table") && !!document.querySelector(".daily-history li")`)
	p.FitsWidth("the daily page with a result")
	if w := e2e.Eval[[]int](p, `(e => [e.scrollWidth, e.clientWidth])(document.querySelector("#daily-share"))`); w[0] > w[1] {
		t.Errorf("the share text is %d pixels wide in a box of %d", w[0], w[1])
	}
	if got := p.Text(".daily-history li"); !strings.Contains(got, "not solved, 1 salvo, 0 wrong") {
		t.Errorf("the history says %q", got)
	}
	p.Accessible("the daily page with a result on a phone")
	clk.JumpToTomorrow()
	p.Open("/daily/salvo")
	p.Wait("yesterday's leaderboard", `!!document.querySelector("#daily-yesterday table a[href^='/replay']")`)
	p.FitsWidth("the daily page the day after")
	p.Accessible("the daily page the day after on a phone")
}

// TestDailyTableNextDay: once the day is over, an attempt's table is a
// finished game like any other, and its way to the daily page says
// where it leads, today's puzzle, both to the attempt's player and to
// a visitor, not "your result", which is no longer there.
func TestDailyTableNextDay(t *testing.T) {
	t.Parallel()
	clk := &e2e.JumpClock{}
	srv := e2e.NewConfiguredServer(t, func(c *server.Config) { c.Clock = clk })
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Ann", srv.Base)
	p.Open("/daily/quizl")
	p.Wait("the daily page", `!!document.querySelector("#daily-play")`)
	p.Click("#daily-play")
	p.Wait("the daily table", `location.pathname.startsWith("/t/")`)
	id := e2e.Eval[string](p, `location.pathname.slice(3)`)
	tok := e2e.Eval[string](p, `JSON.parse(localStorage.getItem("parlour.seats"))["`+id+`"].token`)
	if st, b := e2e.API(t, srv.Base, "POST", "/tables/"+id+"/moves", tok, map[string]any{"move": "resign"}); st != 200 {
		t.Fatalf("resign: %d %s", st, b)
	}
	p.Wait("the end screen's way back", `!!document.querySelector("#daily-back")`)
	if got := p.Text("#daily-back"); got != "Your daily result and share text" {
		t.Errorf("during the day the end screen's way back reads %q", got)
	}
	clk.JumpToTomorrow()
	ben := e2e.NewPlayer(t, b, "Ben", srv.Base)
	for _, v := range []*e2e.Player{p, ben} {
		v.Open("/t/" + id)
		v.Wait("the game's replay", `!!document.querySelector("#replay-game") && !!document.querySelector("#daily-back")`)
		if got := v.Text("#daily-back"); got != "Today's daily Quizl" {
			t.Errorf("%s: the day after, the way to the daily page reads %q", v.Name, got)
		}
		v.Click("#daily-back")
		v.Wait("today's puzzle", `!!document.querySelector("#daily-play")`)
	}
}

// TestDailyGameReplayAfterTheDay: while the day lasts, the record of
// today's attempt is kept from everyone, its player too, so the lists of
// games (the profile's, the home page's) offer no replay of it that
// could only fail, and say when it opens; the day after, they do, and
// the replay plays.
func TestDailyGameReplayAfterTheDay(t *testing.T) {
	t.Parallel()
	clk := &e2e.JumpClock{}
	srv := e2e.NewConfiguredServer(t, func(c *server.Config) { c.Clock = clk })
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Ann", srv.Base)
	p.SignUp("Ann", "correct horse battery")
	p.Open("/daily/salvo")
	p.Wait("the daily page", `!!document.querySelector("#daily-play")`)
	p.Click("#daily-play")
	p.Wait("the daily table", `location.pathname.startsWith("/t/")`)
	id := e2e.Eval[string](p, `location.pathname.slice(3)`)
	tok := e2e.Eval[string](p, `JSON.parse(localStorage.getItem("parlour.seats"))["`+id+`"].token`)
	if st, b := e2e.API(t, srv.Base, "POST", "/tables/"+id+"/moves", tok, map[string]any{"move": "resign"}); st != 200 {
		t.Fatalf("resign: %d %s", st, b)
	}
	lists := []struct{ path, item string }{
		{"/players/Ann", "#games li"},
		{"/", "#my-finished li"},
	}
	for _, l := range lists {
		p.Open(l.path)
		p.Wait("the daily game listed", `[...document.querySelectorAll(`+strconv.Quote(l.item)+`)].some(li => li.textContent.includes("Daily Salvo"))`)
		if got := p.Text(l.item); !strings.Contains(got, "replay when the day ends") {
			t.Errorf("%s lists today's attempt as %q", l.path, got)
		}
		if n := e2e.Eval[int](p, `document.querySelectorAll(`+strconv.Quote(l.item+` a[href*="`+id+`"]`)+`).length`); n != 0 {
			t.Errorf("%s offers today's attempt's replay before the day ends", l.path)
		}
	}
	clk.JumpToTomorrow()
	for _, l := range lists {
		p.Open(l.path)
		p.Wait("the daily game's replay", `!!document.querySelector(`+strconv.Quote(l.item+` a[href*="`+id+`"]`)+`)`)
	}
	p.Click(`#my-finished a[href*="` + id + `"]`)
	p.Wait("the replay", `!!document.querySelector("main h2") && !document.querySelector("main .error[role=alert]:not(:empty)")`)
}

// TestDailyGuestThenSignUp: a guest who played today's puzzle and then
// signs up keeps the attempt, unranked, and may not play again today;
// the daily page then says why it is not ranked, and does not tell the
// player, now signed in, to sign in to rank.
func TestDailyGuestThenSignUp(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Ann", base)
	p.Open("/daily/salvo")
	p.Wait("the daily page", `!!document.querySelector("#daily-play")`)
	p.Click("#daily-play")
	p.Wait("the daily table", `location.pathname.startsWith("/t/")`)
	id := e2e.Eval[string](p, `location.pathname.slice(3)`)
	tok := e2e.Eval[string](p, `JSON.parse(localStorage.getItem("parlour.seats"))["`+id+`"].token`)
	if st, b := e2e.API(t, base, "POST", "/tables/"+id+"/moves", tok, map[string]any{"move": "resign"}); st != 200 {
		t.Fatalf("resign: %d %s", st, b)
	}
	p.Open("/daily/salvo")
	p.Wait("the guest's result", `!!document.querySelector("#daily-result")`)
	if got := p.Text("#daily-result"); !strings.Contains(got, "not ranked") || !strings.Contains(got, "signed in") {
		t.Errorf("the guest's result reads %q", got)
	}
	p.SignUp("Ann", "correct horse battery")
	p.Open("/daily/salvo")
	p.Wait("the result, signed in", `!!document.querySelector("#daily-result") && !!document.querySelector("#daily-profile")`)
	got := p.Text("#daily-result")
	if !strings.Contains(got, "not ranked") || strings.Contains(got, "sign in") {
		t.Errorf("signed in, the result of the attempt begun as a guest reads %q", got)
	}
}

// slowSetup is a computer player whose setups wait for release: the
// strong computer making a day's puzzle, as slow as a test needs.
type slowSetup struct {
	game.Bot
	release <-chan struct{}
}

func (b slowSetup) Setup(ctx context.Context, cfg game.Config, seat game.Seat) (json.RawMessage, error) {
	select {
	case <-b.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return b.Bot.Setup(ctx, cfg, seat)
}

// TestDailyTodayWhileMade follows the daily page's card of today through
// what it waits for: a first read of today's puzzle that fails says so in
// the card and tries again at a press (the card stood empty, with no way
// on but reloading the page), and the day's first attempt, which waits
// while the strong computer makes the puzzle, says the puzzle is being
// set up and keeps the play button from a second press until the table
// opens.
func TestDailyTodayWhileMade(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { close(release) }) })
	var failed atomic.Bool
	base := e2e.NewWrappedServer(t, func(c *server.Config) {
		c.NewBot = func(gameName, level string, seed uint64, lex *lexicon.Lexicon) (game.Bot, error) {
			b, err := games.NewBot(gameName, level, seed, lex)
			if err != nil || gameName != "quizl" || level != game.Strong {
				return b, err
			}
			return slowSetup{b, release}, nil
		}
	}, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			// The first read of today's puzzle fails, as one may while
			// the server restarts.
			if r.Method == "GET" && r.URL.Path == "/api/v1/daily/quizl" && failed.CompareAndSwap(false, true) {
				http.Error(w, `{"error": "the server is starting: try again in a moment"}`, http.StatusServiceUnavailable)
				return
			}
			next.ServeHTTP(w, r)
		})
	}).Base
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Ann", base)
	p.Open("/daily/quizl")
	p.Wait("the failed read in the card", `!!document.querySelector("#daily-today #daily-retry")`)
	if got := p.Text("#daily-today"); !strings.Contains(got, "Today's puzzle could not be read: the server is starting") {
		t.Errorf("the card after a failed read says %q", got)
	}
	p.Click("#daily-retry")
	p.Wait("the card filled in", `!!document.querySelector("#daily-play")`)
	if got := p.Text("#daily-today"); strings.Contains(got, "could not be read") || !strings.Contains(got, "Today, ") {
		t.Errorf("the card read again says %q", got)
	}

	p.Click("#daily-play")
	p.Wait("the puzzle being made", `!!document.querySelector("#daily-making")`)
	if got := p.Text("#daily-today"); !strings.Contains(got, "Setting up today's puzzle") {
		t.Errorf("while the puzzle is made the card says %q", got)
	}
	if !e2e.Eval[bool](p, `document.querySelector("#daily-play").disabled && document.querySelector("#daily-today").getAttribute("aria-busy") === "true"`) {
		t.Errorf("the play button may be pressed again while the puzzle is made")
	}
	p.Accessible("the daily page while the puzzle is made")
	once.Do(func() { close(release) })
	p.Wait("the daily table", `location.pathname.startsWith("/t/")`)
}

// TestDailyAttemptOpenAtMidnight: an attempt still under way when its day
// ends takes no move but a resignation: its page says so, with the way
// to today's puzzle, rather than say it is the player's turn and offer
// a call the server refuses; Resign ends it.
func TestDailyAttemptOpenAtMidnight(t *testing.T) {
	t.Parallel()
	clk := &e2e.JumpClock{}
	srv := e2e.NewConfiguredServer(t, func(c *server.Config) { c.Clock = clk })
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Ann", srv.Base)
	p.Open("/daily/quizl")
	p.Wait("the daily page", `!!document.querySelector("#daily-play")`)
	p.Click("#daily-play")
	p.Wait("the daily table, the turn Ann's", `location.pathname.startsWith("/t/") && (document.querySelector("#turn")||{}).textContent === "Your turn"`)
	id := e2e.Eval[string](p, `location.pathname.slice(3)`)
	tok := e2e.Eval[string](p, `JSON.parse(localStorage.getItem("parlour.seats"))["`+id+`"].token`)
	if st, b := e2e.API(t, srv.Base, "POST", "/tables/"+id+"/moves", tok, map[string]any{"move": "50"}); st != 200 {
		t.Fatalf("a call: %d %s", st, b)
	}
	clk.JumpToTomorrow()
	p.Open("/t/" + id)
	p.Wait("the attempt closed", `!!document.querySelector("#daily-closed") && (document.querySelector("#turn")||{}).textContent === "The day is over: resign to end this attempt"`)
	if !e2e.Eval[bool](p, `!!document.querySelector('#daily-closed a[href="/daily/quizl"]')`) {
		t.Error("the closed attempt offers no way to today's puzzle")
	}
	if e2e.Eval[bool](p, `[...document.querySelectorAll("#stage input, #stage form button")].some(el => el.offsetParent !== null)`) {
		t.Error("the closed attempt still shows its call and announcement forms")
	}
	e2e.Eval[bool](p, `(window.confirm = () => true, true)`)
	p.Click("#resign")
	p.Wait("the attempt ended", `!!document.querySelector("#game-over") && !document.querySelector("#daily-closed")`)
}
