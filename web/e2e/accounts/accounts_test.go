package accounts

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"parlour/server"
	"parlour/web/e2e"
)

// TestRatedGame signs two players up in two browsers (after the bad
// sign-ups each show the server's refusal in place), plays a rated
// Nymphabet game between them with chat on both sides and a spectator who
// cannot read the players' chat before the end, and checks both profiles:
// ratings moved each way, a chart, the game with its replay link.
func TestRatedGame(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.SignUp("Ann", "correct horse battery")
	ann.Shot("account-profile-new")

	ben.SignUpRefused("ANN", "another fine phrase", "taken")
	ben.SignUpRefused("Ben", "short", "8")
	ben.SignUpRefused("Ben", "password123", "common")
	ben.Shot("account-signup-refused")
	for _, dark := range []bool{false, true} {
		ben.Theme(dark)
		ben.Accessible(fmt.Sprintf("the account screen (dark %v)", dark))
	}
	ben.Theme(false)
	ben.Labelled("the account screen")
	ben.SignUp("Ben", "another fine phrase")

	// A rated table: the box is there for an account with a friend.
	ann.Open("/new/nymphabet")
	ann.Wait("the new table form", `!!document.querySelector("#rated")`)
	if e2e.Eval[bool](ann, `document.querySelector("#rated").disabled`) {
		t.Fatalf("the rated box is disabled for an account with a friend: %s", ann.Text("#rated-help"))
	}
	ann.Click("#rated")
	ann.Click("form button[type=submit]")
	ann.Wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	id := strings.TrimPrefix(e2e.Eval[string](ann, `location.pathname`), "/t/")
	ben.Join(ann.InviteLink())

	cy := e2e.NewPlayer(t, b, "Cy", base)
	// An account: a guest that new waits a minute to write to spectators.
	cy.SignUp("Cyd", "a third fine phrase")
	cy.Open("/t/" + id + "?watch=1")
	cy.Wait("the table", `document.querySelectorAll(".alphabet span").length === 26 && !!document.querySelector("#chat-log")`)

	// Chat between the players.
	ann.Wait("the chat", `!!document.querySelector("#chat-text")`)
	ann.TypeIn("#chat-text", "good luck, Ben")
	ann.Click("#chat-send")
	ben.Wait("Ann's message", `document.querySelector("#chat-log").textContent.includes("good luck, Ben")`)
	ben.TypeIn("#chat-text", "and to you")
	ben.Click("#chat-send")
	ann.Wait("Ben's message", `document.querySelector("#chat-log").textContent.includes("and to you")`)
	// The spectators' channel: Cy writes, and the players do not see it.
	cy.TypeIn("#chat-text", "go Ann")
	cy.Click("#chat-send")
	cy.Wait("Cy's own message", `document.querySelector("#chat-log").textContent.includes("go Ann")`)
	// Over the cap: the counter says so and the server's refusal shows.
	ann.TypeIn("#chat-text", strings.Repeat("x", 201))
	if got := ann.Text("#chat-count"); got != "201/200" {
		t.Errorf("the chat counter reads %q for 201 characters", got)
	}
	ann.Click("#chat-send")
	ann.Wait("the refusal", `document.querySelector("#chat-error").textContent !== ""`)
	t.Logf("over the cap, the chat says: %s", ann.Text("#chat-error"))
	ann.TypeIn("#chat-text", "")
	ann.Shot("chat-players")
	for _, p := range []*e2e.Player{ann, ben} {
		p.Accessible("the play screen with chat")
	}

	words := []string{"abdicate", "defog", "hijack", "lemon", "opaque", "rust", "uvula", "wax", "yolk", "zoo"}
	for i, w := range words {
		mover, other := ann, ben
		if i%2 == 1 {
			mover, other = ben, ann
		}
		mover.WaitTurn(true)
		other.WaitTurn(false)
		mover.TypeIn("#n-word", w)
		mover.Click("#n-controls button[type=submit]")
		mover.Wait("word "+w, fmt.Sprintf(`document.querySelectorAll(".nwords li").length === %d`, i+1))
		if i == 5 {
			if got := cy.Text("#chat-log"); strings.Contains(got, "good luck") || strings.Contains(got, "and to you") {
				t.Errorf("the spectator reads the players' chat during the game: %q", got)
			}
			if got := ann.Text("#chat-log"); strings.Contains(got, "go Ann") {
				t.Errorf("a player reads the spectators' chat during the game: %q", got)
			}
		}
	}
	for _, p := range []*e2e.Player{ann, ben, cy} {
		p.Wait("the end", `!!document.querySelector("#game-over")`)
	}
	cy.Wait("the players' chat, public at the end", `document.querySelector("#chat-log").textContent.includes("good luck, Ben")`)
	// Each player's end says their rating change once the end has
	// settled it; the spectator's says none.
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("the rating change", `(e => e && !e.hidden)(document.querySelector("#rating-change"))`)
	}
	if got := ann.Text("#rating-change"); !strings.HasPrefix(got, "Your rating in Nymphabet (standard): 1500 → 1") || !strings.Contains(got, "(+") {
		t.Errorf("the winner's end says %q", got)
	}
	if got := ben.Text("#rating-change"); !strings.HasPrefix(got, "Your rating in Nymphabet (standard): 1500 → 1") || !strings.Contains(got, "(−") {
		t.Errorf("the loser's end says %q", got)
	}
	if e2e.Eval[bool](cy, `!!document.querySelector("#rating-change")`) {
		t.Errorf("the spectator's end has a rating change: %q", cy.Text("#rating-change"))
	}

	ann.Open("/players/Ann")
	ann.Wait("Ann's profile", `!!document.querySelector("#ratings") && !!document.querySelector("#games li a[href^='/replay?table=']")`)
	ben.Open("/players/ben")
	ben.Wait("Ben's profile", `!!document.querySelector("#ratings")`)
	ar, br := ann.Rating("nymphabet-standard"), ben.Rating("nymphabet-standard")
	if !(ar > 1500 && br < 1500) {
		t.Errorf("after Ann's win the ratings are Ann %v, Ben %v", ar, br)
	}
	t.Logf("ratings after one rated game: Ann %v, Ben %v", ar, br)
	if !e2e.Eval[bool](ann, `document.querySelectorAll("#chart-nymphabet-standard circle").length === 2 && !!document.querySelector("#chart-nymphabet-standard polyline")`) {
		t.Error("Ann's profile has no rating chart of two points")
	}
	if got := ann.Text("#ratings"); !strings.Contains(got, "provisional") {
		t.Errorf("a one-game rating is not marked provisional: %q", got)
	}
	// The pool is named by its game's title, as /api/v1/games says it,
	// and the variant rated apart.
	if got := ann.Text(`#ratings tr[data-pool="nymphabet-standard"]`); !strings.HasPrefix(got, "Nymphabet (standard)") {
		t.Errorf("Ann's Nymphabet rating reads %q", got)
	}
	if got := ann.Text("#games"); !strings.Contains(got, "Won Nymphabet (standard) against Ben") || !strings.Contains(got, "rated, +") {
		t.Errorf("Ann's game list: %q", got)
	}
	ann.Shot("profile-rated")
	for _, dark := range []bool{false, true} {
		ann.Theme(dark)
		ann.Accessible(fmt.Sprintf("the profile (dark %v)", dark))
	}
	ann.Theme(false)
	ann.Labelled("the profile")
	// The archive of every game: one record a line, this game's.
	if got := e2e.Eval[string](ann, `fetch(document.querySelector("#games-export").href).then(r => r.text()).then(t => t.trim().split("\n").map(l => JSON.parse(l).players.join(",")).join(" "))`); got != "Ann,Ben" && got != "Ben,Ann" {
		t.Errorf("the archive's records' players: %q, want the one game's", got)
	}
	href := e2e.Eval[string](ann, `document.querySelector("#games li a[href^='/replay?table=']").getAttribute("href")`)
	if href != "/replay?table="+id {
		t.Errorf("the replay link is %q, want the table %s", href, id)
	}
	ann.Click("#games li a[href^='/replay?table=']")
	ann.Wait("the replay", `document.body.innerText.includes("Move 10 of 10")`)

	// On another device (a fresh browser context), signed in as Ben, the
	// table is Ben's seat through the session alone.
	ben2 := e2e.NewPlayer(t, b, "Ben", base)
	ben2.Open("/account")
	ben2.Wait("the sign-in form", `!!document.querySelector("#signin-name")`)
	ben2.TypeIn("#signin-name", "Ben")
	ben2.TypeIn("#signin-password", "another fine phrase")
	ben2.Click("#signin button[type=submit]")
	ben2.Wait("signed in", `document.querySelector("#account-link").textContent === "Ben"`)
	ben2.Open("/t/" + id)
	ben2.Wait("Ben's seat", `!!document.querySelector("#game-over") && document.querySelector("#players").textContent.includes("Ben (you)")`)

	// Home lists the signed-in player's games from the server.
	ben.Open("/")
	ben.Wait("Ben's games", `document.querySelector("#my-finished") && document.querySelector("#my-finished").textContent.includes("Lost Nymphabet against Ann")`)

	// Sign out, and back in.
	ben.Open("/account")
	ben.Wait("the account screen", `!!document.querySelector("#signout")`)
	ben.Click("#signout")
	ben.Wait("signed out", `document.querySelector("#account-link").textContent === "Sign in"`)
	ben.Open("/account")
	ben.Wait("the sign-in form", `!!document.querySelector("#signin-name")`)
	ben.TypeIn("#signin-name", "ben")
	ben.TypeIn("#signin-password", "wrong password here")
	ben.Click("#signin button[type=submit]")
	ben.Wait("the refusal", `document.querySelector("#signin-error").textContent !== ""`)
	if got := ben.Text("#signin-error"); got != "wrong name or password" {
		t.Errorf("a wrong password says %q", got)
	}
	ben.TypeIn("#signin-password", "another fine phrase")
	ben.Click("#signin button[type=submit]")
	ben.Wait("signed in", `document.querySelector("#account-link").textContent === "Ben"`)

	ann.Open("/leaderboards")
	ann.Wait("the leaderboards", `document.querySelectorAll("#main section").length >= 6 && document.querySelectorAll("#main section p, #main section table").length >= 6`)
	ann.Accessible("the leaderboards")
}

