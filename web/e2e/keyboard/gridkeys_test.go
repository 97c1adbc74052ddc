package keyboard

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"parlour/web/e2e"
)

// focusedNow says where the keyboard's focus is, for a test's failure.
const focusedNow = `(a => a === document.body ? "the page's body" : a.outerHTML.slice(0, 80))(document.activeElement)`

// TestGridKeepsItsTabStop moves about the other player's grid with the
// arrow keys, goes to the move box, and has a chat line from the other
// player redraw the table: the grid's one stop of the Tab key stays on
// the square Ann left, so that Shift+Tab back into the grid finds her
// where she was, not at its first square.
func TestGridKeepsItsTabStop(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	for _, tc := range []struct {
		game, auto, from, want, box string
	}{
		{"quizl", "#q-auto", "50", "61", "#q-call"},
		{"salvo", "#s-submit + button", "A1", "B2", "#s-fire"},
	} {
		t.Run(tc.game, func(t *testing.T) {
			t.Parallel()
			ann := e2e.NewPlayer(t, b, "Ann", base)
			ben := e2e.NewPlayer(t, b, "Ben", base)
			ann.CreateTable(tc.game, "A friend")
			ben.Join(ann.InviteLink())
			for _, p := range []*e2e.Player{ann, ben} {
				p.Wait("the setup", `!!document.querySelector(`+quote(tc.auto)+`)`)
				p.Click(tc.auto)
			}
			ann.WaitTurn(true)
			from := `[data-board="1"] [data-sq="` + tc.from + `"]`
			ann.Wait("Ben's grid", `!!document.querySelector(`+quote(from)+`)`)
			ann.Do("move about Ben's grid", chromedp.Focus(chromedp.CSS(from)), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowDown))
			if got := e2e.Eval[string](ann, `document.activeElement.dataset.sq || ""`); got != tc.want {
				t.Fatalf("after the arrow keys the keyboard is on %s", e2e.Eval[string](ann, focusedNow))
			}
			ann.Do("go to the move box", chromedp.Focus(chromedp.CSS(tc.box)))
			ben.TypeIn("#chat-text", "good luck")
			ben.Click("#chat-send")
			ann.Wait("Ben's chat line", `document.querySelector("#chat-log").textContent.includes("good luck")`)
			if got := e2e.Eval[string](ann, `(e => e ? e.dataset.sq : "none")(document.querySelector('[data-board="1"] [data-sq][tabindex="0"]'))`); got != tc.want {
				t.Errorf("after the chat line the Tab stop of Ben's grid is on %s, not %s where Ann left it", got, tc.want)
			}
			ann.Do("back into Ben's grid", chromedp.Focus(chromedp.CSS(`[data-board="own"] [data-sq][tabindex="0"]`)), chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)))
			if got := e2e.Eval[string](ann, `document.activeElement.closest("[data-board]") ? document.activeElement.closest("[data-board]").dataset.board + " " + document.activeElement.dataset.sq : ""`); got != "1 "+tc.want {
				t.Errorf("Shift+Tab back into Ben's grid goes to %s", e2e.Eval[string](ann, focusedNow))
			}
		})
	}
}

// salvoToOutline plays a game of Salvo between Ann and Ben, both fleets
// hidden by the computer, until Ann has sunk every ship of Ben's and is
// to outline his fleet, Ben firing into the water meanwhile; it returns
// Ben's fleet.
func salvoToOutline(t *testing.T, ann, ben *e2e.Player) []string {
	t.Helper()
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("fleet placement", `!!document.querySelector("#s-random")`)
		p.ClickText("#main button", "Let the computer hide my fleet")
	}
	annFleet, benFleet := ann.SalvoFleet(), ben.SalvoFleet()
	own := map[string]bool{}
	for _, s := range annFleet {
		for _, q := range e2e.ShipSquares(s) {
			own[q] = true
		}
	}
	var water, targets []string
	for r := 1; r <= 10; r++ {
		for c := 'A'; c <= 'J'; c++ {
			if q := fmt.Sprintf("%c%d", c, r); !own[q] {
				water = append(water, q)
			}
		}
	}
	for _, s := range benFleet {
		targets = append(targets, e2e.ShipSquares(s)...)
	}
	for i, n := range []int{5, 4, 3, 2, 1, 1} {
		ann.WaitTurn(true)
		ann.TypeIn("#s-fire", strings.Join(targets[:n], " "))
		ann.Click("#s-fire-btn")
		targets = targets[n:]
		if i == 5 {
			break
		}
		ben.WaitTurn(true)
		ben.TypeIn("#s-fire", strings.Join(water[:5], " "))
		water = water[5:]
		ben.Click("#s-fire-btn")
	}
	ann.Wait("the outline", `!document.querySelector("#s-outline").hidden && !!document.querySelector("#s-ol-0")`)
	return benFleet
}

// TestSalvoOutlineKeepsTheCaret edits the middle of a ship's box in
// Salvo's outline when a chat line from the other player comes: the box
// stays the one she is typing in, with the caret where it was, rather
// than being drawn anew with the caret at its end.
func TestSalvoOutlineKeepsTheCaret(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.CreateTable("salvo", "A friend")
	ben.Join(ann.InviteLink())
	salvoToOutline(t, ann, ben)
	ann.Do("type a ship and go back into it", chromedp.Focus(chromedp.CSS("#s-ol-0")), chromedp.KeyEvent("B2-B6"),
		chromedp.KeyEvent(kb.Home), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight))
	e2e.Eval[bool](ann, `(window.__box = document.activeElement, true)`)
	ben.TypeIn("#chat-text", "take your time")
	ben.Click("#chat-send")
	ann.Wait("Ben's chat line", `document.querySelector("#chat-log").textContent.includes("take your time")`)
	if !e2e.Eval[bool](ann, `document.activeElement === window.__box`) {
		t.Errorf("after the chat line Ann's keyboard is on %s, not the box she was typing in", e2e.Eval[string](ann, focusedNow))
	}
	ann.Do("type in the middle", chromedp.KeyEvent("x"))
	if got := e2e.Eval[string](ann, `document.querySelector("#s-ol-0").value`); got != "B2x-B6" {
		t.Errorf("typed after the chat line, the ship's box reads %q, not B2x-B6", got)
	}
}

