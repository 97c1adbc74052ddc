package e2e

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"
)

// CreateTable opens the new-table form of game as p, fills it with name,
// picks the seats with preset (a button of the "Who plays" box, "" to keep
// the default) and opens the table. It returns the table's id.
func (p *Player) CreateTable(game, preset string) string {
	p.t.Helper()
	p.Open("/new/" + game)
	p.Wait("the new table form", `!!document.querySelector("form button[type=submit]")`)
	if preset != "" {
		p.ClickText("#main form button", preset)
	}
	// A signed-in player plays as their account, without a name to type.
	if Eval[bool](p, `!!document.querySelector("#my-name")`) {
		p.TypeIn("#my-name", p.Name)
	}
	p.Click("form button[type=submit]")
	p.Wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	return strings.TrimPrefix(Eval[string](p, `location.pathname`), "/t/")
}

// InviteLink reads the invite link the table shows its creator.
func (p *Player) InviteLink() string {
	p.t.Helper()
	p.Wait("the invite link", `!!document.querySelector("#invite")`)
	return Eval[string](p, `document.querySelector("#invite").value`)
}

// Join follows an invite link and takes a seat.
func (p *Player) Join(link string) {
	p.t.Helper()
	if !strings.HasPrefix(link, p.base+"/t/") {
		p.fail("invite link %q is not a table of %s", link, p.base)
	}
	p.Open(strings.TrimPrefix(link, p.base))
	p.Wait("the join form", `!!document.querySelector("#main form button[type=submit]")`)
	if Eval[bool](p, `!!document.querySelector("#join-name")`) { // an account plays under its own name
		p.TypeIn("#join-name", p.Name)
	}
	p.Click("#main form button[type=submit]")
	p.Wait("the table", `!!document.querySelector("#turn")`)
}

// ClickText clicks the first element matching sel whose text is text.
func (p *Player) ClickText(sel, text string) {
	p.t.Helper()
	ok := Eval[bool](p, fmt.Sprintf(`(() => { const el = [...document.querySelectorAll(%q)].find(e => e.textContent.trim() === %q); if (el) el.click(); return !!el; })()`, sel, text))
	if !ok {
		p.fail("no %s reading %q", sel, text)
	}
}

// myTurn reports whether the table shows that it is p's turn.
func (p *Player) WaitTurn(mine bool) {
	p.t.Helper()
	p.Wait(fmt.Sprintf("my turn = %v", mine), fmt.Sprintf(`(document.querySelector("#turn")||{}).dataset && document.querySelector("#turn").dataset.mine === %q`, map[bool]string{true: "1", false: "0"}[mine]))
}

// Latencies collects how long moves took to show on the other screen.
// The game tests log them; BenchmarkMoveToOtherScreen measures them.
type Latencies []time.Duration

