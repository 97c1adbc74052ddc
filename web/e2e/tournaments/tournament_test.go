package tournaments

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"parlour/server"
	"parlour/web/e2e"
)

// TestTournamentArena runs a short arena in three browsers. Ann (an
// account) makes it with a password, after the form shows the server's
// refusal of an arena too short for its clock; a wrong password is
// refused in place; Ben (a guest) finds it in the list, marked as
// needing a password, and joins; Cy watches its page. Ann starts it:
// both are led to the same table (Ann by her player stream, Ben by the
// page, which has no stream for a guest), and Cy watches that game from
// the page. Ben resigns: Cy sees the standings move. The next game comes
// at once: Ann by the stream's banner on her table's page, Ben by the
// banner of the page's own asking (a guest has no stream) and by the
// event page's "your game is ready" link. After the arena's time (the
// server's clock moved on), the page names its winner, and the winner's
// profile lists the event. No page ever received the password.
func TestTournamentArena(t *testing.T) {
	t.Parallel()
	clk := &e2e.JumpClock{}
	srv := e2e.NewConfiguredServer(t, func(c *server.Config) { c.Clock = clk })
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", srv.Base)
	ben := e2e.NewPlayer(t, b, "Ben", srv.Base)
	cy := e2e.NewPlayer(t, b, "Cy", srv.Base)
	const secret = "Open sesame 42"
	ann.SignUp("Ann", "correct horse battery")

	// The form: an arena of Nymphabet, refused first for a clock its
	// length cannot hold.
	ann.Open("/tournaments")
	ann.Wait("the form", `!!document.querySelector("#t-create-form") && document.querySelectorAll("#t-game option").length > 0`)
	ann.Shot("tournaments-empty")
	ann.AccessibleThemes("the tournaments list")
	ann.Labelled("the tournaments list")
	ann.TypeIn("#t-name", "Friday Arena")
	ann.Pick("#t-game", "nymphabet")
	if got := e2e.Eval[string](ann, `document.querySelector("#t-name").placeholder`); got != "left blank: Nymphabet Arena" {
		t.Errorf("the name's placeholder reads %q, want the name the server gives", got)
	}
	ann.Pick("#t-clock", `{"kind":"fischer","initial":900,"increment":10}`)
	ann.TypeIn("#t-minutes", "1")
	ann.TypeIn("#t-password", secret)
	ann.Click("#t-create-form button[type=submit]")
	ann.Wait("the refusal", `document.querySelector("#t-create-error").textContent !== ""`)
	if got := ann.Text("#t-create-error"); !strings.Contains(got, "longer than the arena") {
		t.Errorf("the refusal of a too short arena reads %q", got)
	}
	if got := e2e.Eval[string](ann, `location.pathname`); got != "/tournaments" {
		t.Errorf("a refused event left the list for %s", got)
	}
	ann.Pick("#t-clock", `{"kind":"fischer","initial":60,"increment":0}`)
	ann.TypeIn("#t-minutes", "10")
	ann.Pick("#opt-mode", "cyclic") // the game's options follow the game chosen
	ann.Click("#t-create-form button[type=submit]")
	ann.Wait("the event's page", `location.pathname.startsWith("/tournaments/") && !!document.querySelector("#t-join")`)
	page := e2e.Eval[string](ann, `location.pathname`)
	id := strings.TrimPrefix(page, "/tournaments/")
	if got := ann.Text("#t-title"); !strings.HasPrefix(got, "Friday Arena") {
		t.Errorf("the event's title reads %q", got)
	}
	if got := ann.Text("#t-terms"); !strings.Contains(got, "Arena · Nymphabet (cyclic) · clock 1+0") || !strings.Contains(got, "10 minutes · 0 players") || !strings.Contains(got, "made by Ann") {
		t.Errorf("the event's terms read %q", got)
	}
	// The event's own page counts down to the second; the list and the
	// home screen's card in whole minutes.
	if got := ann.Text("#t-when"); !regexp.MustCompile(`^Starts in (\d+ min \d\d s|\d+ s)\.$`).MatchString(got) {
		t.Errorf("the countdown reads %q", got)
	}

	// No password, then a wrong one, are refused in place; the right one
	// lets Ann in.
	ann.Click("#t-join")
	ann.Wait("the missing password", `document.querySelector("#t-error").textContent !== ""`)
	if got := ann.Text("#t-error"); got != "This event has a password: type it first." {
		t.Errorf("no password: the page says %q", got)
	}
	ann.TypeIn("#t-join-password", "open sesame")
	ann.Click("#t-join")
	ann.Wait("the refusal", `document.querySelector("#t-error").textContent !== ""`)
	if got := ann.Text("#t-error"); !strings.Contains(got, "not the password of Friday Arena") {
		t.Errorf("a wrong password: the page says %q", got)
	}
	ann.TypeIn("#t-join-password", secret)
	ann.Click("#t-join")
	ann.Wait("Ann in", `!!document.querySelector("#t-in") && !!document.querySelector("#t-start")`)

	// Ben, a guest, finds it in the list and joins.
	ben.Open("/")
	e2e.Eval[bool](ben, `(localStorage.setItem("parlour.name", JSON.stringify("Ben")), true)`)
	ben.Wait("the home page's events", `!!document.querySelector("#home-events-list a")`)
	if got := ben.Text("#home-events-list"); !regexp.MustCompile(`Friday Arena · Nymphabet, arena, 1 player · starts in (\d+ min|\d+ s)(\n|$)`).MatchString(got) {
		t.Errorf("the home screen's events read %q", got)
	}
	ben.Click("#home-events-all")
	ben.Wait("the event listed", fmt.Sprintf(`!!document.querySelector('#t-list-created tr[data-event=%q] a')`, id))
	if got := ben.Text(fmt.Sprintf(`#t-list-created tr[data-event=%q]`, id)); !strings.Contains(got, "password") || !strings.Contains(got, "1+0") || !regexp.MustCompile(`starts in (\d+ min|\d+ s)\b`).MatchString(got) || regexp.MustCompile(`min \d\d s`).MatchString(got) {
		t.Errorf("the list's line of the event reads %q", got)
	}
	ben.Shot("tournaments-list")
	ben.Click(fmt.Sprintf(`#t-list-created tr[data-event=%q] a`, id))
	ben.Wait("the event's page", `!!document.querySelector("#t-join-password")`)
	if e2e.Eval[bool](ben, `!!document.querySelector("#t-start")`) {
		t.Errorf("Ben is offered to start Ann's event")
	}
	ben.TypeIn("#t-join-password", secret)
	ben.Click("#t-join")
	ben.Wait("Ben in", `!!document.querySelector("#t-in") && document.querySelectorAll("#t-standings tbody tr").length === 2`)

	cy.Open(page)
	cy.Wait("the standings", `document.querySelectorAll("#t-standings tbody tr").length === 2`)
	cy.AccessibleThemes("an event's page")
	cy.Labelled("an event's page")

	// Ann starts it: both are led to their table.
	ann.Click("#t-start")
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("the table of the event", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	}
	cy.Wait("the game under way, to watch", `!!document.querySelector("#t-playing a.button")`)
	if got := cy.Text("#t-when"); !strings.HasPrefix(got, "Ends in ") {
		t.Errorf("a running arena's countdown reads %q", got)
	}
	cy.Shot("tournament-started")
	cy.Click("#t-playing a.button")
	cy.Wait("the game, watched", `location.search === "?watch=1" && !!document.querySelector("#turn")`)
	table := e2e.PlayToResign(t, ann, ben)
	if got := e2e.Eval[string](cy, `location.pathname`); got != table {
		t.Errorf("Cy watches %s, the game is at %s", got, table)
	}

	// The standings moved.
	cy.Open(page)
	cy.Wait("Ann's win in the standings", `(document.querySelector("#t-standings tbody tr[data-player=Ann] .score")||{}).textContent === "2"`)
	if got := cy.Text("#t-standings tbody tr:first-child"); !strings.Contains(got, "Ann") {
		t.Errorf("the first line of the standings reads %q", got)
	}
	if got := cy.Text("#t-standings tbody tr[data-player=Ben]"); !strings.Contains(got, "Ben") || !strings.Contains(got, "\t1\t0\t0\t1") {
		t.Errorf("Ben's line of the standings reads %q", got)
	}
	cy.Click("#t-standings tr[data-player=Ben] .player-pick")
	cy.Wait("Ben's games", `!!document.querySelector("#t-player-games li")`)
	if got := cy.Text("#t-player-games"); !strings.Contains(got, "against Ann (lost, 0 points)") {
		t.Errorf("Ben's games read %q", got)
	}
	cy.Shot("tournament-standings")

	// The next game: Ann by the stream's banner, Ben by the page's link.
	ann.Wait("the banner of the next game", `!!document.querySelector(".banner.your-game a")`)
	ann.Click(".banner.your-game a")
	ann.Wait("the next table", `location.pathname.startsWith("/t/") && location.pathname !== `+strconv.Quote(table)+` && !!document.querySelector("#turn")`)
	// Ben, a guest without a stream, hears of it from the page's asking.
	ben.Wait("the guest's banner of the next game", `!!document.querySelector(".banner.your-game a")`)
	if got := ben.Text(".banner.your-game"); !strings.Contains(got, "Your game is ready: Nymphabet in Friday Arena, against Ann.") {
		t.Errorf("Ben's banner reads %q", got)
	}
	// The table of an event names it and leads back to it, rather than
	// offer a rematch.
	if got := strings.TrimSpace(ben.Text("#event-link")); got != "· Friday Arena" {
		t.Errorf("the table's link to its event reads %q", got)
	}
	if e2e.Eval[bool](ben, `!!document.querySelector("#rematch")`) {
		t.Errorf("a game of an event offers a rematch")
	}
	ben.Click("#event-back")
	ben.Wait("the link to the next game", `location.pathname === `+strconv.Quote(page)+` && !!document.querySelector("#t-go")`)
	if got := ben.Text("#t-your-game"); !strings.Contains(got, "Your game is ready: against Ann.") {
		t.Errorf("Ben's page says %q", got)
	}
	ben.Click("#t-go")
	ben.Wait("the next table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	e2e.PlayToResign(t, ann, ben)

	// The arena's time passes: the game under way ends on the clock, the
	// event finishes and names its winner.
	cy.Wait("Ann's two wins", `(document.querySelector("#t-standings tbody tr[data-player=Ann] .score")||{}).textContent === "4"`)
	if !e2e.Eval[bool](cy, `!!document.querySelector("#t-standings tbody tr[data-player=Ann] .badge.streak")`) {
		t.Errorf("Ann, two wins in a row, has no streak mark: %q", cy.Text("#t-standings tbody tr[data-player=Ann]"))
	}
	clk.Jump(11 * time.Minute)
	cy.Wait("the winners", `!!document.querySelector("#t-winners h2")`)
	if got := cy.Text("#t-winners"); !strings.Contains(got, "Won by Ann") || !strings.Contains(got, "Second: Ben") {
		t.Errorf("the winners read %q", got)
	}
	if e2e.Eval[bool](cy, `!!document.querySelector("#t-join") || !!document.querySelector("#t-leave")`) {
		t.Errorf("a finished event offers to join or leave")
	}
	if !e2e.Eval[bool](cy, `document.querySelector("#t-playing-section").hidden`) {
		t.Errorf("a finished event lists games under way: %q", cy.Text("#t-playing-section"))
	}
	cy.Shot("tournament-finished")
	cy.AccessibleThemes("a finished event's page")
	cy.Open("/tournaments")
	cy.Wait("the event's winner in the list", fmt.Sprintf(`(document.querySelector('#t-list-finished tr[data-event=%q] .winner')||{}).textContent === "Ann"`, id))
	// With an event to come above it, the two lists share their columns.
	if st := e2e.Eval[int](ann, `fetch("/api/v1/tournaments", {method: "POST", credentials: "same-origin", headers: {"Content-Type": "application/json"},
		body: JSON.stringify({kind: "arena", name: "Saturday Arena of Salvo", game: "salvo", minutes: 30, clock: {kind: "fischer", initial: 180, increment: 2}})}).then(r => r.status)`); st != 201 {
		t.Fatalf("another arena: %d", st)
	}
	cy.Open("/tournaments")
	cy.Wait("both lists", `!!document.querySelector("#t-list-created table") && !!document.querySelector("#t-list-finished table")`)
	cols := `l => [...document.querySelectorAll(l + " th")].slice(0, 5).map(th => Math.round(th.getBoundingClientRect().left)).join(",")`
	if to, done := e2e.Eval[string](cy, `(`+cols+`)("#t-list-created")`), e2e.Eval[string](cy, `(`+cols+`)("#t-list-finished")`); to != done {
		t.Errorf("the lists' columns start at %s (to come) and %s (finished)", to, done)
	}
	cy.Open("/players/Ann")
	cy.Wait("the events won", fmt.Sprintf(`!!document.querySelector('#profile-events li[data-event=%q]')`, id))
	if got := cy.Text("#profile-events"); !strings.Contains(got, "Ann won 1 event") || !strings.Contains(got, "1st Friday Arena") {
		t.Errorf("Ann's profile's events read %q", got)
	}
	cy.Accessible("a profile with an event won")

	for _, p := range []*e2e.Player{ann, ben, cy} {
		p.NoSecrets("in the arena", secret)
	}
}

// TestTournamentSwiss makes a Swiss of Quizl at three a table from the
// form, which offers the seats only where they apply, and shows what
// such an event shows: its kind in words, the tie-breaks' columns, and
// the server's refusal in place when its creator starts it without
// enough players. A guest is told to sign in to make an event, and
// anybody may open the list and the page directly.
func TestTournamentSwiss(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	gus := e2e.NewPlayer(t, b, "Gus", base)

	gus.Open("/tournaments")
	gus.Wait("the list", `!!document.querySelector("#t-create")`)
	if got := gus.Text("#t-create"); !strings.Contains(got, "Sign in to make an event of your own") {
		t.Errorf("a guest's form reads %q", got)
	}

	ann.SignUp("Ann", "correct horse battery")
	ann.Open("/tournaments")
	ann.Wait("the form", `!!document.querySelector("#t-create-form") && document.querySelectorAll("#t-game option").length > 0`)
	seats := `!document.querySelector("#t-seats").closest(".field").hidden`
	for _, tc := range []struct {
		kind, game string
		seats      bool
	}{{"arena", "quizl", false}, {"swiss", "nymphabet", false}, {"swiss", "salvo", false}, {"swiss", "wordfight", true}, {"swiss", "quizl", true}} {
		ann.Pick("#t-kind", tc.kind)
		ann.Pick("#t-game", tc.game)
		if got := e2e.Eval[bool](ann, seats); got != tc.seats {
			t.Errorf("%s of %s: the seats are offered: %v, want %v", tc.kind, tc.game, got, tc.seats)
		}
		if got := e2e.Eval[bool](ann, `!document.querySelector("#t-rounds").closest(".field").hidden`); got != (tc.kind == "swiss") {
			t.Errorf("%s: the rounds are offered: %v", tc.kind, got)
		}
	}
	ann.Pick("#t-seats", "3")
	ann.TypeIn("#t-name", "Sunday Swiss")
	ann.TypeIn("#t-description", "Two rounds of Quizl, three a table.")
	ann.TypeIn("#t-rounds", "2")
	ann.Pick("#t-clock", "300")
	ann.TypeIn("#t-max-players", "30")
	ann.Shot("tournament-form-swiss")
	ann.Click("#t-create-form button[type=submit]")
	ann.Wait("the event's page", `location.pathname.startsWith("/tournaments/") && !!document.querySelector("#t-join")`)
	if got := ann.Text("#t-terms"); !strings.Contains(got, "Swiss, 3 a table · Quizl · clock 5 minutes a turn · casual · 2 rounds · 0 players · at most 30 players") {
		t.Errorf("the Swiss's terms read %q", got)
	}
	if got := ann.Text("#t-description"); got != "Two rounds of Quizl, three a table." {
		t.Errorf("the description reads %q", got)
	}
	if e2e.Eval[bool](ann, `!!document.querySelector("#t-join-password")`) {
		t.Errorf("an event without a password asks for one")
	}
	ann.Click("#t-join")
	ann.Wait("Ann in", `!!document.querySelector("#t-in") && document.querySelectorAll("#t-standings tbody tr").length === 1`)
	if got := ann.Text("#t-standings thead"); !strings.Contains(got, "Buchholz") || !strings.Contains(got, "S-B") {
		t.Errorf("a Swiss's standings' columns read %q", got)
	}
	// A Swiss of one cannot start: no Start now, but why, in the
	// server's words.
	ann.Wait("why it cannot start", `!!document.querySelector("#t-cannot-start")`)
	if got := ann.Text("#t-cannot-start"); !strings.Contains(got, "needs at least 3 players to start; it has 1") {
		t.Errorf("a Swiss of one says %q", got)
	}
	if e2e.Eval[bool](ann, `!!document.querySelector("#t-start")`) {
		t.Error("a Swiss of one offers its maker to start it")
	}
	if got := ann.Text("#t-when"); !strings.HasPrefix(got, "Starts in ") {
		t.Errorf("the countdown reads %q", got)
	}
	ann.AccessibleThemes("a Swiss's page")

	// Leaving takes Ann out; the list shows the Swiss to come.
	ann.Click("#t-leave")
	ann.Wait("Ann out", `!!document.querySelector("#t-join") && document.querySelectorAll("#t-standings tbody tr").length === 0`)
	id := strings.TrimPrefix(e2e.Eval[string](ann, `location.pathname`), "/tournaments/")
	gus.Open("/tournaments")
	gus.Wait("the Swiss listed", fmt.Sprintf(`!!document.querySelector('#t-list-created tr[data-event=%q]')`, id))
	if got := gus.Text(fmt.Sprintf(`#t-list-created tr[data-event=%q]`, id)); !strings.Contains(got, "Sunday Swiss") || !strings.Contains(got, "Swiss, 3 a table") || strings.Contains(got, "password") {
		t.Errorf("the list's line of the Swiss reads %q", got)
	}
}

// TestTournamentChat: an event's page shows its chat. Ann (an account,
// its creator) and Gus (a guest in the event) write, and each reads the
// other's line, the guest's marked; an empty line is refused in place,
// and so are the server's refusals: a line over the cap, and a guest not
// in the event (Cy), who still reads it. A server without the event's
// chat (its route answering 404) shows no panel.
func TestTournamentChat(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	gus := e2e.NewPlayer(t, b, "Gus", base)
	cy := e2e.NewPlayer(t, b, "Cy", base)
	ann.SignUp("Ann", "correct horse battery")
	id := e2e.Eval[string](ann, `fetch("/api/v1/tournaments", { method: "POST", headers: { "Content-Type": "application/json" },
		body: JSON.stringify({ kind: "arena", name: "Chatty Arena", game: "salvo", clock: 60, minutes: 60 }) }).then(r => r.json()).then(e => e.id || JSON.stringify(e))`)
	page := "/tournaments/" + id
	gus.Open("/")
	e2e.Eval[bool](gus, `(localStorage.setItem("parlour.name", JSON.stringify("Gus")), true)`)
	for _, p := range []*e2e.Player{ann, gus, cy} {
		p.Open(page)
		p.Wait("the chat panel", `(document.querySelector("#t-chat")||{dataset:{}}).dataset.state === "live" && !document.querySelector("#t-chat").hidden`)
	}
	if !e2e.Eval[bool](gus, `document.querySelector("#t-chat-form").hidden`) {
		t.Error("Gus, a guest not yet in the event, is offered the chat's line")
	}
	gus.Click("#t-join")
	gus.Wait("Gus in, and the chat's line his", `!!document.querySelector("#t-in") && !document.querySelector("#t-chat-form").hidden && document.querySelector("#t-chat-closed").hidden`)
	if got := ann.Text("#t-chat-log"); got != "No messages yet." {
		t.Errorf("an empty chat reads %q", got)
	}
	ann.Click("#t-chat-send")
	ann.Wait("the empty line refused", `document.querySelector("#t-chat-error").textContent !== ""`)
	if got := ann.Text("#t-chat-error"); got != "Write a message first." {
		t.Errorf("an empty line: the panel says %q", got)
	}
	ann.TypeIn("#t-chat-text", "good luck, all")
	ann.Click("#t-chat-send")
	gus.Wait("Ann's line", `document.querySelector("#t-chat-log").textContent.includes("Ann: good luck, all")`)
	gus.TypeIn("#t-chat-text", "thanks")
	gus.Click("#t-chat-send")
	ann.Wait("Gus's line", `document.querySelector("#t-chat-log").textContent.includes("Gus (guest): thanks")`)
	cy.Wait("both lines", `document.querySelectorAll("#t-chat-log li").length === 2`)
	gus.TypeIn("#t-chat-text", strings.Repeat("x", 201))
	gus.Click("#t-chat-send")
	gus.Wait("the refusal", `document.querySelector("#t-chat-error").textContent !== ""`)
	if got := gus.Text("#t-chat-error"); !strings.Contains(got, "200") {
		t.Errorf("a line over the cap: the panel says %q", got)
	}
	// Cy, a guest not in the event, reads the chat and is offered no
	// line the server would refuse, but told what would let him write.
	if e2e.Eval[bool](cy, `document.querySelector("#t-chat-closed").hidden || !document.querySelector("#t-chat-form").hidden`) {
		t.Errorf("a guest not in the event is offered the chat's line")
	}
	if got := cy.Text("#t-chat-closed"); got != "Sign in, or join the event, to write in its chat." {
		t.Errorf("a guest not in the event is told %q", got)
	}
	if n := e2e.Eval[int](ann, `document.querySelectorAll("#t-chat-log li").length`); n != 2 {
		t.Errorf("Ann's chat holds %d lines, want 2", n)
	}
	// Ann made the event: she mutes Gus, whose next line is refused.
	if e2e.Eval[bool](gus, `!!document.querySelector("#t-chat-log .chat-mute")`) {
		t.Errorf("a player who did not make the event is offered to mute")
	}
	ann.Click(`#t-chat-log li button.chat-mute[aria-label="Mute Gus in this chat"]`)
	ann.Wait("Gus muted", `!!document.querySelector('#t-chat-log button.chat-mute[aria-pressed="true"]')`)
	gus.TypeIn("#t-chat-text", "still here")
	gus.Click("#t-chat-send")
	gus.Wait("the refusal", `document.querySelector("#t-chat-error").textContent !== "" && !document.querySelector("#t-chat-error").textContent.includes("200")`)
	if got := gus.Text("#t-chat-error"); !strings.Contains(got, "muted you") {
		t.Errorf("a muted player is told %q", got)
	}
	ann.Shot("tournament-chat")
	ann.AccessibleThemes("an event's page with its chat")

	// A server without the event's chat: no panel.
	plain := e2e.NewWrappedServer(t, nil, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/chat") {
				http.NotFound(w, r)
				return
			}
			next.ServeHTTP(w, r)
		})
	})
	dee := e2e.NewPlayer(t, b, "Dee", plain.Base)
	dee.SignUp("Dee", "a fourth fine phrase")
	id = e2e.Eval[string](dee, `fetch("/api/v1/tournaments", { method: "POST", headers: { "Content-Type": "application/json" },
		body: JSON.stringify({ kind: "arena", game: "salvo", clock: 60, minutes: 60 }) }).then(r => r.json()).then(e => e.id || JSON.stringify(e))`)
	dee.Open("/tournaments/" + id)
	dee.Wait("the page, asked for its chat", `!!document.querySelector("#t-join") && document.querySelector("#t-chat").dataset.state === "none"`)
	if !e2e.Eval[bool](dee, `document.querySelector("#t-chat").hidden`) {
		t.Errorf("the chat panel shows on a server without the event's chat")
	}
}

