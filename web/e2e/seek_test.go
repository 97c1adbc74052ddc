package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestQuickSeek: players in separate browsers pair by quick seek. Ann and
// Ben, signed in, each press Nymphabet's "Quick rated game": Ann's page
// waits under a banner, Ben's press pairs them, and both land at the same
// rated table. Gus, a guest, presses Salvo's "Quick game"; Ben finds the
// seek in the lobby and accepts it, and both land at the same casual
// table. A seek cancelled from its banner leaves the lobby's list.
func TestQuickSeek(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", base)
	ben := newPlayer(t, b, "Ben", base)
	gus := newPlayer(t, b, "Gus", base)
	ann.signUp("Ann", "correct horse battery")
	ben.signUp("Ben", "another fine phrase")

	// Rated: both press the same one-click button.
	for _, p := range []*player{ann, ben} {
		p.open("/")
		p.wait("the quick buttons", `!!document.querySelector(".quick-seek[data-game=nymphabet][data-rated=true]")`)
	}
	ann.click(".quick-seek[data-game=nymphabet][data-rated=true]")
	ann.wait("Ann's waiting banner", `!!document.querySelector(".banner.seek .seek-cancel")`)
	if got := ann.text(".banner.seek"); !strings.Contains(got, "Looking for an opponent for a rated Nymphabet (standard) game, 2 minutes a turn") {
		t.Errorf("Ann's banner reads %q", got)
	}
	ann.shotView("seek-waiting")
	ann.accessibleThemes("the seek banner")
	ben.click(".quick-seek[data-game=nymphabet][data-rated=true]")
	ben.wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	ann.wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	id := eval[string](ben, `location.pathname`)
	if got := eval[string](ann, `location.pathname`); got != id {
		t.Fatalf("Ann is at %s, Ben at %s", got, id)
	}
	if !eval[bool](ann, `fetch("/api/v1`+strings.Replace(id, "/t/", "/tables/", 1)+`").then(r => r.json()).then(v => v.table ? v.table.rated : v.rated)`) {
		t.Errorf("the table of the rated seeks is not rated")
	}
	if n := eval[int](ann, `document.querySelectorAll(".banner.seek").length`); n != 0 {
		t.Errorf("Ann's seek banner stays after the pairing (%d)", n)
	}
	// Both are seated: one of them moves, the other sees the word.
	ann.wait("a seat", `["0","1"].includes(document.querySelector("#turn").dataset.mine)`)
	mover, other := ann, ben
	if eval[string](ann, `document.querySelector("#turn").dataset.mine`) != "1" {
		mover, other = ben, ann
	}
	mover.waitTurn(true)
	mover.typeIn("#n-word", "abdicate")
	mover.click("#n-controls button[type=submit]")
	other.wait("the word on the other screen", `document.querySelectorAll(".nwords li").length === 1`)

	// Casual: a guest's seek, accepted from the lobby.
	gus.open("/")
	gus.wait("the quick buttons", `!!document.querySelector(".quick-seek[data-game=salvo][data-rated=false]")`)
	if n := eval[int](gus, `document.querySelectorAll(".quick-seek[data-rated=true]").length`); n != 0 {
		t.Errorf("a guest is offered %d rated quick games", n)
	}
	gus.click(".quick-seek[data-game=salvo][data-rated=false]")
	gus.wait("Gus's waiting banner", `!!document.querySelector(".banner.seek .seek-cancel")`)
	ben.open("/lobby")
	ben.wait("Gus's seek in the lobby", `!!document.querySelector("#lobby-seeks .seek-accept")`)
	if got := ben.text("#lobby-seeks"); !strings.Contains(got, "wants a casual Salvo game, 2 minutes a turn") {
		t.Errorf("the lobby reads %q", got)
	}
	ben.shot("lobby-seeks")
	ben.accessibleThemes("the lobby with a seek")
	ben.click("#lobby-seeks .seek-accept")
	ben.wait("the Salvo table", `location.pathname.startsWith("/t/") && location.pathname !== `+jsString(id))
	gus.wait("the Salvo table", `location.pathname.startsWith("/t/")`)
	sid := eval[string](ben, `location.pathname`)
	if got := eval[string](gus, `location.pathname`); got != sid {
		t.Fatalf("Gus is at %s, Ben at %s", got, sid)
	}
	if eval[bool](gus, `fetch("/api/v1`+strings.Replace(sid, "/t/", "/tables/", 1)+`").then(r => r.json()).then(v => !!(v.table ? v.table.rated : v.rated))`) {
		t.Errorf("the guest's table is rated")
	}

	// A seek cancelled from its banner leaves the list.
	ann.open("/")
	ann.wait("the quick buttons", `!!document.querySelector(".quick-seek[data-game=quizl]")`)
	ann.click(".quick-seek[data-game=quizl][data-rated=false]")
	ann.wait("Ann's waiting banner", `!!document.querySelector(".banner.seek .seek-cancel")`)
	ann.click(".banner.seek .seek-cancel")
	ann.wait("the banner gone", `document.querySelectorAll(".banner.seek").length === 0`)
	if n := eval[int](ann, `fetch("/api/v1/seeks").then(r => r.json()).then(l => l.seeks.length)`); n != 0 {
		t.Errorf("%d seeks listed after the cancel", n)
	}

	// After a wait with nobody, the banner offers the computer at Ann's
	// level (medium: she is new to Quizl); she plays it while her seek
	// waits on, and cancels it from the table's page.
	ann.click(".quick-seek[data-game=quizl][data-rated=false]")
	ann.wait("Ann's waiting banner", `!!document.querySelector(".banner.seek .seek-cancel")`)
	ann.waitLong("the offer of the computer", `!!document.querySelector(".banner.seek .seek-computer")`)
	if got := ann.text(".banner.seek .seek-offer"); !strings.Contains(got, "No one yet: play the computer at your level while you wait?") {
		t.Errorf("the offer reads %q", got)
	}
	ann.accessibleThemes("the offer of the computer")
	ann.click(".banner.seek .seek-computer")
	ann.wait("the table against the computer", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	cid := eval[string](ann, `location.pathname`)
	if got := eval[string](ann, `fetch("/api/v1`+strings.Replace(cid, "/t/", "/tables/", 1)+`").then(r => r.json()).then(v => (v.table || v).seats.map(s => s.kind === "computer" ? s.level : s.name).join(","))`); !strings.Contains(got, "medium") {
		t.Errorf("the computer's seat: %s", got)
	}
	if n := eval[int](ann, `fetch("/api/v1/seeks").then(r => r.json()).then(l => l.seeks.length)`); n != 1 {
		t.Errorf("%d seeks listed while Ann plays the computer, want hers", n)
	}
	ann.click(".banner.seek .seek-cancel")
	ann.wait("the banner gone", `document.querySelectorAll(".banner.seek").length === 0`)
}

// waitLong is wait for what comes after the browser's own timers (the
// seek banner's offer comes 20 s into a wait).
func (p *player) waitLong(what, expr string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 60*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		p.fail("waiting for %s (%s): %v", what, clip(expr), err)
	}
}

// jsString quotes s as a JavaScript string.
func jsString(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }
