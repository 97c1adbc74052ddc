package games

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"parlour/web/e2e"
)

// TestNymphabet plays a whole standard game between two browsers, checks
// both screens after every word and measures how long each word takes to
// reach the other screen. Halfway through, the server restarts: both
// screens say the connection dropped, reconnect by themselves, and carry
// on with nothing lost or repeated.
func TestNymphabet(t *testing.T) {
	t.Parallel()
	srv := e2e.NewTestServer(t)
	base := srv.Base
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	id := ann.CreateTable("nymphabet", "A friend")
	ben.Join(ann.InviteLink())
	// Cy follows the game as a spectator.
	cy := e2e.NewPlayer(t, b, "Cy", base)
	cy.Open("/t/" + id)
	// Every seat is taken: the page offers to watch, and asks no name.
	cy.Wait("the full table's page", `!!document.querySelector("#join-full") && !document.querySelector("#join-name") && document.querySelector("#watch").textContent === "Watch"`)
	cy.Click("#watch")
	cy.Wait("the table", `!!document.querySelector("#turn") && document.querySelectorAll(".alphabet span").length === 26`)
	if got := cy.Text("#turn"); !strings.HasPrefix(got, "Watching") {
		t.Errorf("the spectator's status: %q", got)
	}
	if e2e.Eval[bool](cy, `!!document.querySelector("#n-controls") && !document.querySelector("#n-controls").hidden`) {
		t.Error("the spectator is offered a word box")
	}
	ann.Wait("the alphabet", `document.querySelectorAll(".alphabet span").length === 26`)
	ann.WaitTurn(true)
	ben.WaitTurn(false)
	ann.Shot("nymphabet-start")

	words := []struct {
		word, shown string // shown: the deleted letters in capitals
		deleted     int
	}{
		{"abdicate", "ABdiCate", 3},
		{"defog", "DEFoG", 4},
		{"hijack", "HIJacK", 4},
		{"lemon", "LeMoN", 3},
		{"opaque", "OPaQue", 3},
		{"rust", "RuST", 3},
		{"uvula", "UVula", 2},
		{"wax", "WaX", 2},
		{"yolk", "Yolk", 1},
		{"zoo", "Zoo", 1},
	}
	var lat e2e.Latencies
	deleted := 0
	for i, w := range words {
		mover, other := ann, ben
		if i%2 == 1 {
			mover, other = ben, ann
		}
		mover.WaitTurn(true)
		other.WaitTurn(false)
		mover.TypeIn("#n-word", w.word)
		other.WatchFor(fmt.Sprintf(`document.querySelectorAll(".nwords li").length === %d`, i+1))
		sent := mover.SubmitAt("#n-controls button[type=submit]")
		seen := other.SeenAt()
		lat = append(lat, time.Duration((seen-sent)*float64(time.Millisecond)))
		deleted += w.deleted
		for _, p := range []*e2e.Player{ann, ben} {
			p.Wait("word "+w.word, fmt.Sprintf(`document.querySelectorAll(".nwords li").length === %d`, i+1))
			shown := e2e.Eval[string](p, `[...document.querySelectorAll(".nwords li")].pop().innerText`)
			if !strings.HasSuffix(shown, w.shown) {
				t.Errorf("%s sees word %d as %q, want it to end %q", p.Name, i+1, shown, w.shown)
			}
			if n := e2e.Eval[int](p, `document.querySelectorAll(".alphabet span.gone").length`); n != deleted {
				t.Errorf("%s sees %d letters struck through after %s, want %d", p.Name, n, w.word, deleted)
			}
		}
		if i == 3 {
			ann.Shot("nymphabet-play")
			ann.Labelled("the Nymphabet play screen")
		}
		if i == 4 {
			srv.Restart(func() {
				for _, p := range []*e2e.Player{ann, ben} {
					p.Wait("the lost connection", `document.querySelector("#conn").dataset.state !== "live"`)
					if got := p.Text("#conn"); !strings.Contains(got, "reconnecting") && !strings.Contains(got, "connecting") {
						t.Errorf("%s's screen says %q with the server down", p.Name, got)
					}
				}
			})
			for _, p := range []*e2e.Player{ann, ben} {
				p.Wait("the reconnection", `document.querySelector("#conn").dataset.state === "live"`)
			}
		}
	}
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("the end", `!!document.querySelector("#game-over")`)
		if got := p.Text("#game-over h2"); !strings.Contains(got, map[string]string{"Ann": "you won", "Ben": "Ann won"}[p.Name]) {
			t.Errorf("%s sees %q at the end", p.Name, got)
		}
		if got, want := p.Text("#end-reason"), "Ben wrote the last word, ZOO, deleting Z: whoever deletes Z loses."; got != want {
			t.Errorf("%s's end screen says why: %q, want %q", p.Name, got, want)
		}
		// The result counts letters deleted, not points: Ben, who lost,
		// may have deleted more.
		if got := p.Text("#end-scores"); !regexp.MustCompile(`^Letters deleted: Ann \d+, Ben \d+$`).MatchString(got) {
			t.Errorf("%s's end screen counts %q", p.Name, got)
		}
		if title := e2e.Eval[string](p, `document.title`); !strings.HasPrefix(title, "Over") {
			t.Errorf("%s's tab title at the end: %q", p.Name, title)
		}
		// The banner says the game is over; the turn's strip, which
		// would say it again, is out of sight, there for a screen reader.
		if got, h := p.Text("#turn"), e2e.Eval[int](p, `Math.round(document.querySelector(".status").getBoundingClientRect().height)`); got != "Game over" || h > 1 {
			t.Errorf("%s's turn strip at the end: %q, %d pixels high", p.Name, got, h)
		}
		if got := p.Text("#n-current"); got != "Every letter deleted." { // Z went last
			t.Errorf("%s's alphabet at the end says %q", p.Name, got)
		}
	}
	for _, p := range []*e2e.Player{ann, ben} {
		if n := e2e.Eval[int](p, `document.querySelectorAll("#moves li").length`); n != len(words) {
			t.Errorf("%s's move list has %d moves, want %d", p.Name, n, len(words))
		}
	}
	// Opened afresh, the end still says why, from the view alone.
	ann.Open(e2e.Eval[string](ann, `location.pathname`))
	ann.Wait("the end again", `!!document.querySelector("#end-reason")`)
	if got, want := ann.Text("#end-reason"), "Ben wrote the last word, ZOO, deleting Z: whoever deletes Z loses."; got != want {
		t.Errorf("after a reload the end says %q, want %q", got, want)
	}
	cy.Wait("every word", fmt.Sprintf(`document.querySelectorAll(".nwords li").length === %d && !!document.querySelector("#game-over")`, len(words)))
	if e2e.Eval[bool](cy, `!!document.querySelector("#rematch")`) {
		t.Error("the spectator is offered a rematch")
	}
	ben.Shot("nymphabet-over")
	// The record downloads whole, and replays to the same end.
	rec := string(ben.Download("#download"))
	for _, want := range []string{`"game": "nymphabet"`, `"move": "abdicate"`, `"move": "zoo"`} {
		if !strings.Contains(rec, want) {
			t.Errorf("the downloaded record lacks %s:\n%s", want, rec)
		}
	}
	checkReplay(t, ann, len(words), "Move 10 of 10: Ben — zoo")
	t.Logf("Nymphabet, time for a word to show on the other screen: %s", lat.Summary())
}

