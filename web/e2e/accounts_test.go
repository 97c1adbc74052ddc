package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"parlour/server"
)

// signUp signs p up on the account screen as name with password and
// waits for the profile the sign-up leads to.
func (p *player) signUp(name, password string) {
	p.t.Helper()
	p.trySignUp(name, password)
	p.wait("the new profile", fmt.Sprintf(`(document.querySelector("#profile-name")||{}).textContent === %q`, name))
	p.wait("the header's account", fmt.Sprintf(`document.querySelector("#account-link").textContent === %q`, name))
}

// trySignUp fills and sends the sign-up form.
func (p *player) trySignUp(name, password string) {
	p.t.Helper()
	p.open("/account")
	p.wait("the sign-up form", `!!document.querySelector("#signup-name")`)
	p.typeIn("#signup-name", name)
	p.typeIn("#signup-password", password)
	p.click("#signup button[type=submit]")
}

// signUpRefused checks that a sign-up is refused in place with the
// server's words.
func (p *player) signUpRefused(name, password, want string) {
	p.t.Helper()
	p.trySignUp(name, password)
	p.wait("the refusal", `document.querySelector("#signup-error").textContent !== ""`)
	if got := p.text("#signup-error"); !strings.Contains(got, want) {
		p.t.Errorf("signing up as %q with %q: the form says %q, want it to say %q", name, password, got, want)
	}
	if eval[string](p, `location.pathname`) != "/account" {
		p.t.Errorf("a refused sign-up left the account screen")
	}
}

// rating reads p's rating in pool from the profile on screen.
func (p *player) rating(pool string) float64 {
	p.t.Helper()
	s := eval[string](p, fmt.Sprintf(`(document.querySelector('#ratings tr[data-pool=%q] .rating')||{}).firstChild?.textContent || ""`, pool))
	r, err := strconv.ParseFloat(s, 64)
	if err != nil {
		p.fail("no %s rating on the profile (%q)", pool, s)
	}
	return r
}

