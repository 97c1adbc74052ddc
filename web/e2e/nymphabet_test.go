package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestNymphabet plays a whole standard game between two browsers, checks
// both screens after every word and measures how long each word takes to
// reach the other screen. Halfway through, the server restarts: both
// screens say the connection dropped, reconnect by themselves, and carry
// on with nothing lost or repeated.
func TestNymphabet(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	base := srv.base
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", base)
	ben := newPlayer(t, b, "Ben", base)
	id := ann.createTable("nymphabet", "A friend")
	ben.join(ann.inviteLink())
	// Cy follows the game as a spectator.
	cy := newPlayer(t, b, "Cy", base)
	cy.open("/t/" + id)
	cy.click("#watch")
	cy.wait("the table", `!!document.querySelector("#turn") && document.querySelectorAll(".alphabet span").length === 26`)
	if got := cy.text("#turn"); !strings.HasPrefix(got, "Watching") {
		t.Errorf("the spectator's status: %q", got)
	}
	if eval[bool](cy, `!!document.querySelector("#n-controls") && !document.querySelector("#n-controls").hidden`) {
		t.Error("the spectator is offered a word box")
	}
	ann.wait("the alphabet", `document.querySelectorAll(".alphabet span").length === 26`)
	ann.waitTurn(true)
	ben.waitTurn(false)
	ann.shot("nymphabet-start")

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
	var lat latencies
	deleted := 0
	for i, w := range words {
		mover, other := ann, ben
		if i%2 == 1 {
			mover, other = ben, ann
		}
		mover.waitTurn(true)
		other.waitTurn(false)
		mover.typeIn("#n-word", w.word)
		other.watchFor(fmt.Sprintf(`document.querySelectorAll(".nwords li").length === %d`, i+1))
		sent := mover.submitAt("#n-controls button[type=submit]")
		seen := other.seenAt()
		lat = append(lat, time.Duration((seen-sent)*float64(time.Millisecond)))
		deleted += w.deleted
		for _, p := range []*player{ann, ben} {
			p.wait("word "+w.word, fmt.Sprintf(`document.querySelectorAll(".nwords li").length === %d`, i+1))
			shown := eval[string](p, `[...document.querySelectorAll(".nwords li")].pop().innerText`)
			if !strings.HasSuffix(shown, w.shown) {
				t.Errorf("%s sees word %d as %q, want it to end %q", p.name, i+1, shown, w.shown)
			}
			if n := eval[int](p, `document.querySelectorAll(".alphabet span.gone").length`); n != deleted {
				t.Errorf("%s sees %d letters struck through after %s, want %d", p.name, n, w.word, deleted)
			}
		}
		if i == 3 {
			ann.shot("nymphabet-play")
			ann.labelled("the Nymphabet play screen")
		}
		if i == 4 {
			srv.restart(func() {
				for _, p := range []*player{ann, ben} {
					p.wait("the lost connection", `document.querySelector("#conn").dataset.state !== "live"`)
					if got := p.text("#conn"); !strings.Contains(got, "reconnecting") && !strings.Contains(got, "connecting") {
						t.Errorf("%s's screen says %q with the server down", p.name, got)
					}
				}
			})
			for _, p := range []*player{ann, ben} {
				p.wait("the reconnection", `document.querySelector("#conn").dataset.state === "live"`)
			}
		}
	}
	for _, p := range []*player{ann, ben} {
		p.wait("the end", `!!document.querySelector("#game-over")`)
		if got := p.text("#game-over h2"); !strings.Contains(got, map[string]string{"Ann": "you won", "Ben": "Ann won"}[p.name]) {
			t.Errorf("%s sees %q at the end", p.name, got)
		}
		if got, want := p.text("#end-reason"), "Ben wrote the last word, ZOO, deleting Z: whoever deletes Z loses."; got != want {
			t.Errorf("%s's end screen says why: %q, want %q", p.name, got, want)
		}
		if title := eval[string](p, `document.title`); !strings.HasPrefix(title, "Over") {
			t.Errorf("%s's tab title at the end: %q", p.name, title)
		}
	}
	for _, p := range []*player{ann, ben} {
		if n := eval[int](p, `document.querySelectorAll("#moves li").length`); n != len(words) {
			t.Errorf("%s's move list has %d moves, want %d", p.name, n, len(words))
		}
	}
	// Opened afresh, the end still says why, from the view alone.
	ann.open(eval[string](ann, `location.pathname`))
	ann.wait("the end again", `!!document.querySelector("#end-reason")`)
	if got, want := ann.text("#end-reason"), "Ben wrote the last word, ZOO, deleting Z: whoever deletes Z loses."; got != want {
		t.Errorf("after a reload the end says %q, want %q", got, want)
	}
	cy.wait("every word", fmt.Sprintf(`document.querySelectorAll(".nwords li").length === %d && !!document.querySelector("#game-over")`, len(words)))
	if eval[bool](cy, `!!document.querySelector("#rematch")`) {
		t.Error("the spectator is offered a rematch")
	}
	ben.shot("nymphabet-over")
	// The record downloads whole, and replays to the same end.
	rec := string(ben.download("#download"))
	for _, want := range []string{`"game": "nymphabet"`, `"move": "abdicate"`, `"move": "zoo"`} {
		if !strings.Contains(rec, want) {
			t.Errorf("the downloaded record lacks %s:\n%s", want, rec)
		}
	}
	checkReplay(t, ann, len(words), "Move 10 of 10: Ben — zoo")
	t.Logf("Nymphabet, time for a word to show on the other screen: %s", lat.summary())
}