// TestClockRunsOut lets a 10-second clock run out on Ann's first move:
// the game is aborted, without a result, and both screens say why.
func TestClockRunsOut(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.Open("/new/nymphabet")
	ann.Wait("the new table form", `!!document.querySelector("#clock")`)
	if !e2e.Eval[bool](ann, `document.querySelector("#rated").disabled`) {
		t.Error("a guest is offered a rated game")
	}
	ann.TypeIn("#my-name", "Ann")
	e2e.Eval[bool](ann, `(() => { const s = document.querySelector("#clock"); s.value = "custom"; s.dispatchEvent(new Event("change")); return true; })()`)
	ann.TypeIn("#clock-seconds", "5")
	ann.Click("form button[type=submit]")
	ann.Wait("the refusal", `document.querySelector("#main form .error").textContent.includes("10")`)
	t.Logf("a 5-second clock: %s", ann.Text("#main form .error"))
	ann.TypeIn("#clock-seconds", "10")
	ann.Click("form button[type=submit]")
	ann.Wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	ben.Join(ann.InviteLink())
	ann.WaitTurn(true)
	ann.Wait("Ann's clock", `!!document.querySelector("#clock-0")`)
	first := ann.Text("#clock-0")
	ann.Wait("the clock counting down", `document.querySelector("#clock-0") && document.querySelector("#clock-0").textContent !== `+strconv.Quote(first))
	if !e2e.Eval[bool](ann, `document.querySelector("#clock-0").classList.contains("low")`) {
		t.Errorf("ten seconds or less is not shown as low time")
	}
	if e2e.Eval[bool](ben, `!!document.querySelector("#clock-1")`) {
		t.Errorf("a clock shows for Ben, who is not to move")
	}
	t.Logf("Ann's clock read %s, then %s", first, ann.Text("#clock-0"))
	ann.Shot("clock-running")
	ann.Accessible("the play screen with a clock")
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("the end by the clock", `!!document.querySelector("#end-reason") && /time/i.test(document.querySelector("#end-reason").textContent)`)
		t.Logf("%s's end banner: %s", p.Name, p.Text("#game-over"))
		if got := p.Text("#game-over h2"); !strings.Contains(got, "aborted") {
			t.Errorf("%s's end banner does not say the game was aborted: %q", p.Name, got)
		}
	}
	ben.Shot("clock-ran-out")
	// Opened afresh, the end still says the time ran out.
	ann.Open("/t/" + strings.TrimPrefix(e2e.Eval[string](ann, `location.pathname`), "/t/"))
	ann.Wait("the end again", `!!document.querySelector("#end-reason") && /ran out of time/.test(document.querySelector("#end-reason").textContent) && /aborted/.test(document.querySelector("#game-over h2").textContent)`)
	if e2e.Eval[bool](ann, `!document.querySelector("#conn").hidden`) {
		t.Errorf("a finished game shows the connection's state (%q)", ann.Text("#conn"))
	}
}

