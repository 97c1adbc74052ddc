package challenges

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"parlour/web/e2e"
)

// TestChallenges: two accounts in two browsers. Ann sees Ben in the
// lobby's list of players online; a challenge to herself and to nobody is
// refused in place in the server's words, and so is a rated one with a
// rule that changes the game (Salvo with diagonal ships); she challenges Ben to Nymphabet
// from his profile, Ben's page shows it at once, he accepts, and both land
// at the same table and play a word. A second challenge Ben declines says
// "declined" on Ann's page; a third Ann withdraws, and Ben reads that.
// Ben hides in his settings, and the lobby counts him without naming him.
func TestChallenges(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.SignUp("Ann", "correct horse battery")
	ben.SignUp("Ben", "another fine phrase")

	// Who is online: Ben holds the player stream open, so he is listed.
	ann.Open("/lobby")
	ann.Wait("Ben in the online list", `[...document.querySelectorAll("#online-list a")].some(a => a.textContent === "Ben")`)
	if got := ann.Text("#online-count"); !strings.HasPrefix(got, "2 players online") {
		t.Errorf("the lobby counts %q, want 2 players online", got)
	}
	ann.Shot("lobby-online")
	for _, dark := range []bool{false, true} {
		ann.Theme(dark)
		ann.Accessible(fmt.Sprintf("the lobby with players online (dark %v)", dark))
	}
	ann.Theme(false)
	ann.Labelled("the lobby")

	// Refusals, in place, in the server's words.
	ann.SendChallenge(`#lobby-players .row .challenge-open`, "ann")
	ann.Wait("the refusal of a challenge to herself", `document.querySelector("#challenge-error").textContent !== ""`)
	t.Logf("a challenge to yourself: %s", ann.Text("#challenge-error"))
	ann.TypeIn("#challenge-to", "Zed")
	ann.Click("#challenge-send")
	ann.Wait("the refusal of a challenge to nobody", `document.querySelector("#challenge-error").textContent.includes("Zed")`)
	t.Logf("a challenge to nobody: %s", ann.Text("#challenge-error"))
	// Rated with a rule that changes the game: the form holds the rule
	// at its default, rather than send what the server refuses, and
	// gives it back unrated.
	ann.TypeIn("#challenge-to", "Ben")
	e2e.Eval[bool](ann, `(s => { s.value = "salvo"; s.dispatchEvent(new Event("change")); return true; })(document.querySelector("#challenge-game"))`)
	ann.Click("#opt-diagonal_ships")
	ann.Click("#challenge-rated")
	diagonal := `(d => [d.checked, d.disabled].join(","))(document.querySelector("#opt-diagonal_ships"))`
	if got := e2e.Eval[string](ann, diagonal); got != "false,true" {
		t.Errorf("rated, diagonal ships read %q, not held off", got)
	}
	ann.Click("#challenge-rated")
	if got := e2e.Eval[string](ann, diagonal); got != "true,false" {
		t.Errorf("unrated again, diagonal ships read %q, not as chosen", got)
	}
	if n := e2e.Eval[int](ann, `document.querySelectorAll(".banner.challenge").length`); n != 0 {
		t.Errorf("refused challenges left %d banners", n)
	}
	for _, dark := range []bool{false, true} {
		ann.Theme(dark)
		ann.Accessible(fmt.Sprintf("the challenge form with a refusal (dark %v)", dark))
	}
	ann.Theme(false)
	ann.Labelled("the challenge form")

	// The challenge from Ben's profile; Ben is on his own profile page.
	ann.Open("/players/Ben")
	ann.Wait("the Challenge button", `!!document.querySelector("#profile-actions .challenge-open")`)
	ann.SendChallenge("#profile-actions .challenge-open", "")
	ann.Wait("Ann's waiting banner", `!!document.querySelector(".banner.challenge[data-dir=out]")`)
	ben.Wait("the challenge at once", `!!document.querySelector(".banner.challenge[data-dir=in] .challenge-accept")`)
	if got := ben.Text(".banner.challenge[data-dir=in]"); !strings.Contains(got, "Ann challenges you to Nymphabet") {
		t.Errorf("Ben's banner reads %q", got)
	}
	ben.ShotView("challenge-incoming")
	for _, dark := range []bool{false, true} {
		ben.Theme(dark)
		ben.Accessible(fmt.Sprintf("the incoming challenge (dark %v)", dark))
	}
	ben.Theme(false)
	ben.Click(".banner.challenge[data-dir=in] .challenge-accept")
	ben.Wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	ann.Wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	id := e2e.Eval[string](ben, `location.pathname`)
	if got := e2e.Eval[string](ann, `location.pathname`); got != id {
		t.Fatalf("Ann is at %s, Ben at %s", got, id)
	}
	// Both are seated: one of them moves, the other sees the word.
	ann.Wait("a seat", `!!document.querySelector("#turn") && ["0","1"].includes(document.querySelector("#turn").dataset.mine)`)
	mover, other := ann, ben
	if e2e.Eval[string](ann, `document.querySelector("#turn").dataset.mine`) != "1" {
		mover, other = ben, ann
	}
	mover.WaitTurn(true)
	other.WaitTurn(false)
	mover.TypeIn("#n-word", "abdicate")
	mover.Click("#n-controls button[type=submit]")
	other.Wait("the word on the other screen", `document.querySelectorAll(".nwords li").length === 1`)
	other.WaitTurn(true)

	// A second challenge, declined: Ann's page says so. Ben is at the
	// table, and the banner shows there too.
	ann.Open("/players/Ben")
	ann.Wait("the Challenge button", `!!document.querySelector("#profile-actions .challenge-open")`)
	ann.SendChallenge("#profile-actions .challenge-open", "")
	ben.Wait("the second challenge", `!!document.querySelector(".banner.challenge[data-dir=in] .challenge-decline")`)
	ben.Click(".banner.challenge[data-dir=in] .challenge-decline")
	ann.Wait("the decline", `!!document.querySelector(".banner.challenge[data-status=declined]")`)
	if got := ann.Text(".banner.challenge[data-status=declined]"); !strings.Contains(got, "Ben declined your Nymphabet challenge") {
		t.Errorf("Ann's page says %q after the decline", got)
	}
	ben.Wait("the declined banner put away", `document.querySelectorAll(".banner.challenge").length === 0`)
	ann.Click(".banner.challenge[data-status=declined] .challenge-dismiss")

	// A third, withdrawn by Ann: Ben reads that she withdrew it. Ben
	// turned desktop notifications on and looks at another tab: the
	// challenge raises one.
	notifyHidden(t, ben, base)
	ann.Click("#challenge-send")
	ben.Wait("the third challenge", `!!document.querySelector(".banner.challenge[data-dir=in]")`)
	ben.Wait("the notification", `window.__notes.length === 1`)
	if note := e2e.Eval[map[string]string](ben, `window.__notes[0]`); note["title"] != "A challenge" || !strings.Contains(note["body"], "Ann challenges you to Nymphabet") {
		t.Errorf("the notification says %v", note)
	}
	ann.Wait("the withdraw button", `!!document.querySelector(".banner.challenge[data-dir=out] .challenge-withdraw")`)
	ann.Click(".banner.challenge[data-dir=out] .challenge-withdraw")
	ben.Wait("the withdrawal", `!!document.querySelector(".banner.challenge[data-status=canceled]")`)
	if got := ben.Text(".banner.challenge[data-status=canceled]"); !strings.Contains(got, "Ann withdrew") {
		t.Errorf("Ben's page says %q after the withdrawal", got)
	}
	ann.Wait("Ann's own words", `(document.querySelector(".banner.challenge[data-status=canceled]")||{}).textContent?.includes("You withdrew")`)

	// An expired challenge, as the stream says it (the server's expiry
	// itself takes 10 minutes and is tested in package server): in words.
	got := e2e.Eval[string](ann, `import("/static/js/stream.js").then(m => {
		m.handle({type: "challengeCanceled", challenge: {id: "exp1", from: "Ann", to: "Ben", game: "salvo", status: "expired"}});
		return document.querySelector('.banner.challenge[data-challenge="exp1"]').textContent;
	})`)
	if !strings.Contains(got, "Your Salvo challenge to Ben expired") {
		t.Errorf("an expired challenge reads %q", got)
	}
	// A challenge's rules, as a banner says them: in words, only those
	// that differ from the game's defaults, the clock as a time a turn.
	got = e2e.Eval[string](ann, `import("/static/js/stream.js").then(async m => {
		m.handle({type: "challenge", challenge: {id: "rules1", from: "Ann", to: "Ben", game: "salvo", rules: {clock: 60, placement: "free", diagonal_ships: false}, status: "open"}});
		for (let i = 0; i < 200; i++) {
			const p = document.querySelector('.banner.challenge[data-challenge="rules1"] .challenge-rules');
			if (p && !p.hidden) return p.textContent;
			await new Promise(r => setTimeout(r, 20));
		}
		return "no rules shown";
	})`)
	if got != "Rules: Clock: 1 minute a turn, Ship placement: free" {
		t.Errorf("a challenge's rules read %q", got)
	}

	// Ben hides from the online list in his settings: Ann's lobby still
	// counts him, without his name.
	ben.Open("/account")
	ben.Wait("the settings", `!!document.querySelector("#hide-online") && !document.querySelector("#hide-online").disabled`)
	ben.Accessible("the account screen with its settings")
	ben.Click("#hide-online")
	ben.Wait("hidden", `document.querySelector("#hide-online-help").textContent.startsWith("Hidden")`)
	ben.Open("/account")
	ben.Wait("the stored setting", `!!document.querySelector("#hide-online") && !document.querySelector("#hide-online").disabled && document.querySelector("#hide-online").checked`)
	ann.Open("/lobby")
	ann.Wait("the online list", `!!document.querySelector("#online-list li")`)
	if got := ann.Text("#online-list"); strings.Contains(got, "Ben") {
		t.Errorf("the lobby lists %q with Ben hidden", got)
	}
	if got := ann.Text("#online-count"); !strings.HasPrefix(got, "2 players online") {
		t.Errorf("the lobby counts %q with Ben hidden, want 2 players online", got)
	}
}