// TestTournamentSwissPlayed plays a Swiss of one round between two
// accounts: its start seats both at once (each led there by their
// stream), the game's end ends the round and the event, and the page
// shows the winner, the round of each game and the tie-breaks.
func TestTournamentSwissPlayed(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.SignUp("Ann", "correct horse battery")
	ben.SignUp("Ben", "another fine phrase")
	page := quickSwiss(t, ann, ben)
	ann.Wait("the link to the event", `!!document.querySelector("#event-link")`)
	if got := strings.TrimSpace(ann.Text("#event-link")); got != "· Quick Swiss, round 1" {
		t.Errorf("the table's link to its event reads %q", got)
	}
	e2e.PlayToResign(t, ann, ben)
	ben.Click("#event-back")
	ben.Wait("the winners", `location.pathname === `+strconv.Quote(page)+` && !!document.querySelector("#t-winners h2")`)
	if got := ben.Text("#t-winners"); !strings.Contains(got, "Won by Ann") || !strings.Contains(got, "Second: Ben") {
		t.Errorf("the winners read %q", got)
	}
	if got := ben.Text("#t-when"); !strings.HasPrefix(got, "Finished ") {
		t.Errorf("a finished event's time reads %q", got)
	}
	// Buchholz is the opponents' scores (Ann's opponent has 0, Ben's 2);
	// Sonneborn-Berger weighs them by the result (Ann beat a player of 0,
	// Ben beat nobody). Ben, who reads them, finds his own line marked.
	for _, tc := range []struct{ who, want string }{
		{"Ann", "1\tAnn\t2\t1\t1\t0\t0\t0\t0"},
		{"Ben", "2\tBen (you)\t0\t1\t0\t0\t1\t2\t0"},
	} {
		if got := strings.TrimSpace(ben.Text(fmt.Sprintf("#t-standings tbody tr[data-player=%s]", tc.who))); got != tc.want {
			t.Errorf("%s's line of the standings reads %q, want %q", tc.who, got, tc.want)
		}
	}
	ben.Click("#t-standings tr[data-player=Ann] .player-pick")
	ben.Wait("Ann's games", `!!document.querySelector("#t-player-games li")`)
	if got := ben.Text("#t-player-games li"); !strings.HasPrefix(got, "Round 1: against Ben (won, 2 points)") {
		t.Errorf("Ann's games read %q", got)
	}
	if e2e.Eval[bool](ben, `!!document.querySelector("#t-join") || !!document.querySelector("#t-leave")`) {
		t.Errorf("a finished event offers to join or leave")
	}
}