// TestClaimAndMute: at a table without a clock, a player who leaves on
// their turn shows as away, and the other is offered the claim; before 5
// minutes the server refuses it and the refusal shows in place. A muted
// players' chat hides its messages until unmuted.
func TestClaimAndMute(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.CreateTable("nymphabet", "A friend")
	ben.Join(ann.InviteLink())
	ann.WaitTurn(true)
	ben.TypeIn("#chat-text", "hello Ann")
	ben.Click("#chat-send")
	ann.Wait("Ben's message", `document.querySelector("#chat-log").textContent.includes("hello Ann")`)
	ann.Click("#mute-players")
	ann.Wait("the chat muted", `!document.querySelector("#chat-log").textContent.includes("hello Ann") && document.querySelector("#mute-players").getAttribute("aria-pressed") === "true"`)
	ann.Click("#mute-players")
	ann.Wait("the chat back", `document.querySelector("#chat-log").textContent.includes("hello Ann") && document.querySelector("#mute-players").getAttribute("aria-pressed") === "false"`)

	ann.TypeIn("#n-word", "abdicate")
	ann.Click("#n-controls button[type=submit]")
	ben.WaitTurn(true)
	ben.Click(`header nav a[href="/"]`) // Ben walks away on his turn
	ben.Wait("the home page", `location.pathname === "/"`)
	ann.Wait("the claim", `!!document.querySelector("#claim-button")`)
	// Before 5 minutes the claim is counted down to, not offered.
	if !e2e.Eval[bool](ann, `document.querySelector("#claim-button").disabled`) {
		t.Errorf("the claim is offered at once: %q", ann.Text("#claim"))
	}
	if got := ann.Text("#claim-status"); !strings.Contains(got, "Ben left just now; you can claim in 4:") && !strings.Contains(got, "you can claim in 5:00") {
		t.Errorf("the claim's countdown says %q", got)
	}
	ann.Shot("claim-counted-down")
	ann.Accessible("the play screen with the claim")
}