// TestChallengeStreamReconnects: the server restarts under Ben's open
// page; the player stream comes back by itself, and a challenge made
// after the restart shows on his page at once, without a reload.
func TestChallengeStreamReconnects(t *testing.T) {
	t.Parallel()
	// The player streams the server is asked for once it is up again,
	// counted by the server: a stream the page asked for just before the
	// restart can reach the new server without the page asking again
	// (the browser sends a request again by itself when it meets a
	// connection closed before any answer), which the page cannot count.
	var restarted atomic.Bool
	var streams atomic.Int32
	s := e2e.NewWrappedServer(t, nil, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/api/v1/stream" && restarted.Load() {
				streams.Add(1)
			}
			next.ServeHTTP(w, r)
		})
	})
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", s.Base)
	ben := e2e.NewPlayer(t, b, "Ben", s.Base)
	ann.SignUp("Ann", "correct horse battery")
	ben.SignUp("Ben", "another fine phrase")
	s.Restart(func() { restarted.Store(true) })
	// A restart and the page's backoff (1 s, doubling) can take longer
	// than a wait for a page on a loaded machine.
	for end := time.Now().Add(time.Minute); streams.Load() < 2; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the restarted server was asked for %d player streams in a minute, want Ann's and Ben's", streams.Load())
		}
	}
	ann.Open("/players/Ben")
	ann.Wait("the Challenge button", `!!document.querySelector("#profile-actions .challenge-open")`)
	ann.SendChallenge("#profile-actions .challenge-open", "")
	ben.Wait("the challenge after the restart", `!!document.querySelector(".banner.challenge[data-dir=in] .challenge-accept")`)
	if !strings.HasPrefix(e2e.Eval[string](ben, `location.pathname`), "/players/Ben") {
		t.Errorf("Ben's page moved to %s", e2e.Eval[string](ben, `location.pathname`))
	}
}