// joinAt opens the event's page at page as p and joins it there.
func joinAt(p *e2e.Player, page string) {
	p.Open(page)
	p.Wait("the join button", `!!document.querySelector("#t-join")`)
	p.Click("#t-join")
	p.Wait("in", `!!document.querySelector("#t-in")`)
}

// quickSwiss has Ann make "Quick Swiss", one round of Nymphabet on a
// minute's clock, which she and Ben join from its page before she starts
// it; it answers the event's page once both are at their table.
func quickSwiss(t *testing.T, ann, ben *e2e.Player) string {
	t.Helper()
	id := e2e.Eval[string](ann, `fetch("/api/v1/tournaments", { method: "POST", headers: { "Content-Type": "application/json" },
		body: JSON.stringify({ kind: "swiss", name: "Quick Swiss", game: "nymphabet", clock: { kind: "fischer", initial: 60, increment: 0 }, rounds: 1 }) }).then(r => r.json()).then(e => e.id || JSON.stringify(e))`)
	page := "/tournaments/" + id
	for _, p := range []*e2e.Player{ann, ben} {
		joinAt(p, page)
	}
	ann.Wait("both in", `document.querySelectorAll("#t-standings tbody tr").length === 2`)
	ann.Click("#t-start")
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("the table of round 1", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	}
	return page
}

