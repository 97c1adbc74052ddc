package keyboard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"parlour/web/e2e"
)

// TestReplayByKeyboard steps through a replay from its list of moves with
// the keyboard: the move chosen keeps the focus, so that the next Tab or
// Enter goes on from there rather than from the top of the page, and the
// live step counter says what the move did, not only what was played.
func TestReplayByKeyboard(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Ann", base)
	rec := `{"parlour":1,"game":"nymphabet","players":["Ann","Ben"],"moves":[
{"by":"Ann","move":"abdicate"},{"by":"Ben","move":"defog"},{"by":"Ann","move":"hijack"}]}`
	path := filepath.Join(t.TempDir(), "game.json")
	if err := os.WriteFile(path, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	p.Open("/replay")
	p.Do("choose the file", chromedp.SetUploadFiles(chromedp.CSS("#replay-file"), []string{path}))
	p.Wait("the replay", `document.querySelectorAll("#replay-moves li button").length === 3`)
	p.Do("press Enter on the second move", chromedp.Focus(chromedp.CSS("#replay-moves li:nth-child(2) button")), chromedp.KeyEvent(kb.Enter))
	p.Wait("the second move shown", `document.querySelector("#replay-step").textContent.startsWith("Move 2 of 3")`)
	if got := e2e.Eval[string](p, `document.activeElement.closest("#replay-moves") ? document.activeElement.textContent : document.activeElement.tagName`); !strings.HasPrefix(got, "2.") {
		t.Errorf("after Enter on the second move the focus is on %q, want that move", got)
	}
	if got := p.Text("#replay-step"); !strings.Contains(got, "Ben wrote DEFOG, deleting D, E, F") {
		t.Errorf("the step counter says %q: not what the move did", got)
	}
}

// TestReplaySeatChoiceByKeyboard chooses, with the arrow keys, whose view
// a replay shows: the choice of seat moves, and the replay stays at its
// move, where the arrow key stepped it on as well.
func TestReplaySeatChoiceByKeyboard(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Ann", base)
	rec := `{"parlour":1,"game":"nymphabet","players":["Ann","Ben"],"moves":[
{"by":"Ann","move":"abdicate"},{"by":"Ben","move":"defog"},{"by":"Ann","move":"hijack"}]}`
	path := filepath.Join(t.TempDir(), "game.json")
	if err := os.WriteFile(path, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	p.Open("/replay")
	p.Do("choose the file", chromedp.SetUploadFiles(chromedp.CSS("#replay-file"), []string{path}))
	p.Wait("the replay", `document.querySelectorAll("#replay-moves li button").length === 3`)
	p.Do("go to the start", chromedp.Focus(chromedp.CSS("#replay-first")), chromedp.KeyEvent(kb.Enter))
	p.Wait("the start", `document.querySelector("#replay-step").textContent.startsWith("Before the first move")`)
	p.Do("see it as Ben", chromedp.Focus(chromedp.CSS("#replay-seat")), chromedp.KeyEvent(kb.ArrowRight))
	p.Wait("Ben's view", `document.querySelector("#replay-seat").value === "1"`)
	if got := p.Text("#replay-step"); !strings.HasPrefix(got, "Before the first move") {
		t.Errorf("choosing the seat with the arrow key stepped the replay on: %q", got)
	}
}