// TestChallengeSettledWhileAway: the player streams are cut and held
// shut while a challenge is settled, so that no line says so. When they
// open again, the banners left waiting (Ann's own, which Ben declined
// from elsewhere, and Ben's) say the challenge is no longer open, with
// a button to put them away. A second challenge Ann withdraws while the
// streams are shut: Ben's Accept on its banner, left waiting, is refused,
// and the banner says why in the server's words rather than offer the
// buttons again.
func TestChallengeSettledWhileAway(t *testing.T) {
	t.Parallel()
	var (
		mu     sync.Mutex
		shut   chan struct{}        // closed when the streams may open again; nil: open
		cuts   []context.CancelFunc // the streams open now
		active sync.WaitGroup       // their handlers, until they return
	)
	s := e2e.NewWrappedServer(t, nil, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/api/v1/stream" {
				next.ServeHTTP(w, r)
				return
			}
			ctx, cut := context.WithCancel(r.Context())
			defer cut()
			for {
				mu.Lock()
				wait := shut
				if wait == nil {
					// Let in and made one away can cut, in one step.
					cuts = append(cuts, cut)
					active.Add(1)
					mu.Unlock()
					break
				}
				mu.Unlock()
				select {
				case <-wait:
				case <-r.Context().Done():
					return
				}
			}
			defer active.Done()
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	})
	// away cuts the streams and holds new ones until back; it returns
	// once the streams' handlers have, so that no line is sent after it.
	away := func() {
		mu.Lock()
		shut = make(chan struct{})
		for _, cut := range cuts {
			cut()
		}
		cuts = nil
		mu.Unlock()
		active.Wait()
	}
	back := func() {
		mu.Lock()
		defer mu.Unlock()
		close(shut)
		shut = nil
	}
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", s.Base)
	ben := e2e.NewPlayer(t, b, "Ben", s.Base)
	ann.SignUp("Ann", "correct horse battery")
	ben.SignUp("Ben", "another fine phrase")
	challenge := func() string {
		t.Helper()
		ann.Open("/players/Ben")
		ann.Wait("the Challenge button", `!!document.querySelector("#profile-actions .challenge-open")`)
		ann.SendChallenge("#profile-actions .challenge-open", "")
		ann.Wait("Ann's waiting banner", `!!document.querySelector(".banner.challenge[data-dir=out]:not(.end)")`)
		id := e2e.Eval[string](ann, `document.querySelector(".banner.challenge[data-dir=out]:not(.end)").dataset.challenge`)
		ben.Wait("Ben's banner", fmt.Sprintf(`!!document.querySelector('.banner.challenge[data-challenge=%q]:not(.end) .challenge-accept')`, id))
		return id
	}
	// fetchOn sends a request from p's page, with its session, and
	// returns the status.
	fetchOn := func(p *e2e.Player, method, path string) int {
		t.Helper()
		return e2e.Eval[int](p, fmt.Sprintf(`fetch(%q, {method: %q, credentials: "same-origin"}).then(r => r.status)`, path, method))
	}

	id := challenge()
	away()
	if st := fetchOn(ben, "POST", "/api/v1/challenges/"+id+"/decline"); st != 200 {
		t.Fatalf("Ben's decline from elsewhere: %d", st)
	}
	back()
	gone := func(p *e2e.Player, who string) {
		t.Helper()
		sel := fmt.Sprintf(`.banner.challenge.end[data-challenge=%q]`, id)
		p.WaitLong(who+"'s banner saying the challenge is no longer open", fmt.Sprintf(`(document.querySelector('%s') || {}).textContent?.includes("no longer open")`, sel))
		if n := e2e.Eval[int](p, fmt.Sprintf(`document.querySelectorAll('%s button:not(.challenge-dismiss)').length`, sel)); n != 0 {
			t.Errorf("%s's closed banner still offers %d buttons to act on it", who, n)
		}
		p.Click(sel + " .challenge-dismiss")
		p.Wait(who+"'s banner put away", fmt.Sprintf(`!document.querySelector('%s')`, sel))
	}
	gone(ann, "Ann")
	gone(ben, "Ben")

	id = challenge()
	away()
	if st := fetchOn(ann, "DELETE", "/api/v1/challenges/"+id); st != 200 {
		t.Fatalf("Ann's withdrawal: %d", st)
	}
	ben.Click(fmt.Sprintf(`.banner.challenge[data-challenge=%q] .challenge-accept`, id))
	ben.Wait("the refusal in the banner", fmt.Sprintf(`(document.querySelector('.banner.challenge.end[data-challenge=%q]') || {}).textContent?.includes("withdrawn")`, id))
	if n := e2e.Eval[int](ben, fmt.Sprintf(`document.querySelectorAll('.banner.challenge[data-challenge=%q] .challenge-accept').length`, id)); n != 0 {
		t.Error("the refused banner still offers Accept")
	}
	back()
}