// TestClaimCountdown: the moment a player leaves, the others see them
// marked disconnected; the player waiting on them sees how long ago they
// left and how long until the claim, and the button comes on exactly when
// the server takes the claim (here after a walk-away time of 3 seconds).
// Claimed, the game ends with the absent player resigning.
func TestClaimCountdown(t *testing.T) {
	t.Parallel()
	base := e2e.NewConfiguredServer(t, func(c *server.Config) { c.WalkAway = 3 * time.Second }).Base
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.CreateTable("nymphabet", "A friend")
	ben.Join(ann.InviteLink())
	ann.WaitTurn(true)
	ben.WaitTurn(false)
	ann.Wait("Ben not marked while here", `!document.querySelector("#players .away")`)
	// Both move first: a claim before that aborts the game instead.
	for i, w := range []struct {
		mover, other *e2e.Player
		word         string
	}{{ann, ben, "abdicate"}, {ben, ann, "dog"}, {ann, ben, "egg"}} {
		w.mover.WaitTurn(true)
		w.other.WaitTurn(false)
		w.mover.TypeIn("#n-word", w.word)
		w.mover.Click("#n-controls button[type=submit]")
		for _, p := range []*e2e.Player{ann, ben} {
			p.Wait("word "+w.word, fmt.Sprintf(`document.querySelectorAll(".nwords li").length === %d`, i+1))
		}
	}
	ben.WaitTurn(true)
	ben.Click(`header nav a[href="/"]`) // Ben walks away on his turn
	ben.Wait("the home page", `location.pathname === "/"`)
	// No poll is due for 10 seconds: the mark comes with the server's push.
	ann.Wait("Ben marked disconnected", `(document.querySelector("#players li[data-seat='1'] .away") || {}).textContent === " · disconnected"`)
	ann.Wait("the countdown", `/^Ben left just now; you can claim in 0:0[1-3]\.$/.test((document.querySelector("#claim-status") || {}).textContent) && document.querySelector("#claim-button").disabled`)
	ann.Shot("claim-countdown")
	ann.Wait("the claim offered", `!document.querySelector("#claim-button").disabled && /you can claim the game now/.test(document.querySelector("#claim-status").textContent)`)
	ann.Click("#claim-button")
	ann.Wait("the end", `!!document.querySelector("#game-over")`)
	if got := ann.Text("#end-reason"); !strings.Contains(got, "claimed the game") {
		t.Errorf("the end says %q", got)
	}
}

