package e2e

import (
	"fmt"
	"testing"
)

// TestClientHelpers runs the client's own helpers in the browser: the
// placement previews and notes that comfort players before the referee
// answers, the report wording, and the Markdown reader's escaping.
func TestClientHelpers(t *testing.T) {
	base := startServer(t)
	b := newBrowser(t)
	p := newPlayer(t, b, "tester", base)
	p.open("/rules")
	p.wait("the page", `!!document.querySelector("article.doc")`)
	tests := []struct {
		name, module, expr, want string
	}{
		{"first word anywhere", "games/wordfight.js", `JSON.stringify((({ok, points}) => [ok, points])(m.preview(["....", "....", "....", "...."], "CAT", 1, 0, false, true)))`, `[true,0]`},
		{"reuse scores", "games/wordfight.js", `m.preview([".CAT", "....", "....", "...."], "TAR", 0, 3, true, true).points`, `3`},
		{"base scoring", "games/wordfight.js", `m.preview([".CAT", "....", "....", "...."], "TAR", 0, 3, true, false).points`, `3`},
		{"must reuse", "games/wordfight.js", `m.preview([".CAT", "....", "....", "...."], "DOG", 2, 0, false, true).problem`, `a later word must reuse at least one letter already in your grid`},
		{"clash", "games/wordfight.js", `m.preview([".CAT", "....", "....", "...."], "COT", 0, 1, false, true).problem`, `square C1 holds A, not O`},
		{"off the board", "games/wordfight.js", `m.preview(["....", "....", "....", "...."], "CATS", 0, 1, false, true).problem`, `CATS runs off the board`},
		{"unusable square", "games/wordfight.js", `m.preview(["..#.", "....", "....", "...."], "CAT", 0, 0, false, true).problem`, `square C1 is unusable`},
		{"letter after", "games/wordfight.js", `m.preview(["...S", "....", "....", "...."], "CAT", 0, 0, false, true).problem`, `the square after the word holds a letter`},
		{"crossings", "games/wordfight.js", `m.preview(["CAT.", "....", "....", "...."], "ATE", 0, 1, true, true).crossings.join()`, ``},
		{"crossing run", "games/wordfight.js", `m.preview(["CAT.", "O...", "....", "...."], "AN", 0, 1, true, true).crossings.join()`, `ON`},
		{"strict edge", "games/salvo.js", `m.placementProblem([m.squaresOf("A1-E1"), null, null, null, null], true, false)`, `the battleship has 5 squares on the ocean's edge: at most one may lie there`},
		{"free edge", "games/salvo.js", `m.placementProblem([m.squaresOf("A1-E1"), null, null, null, null], false, false)`, ``},
		{"overlap", "games/salvo.js", `m.placementProblem([m.squaresOf("B2-B6"), m.squaresOf("A3-D3"), null, null, null], false, false)`, `the cruiser overlaps the battleship at B3`},
		{"touching", "games/salvo.js", `m.placementProblem([m.squaresOf("B2-B6"), m.squaresOf("C2-C5"), null, null, null], true, false)`, `the battleship touches 4 squares of the cruiser: a ship may touch at most one square of another`},
		{"random fleet keeps the rule", "games/salvo.js", `[...Array(20)].every(() => { const f = m.randomFleet(true, false); return f && m.placementProblem(f, true, false) === "" })`, `true`},
		{"ocean report", "games/salvo.js", `m.reportText({hits: {}, sank: {}})`, `all in the ocean`},
		{"report", "games/salvo.js", `m.reportText({hits: {destroyer: 1, submarine: 2}, sank: {submarine: 1}})`, `one in the destroyer, two in submarines; sank a submarine`},
		{"quizl shape", "games/quizl.js", `m.shapeProblem(["CRANE", "CRANE", "BDFGH", "IJKMQ", "UVWXY"], "CRANE")`, `the letter C appears twice, in squares 50 and 60`},
		{"quizl password line", "games/quizl.js", `m.shapeProblem(["TQUFP", "WZVES", "OGBRA", "CHINL", "KYXDM"], "PSALM")`, ``},
		{"quizl password missing", "games/quizl.js", `m.shapeProblem(["TQUFP", "WZVES", "OGBRA", "CHINL", "KYXDM"], "CRANE")`, `the password CRANE is not written in any row (left to right) or column (top to bottom)`},
		{"nymphabet capitals", "games/nymphabet.js", `m.shown("ABDICATED", "A, B, C, D").map(x => typeof x === "string" ? x : x.textContent).join("")`, `ABdiCateD`},
		{"markdown escapes", "md.js", `m.markdown("# T <script>x</script>\n\n**b** [x](javascript:alert(1)) [q](quizl.md)")`, "<h2>T &lt;script&gt;x&lt;/script&gt;</h2>\n<p><strong>b</strong> x <a href=\"/rules/quizl\">q</a></p>"},
	}
	for _, tt := range tests {
		got := eval[string](p, fmt.Sprintf(`import("/static/js/%s").then(m => String(%s))`, tt.module, tt.expr))
		if got != tt.want {
			t.Errorf("%s: %s = %q, want %q", tt.name, tt.expr, got, tt.want)
		}
	}
}