// TestChallengeStreamSilent: a player stream that goes silent, its
// keep-alives and all, as a connection cut without a word does, is given
// up after the silence the page allows (30 s) and opened again; a
// challenge made meanwhile shows then.
func TestChallengeStreamSilent(t *testing.T) {
	t.Parallel()
	var hush atomic.Bool
	var hushed atomic.Int32
	s := e2e.NewWrappedServer(t, nil, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/api/v1/stream" || !hush.CompareAndSwap(true, false) {
				next.ServeHTTP(w, r)
				return
			}
			// Answered, then nothing more: no line, no keep-alive.
			hushed.Add(1)
			w.Header().Set("Content-Type", "application/x-ndjson")
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		})
	})
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", s.Base)
	ben := e2e.NewPlayer(t, b, "Ben", s.Base)
	// Ben first, while no other stream is open: the stream held silent is
	// his first.
	hush.Store(true)
	ben.SignUp("Ben", "another fine phrase")
	for end := time.Now().Add(time.Minute); hushed.Load() == 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("Ben's page did not ask for the player stream in a minute")
		}
	}
	ann.SignUp("Ann", "correct horse battery")
	ann.Open("/players/Ben")
	ann.Wait("the Challenge button", `!!document.querySelector("#profile-actions .challenge-open")`)
	ann.SendChallenge("#profile-actions .challenge-open", "")
	ben.WaitLong("the challenge once the silent stream is opened again", `!!document.querySelector(".banner.challenge[data-dir=in] .challenge-accept")`)
	if n := hushed.Load(); n != 1 {
		t.Errorf("%d streams held silent, want Ben's first", n)
	}
}