// TestTournamentAbortCounts: at an event's table, aborting before every
// player has moved leaves no result at the table but counts in the
// event as the aborter's loss: the question before it says so, and so
// does the end, to both players.
func TestTournamentAbortCounts(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.SignUp("Ann", "correct horse battery")
	ben.SignUp("Ben", "another fine phrase")
	page := quickSwiss(t, ann, ben)
	// Ann's home lists the game under way with its event.
	at := e2e.Eval[string](ann, `location.pathname`)
	ann.Open("/")
	ann.Wait("the game under way", `!!document.querySelector("#my-tables li a.event")`)
	if got := ann.Text("#my-tables li"); !strings.HasSuffix(got, " · in Quick Swiss, round 1") {
		t.Errorf("Ann's game under way reads %q on her home", got)
	}
	ann.Open(at)
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("the abort button", `!!document.querySelector("#abort")`)
	}
	asked := e2e.Eval[string](ben, `new Promise(done => { window.confirm = q => { done(q); return true; }; document.querySelector("#abort").click(); })`)
	if want := "Abort this game? It ends without a result, but Quick Swiss counts it as your loss."; asked != want {
		t.Errorf("the abort asks %q, want %q", asked, want)
	}
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("the end", `!!document.querySelector("#end-reason")`)
		if got := p.Text("#end-reason"); !strings.HasSuffix(got, "Quick Swiss counts it as a loss for Ben and a win for Ann.") {
			t.Errorf("%s's end reads %q", p.Name, got)
		}
	}
	// Ben's games, on his profile, name the event the aborted game
	// counted in, with a link to its page.
	ben.Open("/players/Ben")
	ben.Wait("the game listed", `!!document.querySelector("#games li a.event")`)
	ben.Shot("profile-event-game")
	if got := ben.Text("#profile-events-said"); got != "Ben finished on the podium of 1 event:" {
		t.Errorf("Ben's profile says of his events %q", got)
	}
	if got, href := ben.Text("#games li"), e2e.Eval[string](ben, `document.querySelector("#games li a.event").getAttribute("href")`); !strings.HasPrefix(got, "Aborted Nymphabet against Ann") ||
		!strings.Contains(got, " · in Quick Swiss, round 1") || href != page {
		t.Errorf("Ben's game on his profile reads %q, its event's link %q (want %s)", got, href, page)
	}
	// Its replay names the event too, from the record.
	ben.Click("#games li a[href^='/replay']")
	ben.Wait("the replay", `!!document.querySelector("#replay-event")`)
	if got, href := ben.Text("#replay-event"), e2e.Eval[string](ben, `document.querySelector("#replay-event a").getAttribute("href")`); got != "Played in Quick Swiss, round 1." || href != page {
		t.Errorf("the replay names its event %q, linked to %q (want %s)", got, href, page)
	}
}