// TestAccountSettings: a guest with a game under way signs up and finds
// the game among its own; a wrong current password and an unticked
// deletion are refused in place; the password changes; the account is
// deleted and its name no longer signs in.
func TestAccountSettings(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	id := ann.CreateTable("nymphabet", "The computer")
	ann.SignUp("Ann", "correct horse battery")
	ann.Open("/")
	ann.Wait("the guest's game, now the account's", fmt.Sprintf(`!!document.querySelector("#my-tables a[href='/t/%s']")`, id))
	ann.Shot("home-signed-in")
	ann.Accessible("the home page signed in")

	ann.Open("/account")
	ann.Wait("the account screen", `!!document.querySelector("#chpw-old")`)
	ann.Accessible("the account settings")
	ann.Labelled("the account settings")
	ann.TypeIn("#chpw-old", "not my password")
	ann.TypeIn("#chpw-new", "a brand new phrase")
	ann.Click("#chpw button[type=submit]")
	ann.Wait("the refusal", `document.querySelector("#chpw-error").textContent !== ""`)
	t.Logf("a wrong current password: %s", ann.Text("#chpw-error"))
	ann.TypeIn("#chpw-old", "correct horse battery")
	ann.TypeIn("#chpw-new", "a brand new phrase")
	ann.Click("#chpw button[type=submit]")
	ann.Wait("the change", `document.querySelector("#chpw-old").value === "" && document.querySelector("#chpw-error").textContent === ""`)

	// Deleting the account, which cannot be undone, does not wear the
	// colour of the way on.
	if e2e.Eval[bool](ann, `(b => getComputedStyle(b("#delacct")).backgroundColor === getComputedStyle(b("#chpw")).backgroundColor)(f => document.querySelector(f + " button[type=submit]"))`) {
		t.Errorf("the button that deletes the account looks like the one that changes the password")
	}
	ann.TypeIn("#delacct-password", "a brand new phrase")
	ann.Click("#delacct button[type=submit]")
	ann.Wait("the unticked box", `document.querySelector("#delacct-error").textContent.includes("tick")`)
	ann.Click("#delacct-sure")
	ann.Click("#delacct button[type=submit]")
	// The table under way holds a seat: the server refuses, naming it.
	ann.Wait("the server's refusal", `document.querySelector("#delacct-error").textContent.includes("`+id+`")`)
	t.Logf("deleting with a game under way: %s", ann.Text("#delacct-error"))
	ann.Open("/t/" + id)
	ann.Wait("the table", `!!document.querySelector("#turn")`)
	e2e.Eval[bool](ann, `window.confirm = () => true; true`)
	ann.Click("#resign")
	ann.Wait("the end", `!!document.querySelector("#game-over")`)
	ann.Open("/account")
	ann.Wait("the account screen", `!!document.querySelector("#delacct-password")`)
	ann.TypeIn("#delacct-password", "a brand new phrase")
	ann.Click("#delacct-sure")
	ann.Click("#delacct button[type=submit]")
	ann.Wait("signed out", `location.pathname === "/" && document.querySelector("#account-link").textContent === "Sign in"`)
	ann.Open("/players/Ann")
	ann.Wait("no such player", `(document.querySelector("#main h1")||{}).textContent === "No such player"`)
}

// TestClaimIsSpoken: the claim against a player who walked away on their
// turn is said in a live region when it is first offered and again when
// it can be made, so that a player who cannot see the countdown hears
// both, each once.
func TestClaimIsSpoken(t *testing.T) {
	t.Parallel()
	base := e2e.NewConfiguredServer(t, func(c *server.Config) { c.WalkAway = 3 * time.Second }).Base
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.CreateTable("nymphabet", "A friend")
	ben.Join(ann.InviteLink())
	ann.WaitTurn(true)
	ann.TypeIn("#n-word", "abdicate")
	ann.Click("#n-controls button[type=submit]")
	ben.WaitTurn(true)
	// Every text a live region takes on, as it takes it on.
	e2e.Eval[bool](ann, `(window.spoken = [], new MutationObserver(rs => { for (const r of rs) {
		const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
		const region = el && el.closest('[aria-live]:not([aria-live="off"]), [role=status], [role=alert], [role=log]');
		if (region && region.textContent && window.spoken[window.spoken.length - 1] !== region.textContent) window.spoken.push(region.textContent);
	} }).observe(document.body, { childList: true, characterData: true, subtree: true }), true)`)
	ben.Click(`header nav a[href="/"]`) // Ben walks away on his turn
	ben.Wait("the home page", `location.pathname === "/"`)
	ann.Wait("the claim offered", `!!document.querySelector("#claim-button") && !document.querySelector("#claim-button").disabled`)
	ann.Wait("a moment for what is said", `new Promise(done => setTimeout(() => done(true), 500))`)
	said := e2e.Eval[[]string](ann, `window.spoken`)
	count := func(re string) int {
		n := 0
		for _, s := range said {
			if regexp.MustCompile(re).MatchString(s) {
				n++
			}
		}
		return n
	}
	if count(`Ben left .*you can claim in`) != 1 || count(`you can claim the game now`) != 1 {
		t.Errorf("the live regions said %q: want the claim to come, then the claim offered, each once", said)
	}
}