// TestRatedGame signs two players up in two browsers (after the bad
// sign-ups each show the server's refusal in place), plays a rated
// Nymphabet game between them with chat on both sides and a spectator who
// cannot read the players' chat before the end, and checks both profiles:
// ratings moved each way, a chart, the game with its replay link.
func TestRatedGame(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", base)
	ben := newPlayer(t, b, "Ben", base)
	ann.signUp("Ann", "correct horse battery")
	ann.shot("account-profile-new")

	ben.signUpRefused("ANN", "another fine phrase", "taken")
	ben.signUpRefused("Ben", "short", "8")
	ben.signUpRefused("Ben", "password123", "common")
	ben.shot("account-signup-refused")
	for _, dark := range []bool{false, true} {
		ben.theme(dark)
		ben.accessible(fmt.Sprintf("the account screen (dark %v)", dark))
	}
	ben.theme(false)
	ben.labelled("the account screen")
	ben.signUp("Ben", "another fine phrase")

	// A rated table: the box is there for an account with a friend.
	ann.open("/new/nymphabet")
	ann.wait("the new table form", `!!document.querySelector("#rated")`)
	if eval[bool](ann, `document.querySelector("#rated").disabled`) {
		t.Fatalf("the rated box is disabled for an account with a friend: %s", ann.text("#rated-help"))
	}
	ann.click("#rated")
	ann.click("form button[type=submit]")
	ann.wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	id := strings.TrimPrefix(eval[string](ann, `location.pathname`), "/t/")
	ben.join(ann.inviteLink())

	cy := newPlayer(t, b, "Cy", base)
	// An account: a guest that new waits a minute to write to spectators.
	cy.signUp("Cyd", "a third fine phrase")
	cy.open("/t/" + id + "?watch=1")
	cy.wait("the table", `document.querySelectorAll(".alphabet span").length === 26 && !!document.querySelector("#chat-log")`)

	// Chat between the players.
	ann.wait("the chat", `!!document.querySelector("#chat-text")`)
	ann.typeIn("#chat-text", "good luck, Ben")
	ann.click("#chat-send")
	ben.wait("Ann's message", `document.querySelector("#chat-log").textContent.includes("good luck, Ben")`)
	ben.typeIn("#chat-text", "and to you")
	ben.click("#chat-send")
	ann.wait("Ben's message", `document.querySelector("#chat-log").textContent.includes("and to you")`)
	// The spectators' channel: Cy writes, and the players do not see it.
	cy.typeIn("#chat-text", "go Ann")
	cy.click("#chat-send")
	cy.wait("Cy's own message", `document.querySelector("#chat-log").textContent.includes("go Ann")`)
	// Over the cap: the counter says so and the server's refusal shows.
	ann.typeIn("#chat-text", strings.Repeat("x", 201))
	if got := ann.text("#chat-count"); got != "201/200" {
		t.Errorf("the chat counter reads %q for 201 characters", got)
	}
	ann.click("#chat-send")
	ann.wait("the refusal", `document.querySelector("#chat-error").textContent !== ""`)
	t.Logf("over the cap, the chat says: %s", ann.text("#chat-error"))
	ann.typeIn("#chat-text", "")
	ann.shot("chat-players")
	for _, p := range []*player{ann, ben} {
		p.accessible("the play screen with chat")
	}

	words := []string{"abdicate", "defog", "hijack", "lemon", "opaque", "rust", "uvula", "wax", "yolk", "zoo"}
	for i, w := range words {
		mover, other := ann, ben
		if i%2 == 1 {
			mover, other = ben, ann
		}
		mover.waitTurn(true)
		other.waitTurn(false)
		mover.typeIn("#n-word", w)
		mover.click("#n-controls button[type=submit]")
		mover.wait("word "+w, fmt.Sprintf(`document.querySelectorAll(".nwords li").length === %d`, i+1))
		if i == 5 {
			if got := cy.text("#chat-log"); strings.Contains(got, "good luck") || strings.Contains(got, "and to you") {
				t.Errorf("the spectator reads the players' chat during the game: %q", got)
			}
			if got := ann.text("#chat-log"); strings.Contains(got, "go Ann") {
				t.Errorf("a player reads the spectators' chat during the game: %q", got)
			}
		}
	}
	for _, p := range []*player{ann, ben, cy} {
		p.wait("the end", `!!document.querySelector("#game-over")`)
	}
	cy.wait("the players' chat, public at the end", `document.querySelector("#chat-log").textContent.includes("good luck, Ben")`)

	ann.open("/players/Ann")
	ann.wait("Ann's profile", `!!document.querySelector("#ratings") && !!document.querySelector("#games li a[href^='/replay?table=']")`)
	ben.open("/players/ben")
	ben.wait("Ben's profile", `!!document.querySelector("#ratings")`)
	ar, br := ann.rating("nymphabet-standard"), ben.rating("nymphabet-standard")
	if !(ar > 1500 && br < 1500) {
		t.Errorf("after Ann's win the ratings are Ann %v, Ben %v", ar, br)
	}
	t.Logf("ratings after one rated game: Ann %v, Ben %v", ar, br)
	if !eval[bool](ann, `document.querySelectorAll("#chart-nymphabet-standard circle").length === 2 && !!document.querySelector("#chart-nymphabet-standard polyline")`) {
		t.Error("Ann's profile has no rating chart of two points")
	}
	if got := ann.text("#ratings"); !strings.Contains(got, "provisional") {
		t.Errorf("a one-game rating is not marked provisional: %q", got)
	}
	// The pool is named by its game's title, as /api/v1/games says it,
	// and the variant rated apart.
	if got := ann.text(`#ratings tr[data-pool="nymphabet-standard"]`); !strings.HasPrefix(got, "Nymphabet (standard)") {
		t.Errorf("Ann's Nymphabet rating reads %q", got)
	}
	if got := ann.text("#games"); !strings.Contains(got, "Won Nymphabet against Ben") || !strings.Contains(got, "rated, +") {
		t.Errorf("Ann's game list: %q", got)
	}
	ann.shot("profile-rated")
	for _, dark := range []bool{false, true} {
		ann.theme(dark)
		ann.accessible(fmt.Sprintf("the profile (dark %v)", dark))
	}
	ann.theme(false)
	ann.labelled("the profile")
	href := eval[string](ann, `document.querySelector("#games li a[href^='/replay?table=']").getAttribute("href")`)
	if href != "/replay?table="+id {
		t.Errorf("the replay link is %q, want the table %s", href, id)
	}
	ann.click("#games li a[href^='/replay?table=']")
	ann.wait("the replay", `document.body.innerText.includes("Move 10 of 10")`)

	// On another device (a fresh browser context), signed in as Ben, the
	// table is Ben's seat through the session alone.
	ben2 := newPlayer(t, b, "Ben", base)
	ben2.open("/account")
	ben2.wait("the sign-in form", `!!document.querySelector("#signin-name")`)
	ben2.typeIn("#signin-name", "Ben")
	ben2.typeIn("#signin-password", "another fine phrase")
	ben2.click("#signin button[type=submit]")
	ben2.wait("signed in", `document.querySelector("#account-link").textContent === "Ben"`)
	ben2.open("/t/" + id)
	ben2.wait("Ben's seat", `!!document.querySelector("#game-over") && document.querySelector("#players").textContent.includes("Ben (you)")`)

	// Home lists the signed-in player's games from the server.
	ben.open("/")
	ben.wait("Ben's games", `document.querySelector("#my-finished") && document.querySelector("#my-finished").textContent.includes("Lost Nymphabet against Ann")`)

	// Sign out, and back in.
	ben.open("/account")
	ben.wait("the account screen", `!!document.querySelector("#signout")`)
	ben.click("#signout")
	ben.wait("signed out", `document.querySelector("#account-link").textContent === "Sign in"`)
	ben.open("/account")
	ben.wait("the sign-in form", `!!document.querySelector("#signin-name")`)
	ben.typeIn("#signin-name", "ben")
	ben.typeIn("#signin-password", "wrong password here")
	ben.click("#signin button[type=submit]")
	ben.wait("the refusal", `document.querySelector("#signin-error").textContent !== ""`)
	if got := ben.text("#signin-error"); got != "wrong name or password" {
		t.Errorf("a wrong password says %q", got)
	}
	ben.typeIn("#signin-password", "another fine phrase")
	ben.click("#signin button[type=submit]")
	ben.wait("signed in", `document.querySelector("#account-link").textContent === "Ben"`)

	ann.open("/leaderboards")
	ann.wait("the leaderboards", `document.querySelectorAll("#main section").length >= 6 && document.querySelectorAll("#main section p, #main section table").length >= 6`)
	ann.accessible("the leaderboards")
}