// TestTournamentSwissBye: a Swiss of three at two a table gives one
// player a bye in its round. The two paired play (the loser resigns);
// the one left out stays on the event's page, is told so, and ends with
// a win's points and the bye marked in the standings; all three are
// named on the podium.
func TestTournamentSwissBye(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ps := []*e2e.Player{e2e.NewPlayer(t, b, "Ann", base), e2e.NewPlayer(t, b, "Ben", base), e2e.NewPlayer(t, b, "Cy", base)}
	ps[0].SignUp("Ann", "correct horse battery")
	ps[1].SignUp("Ben", "another fine phrase")
	ps[2].SignUp("Cyd", "a third fine phrase")
	id := e2e.Eval[string](ps[0], `fetch("/api/v1/tournaments", { method: "POST", headers: { "Content-Type": "application/json" },
		body: JSON.stringify({ kind: "swiss", name: "Odd Swiss", game: "nymphabet", clock: 60, rounds: 1 }) }).then(r => r.json()).then(e => e.id || JSON.stringify(e))`)
	page := "/tournaments/" + id
	for _, p := range ps {
		joinAt(p, page)
	}
	ps[0].Wait("all three in", `document.querySelectorAll("#t-standings tbody tr").length === 3`)
	ps[0].Click("#t-start")
	// Two of them are led to a table; the third stays.
	var seated, left []*e2e.Player
	deadline := time.Now().Add(20 * time.Second)
	for len(seated) < 2 && time.Now().Before(deadline) {
		seated, left = nil, nil
		for _, p := range ps {
			if e2e.Eval[bool](p, `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`) {
				seated = append(seated, p)
			} else {
				left = append(left, p)
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(seated) != 2 || len(left) != 1 {
		t.Fatalf("%d players seated after the start, want 2", len(seated))
	}
	bye := left[0]
	bye.Wait("the round under way", `document.querySelector("#t-when").textContent === "Round 1 of 1." && !!document.querySelector("#t-playing a.button")`)
	bye.Wait("the bye", `!!document.querySelector("#t-bye")`)
	if got := bye.Text("#t-bye"); got != "You sit out round 1: a bye, which scores as a win." {
		t.Errorf("the player with the bye is told %q", got)
	}
	if e2e.Eval[bool](bye, `!!document.querySelector("#t-go")`) {
		t.Errorf("the player with the bye is told their game is ready")
	}
	e2e.PlayToResign(t, seated[0], seated[1])
	name := map[*e2e.Player]string{ps[0]: "Ann", ps[1]: "Ben", ps[2]: "Cyd"}
	bye.Wait("the winners", `!!document.querySelector("#t-winners h2")`)
	if got := bye.Text("#t-winners"); !strings.Contains(got, "Third: ") {
		t.Errorf("the podium reads %q", got)
	}
	row := func(p *e2e.Player) string {
		return bye.Text(fmt.Sprintf("#t-standings tbody tr[data-player=%s]", name[p]))
	}
	if got := row(bye); !strings.Contains(got, name[bye]+" (you) (1 bye)\t2\t") { // the reader's own line
		t.Errorf("the line of the player with the bye reads %q", got)
	}
	if got := row(seated[1]); !strings.Contains(got, name[seated[1]]+"\t0\t1\t0\t0\t1") {
		t.Errorf("the loser's line reads %q", got)
	}
}

// TestTournamentsOnAPhone: on a phone the events list fits its frame, when
// each event starts or ends on the screen, with the kind and length under
// the event's name instead of in columns of their own; a wider screen
// keeps the columns.
func TestTournamentsOnAPhone(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.SignUp("Ann", "correct horse battery")
	id := e2e.Eval[string](ann, `fetch("/api/v1/tournaments", { method: "POST", headers: { "Content-Type": "application/json" },
		body: JSON.stringify({ kind: "arena", name: "Sunday Word Fight Arena", game: "wordfight", clock: { kind: "fischer", initial: 300, increment: 3 }, minutes: 60, rated: true }) }).then(r => r.json()).then(e => e.id || JSON.stringify(e))`)
	row := `document.querySelector('tr[data-event="` + id + `"]')`
	ann.Open("/tournaments")
	ann.Wait("the event listed", "!!"+row)
	if got := e2e.Eval[int](ann, `[...document.querySelectorAll("table.events th")].filter(th => getComputedStyle(th).display !== "none").length`); got != 7 {
		t.Errorf("a wide screen shows %d of the list's 7 columns", got)
	}
	ann.Phone(false)
	ann.Open("/tournaments")
	ann.Wait("the event listed", "!!"+row)
	ann.FitsWidth("the events list")
	if w := e2e.Eval[string](ann, `(f => f.scrollWidth > f.clientWidth ? f.scrollWidth + " in " + f.clientWidth : "")(`+row+`.closest(".table-frame"))`); w != "" {
		t.Errorf("the events list scrolls sideways on a phone: %s pixels", w)
	}
	if got := e2e.Eval[string](ann, row+`.querySelector(".narrow").innerText`); got != "Arena, 60 minutes" {
		t.Errorf("on a phone the event's kind and length read %q under its name", got)
	}
	if got := e2e.Eval[string](ann, row+`.querySelector("[data-when]").innerText`); !strings.HasPrefix(got, "starts") {
		t.Errorf("on a phone the event's start reads %q", got)
	}
}

// TestTournamentQuizlNoSet plays a Quizl game of a Swiss event to its
// end. The event scores the game and pairs its players again, so neither
// the players' list nor the end speaks of a set to carry on, as a
// friendly Quizl table's does.
func TestTournamentQuizlNoSet(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.SignUp("Ann", "correct horse battery")
	ben.SignUp("Ben", "another fine phrase")
	id := e2e.Eval[string](ann, `fetch("/api/v1/tournaments", { method: "POST", headers: { "Content-Type": "application/json" },
		body: JSON.stringify({ kind: "swiss", name: "Quizl Swiss", game: "quizl", clock: { kind: "fischer", initial: 300, increment: 3 }, rounds: 1 }) }).then(r => r.json()).then(e => e.id || JSON.stringify(e))`)
	for _, p := range []*e2e.Player{ann, ben} {
		joinAt(p, "/tournaments/"+id)
	}
	ann.Wait("both in", `document.querySelectorAll("#t-standings tbody tr").length === 2`)
	ann.Click("#t-start")
	pw := map[*e2e.Player]string{}
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("the table of round 1", `location.pathname.startsWith("/t/") && !!document.querySelector("#q-auto")`)
		p.Click("#q-auto")
	}
	for _, p := range []*e2e.Player{ann, ben} {
		_, pw[p] = p.QuizlGrid()
	}
	first, second := ann, ben
	ann.Wait("a seat", `["0","1"].includes(document.querySelector("#turn").dataset.mine)`)
	if e2e.Eval[string](ann, `document.querySelector("#turn").dataset.mine`) != "1" {
		first, second = ben, ann
	}
	for _, m := range []struct{ by, of *e2e.Player }{{first, second}, {second, first}} {
		m.by.WaitTurn(true)
		m.by.TypeIn("#q-say", pw[m.of])
		m.by.Click("#q-controls form:nth-of-type(2) button[type=submit]")
	}
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("the end", `!!document.querySelector("#game-over #event-back")`)
		if e2e.Eval[bool](p, `!!document.querySelector("#set-result")`) {
			t.Errorf("%s's end of an event's game speaks of a set: %q", p.Name, p.Text("#set-result"))
		}
		if got := p.Text("#players"); strings.Contains(got, "Set to") {
			t.Errorf("%s's players' list of an event's game speaks of a set: %q", p.Name, got)
		}
	}
}

// TestTournamentSetupDue: at an event's Quizl table each player's grid
// editor says by when the grid is due (five minutes on the clock's five
// minutes), or the game is forfeit; a player whose grid is in sees it no
// more.
func TestTournamentSetupDue(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.SignUp("Ann", "correct horse battery")
	ben.SignUp("Ben", "another fine phrase")
	id := e2e.Eval[string](ann, `fetch("/api/v1/tournaments", { method: "POST", headers: { "Content-Type": "application/json" },
		body: JSON.stringify({ kind: "swiss", name: "Quizl Swiss", game: "quizl", clock: { kind: "fischer", initial: 300, increment: 3 }, rounds: 1 }) }).then(r => r.json()).then(e => e.id || JSON.stringify(e))`)
	for _, p := range []*e2e.Player{ann, ben} {
		joinAt(p, "/tournaments/"+id)
	}
	ann.Wait("both in", `document.querySelectorAll("#t-standings tbody tr").length === 2`)
	ann.Click("#t-start")
	due := regexp.MustCompile(`^Set up by \d\d?:\d\d(\s?[AP]M)? \(in [45] minutes\), or forfeit this game$`)
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("the grid editor and its deadline", `location.pathname.startsWith("/t/") && !!document.querySelector("#q-auto") && !!document.querySelector("#setup-due")`)
		if got := p.Text("#setup-due"); !due.MatchString(got) {
			t.Errorf("%s's grid editor says %q, want by when the grid is due", p.Name, got)
		}
	}
	ann.Click("#q-auto")
	ann.Wait("Ann's grid in, and the deadline gone", `!document.querySelector("#q-auto") && !document.querySelector("#setup-due")`)
	if !e2e.Eval[bool](ben, `!!document.querySelector("#setup-due")`) {
		t.Errorf("Ben's grid editor no longer says by when his grid is due, though it is not in")
	}
}