// Summary says how many moves l holds, and their median, 90th
// percentile, worst and mean.
func (l Latencies) Summary() string {
	if len(l) == 0 {
		return "no moves measured"
	}
	s := append(Latencies(nil), l...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	var sum time.Duration
	for _, d := range s {
		sum += d
	}
	p := func(q float64) time.Duration { return s[min(len(s)-1, int(q*float64(len(s))))] }
	return fmt.Sprintf("%d moves: median %v, p90 %v, max %v, mean %v", len(s), p(0.5), p(0.9), s[len(s)-1], sum/time.Duration(len(s)))
}

// WatchFor arms an observer in p's page that notes the time at which the
// JavaScript condition cond first holds.
func (p *Player) WatchFor(cond string) {
	p.t.Helper()
	Eval[bool](p, fmt.Sprintf(`(() => {
		window.__seenAt = 0;
		if (window.__obs) window.__obs.disconnect();
		const check = () => { if (!window.__seenAt && (%s)) window.__seenAt = performance.timeOrigin + performance.now(); };
		window.__obs = new MutationObserver(check);
		window.__obs.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
		check();
		return true;
	})()`, cond))
}

// SeenAt waits for the condition armed by WatchFor and returns when it
// first held, in milliseconds since the epoch (with fractions).
func (p *Player) SeenAt() float64 {
	p.t.Helper()
	p.Wait("the move to show", `window.__seenAt > 0`)
	return Eval[float64](p, `window.__seenAt`)
}

// SubmitAt clicks sel and returns the time just before the click, in the
// clock SeenAt uses (both tabs share the machine's clock).
func (p *Player) SubmitAt(sel string) float64 {
	p.t.Helper()
	return Eval[float64](p, fmt.Sprintf(`(() => { const t = performance.timeOrigin + performance.now(); document.querySelector(%q).click(); return t; })()`, sel))
}

// NoSecrets checks that nothing p has received so far holds any of the
// secrets, in either case. A match inside a word of lower-case prose or a
// JSON key is not a secret: a grid's row CORES is not in "scores".
func (p *Player) NoSecrets(when string, secrets ...string) {
	p.t.Helper()
	for _, body := range p.received() {
		up := strings.ToUpper(body)
		for _, s := range secrets {
			s = strings.ToUpper(s)
			for off := 0; ; {
				i := strings.Index(up[off:], s)
				if i < 0 {
					break
				}
				i += off
				off = i + 1
				if len(up) == len(body) && inLowerWord(body, i, i+len(s)) {
					continue
				}
				p.t.Errorf("%s: %s received %q %s: ...%s...", p.Name, when, s, "before the end", Clip(body[max(0, i-60):]))
				break
			}
		}
	}
}

// inLowerWord reports whether body[i:j] is lower-case letters with a
// lower-case letter either side: part of a longer word of prose.
func inLowerWord(body string, i, j int) bool {
	lower := func(b byte) bool { return 'a' <= b && b <= 'z' }
	for k := i; k < j; k++ {
		if !lower(body[k]) {
			return false
		}
	}
	return (i > 0 && lower(body[i-1])) || (j < len(body) && lower(body[j]))
}

// Labelled checks that every control and square on p's screen has a name
// a screen reader can say: a label, an aria-label or its text.
func (p *Player) Labelled(where string) {
	p.t.Helper()
	bare := Eval[[]string](p, `[...document.querySelectorAll("input, select, textarea, button, [role=gridcell]")]
		.filter(e => e.type !== "hidden" && e.offsetParent !== null)
		.filter(e => !(e.labels && e.labels.length) && !e.getAttribute("aria-label") && !e.getAttribute("aria-labelledby") && !e.textContent.trim())
		.map(e => e.outerHTML.slice(0, 100))`)
	if len(bare) > 0 {
		p.t.Errorf("%s: on %s, controls without a name for screen readers: %v", p.Name, where, bare)
	}
}

// PlayToResign plays one Nymphabet game, which winner and loser sit at,
// to its end: both move once, so that it is no abort, and loser resigns.
// It answers the table's path.
func PlayToResign(t testing.TB, winner, loser *Player) string {
	t.Helper()
	at := Eval[string](winner, `location.pathname`)
	if got := Eval[string](loser, `location.pathname`); got != at {
		t.Fatalf("%s is at %s, %s at %s: not the same table", winner.Name, at, loser.Name, got)
	}
	winner.Wait("a seat", `["0","1"].includes((document.querySelector("#turn")||{dataset:{}}).dataset.mine)`)
	first, second := winner, loser
	if Eval[string](winner, `document.querySelector("#turn").dataset.mine`) != "1" {
		first, second = loser, winner
	}
	first.WaitTurn(true)
	first.TypeIn("#n-word", "abdicate")
	first.Click("#n-controls button[type=submit]")
	second.WaitTurn(true)
	second.TypeIn("#n-word", "defog")
	second.Click("#n-controls button[type=submit]")
	loser.Wait("the Resign button without Abort", `!document.querySelector("#abort") && !!document.querySelector("#resign")`)
	Eval[bool](loser, `(window.confirm = () => true, true)`)
	loser.Click("#resign")
	for _, p := range []*Player{winner, loser} {
		p.Wait("the end of the game", `!!document.querySelector("#game-over")`)
	}
	return at
}