// TestMovePressedTwice: on a slow connection (here every message the
// page sends waits 400 ms before it leaves) Ann presses Enter twice on
// her word. It is written once, and no refusal follows it: the second
// press shares the first one's answer rather than being sent out of turn.
func TestMovePressedTwice(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.CreateTable("nymphabet", "A friend")
	ben.Join(ann.InviteLink())
	ann.WaitTurn(true)
	e2e.Eval[bool](ann, `(() => { const send = WebSocket.prototype.send; WebSocket.prototype.send = function (d) { setTimeout(() => send.call(this, d), 400); }; return true; })()`)
	ann.TypeIn("#n-word", "abdicate")
	ann.Do("press Enter twice", chromedp.KeyEvent(kb.Enter), chromedp.KeyEvent(kb.Enter))
	ben.WaitTurn(true)
	ann.Wait("the box emptied", `document.querySelectorAll(".nwords li").length === 1 && document.querySelector("#n-word").value === ""`)
	// Ben's word comes after every answer Ann's page could have had.
	ben.TypeIn("#n-word", "defog")
	ben.Click("#n-controls button[type=submit]")
	ann.Wait("Ben's word", `document.querySelectorAll(".nwords li").length === 2`)
	if got := ann.Text("#n-controls .error"); got != "" {
		t.Errorf("after her word was written Ann's page says %q", got)
	}
	if got := e2e.Eval[[]string](ben, `[...document.querySelectorAll(".nwords li")].map(l => l.textContent)`); len(got) != 2 || got[0] != "Ann: ABdiCate" {
		t.Errorf("Ben's list of words: %q", got)
	}
}

// TestNymphabetKeyboardOnly plays by the keyboard alone: Ann types her
// word and presses Enter, and when Ben's word has come back her next
// word goes in as she types it, with no trip back to the word box: the
// box keeps the keyboard while she waits.
func TestNymphabetKeyboardOnly(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.CreateTable("nymphabet", "A friend")
	ben.Join(ann.InviteLink())
	ann.WaitTurn(true)
	ann.TypeIn("#n-word", "abdicate")
	ann.Do("press Enter", chromedp.KeyEvent(kb.Enter))
	ben.WaitTurn(true)
	// Typed while it is not her turn, nothing is sent.
	ann.Do("type while waiting", chromedp.KeyEvent("x"), chromedp.KeyEvent(kb.Enter))
	ben.TypeIn("#n-word", "defog")
	ben.Click("#n-controls button[type=submit]")
	ann.WaitTurn(true)
	ann.Do("type the next word", chromedp.KeyEvent("hijack"), chromedp.KeyEvent(kb.Enter))
	ben.Wait("Ann's second word", `document.querySelectorAll(".nwords li").length === 3`)
	if got := ben.Text(".nwords li:last-child"); got != "Ann: HIJacK" {
		t.Errorf("Ann's second word reads %q on Ben's screen", got)
	}
	if got := ann.Text("#n-controls .error"); got != "" {
		t.Errorf("Ann's screen says %q", got)
	}
}
