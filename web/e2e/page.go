package e2e

import (
	"context"
	"fmt"
	"time"

	"github.com/chromedp/chromedp"
)

// ConsoleErrors returns the console errors the browser itself logged since
// the last call (a failed request's "Failed to load resource", a blocked
// script), which the page's own scripts did not write, and forgets them.
func (p *Player) ConsoleErrors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.logged
	p.logged = nil
	return out
}

// WaitPage is wait across a navigation: the page that was polled may go
// away under the poll, and the next one is polled until expr holds.
func (p *Player) WaitPage(what, expr string) {
	p.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(p.Ctx, 2*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		cancel()
		if err == nil && ok {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	p.fail("waiting for %s after a navigation (%s)", what, Clip(expr))
}

// WaitLong is Wait for what comes after the browser's own timers (the
// seek banner's offer comes 20 s into a wait).
func (p *Player) WaitLong(what, expr string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, 60*time.Second)
	defer cancel()
	// The poll's own timeout (30 s unless told) is off: ctx bounds it.
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
		p.fail("waiting for %s (%s): %v", what, Clip(expr), err)
	}
}

// Pick sets the select sel of p's page to the option whose value is
// value, as a player choosing it does, and fails when there is none.
func (p *Player) Pick(sel, value string) {
	p.t.Helper()
	if !Eval[bool](p, fmt.Sprintf(`(() => { const s = document.querySelector(%q); if (!s || ![...s.options].some(o => o.value === %q)) return false; s.value = %q; s.dispatchEvent(new Event("change")); return true; })()`, sel, value, value)) {
		p.fail("no option %q in %s", value, sel)
	}
}
