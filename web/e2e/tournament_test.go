package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"parlour/server"
)

// pick sets the select sel of p's page to the option whose value is
// value, as a player choosing it does, and fails when there is none.
func (p *player) pick(sel, value string) {
	p.t.Helper()
	if !eval[bool](p, fmt.Sprintf(`(() => { const s = document.querySelector(%q); if (!s || ![...s.options].some(o => o.value === %q)) return false; s.value = %q; s.dispatchEvent(new Event("change")); return true; })()`, sel, value, value)) {
		p.fail("no option %q in %s", value, sel)
	}
}

// playToResign plays one Nymphabet game of an event to its end: both
// move once, so that it is no abort, and loser resigns. It answers the
// table's path.
func playToResign(t *testing.T, winner, loser *player) string {
	t.Helper()
	at := eval[string](winner, `location.pathname`)
	if got := eval[string](loser, `location.pathname`); got != at {
		t.Fatalf("%s is at %s, %s at %s: not the same table", winner.name, at, loser.name, got)
	}
	winner.wait("a seat", `["0","1"].includes((document.querySelector("#turn")||{dataset:{}}).dataset.mine)`)
	first, second := winner, loser
	if eval[string](winner, `document.querySelector("#turn").dataset.mine`) != "1" {
		first, second = loser, winner
	}
	first.waitTurn(true)
	first.typeIn("#n-word", "abdicate")
	first.click("#n-controls button[type=submit]")
	second.waitTurn(true)
	second.typeIn("#n-word", "defog")
	second.click("#n-controls button[type=submit]")
	loser.wait("the Resign button without Abort", `!document.querySelector("#abort") && !!document.querySelector("#resign")`)
	eval[bool](loser, `(window.confirm = () => true, true)`)
	loser.click("#resign")
	for _, p := range []*player{winner, loser} {
		p.wait("the end of the game", `!!document.querySelector("#game-over")`)
	}
	return at
}

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
	clk := &jumpClock{}
	srv := newConfiguredServer(t, func(c *server.Config) { c.Clock = clk })
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", srv.base)
	ben := newPlayer(t, b, "Ben", srv.base)
	cy := newPlayer(t, b, "Cy", srv.base)
	const secret = "Open sesame 42"
	ann.signUp("Ann", "correct horse battery")

	// The form: an arena of Nymphabet, refused first for a clock its
	// length cannot hold.
	ann.open("/tournaments")
	ann.wait("the form", `!!document.querySelector("#t-create-form") && document.querySelectorAll("#t-game option").length > 0`)
	ann.shot("tournaments-empty")
	ann.accessibleThemes("the tournaments list")
	ann.labelled("the tournaments list")
	ann.typeIn("#t-name", "Friday Arena")
	ann.pick("#t-game", "nymphabet")
	ann.pick("#t-clock", `{"kind":"fischer","initial":900,"increment":10}`)
	ann.typeIn("#t-minutes", "1")
	ann.typeIn("#t-password", secret)
	ann.click("#t-create-form button[type=submit]")
	ann.wait("the refusal", `document.querySelector("#t-create-error").textContent !== ""`)
	if got := ann.text("#t-create-error"); !strings.Contains(got, "longer than the arena") {
		t.Errorf("the refusal of a too short arena reads %q", got)
	}
	if got := eval[string](ann, `location.pathname`); got != "/tournaments" {
		t.Errorf("a refused event left the list for %s", got)
	}
	ann.pick("#t-clock", `{"kind":"fischer","initial":60,"increment":0}`)
	ann.typeIn("#t-minutes", "10")
	ann.click("#t-create-form button[type=submit]")
	ann.wait("the event's page", `location.pathname.startsWith("/tournaments/") && !!document.querySelector("#t-join")`)
	page := eval[string](ann, `location.pathname`)
	id := strings.TrimPrefix(page, "/tournaments/")
	if got := ann.text("#t-title"); !strings.HasPrefix(got, "Friday Arena") {
		t.Errorf("the event's title reads %q", got)
	}
	if got := ann.text("#t-terms"); !strings.Contains(got, "Arena · Nymphabet · clock 1+0") || !strings.Contains(got, "10 minutes · 0 players") || !strings.Contains(got, "made by Ann") {
		t.Errorf("the event's terms read %q", got)
	}
	if got := ann.text("#t-when"); !strings.HasPrefix(got, "Starts in ") {
		t.Errorf("the countdown reads %q", got)
	}

	// No password, then a wrong one, are refused in place; the right one
	// lets Ann in.
	ann.click("#t-join")
	ann.wait("the missing password", `document.querySelector("#t-error").textContent !== ""`)
	if got := ann.text("#t-error"); got != "This event has a password: type it first." {
		t.Errorf("no password: the page says %q", got)
	}
	ann.typeIn("#t-join-password", "open sesame")
	ann.click("#t-join")
	ann.wait("the refusal", `document.querySelector("#t-error").textContent !== ""`)
	if got := ann.text("#t-error"); !strings.Contains(got, "not the password of Friday Arena") {
		t.Errorf("a wrong password: the page says %q", got)
	}
	ann.typeIn("#t-join-password", secret)
	ann.click("#t-join")
	ann.wait("Ann in", `!!document.querySelector("#t-in") && !!document.querySelector("#t-start")`)

	// Ben, a guest, finds it in the list and joins.
	ben.open("/")
	eval[bool](ben, `(localStorage.setItem("parlour.name", JSON.stringify("Ben")), true)`)
	ben.wait("the home page's events", `!!document.querySelector("#home-events-list a")`)
	ben.click("#home-events-all")
	ben.wait("the event listed", fmt.Sprintf(`!!document.querySelector('#t-list-created tr[data-event=%q] a')`, id))
	if got := ben.text(fmt.Sprintf(`#t-list-created tr[data-event=%q]`, id)); !strings.Contains(got, "password") || !strings.Contains(got, "1+0") || !strings.Contains(got, "starts in") {
		t.Errorf("the list's line of the event reads %q", got)
	}
	ben.shot("tournaments-list")
	ben.click(fmt.Sprintf(`#t-list-created tr[data-event=%q] a`, id))
	ben.wait("the event's page", `!!document.querySelector("#t-join-password")`)
	if eval[bool](ben, `!!document.querySelector("#t-start")`) {
		t.Errorf("Ben is offered to start Ann's event")
	}
	ben.typeIn("#t-join-password", secret)
	ben.click("#t-join")
	ben.wait("Ben in", `!!document.querySelector("#t-in") && document.querySelectorAll("#t-standings tbody tr").length === 2`)

	cy.open(page)
	cy.wait("the standings", `document.querySelectorAll("#t-standings tbody tr").length === 2`)
	cy.accessibleThemes("an event's page")
	cy.labelled("an event's page")

	// Ann starts it: both are led to their table.
	ann.click("#t-start")
	for _, p := range []*player{ann, ben} {
		p.wait("the table of the event", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	}
	cy.wait("the game under way, to watch", `!!document.querySelector("#t-playing a.button")`)
	if got := cy.text("#t-when"); !strings.HasPrefix(got, "Ends in ") {
		t.Errorf("a running arena's countdown reads %q", got)
	}
	cy.shot("tournament-started")
	cy.click("#t-playing a.button")
	cy.wait("the game, watched", `location.search === "?watch=1" && !!document.querySelector("#turn")`)
	table := playToResign(t, ann, ben)
	if got := eval[string](cy, `location.pathname`); got != table {
		t.Errorf("Cy watches %s, the game is at %s", got, table)
	}

	// The standings moved.
	cy.open(page)
	cy.wait("Ann's win in the standings", `(document.querySelector("#t-standings tbody tr[data-player=Ann] .score")||{}).textContent === "2"`)
	if got := cy.text("#t-standings tbody tr:first-child"); !strings.Contains(got, "Ann") {
		t.Errorf("the first line of the standings reads %q", got)
	}
	if got := cy.text("#t-standings tbody tr[data-player=Ben]"); !strings.Contains(got, "Ben") || !strings.Contains(got, "\t1\t0\t0\t1") {
		t.Errorf("Ben's line of the standings reads %q", got)
	}
	cy.click("#t-standings tr[data-player=Ben] .player-pick")
	cy.wait("Ben's games", `!!document.querySelector("#t-player-games li")`)
	if got := cy.text("#t-player-games"); !strings.Contains(got, "against Ann (lost, 0 points)") {
		t.Errorf("Ben's games read %q", got)
	}
	cy.shot("tournament-standings")

	// The next game: Ann by the stream's banner, Ben by the page's link.
	ann.wait("the banner of the next game", `!!document.querySelector(".banner.your-game a")`)
	ann.click(".banner.your-game a")
	ann.wait("the next table", `location.pathname.startsWith("/t/") && location.pathname !== `+jsString(table)+` && !!document.querySelector("#turn")`)
	// Ben, a guest without a stream, hears of it from the page's asking.
	ben.wait("the guest's banner of the next game", `!!document.querySelector(".banner.your-game a")`)
	if got := ben.text(".banner.your-game"); !strings.Contains(got, "Your game is ready: Nymphabet in Friday Arena, against Ann.") {
		t.Errorf("Ben's banner reads %q", got)
	}
	// The table of an event names it and leads back to it, rather than
	// offer a rematch.
	if got := strings.TrimSpace(ben.text("#event-link")); got != "· Friday Arena" {
		t.Errorf("the table's link to its event reads %q", got)
	}
	if eval[bool](ben, `!!document.querySelector("#rematch")`) {
		t.Errorf("a game of an event offers a rematch")
	}
	ben.click("#event-back")
	ben.wait("the link to the next game", `location.pathname === `+jsString(page)+` && !!document.querySelector("#t-go")`)
	if got := ben.text("#t-your-game"); !strings.Contains(got, "Your game is ready: against Ann.") {
		t.Errorf("Ben's page says %q", got)
	}
	ben.click("#t-go")
	ben.wait("the next table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	playToResign(t, ann, ben)

	// The arena's time passes: the game under way ends on the clock, the
	// event finishes and names its winner.
	cy.wait("Ann's two wins", `(document.querySelector("#t-standings tbody tr[data-player=Ann] .score")||{}).textContent === "4"`)
	if !eval[bool](cy, `!!document.querySelector("#t-standings tbody tr[data-player=Ann] .badge.streak")`) {
		t.Errorf("Ann, two wins in a row, has no streak mark: %q", cy.text("#t-standings tbody tr[data-player=Ann]"))
	}
	clk.Jump(11 * time.Minute)
	cy.wait("the winners", `!!document.querySelector("#t-winners h2")`)
	if got := cy.text("#t-winners"); !strings.Contains(got, "Won by Ann") || !strings.Contains(got, "Second: Ben") {
		t.Errorf("the winners read %q", got)
	}
	if eval[bool](cy, `!!document.querySelector("#t-join") || !!document.querySelector("#t-leave")`) {
		t.Errorf("a finished event offers to join or leave")
	}
	cy.shot("tournament-finished")
	cy.accessibleThemes("a finished event's page")
	cy.open("/tournaments")
	cy.wait("the event's winner in the list", fmt.Sprintf(`(document.querySelector('#t-list-finished tr[data-event=%q] .winner')||{}).textContent === "Ann"`, id))
	cy.open("/players/Ann")
	cy.wait("the events won", fmt.Sprintf(`!!document.querySelector('#profile-events li[data-event=%q]')`, id))
	if got := cy.text("#profile-events"); !strings.Contains(got, "Ann won 1 event") || !strings.Contains(got, "1st Friday Arena") {
		t.Errorf("Ann's profile's events read %q", got)
	}
	cy.accessible("a profile with an event won")

	for _, p := range []*player{ann, ben, cy} {
		p.noSecrets("in the arena", secret)
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
	base := startServer(t)
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", base)
	gus := newPlayer(t, b, "Gus", base)

	gus.open("/tournaments")
	gus.wait("the list", `!!document.querySelector("#t-create")`)
	if got := gus.text("#t-create"); !strings.Contains(got, "Sign in to make an event of your own") {
		t.Errorf("a guest's form reads %q", got)
	}

	ann.signUp("Ann", "correct horse battery")
	ann.open("/tournaments")
	ann.wait("the form", `!!document.querySelector("#t-create-form") && document.querySelectorAll("#t-game option").length > 0`)
	seats := `!document.querySelector("#t-seats").closest(".field").hidden`
	for _, tc := range []struct {
		kind, game string
		seats      bool
	}{{"arena", "quizl", false}, {"swiss", "nymphabet", false}, {"swiss", "salvo", false}, {"swiss", "wordfight", true}, {"swiss", "quizl", true}} {
		ann.pick("#t-kind", tc.kind)
		ann.pick("#t-game", tc.game)
		if got := eval[bool](ann, seats); got != tc.seats {
			t.Errorf("%s of %s: the seats are offered: %v, want %v", tc.kind, tc.game, got, tc.seats)
		}
		if got := eval[bool](ann, `!document.querySelector("#t-rounds").closest(".field").hidden`); got != (tc.kind == "swiss") {
			t.Errorf("%s: the rounds are offered: %v", tc.kind, got)
		}
	}
	ann.pick("#t-seats", "3")
	ann.typeIn("#t-name", "Sunday Swiss")
	ann.typeIn("#t-description", "Two rounds of Quizl, three a table.")
	ann.typeIn("#t-rounds", "2")
	ann.pick("#t-clock", "300")
	ann.shot("tournament-form-swiss")
	ann.click("#t-create-form button[type=submit]")
	ann.wait("the event's page", `location.pathname.startsWith("/tournaments/") && !!document.querySelector("#t-join")`)
	if got := ann.text("#t-terms"); !strings.Contains(got, "Swiss, 3 a table · Quizl · clock 5 minutes a turn · casual · 2 rounds · 0 players") {
		t.Errorf("the Swiss's terms read %q", got)
	}
	if got := ann.text("#t-description"); got != "Two rounds of Quizl, three a table." {
		t.Errorf("the description reads %q", got)
	}
	if eval[bool](ann, `!!document.querySelector("#t-join-password")`) {
		t.Errorf("an event without a password asks for one")
	}
	ann.click("#t-join")
	ann.wait("Ann in", `!!document.querySelector("#t-in") && document.querySelectorAll("#t-standings tbody tr").length === 1`)
	if got := ann.text("#t-standings thead"); !strings.Contains(got, "Buchholz") || !strings.Contains(got, "S-B") {
		t.Errorf("a Swiss's standings' columns read %q", got)
	}
	ann.click("#t-start")
	ann.wait("the refusal", `document.querySelector("#t-error").textContent !== ""`)
	if got := ann.text("#t-error"); !strings.Contains(got, "needs at least 3 players to start; it has 1") {
		t.Errorf("starting a Swiss of one: the page says %q", got)
	}
	if got := ann.text("#t-when"); !strings.HasPrefix(got, "Starts in ") {
		t.Errorf("after the refusal the countdown reads %q", got)
	}
	ann.accessibleThemes("a Swiss's page")

	// Leaving takes Ann out; the list shows the Swiss to come.
	ann.click("#t-leave")
	ann.wait("Ann out", `!!document.querySelector("#t-join") && document.querySelectorAll("#t-standings tbody tr").length === 0`)
	id := strings.TrimPrefix(eval[string](ann, `location.pathname`), "/tournaments/")
	gus.open("/tournaments")
	gus.wait("the Swiss listed", fmt.Sprintf(`!!document.querySelector('#t-list-created tr[data-event=%q]')`, id))
	if got := gus.text(fmt.Sprintf(`#t-list-created tr[data-event=%q]`, id)); !strings.Contains(got, "Sunday Swiss") || !strings.Contains(got, "Swiss, 3 a table") || strings.Contains(got, "password") {
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
	base := startServer(t)
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", base)
	gus := newPlayer(t, b, "Gus", base)
	cy := newPlayer(t, b, "Cy", base)
	ann.signUp("Ann", "correct horse battery")
	id := eval[string](ann, `fetch("/api/v1/tournaments", { method: "POST", headers: { "Content-Type": "application/json" },
		body: JSON.stringify({ kind: "arena", name: "Chatty Arena", game: "salvo", clock: 60, minutes: 60 }) }).then(r => r.json()).then(e => e.id || JSON.stringify(e))`)
	page := "/tournaments/" + id
	gus.open("/")
	eval[bool](gus, `(localStorage.setItem("parlour.name", JSON.stringify("Gus")), true)`)
	for _, p := range []*player{ann, gus, cy} {
		p.open(page)
		p.wait("the chat panel", `(document.querySelector("#t-chat")||{dataset:{}}).dataset.state === "live" && !document.querySelector("#t-chat").hidden`)
	}
	gus.click("#t-join")
	gus.wait("Gus in", `!!document.querySelector("#t-in")`)
	if got := ann.text("#t-chat-log"); got != "No messages yet." {
		t.Errorf("an empty chat reads %q", got)
	}
	ann.click("#t-chat-send")
	ann.wait("the empty line refused", `document.querySelector("#t-chat-error").textContent !== ""`)
	if got := ann.text("#t-chat-error"); got != "Write a message first." {
		t.Errorf("an empty line: the panel says %q", got)
	}
	ann.typeIn("#t-chat-text", "good luck, all")
	ann.click("#t-chat-send")
	gus.wait("Ann's line", `document.querySelector("#t-chat-log").textContent.includes("Ann: good luck, all")`)
	gus.typeIn("#t-chat-text", "thanks")
	gus.click("#t-chat-send")
	ann.wait("Gus's line", `document.querySelector("#t-chat-log").textContent.includes("Gus (guest): thanks")`)
	cy.wait("both lines", `document.querySelectorAll("#t-chat-log li").length === 2`)
	gus.typeIn("#t-chat-text", strings.Repeat("x", 201))
	gus.click("#t-chat-send")
	gus.wait("the refusal", `document.querySelector("#t-chat-error").textContent !== ""`)
	if got := gus.text("#t-chat-error"); !strings.Contains(got, "200") {
		t.Errorf("a line over the cap: the panel says %q", got)
	}
	cy.typeIn("#t-chat-text", "hello?")
	cy.click("#t-chat-send")
	cy.wait("the refusal", `document.querySelector("#t-chat-error").textContent !== ""`)
	if got := cy.text("#t-chat-error"); !strings.Contains(got, "join the event") {
		t.Errorf("a guest not in the event is told %q", got)
	}
	if n := eval[int](ann, `document.querySelectorAll("#t-chat-log li").length`); n != 2 {
		t.Errorf("Ann's chat holds %d lines, want 2", n)
	}
	// Ann made the event: she mutes Gus, whose next line is refused.
	if eval[bool](gus, `!!document.querySelector("#t-chat-log .chat-mute")`) {
		t.Errorf("a player who did not make the event is offered to mute")
	}
	ann.click(`#t-chat-log li button.chat-mute[aria-label="Mute Gus in this chat"]`)
	ann.wait("Gus muted", `!!document.querySelector('#t-chat-log button.chat-mute[aria-pressed="true"]')`)
	gus.typeIn("#t-chat-text", "still here")
	gus.click("#t-chat-send")
	gus.wait("the refusal", `document.querySelector("#t-chat-error").textContent !== "" && !document.querySelector("#t-chat-error").textContent.includes("200")`)
	if got := gus.text("#t-chat-error"); !strings.Contains(got, "muted you") {
		t.Errorf("a muted player is told %q", got)
	}
	ann.shot("tournament-chat")
	ann.accessibleThemes("an event's page with its chat")

	// A server without the event's chat: no panel.
	plain := newWrappedServer(t, nil, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/chat") {
				http.NotFound(w, r)
				return
			}
			next.ServeHTTP(w, r)
		})
	})
	dee := newPlayer(t, b, "Dee", plain.base)
	dee.signUp("Dee", "a fourth fine phrase")
	id = eval[string](dee, `fetch("/api/v1/tournaments", { method: "POST", headers: { "Content-Type": "application/json" },
		body: JSON.stringify({ kind: "arena", game: "salvo", clock: 60, minutes: 60 }) }).then(r => r.json()).then(e => e.id || JSON.stringify(e))`)
	dee.open("/tournaments/" + id)
	dee.wait("the page, asked for its chat", `!!document.querySelector("#t-join") && document.querySelector("#t-chat").dataset.state === "none"`)
	if !eval[bool](dee, `document.querySelector("#t-chat").hidden`) {
		t.Errorf("the chat panel shows on a server without the event's chat")
	}
}