// TestSalvoFiringBoxWaits fires a salvo by typing it, then types another
// before the other player has fired: as in Quizl and Nymphabet, the box
// waits read-only between turns, the keyboard still in it, and a salvo
// fired meanwhile is refused with the reason and sends nothing.
func TestSalvoFiringBoxWaits(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.CreateTable("salvo", "A friend")
	ben.Join(ann.InviteLink())
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("fleet placement", `!!document.querySelector("#s-random")`)
		p.ClickText("#main button", "Let the computer hide my fleet")
	}
	ann.WaitTurn(true)
	ann.Do("fire a salvo", chromedp.Focus(chromedp.CSS("#s-fire")), chromedp.KeyEvent("a1 a2 a3 a4 a5"), chromedp.KeyEvent(kb.Enter))
	ann.WaitTurn(false)
	ann.Wait("the salvo fired", `document.querySelectorAll("#moves li").length === 1`)
	if got := e2e.Eval[string](ann, `document.activeElement.id`); got != "s-fire" {
		t.Fatalf("after the salvo Ann's keyboard is on %s, not the firing box", e2e.Eval[string](ann, focusedNow))
	}
	if !e2e.Eval[bool](ann, `document.querySelector("#s-fire").readOnly`) {
		t.Errorf("while Ben is to fire, Ann's firing box can be typed in")
	}
	ann.Do("fire out of turn", chromedp.KeyEvent("b1 b2"), chromedp.KeyEvent(kb.Enter))
	ann.Wait("the refusal", `document.querySelector("#s-controls .error").textContent.includes("Wait for your turn")`)
	if got := e2e.Eval[string](ann, `document.querySelector("#s-fire").value`); got != "" {
		t.Errorf("typed out of turn, the firing box reads %q", got)
	}
	if n := e2e.Eval[int](ann, `document.querySelectorAll("#moves li").length`); n != 1 {
		t.Errorf("a salvo fired out of turn made a move: %d moves listed", n)
	}
}

// TestSalvoFireFromTheOcean aims a salvo on the ocean by the keyboard,
// Enter taking each square into it, and fires it with F without leaving
// the ocean, as Quizl calls a chosen square with Enter: F before every
// shot is chosen says how many are still to choose and fires nothing.
func TestSalvoFireFromTheOcean(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.CreateTable("salvo", "The computer")
	ann.Wait("fleet placement", `!!document.querySelector("#s-random")`)
	ann.ClickText("#main button", "Let the computer hide my fleet")
	ann.WaitTurn(true)
	ann.Wait("the ocean", `!!document.querySelector('[data-board="1"] [data-sq="A1"]')`)
	ann.Do("aim four squares", chromedp.Focus(chromedp.CSS(`[data-board="1"] [data-sq="A1"]`)),
		chromedp.KeyEvent(kb.Enter), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.Enter), chromedp.KeyEvent(kb.ArrowRight),
		chromedp.KeyEvent(kb.Enter), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.Enter), chromedp.KeyEvent("f"))
	ann.Wait("the salvo not complete", `document.querySelector("#s-aim-note").textContent.includes("1 more square")`)
	if n := e2e.Eval[int](ann, `document.querySelectorAll("#moves li").length`); n != 0 {
		t.Fatalf("F with four of five shots chosen made %d moves", n)
	}
	ann.Do("aim the fifth and fire", chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.Enter), chromedp.KeyEvent("f"))
	ann.Wait("the salvo fired", `document.querySelector("#moves").textContent.includes("salvo 1: A1 B1 C1 D1 E1")`)
	if got := e2e.Eval[string](ann, `document.activeElement.dataset.sq || ""`); got != "E1" {
		t.Errorf("after firing from the ocean the keyboard is on %s, not its square", e2e.Eval[string](ann, focusedNow))
	}
}

// TestSalvoPlacementKeepsItsTabStop places a ship by the keyboard and
// then chooses the next ship, which draws the ocean anew: the ocean's Tab
// stop stays on the square the ship was placed from, so that Shift+Tab
// back from "Use this fleet" finds the player where they were.
func TestSalvoPlacementKeepsItsTabStop(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.CreateTable("salvo", "The computer")
	ann.Wait("the ocean", `!!document.querySelector('#main [data-sq="B5"]')`)
	ann.Do("place the battleship", chromedp.Focus(chromedp.CSS(`#main [data-sq="B5"]`)), chromedp.KeyEvent(kb.Enter))
	ann.Wait("the referee's answer", `document.querySelector("#s-place-note").textContent.includes("keep the placement rule")`)
	ann.Do("choose the next ship", chromedp.Focus(chromedp.CSS(`#main [role=radio][aria-checked=true]`)), chromedp.KeyEvent(kb.ArrowRight))
	ann.Wait("the destroyer chosen", `document.querySelectorAll("#main [role=radio]")[2].getAttribute("aria-checked") === "true"`)
	ann.Do("back into the ocean", chromedp.Focus(chromedp.CSS("#s-submit")), chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)))
	if got := e2e.Eval[string](ann, `document.activeElement.dataset.sq || ""`); got != "B5" {
		t.Errorf("Shift+Tab back into the ocean goes to %s, not B5 where the ship was placed", e2e.Eval[string](ann, focusedNow))
	}
}