// TestClockRunsOut lets a 10-second clock run out on Ann's first move:
// the game is aborted, without a result, and both screens say why.
func TestClockRunsOut(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", base)
	ben := newPlayer(t, b, "Ben", base)
	ann.open("/new/nymphabet")
	ann.wait("the new table form", `!!document.querySelector("#clock")`)
	if !eval[bool](ann, `document.querySelector("#rated").disabled`) {
		t.Error("a guest is offered a rated game")
	}
	ann.typeIn("#my-name", "Ann")
	eval[bool](ann, `(() => { const s = document.querySelector("#clock"); s.value = "custom"; s.dispatchEvent(new Event("change")); return true; })()`)
	ann.typeIn("#clock-seconds", "5")
	ann.click("form button[type=submit]")
	ann.wait("the refusal", `document.querySelector("#main form .error").textContent.includes("10")`)
	t.Logf("a 5-second clock: %s", ann.text("#main form .error"))
	ann.typeIn("#clock-seconds", "10")
	ann.click("form button[type=submit]")
	ann.wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	ben.join(ann.inviteLink())
	ann.waitTurn(true)
	ann.wait("Ann's clock", `!!document.querySelector("#clock-0")`)
	first := ann.text("#clock-0")
	ann.wait("the clock counting down", `document.querySelector("#clock-0") && document.querySelector("#clock-0").textContent !== `+strconv.Quote(first))
	if !eval[bool](ann, `document.querySelector("#clock-0").classList.contains("low")`) {
		t.Errorf("ten seconds or less is not shown as low time")
	}
	if eval[bool](ben, `!!document.querySelector("#clock-1")`) {
		t.Errorf("a clock shows for Ben, who is not to move")
	}
	t.Logf("Ann's clock read %s, then %s", first, ann.text("#clock-0"))
	ann.shot("clock-running")
	ann.accessible("the play screen with a clock")
	for _, p := range []*player{ann, ben} {
		p.wait("the end by the clock", `!!document.querySelector("#end-reason") && /time/i.test(document.querySelector("#end-reason").textContent)`)
		t.Logf("%s's end banner: %s", p.name, p.text("#game-over"))
		if got := p.text("#game-over h2"); !strings.Contains(got, "aborted") {
			t.Errorf("%s's end banner does not say the game was aborted: %q", p.name, got)
		}
	}
	ben.shot("clock-ran-out")
	// Opened afresh, the end still says the time ran out.
	ann.open("/t/" + strings.TrimPrefix(eval[string](ann, `location.pathname`), "/t/"))
	ann.wait("the end again", `!!document.querySelector("#end-reason") && /ran out of time/.test(document.querySelector("#end-reason").textContent) && /aborted/.test(document.querySelector("#game-over h2").textContent)`)
	if eval[bool](ann, `!document.querySelector("#conn").hidden`) {
		t.Errorf("a finished game shows the connection's state (%q)", ann.text("#conn"))
	}
}