// TestTournamentSwissPlayed plays a Swiss of one round between two
// accounts: its start seats both at once (each led there by their
// stream), the game's end ends the round and the event, and the page
// shows the winner, the round of each game and the tie-breaks.
func TestTournamentSwissPlayed(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", base)
	ben := newPlayer(t, b, "Ben", base)
	ann.signUp("Ann", "correct horse battery")
	ben.signUp("Ben", "another fine phrase")
	id := eval[string](ann, `fetch("/api/v1/tournaments", { method: "POST", headers: { "Content-Type": "application/json" },
		body: JSON.stringify({ kind: "swiss", name: "Quick Swiss", game: "nymphabet", clock: { kind: "fischer", initial: 60, increment: 0 }, rounds: 1 }) }).then(r => r.json()).then(e => e.id || JSON.stringify(e))`)
	page := "/tournaments/" + id
	for _, p := range []*player{ann, ben} {
		p.open(page)
		p.wait("the join button", `!!document.querySelector("#t-join")`)
		p.click("#t-join")
		p.wait("in", `!!document.querySelector("#t-in")`)
	}
	ann.wait("both in", `document.querySelectorAll("#t-standings tbody tr").length === 2`)
	ann.click("#t-start")
	for _, p := range []*player{ann, ben} {
		p.wait("the table of round 1", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	}
	ann.wait("the link to the event", `!!document.querySelector("#event-link")`)
	if got := strings.TrimSpace(ann.text("#event-link")); got != "· Quick Swiss, round 1" {
		t.Errorf("the table's link to its event reads %q", got)
	}
	playToResign(t, ann, ben)
	ben.click("#event-back")
	ben.wait("the winners", `location.pathname === `+jsString(page)+` && !!document.querySelector("#t-winners h2")`)
	if got := ben.text("#t-winners"); !strings.Contains(got, "Won by Ann") || !strings.Contains(got, "Second: Ben") {
		t.Errorf("the winners read %q", got)
	}
	if got := ben.text("#t-when"); !strings.HasPrefix(got, "Finished ") {
		t.Errorf("a finished event's time reads %q", got)
	}
	// Buchholz is the opponents' scores (Ann's opponent has 0, Ben's 2);
	// Sonneborn-Berger weighs them by the result (Ann beat a player of 0,
	// Ben beat nobody).
	for _, tc := range []struct{ who, want string }{
		{"Ann", "1\tAnn\t2\t1\t1\t0\t0\t0\t0"},
		{"Ben", "2\tBen\t0\t1\t0\t0\t1\t2\t0"},
	} {
		if got := strings.TrimSpace(ben.text(fmt.Sprintf("#t-standings tbody tr[data-player=%s]", tc.who))); got != tc.want {
			t.Errorf("%s's line of the standings reads %q, want %q", tc.who, got, tc.want)
		}
	}
	ben.click("#t-standings tr[data-player=Ann] .player-pick")
	ben.wait("Ann's games", `!!document.querySelector("#t-player-games li")`)
	if got := ben.text("#t-player-games li"); !strings.HasPrefix(got, "Round 1: against Ben (won, 2 points)") {
		t.Errorf("Ann's games read %q", got)
	}
	if eval[bool](ben, `!!document.querySelector("#t-join") || !!document.querySelector("#t-leave")`) {
		t.Errorf("a finished event offers to join or leave")
	}
}

// TestTournamentSwissBye: a Swiss of three at two a table gives one
// player a bye in its round. The two paired play (the loser resigns);
// the one left out stays on the event's page, is told so, and ends with
// a win's points and the bye marked in the standings; all three are
// named on the podium.
func TestTournamentSwissBye(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	b := newBrowser(t)
	ps := []*player{newPlayer(t, b, "Ann", base), newPlayer(t, b, "Ben", base), newPlayer(t, b, "Cy", base)}
	ps[0].signUp("Ann", "correct horse battery")
	ps[1].signUp("Ben", "another fine phrase")
	ps[2].signUp("Cyd", "a third fine phrase")
	id := eval[string](ps[0], `fetch("/api/v1/tournaments", { method: "POST", headers: { "Content-Type": "application/json" },
		body: JSON.stringify({ kind: "swiss", name: "Odd Swiss", game: "nymphabet", clock: 60, rounds: 1 }) }).then(r => r.json()).then(e => e.id || JSON.stringify(e))`)
	page := "/tournaments/" + id
	for _, p := range ps {
		p.open(page)
		p.wait("the join button", `!!document.querySelector("#t-join")`)
		p.click("#t-join")
		p.wait("in", `!!document.querySelector("#t-in")`)
	}
	ps[0].wait("all three in", `document.querySelectorAll("#t-standings tbody tr").length === 3`)
	ps[0].click("#t-start")
	// Two of them are led to a table; the third stays.
	var seated, left []*player
	deadline := time.Now().Add(20 * time.Second)
	for len(seated) < 2 && time.Now().Before(deadline) {
		seated, left = nil, nil
		for _, p := range ps {
			if eval[bool](p, `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`) {
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
	bye.wait("the round under way", `document.querySelector("#t-when").textContent === "Round 1 of 1." && !!document.querySelector("#t-playing a.button")`)
	bye.wait("the bye", `!!document.querySelector("#t-bye")`)
	if got := bye.text("#t-bye"); got != "You sit out round 1: a bye, which scores as a win." {
		t.Errorf("the player with the bye is told %q", got)
	}
	if eval[bool](bye, `!!document.querySelector("#t-go")`) {
		t.Errorf("the player with the bye is told their game is ready")
	}
	playToResign(t, seated[0], seated[1])
	name := map[*player]string{ps[0]: "Ann", ps[1]: "Ben", ps[2]: "Cyd"}
	bye.wait("the winners", `!!document.querySelector("#t-winners h2")`)
	if got := bye.text("#t-winners"); !strings.Contains(got, "Third: ") {
		t.Errorf("the podium reads %q", got)
	}
	row := func(p *player) string {
		return bye.text(fmt.Sprintf("#t-standings tbody tr[data-player=%s]", name[p]))
	}
	if got := row(bye); !strings.Contains(got, name[bye]+" (1 bye)\t2\t") {
		t.Errorf("the line of the player with the bye reads %q", got)
	}
	if got := row(seated[1]); !strings.Contains(got, name[seated[1]]+"\t0\t1\t0\t0\t1") {
		t.Errorf("the loser's line reads %q", got)
	}
}