// TestTournamentCancel: the creator of an event to come is offered to
// cancel it on its page, and, confirming, sees it cancelled: no join, no
// start. A player who is not its creator is not offered it.
func TestTournamentCancel(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.SignUp("Ann", "correct horse battery")
	starts := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	id := e2e.Eval[string](ann, `fetch("/api/v1/tournaments", { method: "POST", headers: { "Content-Type": "application/json" },
		body: JSON.stringify({ kind: "arena", name: "Mistaken Arena", game: "nymphabet", clock: 60, minutes: 60, starts: "`+starts+`" }) }).then(r => r.json()).then(e => e.id || JSON.stringify(e))`)
	ben.Open("/tournaments/" + id)
	ben.Wait("the event's page", `!!document.querySelector("#t-join")`)
	if e2e.Eval[bool](ben, `!!document.querySelector("#t-cancel")`) {
		t.Errorf("Ben is offered to cancel Ann's event")
	}
	ann.Open("/tournaments/" + id)
	ann.Wait("the cancel button", `!!document.querySelector("#t-cancel")`)
	e2e.Eval[bool](ann, `window.confirm = () => true; true`)
	ann.Click("#t-cancel")
	ann.Wait("the event cancelled", `!!document.querySelector("#t-cancelled")`)
	if got := ann.Text("#t-when"); !strings.Contains(got, "ancelled") {
		t.Errorf("the cancelled event's time reads %q", got)
	}
	if e2e.Eval[bool](ann, `!!document.querySelector("#t-join, #t-start, #t-cancel")`) {
		t.Errorf("the cancelled event still offers to join, start or cancel it")
	}
	// Ben's page, following the event, says so too.
	ben.Wait("the event cancelled for Ben", `!!document.querySelector("#t-cancelled") && !document.querySelector("#t-join")`)
}