// TestChallengeStreamAfterAFailedLoad: the script that holds the player
// stream is loaded at sign-up; when that load fails (the network or the
// server blinking just then), the page tries again by itself and the
// stream opens, rather than staying shut until a reload.
func TestChallengeStreamAfterAFailedLoad(t *testing.T) {
	t.Parallel()
	s := e2e.NewTestServer(t)
	b := e2e.NewBrowser(t)
	ben := e2e.NewPlayer(t, b, "Ben", s.Base)
	block := func(on bool) {
		t.Helper()
		if _, err := chromedp.Call(ben.Ctx, network.SetBlockedURLs, network.SetBlockedURLsParams{
			URLPatterns: []*network.BlockPattern{{URLPattern: s.Base + "/static/js/stream.js", Block: on}},
		}); err != nil {
			t.Fatalf("blocking stream.js (%v): %v", on, err)
		}
	}
	ben.Open("/account")
	ben.Wait("the sign-up form", `!!document.querySelector("#signup-name")`)
	e2e.Eval[bool](ben, `(() => {
		const real = window.fetch;
		window.__streams = 0;
		window.fetch = (u, o) => { if (String(u).endsWith("/api/v1/stream")) window.__streams++; return real(u, o); };
		return true;
	})()`)
	block(true)
	ben.TypeIn("#signup-name", "Ben")
	ben.TypeIn("#signup-password", "another fine phrase")
	ben.Click("#signup button[type=submit]")
	ben.Wait("the new profile", `(document.querySelector("#profile-name")||{}).textContent === "Ben"`)
	time.Sleep(1500 * time.Millisecond)
	if n := e2e.Eval[int](ben, `window.__streams`); n != 0 {
		t.Fatalf("the stream opened %d times with its script blocked", n)
	}
	block(false)
	ben.Wait("the stream opened after the failed load", `window.__streams >= 1`)
}

