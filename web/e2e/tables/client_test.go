package tables

import (
	"fmt"
	"testing"

	"parlour/web/e2e"
)

// TestClientHelpers runs the client's own helpers in the browser: the
// Quizl grid note that comforts players before the referee answers, the
// report wording, and the rules said in words. (Salvo's placement
// note and Word Fight's preview are the referee's own, tested with the
// endpoints in package web.)
func TestClientHelpers(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "tester", base)
	p.Open("/rules")
	p.Wait("the page", `!!document.querySelector("article.doc")`)
	tests := []struct {
		name, module, expr, want string
	}{
		{"ocean report", "games/salvo.js", `m.reportText({hits: {}, sank: {}})`, `all in the ocean`},
		{"report", "games/salvo.js", `m.reportText({hits: {destroyer: 1, submarine: 2}, sank: {submarine: 1}})`, `one in the destroyer, two in submarines; sank a submarine`},
		{"quizl shape", "games/quizl.js", `m.shapeProblem(["CRANE", "CRANE", "BDFGH", "IJKMQ", "UVWXY"], "CRANE")`, `the letter C appears twice, in squares 50 and 60`},
		{"quizl password line", "games/quizl.js", `m.shapeProblem(["TQUFP", "WZVES", "OGBRA", "CHINL", "KYXDM"], "PSALM")`, ``},
		{"quizl password missing", "games/quizl.js", `m.shapeProblem(["TQUFP", "WZVES", "OGBRA", "CHINL", "KYXDM"], "CRANE")`, `the password CRANE is not written in any row (left to right) or column (top to bottom)`},
		{"nymphabet capitals", "games/nymphabet.js", `m.shown("ABDICATED", "A, B, C, D").map(x => typeof x === "string" ? x : x.textContent).join("")`, `ABdiCateD`},
		{"rules in words", "rulestext.js", `m.rulesInWords([{name: "width", kind: "int", default: 20}, {name: "height", kind: "int", default: 20}, {name: "shape", label: "Board shape", kind: "text", default: ""}, {name: "strike_limit", label: "Strike limit", kind: "int", default: 3}, {name: "multiply", label: "Be Fruitful and Multiply", kind: "bool", default: true}], {width: 20, height: 20, shape: "", strike_limit: 3, multiply: false}).join("; ")`, `Board: 20 x 20; Strike limit: 3; Be Fruitful and Multiply: off`},
		{"rules changed", "rulestext.js", `m.rulesInWords([{name: "width", kind: "int", default: 20}, {name: "height", kind: "int", default: 20}, {name: "shape", label: "Board shape", kind: "text", default: ""}], {width: 20, height: 20, shape: "#./..."}, true).join("; ")`, `Board shape: 1 unusable square`},
		{"rules with no label", "rulestext.js", `m.rulesInWords([{name: "strike_limit", kind: "int", default: 3}], {strike_limit: 1}, true).join("; ")`, `Strike limit: 1`},
	}
	for _, tt := range tests {
		got := e2e.Eval[string](p, fmt.Sprintf(`import("/static/js/%s").then(m => String(%s))`, tt.module, tt.expr))
		if got != tt.want {
			t.Errorf("%s: %s = %q, want %q", tt.name, tt.expr, got, tt.want)
		}
	}
}