// TestTournamentsOnTheHome: the home page's tournaments put the events
// under way that most play first, not the house's arenas nobody joined
// that started before them.
func TestTournamentsOnTheHome(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.SignUp("Ann", "correct horse battery")
	for _, name := range []string{"Empty one", "Empty two", "Empty three", "Club night"} {
		got := e2e.Eval[string](ann, `(async () => {
			const post = (path, body) => fetch("/api/v1/tournaments" + path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }).then(r => r.json());
			const e = await post("", { kind: "arena", name: `+strconv.Quote(name)+`, game: "nymphabet", clock: 60, minutes: 60 });
			if (!e.id) return JSON.stringify(e);
			if (e.name === "Club night") await post("/" + e.id + "/join", {});
			const s = await post("/" + e.id + "/start", {});
			return s.status || JSON.stringify(s);
		})()`)
		if got != "started" {
			t.Fatalf("making %s: %s", name, got)
		}
	}
	ann.Open("/")
	ann.Wait("the home page's events", `!!document.querySelector("#home-events-list a")`)
	if got := ann.Text("#home-events-list li:first-child"); !strings.HasPrefix(got, "Club night · Nymphabet, arena, 1 player") {
		t.Errorf("the home page's first event reads %q", got)
	}
}

// TestTournamentSwissWithdrawAndBack: a player who withdraws from a
// Swiss under way may come back, as the server allows: the page offers
// them to join again (and not to a stranger, whose line says the field
// is fixed), and joining again puts them back in.
func TestTournamentSwissWithdrawAndBack(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	cy := e2e.NewPlayer(t, b, "Cy", base)
	ann.SignUp("Ann", "correct horse battery")
	ben.SignUp("Ben", "another fine phrase")
	cy.SignUp("Cyd", "a third fine phrase")
	id := e2e.Eval[string](ann, `fetch("/api/v1/tournaments", { method: "POST", headers: { "Content-Type": "application/json" },
		body: JSON.stringify({ kind: "swiss", name: "Short Swiss", game: "nymphabet", clock: 60, rounds: 1 }) }).then(r => r.json()).then(e => e.id || JSON.stringify(e))`)
	page := "/tournaments/" + id
	for _, p := range []*e2e.Player{ann, ben} {
		joinAt(p, page)
	}
	ann.Wait("both in", `document.querySelectorAll("#t-standings tbody tr").length === 2`)
	ann.Click("#t-start")
	ben.Wait("the table of round 1", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)

	ben.Open(page)
	ben.Wait("the withdraw button", `!!document.querySelector("#t-leave")`)
	ben.Click("#t-leave")
	ben.Wait("the offer to come back", `!!document.querySelector("#t-join")`)
	if got := ben.Text("#t-join"); got != "Join again" {
		t.Errorf("the withdrawn player's button reads %q", got)
	}
	ben.Click("#t-join")
	ben.Wait("back in", `!!document.querySelector("#t-in")`)
	if got := ben.Text("#t-error"); got != "" {
		t.Errorf("joining again: the page says %q", got)
	}

	cy.Open(page)
	cy.Wait("the event's page", `!!document.querySelector("#t-actions span")`)
	if e2e.Eval[bool](cy, `!!document.querySelector("#t-join")`) {
		t.Errorf("a stranger is offered to join a Swiss under way")
	}
}