// TestClaimAndMute: at a table without a clock, a player who leaves on
// their turn shows as away, and the other is offered the claim; before 5
// minutes the server refuses it and the refusal shows in place. A muted
// players' chat hides its messages until unmuted.
func TestClaimAndMute(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", base)
	ben := newPlayer(t, b, "Ben", base)
	ann.createTable("nymphabet", "A friend")
	ben.join(ann.inviteLink())
	ann.waitTurn(true)
	ben.typeIn("#chat-text", "hello Ann")
	ben.click("#chat-send")
	ann.wait("Ben's message", `document.querySelector("#chat-log").textContent.includes("hello Ann")`)
	ann.click("#mute-players")
	ann.wait("the chat muted", `!document.querySelector("#chat-log").textContent.includes("hello Ann") && document.querySelector("#mute-players").getAttribute("aria-pressed") === "true"`)
	ann.click("#mute-players")
	ann.wait("the chat back", `document.querySelector("#chat-log").textContent.includes("hello Ann") && document.querySelector("#mute-players").getAttribute("aria-pressed") === "false"`)

	ann.typeIn("#n-word", "abdicate")
	ann.click("#n-controls button[type=submit]")
	ben.waitTurn(true)
	ben.click(`header nav a[href="/"]`) // Ben walks away on his turn
	ben.wait("the home page", `location.pathname === "/"`)
	ann.wait("the claim", `!!document.querySelector("#claim-button")`)
	// Before 5 minutes the claim is counted down to, not offered.
	if !eval[bool](ann, `document.querySelector("#claim-button").disabled`) {
		t.Errorf("the claim is offered at once: %q", ann.text("#claim"))
	}
	if got := ann.text("#claim-status"); !strings.Contains(got, "Ben left just now; you can claim in 4:") && !strings.Contains(got, "you can claim in 5:00") {
		t.Errorf("the claim's countdown says %q", got)
	}
	ann.shot("claim-counted-down")
	ann.accessible("the play screen with the claim")
}