// TestChallengeManyTabs: Ben has his finished table open and six more
// pages of Parlour beside it. A browser opens at most six connections to a
// host, and a player stream never ends: one stream a page left none for
// anything else, so that the pages hung and a challenge never came. The
// pages share one stream, so each loads, and Ann's challenge shows on
// every one at once. Sending it again says that it is already waiting.
func TestChallengeManyTabs(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.SignUp("Ann", "correct horse battery")
	ben.SignUp("Ben", "another fine phrase")

	// A game that ends: Ann challenges, Ben accepts, one resigns.
	ann.Open("/players/Ben")
	ann.Wait("the Challenge button", `!!document.querySelector("#profile-actions .challenge-open")`)
	ann.SendChallenge("#profile-actions .challenge-open", "")
	ben.Wait("the challenge", `!!document.querySelector(".banner.challenge[data-dir=in] .challenge-accept")`)
	ben.Click(".banner.challenge[data-dir=in] .challenge-accept")
	ben.Wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	table := e2e.Eval[string](ben, `location.pathname`)
	ann.Wait("the table", `location.pathname === "`+table+`"`)
	// Whoever is to move resigns.
	ann.Wait("a seat", `!!document.querySelector("#turn") && ["0","1"].includes(document.querySelector("#turn").dataset.mine)`)
	resigner := ann
	if e2e.Eval[string](ann, `document.querySelector("#turn").dataset.mine`) != "1" {
		resigner = ben
	}
	resign := `fetch("/api/v1/tables/` + strings.TrimPrefix(table, "/t/") + `/moves", {method: "POST", credentials: "same-origin", headers: {"Content-Type": "application/json"}, body: JSON.stringify({move: "resign"})}).then(r => r.text().then(b => r.status + " " + b))`
	if got := e2e.Eval[string](resigner, resign); !strings.HasPrefix(got, "200") {
		t.Fatalf("%s resigns: %s", resigner.Name, got)
	}
	ben.Wait("the finished table", `document.querySelector("#turn").textContent === "Game over"`)

	// Six more pages beside it, the last the finished table again:
	// windows Ben's page opens (as a click on a link to a new tab would),
	// which share the browser's connections as tabs do.
	e2e.Eval[bool](ben, `(window.__tabs = [], true)`)
	for _, path := range []string{"/lobby", "/lobby", "/leaderboards", "/daily", "/players/Ann", table} {
		// One window a click, as a browser allows.
		opened, err := chromedp.Run(ben.Ctx, chromedp.Evaluate[bool](`(w => (window.__tabs.push(w), !!w))(window.open("`+path+`", "_blank"))`,
			func(p *runtime.EvaluateParams) { yes := true; p.UserGesture = &yes }))
		if err != nil || !opened {
			t.Fatalf("opening %s beside the table: %v, %v", path, opened, err)
		}
	}
	const frames = `window.__tabs.map(w => w.document)`
	ben.Wait("six pages loaded", frames+`.every(d => d && d.readyState === "complete" && d.querySelector("#main h1"))`)

	ann.Open("/players/Ben")
	ann.Wait("the Challenge button", `!!document.querySelector("#profile-actions .challenge-open")`)
	ann.SendChallenge("#profile-actions .challenge-open", "")
	ann.Wait("Ann's waiting banner", `!!document.querySelector(".banner.challenge[data-dir=out]")`)
	ben.Wait("the challenge on his page", `!!document.querySelector(".banner.challenge[data-dir=in] .challenge-accept")`)
	ben.Wait("the challenge on every other page", frames+`.every(d => !!d.querySelector(".banner.challenge[data-dir=in] .challenge-accept"))`)
	if n := e2e.Eval[int](ben, frames+`.filter(d => d.querySelectorAll(".banner.challenge[data-dir=in]").length !== 1).length`); n != 0 {
		t.Errorf("%d pages show the challenge more than once", n)
	}

	// The same again: refused, in words, and no second banner anywhere.
	// The stream may bring the banner before the send's answer, and the
	// button rests until then: a click meanwhile sends nothing.
	ann.Wait("the send answered", `!document.querySelector("#challenge-send").disabled`)
	ann.Click("#challenge-send")
	ann.Wait("the refusal", `document.querySelector("#challenge-error").textContent !== ""`)
	if got := ann.Text("#challenge-error"); !strings.Contains(got, "already challenged Ben to Nymphabet") {
		t.Errorf("the same challenge again says %q", got)
	}
	if n := e2e.Eval[int](ann, `document.querySelectorAll(".banner.challenge[data-dir=out]").length`); n != 1 {
		t.Errorf("Ann's page shows %d challenges waiting, want 1", n)
	}
}