// TestTournamentSwissRoundWait: in a Swiss round of two tables, a player
// whose game ended first, back on the event's page while the other table
// plays on, is told that their game of the round is over and the next
// round waits for the others; not that they sit the round out with a bye.
func TestTournamentSwissRoundWait(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	names := []string{"Ann", "Ben", "Cyd", "Dee"}
	var ps []*e2e.Player
	for i, n := range names {
		p := e2e.NewPlayer(t, b, n, base)
		p.SignUp(n, fmt.Sprintf("a fine phrase number %d", i))
		ps = append(ps, p)
	}
	id := e2e.Eval[string](ps[0], `fetch("/api/v1/tournaments", { method: "POST", headers: { "Content-Type": "application/json" },
		body: JSON.stringify({ kind: "swiss", name: "Even Swiss", game: "nymphabet", clock: 60, rounds: 2 }) }).then(r => r.json()).then(e => e.id || JSON.stringify(e))`)
	page := "/tournaments/" + id
	for _, p := range ps {
		joinAt(p, page)
	}
	ps[0].Wait("all four in", `document.querySelectorAll("#t-standings tbody tr").length === 4`)
	ps[0].Click("#t-start")
	at := map[string][]*e2e.Player{}
	for _, p := range ps {
		p.Wait("the table of round 1", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
		path := e2e.Eval[string](p, `location.pathname`)
		at[path] = append(at[path], p)
	}
	if len(at) != 2 {
		t.Fatalf("round 1 seated the four at %d tables", len(at))
	}
	var first []*e2e.Player
	for _, two := range at {
		first = two
		break
	}
	e2e.PlayToResign(t, first[0], first[1])
	loser := first[1]
	loser.Open(page)
	loser.Wait("the round's other game under way", `document.querySelectorAll("#t-playing li").length === 1 && document.querySelector("#t-when").textContent === "Round 1 of 2."`)
	loser.Wait("word of the round", `!!document.querySelector("#t-round-done")`)
	if got := loser.Text("#t-round-done"); got != "Your game of round 1 is over: round 2 begins when every game of this one has ended." {
		t.Errorf("the player whose game ended is told %q", got)
	}
	if e2e.Eval[bool](loser, `!!document.querySelector("#t-bye")`) {
		t.Errorf("the player whose game ended is told they have a bye: %q", loser.Text("#t-bye"))
	}

	// The loser withdraws; round 2 pairs the other three, one with a
	// bye. Back in the event after that, the loser waits for round 3
	// and has no bye, which the player who has one is told.
	loser.Click("#t-leave")
	loser.Wait("out", `!!document.querySelector("#t-join")`)
	var rest []*e2e.Player
	for _, two := range at {
		if two[0] != first[0] {
			rest = two
		}
	}
	e2e.PlayToResign(t, rest[0], rest[1])
	loser.Wait("round 2 under way", `document.querySelector("#t-when").textContent === "Round 2 of 2." && document.querySelectorAll("#t-playing li").length === 1`)
	loser.Click("#t-join")
	loser.Wait("back in", `!!document.querySelector("#t-in")`)
	if e2e.Eval[bool](loser, `!!document.querySelector("#t-bye, #t-round-done")`) {
		t.Errorf("the player back after round 2 was paired is told %q", loser.Text("#t-your-game"))
	}
	var byes int
	for _, p := range []*e2e.Player{first[0], rest[0], rest[1]} {
		p.Open(page)
		p.Wait("the event's page", `(document.querySelector("#t-when") || {}).textContent === "Round 2 of 2." && !!document.querySelector("#t-in")`)
		p.Wait("their game or their bye", `!!document.querySelector("#t-go, #t-bye")`)
		if e2e.Eval[bool](p, `!!document.querySelector("#t-bye")`) {
			byes++
		}
	}
	if byes != 1 {
		t.Errorf("%d players of round 2 are told of a bye, want 1", byes)
	}
}

// TestTournamentChatCount: the event chat's box counts a message's
// characters as the server does, as a table's box does: an accent with
// its letter, each sign of an emoji sequence but not its joiner; a
// message over the cap reads as an error; sending empties the count.
func TestTournamentChatCount(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.SignUp("Ann", "correct horse battery")
	id := e2e.Eval[string](ann, `fetch("/api/v1/tournaments", { method: "POST", headers: { "Content-Type": "application/json" },
		body: JSON.stringify({ kind: "arena", name: "Counted Arena", game: "salvo", clock: 60, minutes: 60 }) }).then(r => r.json()).then(e => e.id || JSON.stringify(e))`)
	ann.Open("/tournaments/" + id)
	ann.Wait("the chat panel", `(document.querySelector("#t-chat")||{dataset:{}}).dataset.state === "live" && !document.querySelector("#t-chat").hidden`)
	set := func(text string) string {
		t.Helper()
		return e2e.Eval[string](ann, `(() => { const el = document.querySelector("#t-chat-text"); el.value = `+strconv.Quote(text)+`; el.dispatchEvent(new Event("input")); const c = document.querySelector("#t-chat-count"); return c.textContent + " " + c.className; })()`)
	}
	for _, c := range []struct{ text, want string }{
		{strings.Repeat("e\u0301", 150), "150/200 help"},
		{strings.Repeat("👩\u200d💻", 100), "100/200 help"},
		{strings.Repeat("x", 201), "201/200 error"},
	} {
		if got := set(c.text); got != c.want {
			t.Errorf("the box with %d bytes reads %q, want %q", len(c.text), got, c.want)
		}
	}
	set("good luck")
	ann.Click("#t-chat-send")
	ann.Wait("the line sent", `document.querySelector("#t-chat-log").textContent.includes("Ann: good luck")`)
	if got := ann.Text("#t-chat-count"); got != "0/200" {
		t.Errorf("after sending, the count reads %q", got)
	}
}

// TestTournamentRatedForAccounts: a rated event takes players with
// accounts only, so a guest on its page is told so, with the way to sign
// in, rather than offered a Join the server refuses; once signed up, the
// same player may join. An event that asks for rated games takes
// accounts only too, and of them those with the games: an account short
// of them is told its count, with no Join.
func TestTournamentRatedForAccounts(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	gus := e2e.NewPlayer(t, b, "Gus", base)
	ann.SignUp("Ann", "correct horse battery")
	id := e2e.Eval[string](ann, `fetch("/api/v1/tournaments", { method: "POST", headers: { "Content-Type": "application/json" },
		body: JSON.stringify({ kind: "arena", name: "Rated Arena", game: "nymphabet", clock: { kind: "fischer", initial: 60, increment: 0 }, minutes: 30, rated: true }) }).then(r => r.json()).then(e => e.id || JSON.stringify(e))`)
	gus.Open("/tournaments/" + id)
	gus.Wait("the accounts-only note", `!!document.querySelector("#t-accounts-only")`)
	if got := gus.Text("#t-accounts-only"); got != "A rated event: only players with accounts play in it. Sign in or sign up to join." {
		t.Errorf("the guest is told %q", got)
	}
	if e2e.Eval[bool](gus, `!!document.querySelector("#t-join")`) {
		t.Error("a guest is offered to join a rated event")
	}
	asks := e2e.Eval[string](ann, `fetch("/api/v1/tournaments", { method: "POST", headers: { "Content-Type": "application/json" },
		body: JSON.stringify({ kind: "arena", name: "Club Arena", game: "nymphabet", clock: { kind: "fischer", initial: 60, increment: 0 }, minutes: 30, min_rated_games: 2 }) }).then(r => r.json()).then(e => e.id || JSON.stringify(e))`)
	gus.Open("/tournaments/" + asks)
	gus.Wait("the accounts-only note", `!!document.querySelector("#t-accounts-only")`)
	if got := gus.Text("#t-accounts-only"); got != "This event asks for rated games: only players with accounts play in it. Sign in or sign up to join." {
		t.Errorf("the guest is told %q at an event asking for rated games", got)
	}
	gus.SignUp("Gus", "a guest no more")
	joinAt(gus, "/tournaments/"+id)
	gus.Open("/tournaments/" + asks)
	gus.Wait("the rated games asked", `!!document.querySelector("#t-short")`)
	gus.Shot("event-short-of-rated-games")
	if got := gus.Text("#t-short"); got != "This event asks for 2 rated games in its rating pool; you have played 0." {
		t.Errorf("an account without the rated games is told %q", got)
	}
	if e2e.Eval[bool](gus, `!!document.querySelector("#t-join")`) {
		t.Error("an account without the rated games asked is offered to join")
	}
}

// TestTournamentFull: an event capped at two players, once two have
// joined, offers a third no Join the server would refuse: it says it is
// full, and its terms say the cap; one of its players who leaves frees
// the place, and the Join comes back.
func TestTournamentFull(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ps := []*e2e.Player{e2e.NewPlayer(t, b, "Ann", base), e2e.NewPlayer(t, b, "Ben", base), e2e.NewPlayer(t, b, "Cy", base)}
	ps[0].SignUp("Ann", "correct horse battery")
	ps[1].SignUp("Ben", "another fine phrase")
	ps[2].SignUp("Cyd", "a third fine phrase")
	id := e2e.Eval[string](ps[0], `fetch("/api/v1/tournaments", { method: "POST", headers: { "Content-Type": "application/json" },
		body: JSON.stringify({ kind: "arena", name: "Pair night", game: "nymphabet", clock: { kind: "fischer", initial: 60, increment: 0 }, minutes: 30, max_players: 2 }) }).then(r => r.json()).then(e => e.id || JSON.stringify(e))`)
	page := "/tournaments/" + id
	for _, p := range ps[:2] {
		joinAt(p, page)
	}
	cy := ps[2]
	cy.Open(page)
	cy.Wait("full", `!!document.querySelector("#t-full")`)
	if got := cy.Text("#t-full"); got != "This event is full: it takes 2 players." {
		t.Errorf("the full event says %q", got)
	}
	if got := cy.Text("#t-terms"); !strings.Contains(got, "2 players · at most 2 players") {
		t.Errorf("the terms read %q", got)
	}
	if e2e.Eval[bool](cy, `!!document.querySelector("#t-join")`) {
		t.Error("a full event offers a newcomer to join")
	}
	ps[1].Click("#t-leave")
	cy.Wait("the join back once Ben left", `!!document.querySelector("#t-join")`)
	// The list says how many a capped event takes, and when it is full.
	ps[1].Click("#t-join")
	ps[1].Wait("in again", `!!document.querySelector("#t-in")`)
	cy.Open("/tournaments")
	row := `document.querySelector('tr[data-event="` + id + `"]')`
	cy.Wait("the event listed", "!!"+row)
	if got := e2e.Eval[string](cy, row+`.lastElementChild.textContent`); got != "2 of 2 (full)" {
		t.Errorf("the list's players of the full event read %q", got)
	}
}