// TestClaimCountdown: the moment a player leaves, the others see them
// marked disconnected; the player waiting on them sees how long ago they
// left and how long until the claim, and the button comes on exactly when
// the server takes the claim (here after a walk-away time of 3 seconds).
// Claimed, the game ends with the absent player resigning.
func TestClaimCountdown(t *testing.T) {
	t.Parallel()
	base := newConfiguredServer(t, func(c *server.Config) { c.WalkAway = 3 * time.Second }).base
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", base)
	ben := newPlayer(t, b, "Ben", base)
	ann.createTable("nymphabet", "A friend")
	ben.join(ann.inviteLink())
	ann.waitTurn(true)
	ben.waitTurn(false)
	ann.wait("Ben not marked while here", `!document.querySelector("#players .away")`)
	// Both move first: a claim before that aborts the game instead.
	for i, w := range []struct {
		mover, other *player
		word         string
	}{{ann, ben, "abdicate"}, {ben, ann, "dog"}, {ann, ben, "egg"}} {
		w.mover.waitTurn(true)
		w.other.waitTurn(false)
		w.mover.typeIn("#n-word", w.word)
		w.mover.click("#n-controls button[type=submit]")
		for _, p := range []*player{ann, ben} {
			p.wait("word "+w.word, fmt.Sprintf(`document.querySelectorAll(".nwords li").length === %d`, i+1))
		}
	}
	ben.waitTurn(true)
	ben.click(`header nav a[href="/"]`) // Ben walks away on his turn
	ben.wait("the home page", `location.pathname === "/"`)
	// No poll is due for 10 seconds: the mark comes with the server's push.
	ann.wait("Ben marked disconnected", `(document.querySelector("#players li[data-seat='1'] .away") || {}).textContent === " · disconnected"`)
	ann.wait("the countdown", `/^Ben left just now; you can claim in 0:0[1-3]\.$/.test((document.querySelector("#claim-status") || {}).textContent) && document.querySelector("#claim-button").disabled`)
	ann.shot("claim-countdown")
	ann.wait("the claim offered", `!document.querySelector("#claim-button").disabled && /you can claim the game now/.test(document.querySelector("#claim-status").textContent)`)
	ann.click("#claim-button")
	ann.wait("the end", `!!document.querySelector("#game-over")`)
	if got := ann.text("#end-reason"); !strings.Contains(got, "claimed the game") {
		t.Errorf("the end says %q", got)
	}
}

// TestAccountSettings: a guest with a game under way signs up and finds
// the game among its own; a wrong current password and an unticked
// deletion are refused in place; the password changes; the account is
// deleted and its name no longer signs in.
func TestAccountSettings(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", base)
	id := ann.createTable("nymphabet", "The computer")
	ann.signUp("Ann", "correct horse battery")
	ann.open("/")
	ann.wait("the guest's game, now the account's", fmt.Sprintf(`!!document.querySelector("#my-tables a[href='/t/%s']")`, id))
	ann.shot("home-signed-in")
	ann.accessible("the home page signed in")

	ann.open("/account")
	ann.wait("the account screen", `!!document.querySelector("#chpw-old")`)
	ann.accessible("the account settings")
	ann.labelled("the account settings")
	ann.typeIn("#chpw-old", "not my password")
	ann.typeIn("#chpw-new", "a brand new phrase")
	ann.click("#chpw button[type=submit]")
	ann.wait("the refusal", `document.querySelector("#chpw-error").textContent !== ""`)
	t.Logf("a wrong current password: %s", ann.text("#chpw-error"))
	ann.typeIn("#chpw-old", "correct horse battery")
	ann.typeIn("#chpw-new", "a brand new phrase")
	ann.click("#chpw button[type=submit]")
	ann.wait("the change", `document.querySelector("#chpw-old").value === "" && document.querySelector("#chpw-error").textContent === ""`)

	ann.typeIn("#delacct-password", "a brand new phrase")
	ann.click("#delacct button[type=submit]")
	ann.wait("the unticked box", `document.querySelector("#delacct-error").textContent.includes("tick")`)
	ann.click("#delacct-sure")
	ann.click("#delacct button[type=submit]")
	// The table under way holds a seat: the server refuses, naming it.
	ann.wait("the server's refusal", `document.querySelector("#delacct-error").textContent.includes("`+id+`")`)
	t.Logf("deleting with a game under way: %s", ann.text("#delacct-error"))
	ann.open("/t/" + id)
	ann.wait("the table", `!!document.querySelector("#turn")`)
	eval[bool](ann, `window.confirm = () => true; true`)
	ann.click("#resign")
	ann.wait("the end", `!!document.querySelector("#game-over")`)
	ann.open("/account")
	ann.wait("the account screen", `!!document.querySelector("#delacct-password")`)
	ann.typeIn("#delacct-password", "a brand new phrase")
	ann.click("#delacct-sure")
	ann.click("#delacct button[type=submit]")
	ann.wait("signed out", `location.pathname === "/" && document.querySelector("#account-link").textContent === "Sign in"`)
	ann.open("/players/Ann")
	ann.wait("no such player", `(document.querySelector("#main h1")||{}).textContent === "No such player"`)
}