// TestRematchBanner: Ben plays Ann and goes home once the game is over,
// by the page's link.
// Ann asks for a rematch from the end screen; Ben's page, away from that
// screen, shows it in a banner naming her and the game, and its button
// takes the seat waiting for him at the new table, where Ann is. Looking
// at another tab, he is told by a desktop notification too.
func TestRematchBanner(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ben.SignUp("Ben", "correct horse battery")
	ann.CreateTable("nymphabet", "A friend")
	ben.Join(ann.InviteLink())
	e2e.PlayToResign(t, ann, ben)

	// Home by the page's own link: the player stream, open since the
	// table's page loaded, stays open (a new page would open another,
	// which hears only what comes after it connects).
	ben.Click(`a.brand`)
	ben.Wait("the home page", `location.pathname === "/" && !!document.querySelector("#main h1, #main h2")`)
	if n := e2e.Eval[int](ben, `document.querySelectorAll(".banner.rematch").length`); n != 0 {
		t.Fatalf("a rematch banner before anybody asked: %d", n)
	}
	// Ben turned the desktop notification on and looks at another tab.
	notifyHidden(t, ben, base)
	ann.Click("#rematch")
	ann.Wait("the next table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn") && !document.querySelector("#game-over")`)
	next := e2e.Eval[string](ann, `location.pathname`)
	ben.Wait("the notification", `window.__notes.length === 1`)
	if note := e2e.Eval[map[string]string](ben, `window.__notes[0]`); note["title"] != "A rematch" || note["body"] != "Ann asks for a rematch of Nymphabet" {
		t.Errorf("the notification says %v", note)
	}
	e2e.Eval[bool](ben, `(delete document.hidden, true)`)

	ben.Wait("the rematch banner", `!!document.querySelector(".banner.rematch")`)
	if got := ben.Text(".banner.rematch .challenge-text"); !strings.Contains(got, "Ann") || !strings.Contains(got, "Nymphabet") {
		t.Errorf("the banner reads %q, want Ann and Nymphabet named", got)
	}
	ben.Shot("rematch-banner")
	ben.Accessible("the rematch banner")
	ben.Labelled("the rematch banner")
	ben.Click(".banner.rematch .rematch-take")
	ben.Wait("the rematch's table", `location.pathname === `+jsString(next)+` && !!document.querySelector("#turn")`)
	ben.Wait("Ben seated there", `["0","1"].includes(document.querySelector("#turn").dataset.mine)`)
	if n := e2e.Eval[int](ben, `document.querySelectorAll(".banner.rematch").length`); n != 0 {
		t.Errorf("the banner stays at the table it led to: %d", n)
	}
}

// notifyHidden has p turn desktop notifications on, with the browser's
// permission, and look at another tab; the notifications the page then
// raises are kept in window.__notes as {title, body}.
func notifyHidden(t *testing.T, p *e2e.Player, base string) {
	t.Helper()
	if _, err := chromedp.CallBrowser(p.Ctx, browser.SetPermission, browser.SetPermissionParams{
		Permission: &browser.PermissionDescriptor{Name: "notifications"}, Setting: browser.PermissionSettingGranted,
		Origin: base, BrowserContextID: chromedp.FromContext(p.Ctx).BrowserContextID,
	}); err != nil {
		t.Fatalf("granting notifications: %v", err)
	}
	e2e.Eval[bool](p, `(() => {
		localStorage.setItem("parlour.notify.desktop", "1");
		const Real = window.Notification;
		window.__notes = [];
		window.Notification = class extends Real { constructor(title, o) { super(title, o); window.__notes.push({ title, body: o && o.body }); } };
		Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
		return true;
	})()`)
}

// TestLeavePairedTable: a table a challenge made is for its two players:
// Ben, leaving it while the grids are chosen, is told it closes for good
// rather than open his seat, and Ann's page says the table closed
// because he left.
func TestLeavePairedTable(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann, ben := e2e.NewPlayer(t, b, "Ann", base), e2e.NewPlayer(t, b, "Ben", base)
	ann.SignUp("Ann", "correct horse battery")
	ben.SignUp("Ben", "another fine phrase")
	ann.Open("/players/Ben")
	ann.Wait("the Challenge button", `!!document.querySelector("#profile-actions .challenge-open")`)
	ann.Click("#profile-actions .challenge-open")
	ann.Wait("the challenge form", `!!document.querySelector("#challenge-form #challenge-game")`)
	e2e.Eval[bool](ann, `(s => { s.value = "quizl"; s.dispatchEvent(new Event("change")); return true; })(document.querySelector("#challenge-game"))`)
	ann.Click("#challenge-send")
	ben.Wait("the challenge", `!!document.querySelector(".banner.challenge[data-dir=in] .challenge-accept")`)
	ben.Click(".banner.challenge[data-dir=in] .challenge-accept")
	ben.Wait("the table, at its setup", `location.pathname.startsWith("/t/") && !!document.querySelector("#leave")`)
	ann.Wait("Ann at the table", `location.pathname.startsWith("/t/")`)

	e2e.Eval[bool](ben, `(window.confirm = m => (window.asked = m, true), true)`)
	ben.Click("#leave")
	ben.WaitPage("Ben back home", `location.pathname === "/"`)
	if got := e2e.Eval[string](ben, `window.asked || ""`); !strings.Contains(got, "made for its players, so it closes for good") {
		t.Errorf("Ben was asked %q", got)
	}
	ann.Wait("the table closed", `document.body.textContent.includes("Ben left before the game began")`)
	// Nothing of the table is left to offer her: no seats setting up, no
	// Leave button, chat or record so far, only the word that it closed.
	if got := ann.Text("#table-closed"); !strings.Contains(got, "Ben left before the game began") {
		t.Errorf("Ann's closed table says %q", got)
	}
	if e2e.Eval[bool](ann, `!!document.querySelector("#leave, #players, #turn, #download, .chat")`) {
		t.Errorf("Ann's page still offers the closed table's seats or controls: %q", ann.Text("main"))
	}
}
