package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// AXNames returns the accessible name of every element matching sel, in
// document order, as Chromium's own accessibility tree has it: what a
// screen reader is given, pseudo-elements' generated text, hidden parts
// and labels all taken into account, rather than what a script in the
// page guesses from the DOM.
func (p *Player) AXNames(sel string) []string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, 20*time.Second)
	defer cancel()
	n := Eval[int](p, fmt.Sprintf(`document.querySelectorAll(%q).length`, sel))
	names := make([]string, 0, n)
	no := false
	for i := range n {
		obj, err := chromedp.Call(ctx, runtime.Evaluate, runtime.EvaluateParams{Expression: fmt.Sprintf(`document.querySelectorAll(%q)[%d]`, sel, i)})
		if err != nil || obj.Result == nil || obj.Result.ObjectID == "" {
			p.fail("finding %s number %d: %v", sel, i, err)
		}
		tree, err := chromedp.Call(ctx, accessibility.GetPartialAXTree, accessibility.GetPartialAXTreeParams{ObjectID: obj.Result.ObjectID, FetchRelatives: &no})
		if err != nil || len(tree.Nodes) == 0 {
			p.fail("the accessibility tree of %s number %d: %v", sel, i, err)
		}
		name := ""
		if v := tree.Nodes[0].Name; v != nil && len(v.Value) > 0 {
			if err := json.Unmarshal(v.Value, &name); err != nil {
				p.fail("the accessible name of %s number %d (%s): %v", sel, i, v.Value, err)
			}
		}
		names = append(names, name)
	}
	return names
}

// Contrast is a JavaScript function, (a, b) => ratio, giving the WCAG
// contrast ratio of two colours as getComputedStyle writes them
// ("rgb(1, 2, 3)" or "rgba(1, 2, 3, 1)"): a test reads the colours the
// browser draws with and checks the ratio it needs. A colour it cannot
// read gives 0, so that a check fails rather than passes unread.
const Contrast = `((a, b) => {
	const lum = c => {
		const m = /^rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)/.exec(c);
		if (!m) return NaN;
		const [r, g, bl] = m.slice(1, 4).map(x => { const s = Number(x) / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; });
		return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
	};
	const x = lum(a), y = lum(b);
	if (Number.isNaN(x) || Number.isNaN(y)) return 0;
	return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
})`
