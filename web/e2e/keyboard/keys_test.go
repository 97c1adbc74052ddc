package keyboard

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"parlour/web/e2e"
)

// TestControlsKeepTheFocus presses, with the keyboard, controls whose
// press draws them anew: the focus stays on the control drawn in the
// pressed one's place, so that a player without a mouse goes on from
// there rather than from the top of the page.
func TestControlsKeepTheFocus(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	for _, tc := range []struct {
		what, open, press, done, focused string
	}{
		{"Salvo's cruiser chosen to place", "salvo",
			`#main [role=radiogroup] [role=radio]:nth-child(2)`,
			`document.querySelector("#main [role=radiogroup] [role=radio]:nth-child(2)").getAttribute("aria-checked") === "true"`,
			`document.activeElement === document.querySelector("#main [role=radiogroup] [role=radio]:nth-child(2)")`},
		{"a seat added on the new-table form", "/new/quizl",
			`#seats button:last-child`,
			`!!document.querySelector("#seat-3")`,
			`document.activeElement.closest("#seats") && document.activeElement.textContent === "Add a seat"`},
	} {
		t.Run(tc.what, func(t *testing.T) {
			t.Parallel()
			p := e2e.NewPlayer(t, b, "Ann", base)
			if tc.open == "salvo" {
				p.CreateTable("salvo", "The computer")
			} else {
				p.Open(tc.open)
			}
			p.Wait(tc.what, `!!document.querySelector(`+quote(tc.press)+`)`)
			p.Do("press Enter", chromedp.Focus(chromedp.CSS(tc.press)), chromedp.KeyEvent(kb.Enter))
			p.Wait(tc.what, tc.done)
			if !e2e.Eval[bool](p, `!!(`+tc.focused+`)`) {
				t.Errorf("after Enter the focus is on %s", e2e.Eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
			}
		})
	}
}

// quote writes s as a JavaScript string.
func quote(s string) string { return strconv.Quote(s) }

// TestQuizlCallBoxKeepsTheFocus calls a square by typing it, as a player
// without a mouse does: between turns the box waits, read-only, with the
// focus still in it, so that the next call is typed straight in rather
// than after finding the box again; typed meanwhile, a call is refused
// with the reason and sends nothing.
func TestQuizlCallBoxKeepsTheFocus(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.CreateTable("quizl", "A friend")
	ben.Join(ann.InviteLink())
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("the grid editor", `!!document.querySelector("#q-auto")`)
		p.Click("#q-auto")
	}
	ann.WaitTurn(true)
	ann.Wait("the call box", `!!document.querySelector("#q-call") && !document.querySelector("#q-call").readOnly`)
	ann.Do("type a call and press Enter", chromedp.Focus(chromedp.CSS("#q-call")), chromedp.KeyEvent("50"), chromedp.KeyEvent(kb.Enter))
	ann.WaitTurn(false)
	ann.Wait("the call made", `document.querySelector("#moves").textContent.includes("50")`)
	if !e2e.Eval[bool](ann, `document.activeElement === document.querySelector("#q-call")`) {
		t.Fatalf("after the call the focus is on %s, not in the call box", e2e.Eval[string](ann, `document.activeElement.outerHTML.slice(0, 80)`))
	}
	ann.Do("type a call out of turn", chromedp.KeyEvent("51"), chromedp.KeyEvent(kb.Enter))
	ann.Wait("the refusal", `document.querySelector("#q-controls .error").textContent.includes("Wait for your turn")`)
	if n := e2e.Eval[int](ann, `document.querySelectorAll("#moves li").length`); n != 1 {
		t.Errorf("a call typed out of turn made a move: %d moves listed", n)
	}
}

// TestWordFightPreviewInWords: a placement the referee refuses shows its
// squares in red on the grid; each square's name says so in words too,
// for a player who cannot see the red.
func TestWordFightPreviewInWords(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.CreateTable("wordfight", "The computer")
	ann.WaitTurn(true)
	ann.TypeIn("#w-declare", "cat")
	ann.Click("#w-controls form button[type=submit]")
	ann.Wait("the square's box", `!!document.querySelector("#w-square") && document.querySelector("#w-square").offsetParent !== null`)
	ann.TypeIn("#w-square", "T1 across")
	ann.Wait("the refusing preview", `document.querySelector("#w-preview").textContent.startsWith("Not there")`)
	ann.Wait("the preview drawn", `document.querySelector('#w-grid [data-sq="T1"]').classList.contains("badp")`)
	if got := e2e.Eval[string](ann, `document.querySelector('#w-grid [data-sq="T1"]').getAttribute("aria-label")`); !strings.Contains(got, "not allowed") {
		t.Errorf("a square of a refused placement is named %q: only its colour says the placement is refused", got)
	}
	if got := e2e.Eval[string](ann, `document.querySelector('#w-grid [data-sq="B2"]').getAttribute("aria-label")`); strings.Contains(got, "would get") {
		t.Errorf("a square outside the placement is named %q", got)
	}
}

// TestSalvoShipsAreOneTabStop chooses the ship to place with the arrow
// keys, as in any group of radio buttons: the group is one stop of the
// Tab key, on the chosen ship, and Tab goes on from it to the direction,
// rather than through every ship before the ocean.
func TestSalvoShipsAreOneTabStop(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Ann", base)
	p.CreateTable("salvo", "The computer")
	const radios = `#main [role=radiogroup] [role=radio]`
	p.Wait("the ships", `document.querySelectorAll("`+radios+`").length === 5`)
	if n := e2e.Eval[int](p, `[...document.querySelectorAll("`+radios+`")].filter(r => r.tabIndex === 0).length`); n != 1 {
		t.Fatalf("%d ships are stops of the Tab key, want 1", n)
	}
	chosen := `[...document.querySelectorAll("` + radios + `")].findIndex(r => r.getAttribute("aria-checked") === "true")`
	p.Do("focus the chosen ship", chromedp.Focus(chromedp.CSS(radios+`[aria-checked=true]`)))
	for _, step := range []struct {
		key  string
		want int
	}{
		{kb.ArrowRight, 1},
		{kb.ArrowDown, 2},
		{kb.ArrowUp, 1},
		{kb.End, 4},
		{kb.ArrowRight, 0},
		{kb.ArrowLeft, 4},
		{kb.Home, 0},
	} {
		p.Do("press a key", chromedp.KeyEvent(step.key))
		p.Wait("the ship chosen", chosen+` === `+strconv.Itoa(step.want))
		if !e2e.Eval[bool](p, `document.activeElement === document.querySelectorAll("`+radios+`")[`+strconv.Itoa(step.want)+`]`) {
			t.Fatalf("after a key chose ship %d the focus is on %s", step.want, e2e.Eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
		}
	}
	p.Do("press Tab", chromedp.KeyEvent(kb.Tab))
	if got := e2e.Eval[string](p, `document.activeElement.id`); got != "s-rotate" {
		t.Errorf("Tab from the chosen ship goes to %s, not the direction", e2e.Eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
	}
}

// TestQuizlKeyboardToTheEnd plays a game of Quizl between two friends by
// the keyboard: once Ann has found Ben's password her forms go, and
// while Ben takes his time her keyboard waits on the table, not on the
// page's body (from where the next Tab would start at the top of the
// page); when the game ends, the keyboard of each goes to the banner
// that says how, beside the rematch.
func TestQuizlKeyboardToTheEnd(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.CreateTable("quizl", "A friend")
	ben.Join(ann.InviteLink())
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("the grid editor", `!!document.querySelector("#q-auto")`)
		p.Click("#q-auto")
	}
	_, annPw := ann.QuizlGrid()
	_, benPw := ben.QuizlGrid()
	const focused = `(a => a === document.body ? "the page's body" : a.outerHTML.slice(0, 80))(document.activeElement)`
	ann.WaitTurn(true)
	ann.Do("announce Ben's password", chromedp.Focus(chromedp.CSS("#q-say")), chromedp.KeyEvent(strings.ToLower(benPw)), chromedp.KeyEvent(kb.Enter))
	ann.Wait("Ann done", `document.querySelector("#q-controls").hidden`)
	// Ben takes his time: a call first.
	ben.WaitTurn(true)
	ben.TypeIn("#q-call", "50")
	ben.ClickText("#q-controls button", "Call")
	ann.Wait("Ben's call", `document.querySelectorAll("#moves li").length === 2`)
	if !e2e.Eval[bool](ann, `document.activeElement !== document.body && document.querySelector("#main").contains(document.activeElement) && document.activeElement.offsetParent !== null`) {
		t.Errorf("while Ben hunts on, Ann's keyboard is on %s", e2e.Eval[string](ann, focused))
	}
	ben.WaitTurn(true)
	ben.Do("announce Ann's password", chromedp.Focus(chromedp.CSS("#q-say")), chromedp.KeyEvent(strings.ToLower(annPw)), chromedp.KeyEvent(kb.Enter))
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("the end", `!!document.querySelector("#game-over #rematch")`)
		if !e2e.Eval[bool](p, `document.activeElement === document.querySelector("#game-over h2")`) {
			t.Errorf("at the end %s's keyboard is on %s, not the banner saying how the game ended", p.Name, e2e.Eval[string](p, focused))
		}
	}
}

// TestSalvoKeyboardOnly plays Salvo against a friend by the keyboard
// alone: the fleet placed and sent with Enter, each salvo typed and
// fired with Enter, and once the salvo that sank Ben's last ship has
// gone, the outline typed box after box and sent with Enter: the
// keyboard goes from the firing box, which the outline replaces, to the
// outline's first box.
func TestSalvoKeyboardOnly(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.CreateTable("salvo", "A friend")
	ben.Join(ann.InviteLink())
	ann.Wait("fleet placement", `!!document.querySelector("#s-random")`)
	ann.Do("a random fleet", chromedp.Focus(chromedp.CSS("#s-random")), chromedp.KeyEvent(kb.Enter))
	ann.Wait("a legal fleet", `document.querySelector("#s-place-note").textContent.startsWith("Every ship is placed")`)
	ann.Do("send it", chromedp.Focus(chromedp.CSS("#s-submit")), chromedp.KeyEvent(kb.Enter))
	ben.Wait("fleet placement", `!!document.querySelector("#s-random")`)
	ben.ClickText("#main button", "Let the computer hide my fleet")
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
	ann.WaitTurn(true)
	ann.Do("go to the firing box", chromedp.Focus(chromedp.CSS("#s-fire")))
	const focused = `(a => a === document.body ? "the page's body" : a.outerHTML.slice(0, 80))(document.activeElement)`
	for i, n := range []int{5, 4, 3, 2, 1, 1} {
		ann.WaitTurn(true)
		ann.Do("fire", chromedp.KeyEvent(strings.Join(targets[:n], " ")), chromedp.KeyEvent(kb.Enter))
		targets = targets[n:]
		if i == 5 {
			break
		}
		ben.WaitTurn(true)
		ben.TypeIn("#s-fire", strings.Join(water[:5], " "))
		water = water[5:]
		ben.Click("#s-fire-btn")
	}
	ann.Wait("the outline", `!document.querySelector("#s-outline").hidden`)
	if got := e2e.Eval[string](ann, `document.activeElement.id`); got != "s-ol-0" {
		t.Fatalf("with the outline to write, Ann's keyboard is on %s, not its first box", e2e.Eval[string](ann, focused))
	}
	for i, s := range benFleet {
		ann.Do("type a ship", chromedp.KeyEvent(s))
		if i < len(benFleet)-1 {
			ann.Do("go on to the next ship", chromedp.KeyEvent(kb.Tab))
		}
	}
	// Enter in the last ship's box sends the outline.
	ann.Do("send the outline", chromedp.KeyEvent(kb.Enter))
	ann.Wait("the end", `!!document.querySelector("#game-over")`)
	if got := ann.Text("#game-over h2"); !strings.Contains(got, "you won") {
		t.Errorf("Ann's end: %q", got)
	}
}

// TestQuizlEditorButtonsKeepTheFocus fills the grid around a password by
// the keyboard: the buttons that ask the server to fill it wait, disabled,
// for its answer, and the keyboard is back on the button pressed once it
// has come, not on the page's body.
func TestQuizlEditorButtonsKeepTheFocus(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.CreateTable("quizl", "A friend")
	ann.Wait("the grid editor", `!!document.querySelector("#q-password")`)
	ann.Do("type the password", chromedp.Focus(chromedp.CSS("#q-password")), chromedp.KeyEvent("crane"), chromedp.KeyEvent(kb.Enter))
	for _, button := range []string{"Fill the rest for me", "Make me a deceptive grid"} {
		pressed := `[...document.querySelectorAll("#main button")].find(b => b.textContent === ` + quote(button) + `)`
		e2e.Eval[bool](ann, `([...document.querySelectorAll("#main input.cell")].filter(e => !e.classList.contains("pw")).forEach(e => { e.value = ""; e.dispatchEvent(new Event("input")); }), true)`)
		ann.Wait("the squares to fill", `document.querySelector("#q-note").textContent.startsWith("20 squares still to fill")`)
		e2e.Eval[bool](ann, `((`+pressed+`).focus(), true)`)
		ann.Do("press "+button, chromedp.KeyEvent(kb.Enter))
		ann.Wait("the grid filled", `document.querySelector("#q-note").textContent.startsWith("The referee accepts") && !(`+pressed+`).disabled`)
		if !e2e.Eval[bool](ann, `document.activeElement === `+pressed) {
			t.Errorf("after %q the keyboard is on %s", button, e2e.Eval[string](ann, `(a => a === document.body ? "the page's body" : a.outerHTML.slice(0, 80))(document.activeElement)`))
		}
	}
}

// TestTurnTakesTheKeyboard begins a game with a friend, each player's
// keyboard on the screen as a whole (the page just opened, the setup just
// sent, or sent last, which begins the game at once): when a player's turn comes, the keyboard is in the box where the
// move is typed, as it is at every turn after, so that a player without a
// mouse types the first move as the next ones.
func TestTurnTakesTheKeyboard(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	for _, tc := range []struct {
		game, auto, box, move string
	}{
		{"nymphabet", "", "#n-word", "abdicate"},
		{"quizl", "#q-auto", "#q-call", "50"},
		{"salvo", "#s-submit + button", "#s-fire", "a1 a2 a3 a4 a5"},
	} {
		t.Run(tc.game, func(t *testing.T) {
			t.Parallel()
			ann := e2e.NewPlayer(t, b, "Ann", base)
			ben := e2e.NewPlayer(t, b, "Ben", base)
			ann.CreateTable(tc.game, "A friend")
			ben.Join(ann.InviteLink())
			if tc.auto != "" {
				// Ben's setup goes first: Ann's, sent second, begins the
				// game at once.
				for _, p := range []*e2e.Player{ben, ann} {
					p.Wait("the setup", `!!document.querySelector(`+quote(tc.auto)+`)`)
					p.Do("let the computer set up", chromedp.Focus(chromedp.CSS(tc.auto)), chromedp.KeyEvent(kb.Enter))
				}
			}
			const focused = `(a => a === document.body ? "the page's body" : a.outerHTML.slice(0, 80))(document.activeElement)`
			for i, p := range []*e2e.Player{ann, ben} {
				p.WaitTurn(true)
				p.Wait("the move box", `!!document.querySelector(`+quote(tc.box)+`)`)
				if !e2e.Eval[bool](p, `document.activeElement === document.querySelector(`+quote(tc.box)+`)`) {
					t.Fatalf("with %s's turn come, the keyboard is on %s", p.Name, e2e.Eval[string](p, focused))
				}
				if i == 0 {
					p.Do("type the first move", chromedp.KeyEvent(tc.move), chromedp.KeyEvent(kb.Enter))
					p.WaitTurn(false)
				}
			}
		})
	}
}

// TestGuideByKeyboard goes through the first-game guide by the keyboard:
// Back pressed on the way to the first step, where it is disabled, leaves
// the keyboard on Next, and the guide closed from within gives it back
// where it was when the guide opened (its button, when opened from it),
// not to the page's body.
func TestGuideByKeyboard(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.CreateTable("nymphabet", "The computer")
	ann.Wait("the guide", `!!document.querySelector("#guide-next")`)
	const focused = `(a => a === document.body ? "the page's body" : a.outerHTML.slice(0, 80))(document.activeElement)`
	ann.Do("Next", chromedp.Focus(chromedp.CSS("#guide-next")), chromedp.KeyEvent(kb.Enter))
	ann.Wait("step 2", `document.querySelector("#guide-step").textContent.startsWith("Step 2 ")`)
	ann.Do("Back", chromedp.Focus(chromedp.CSS("#guide-back")), chromedp.KeyEvent(kb.Enter))
	ann.Wait("step 1", `document.querySelector("#guide-step").textContent.startsWith("Step 1 ")`)
	if got := e2e.Eval[string](ann, `document.activeElement.id`); got != "guide-next" {
		t.Errorf("back at the first step, the keyboard is on %s, not Next", e2e.Eval[string](ann, focused))
	}
	ann.Do("Skip", chromedp.Focus(chromedp.CSS("#guide-skip")), chromedp.KeyEvent(kb.Enter))
	ann.Wait("the guide gone", `!document.querySelector("#guide")`)
	if !e2e.Eval[bool](ann, `document.activeElement !== document.body && document.querySelector("#main").contains(document.activeElement)`) {
		t.Errorf("with the guide skipped, the keyboard is on %s", e2e.Eval[string](ann, focused))
	}
	ann.Do("open the guide", chromedp.Focus(chromedp.CSS("#guide-open")), chromedp.KeyEvent(kb.Enter))
	ann.Wait("the guide, focused", `document.activeElement.id === "guide-next"`)
	ann.Do("close it", chromedp.KeyEvent(kb.Escape))
	ann.Wait("the guide gone", `!document.querySelector("#guide")`)
	if got := e2e.Eval[string](ann, `document.activeElement.id`); got != "guide-open" {
		t.Errorf("with the guide closed, the keyboard is on %s, not the button that opened it", e2e.Eval[string](ann, focused))
	}
}

// TestQuizlChoiceBarByKeyboard selects a square with the arrow keys and
// then clears the choice, or calls it, with the choice bar's buttons:
// the bar goes with the choice, and the keyboard goes back to the square,
// not to the page's body, without choosing it again.
func TestQuizlChoiceBarByKeyboard(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.CreateTable("quizl", "Solitaire")
	ann.Wait("the computer's grid", `document.querySelectorAll('[data-board="0"] [data-sq]').length === 25`)
	const focused = `(a => a === document.body ? "the page's body" : a.outerHTML.slice(0, 80))(document.activeElement)`
	const on61 = `document.activeElement === document.querySelector('[data-board="0"] [data-sq="61"]')`
	for _, tc := range []struct{ press, done string }{
		{"#q-unselect", `document.querySelector("#q-chosen").hidden`},
		{"#q-confirm", `document.querySelectorAll("#moves li").length === 1`},
	} {
		ann.Do("select 61", chromedp.Focus(chromedp.CSS(`[data-board="0"] [data-sq="60"]`)), chromedp.KeyEvent(kb.ArrowRight))
		ann.Wait("61 chosen", `!document.querySelector("#q-chosen").hidden && document.querySelector("#q-chosen-text").textContent.startsWith("Square 61")`)
		ann.Do("press "+tc.press, chromedp.Focus(chromedp.CSS(tc.press)), chromedp.KeyEvent(kb.Enter))
		ann.Wait(tc.press+" done", tc.done)
		ann.Wait("the choice gone", `document.querySelector("#q-chosen").hidden`)
		if !e2e.Eval[bool](ann, on61) {
			t.Errorf("after %s the keyboard is on %s, not square 61", tc.press, e2e.Eval[string](ann, focused))
		}
	}
	if n := e2e.Eval[int](ann, `document.querySelectorAll("#moves li").length`); n != 1 {
		t.Errorf("%d moves made, want the one call", n)
	}
}

// TestResignByKeyboard resigns by the keyboard: the Resign button goes
// with the game it ended, and the keyboard goes to the banner that says
// how it ended, not to the top of the screen.
func TestResignByKeyboard(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.CreateTable("nymphabet", "A friend")
	ben.Join(ann.InviteLink())
	ann.WaitTurn(true)
	// In a short window the banner is out of sight from the Resign
	// button: the keyboard brings it into view.
	ann.Do("a short window", chromedp.EmulateViewport(900, 420))
	e2e.Eval[bool](ann, `(window.confirm = () => true, true)`)
	ann.Do("resign", chromedp.Focus(chromedp.CSS("#resign")), chromedp.KeyEvent(kb.Enter))
	ann.Wait("the end", `!!document.querySelector("#game-over")`)
	if !e2e.Eval[bool](ann, `document.activeElement === document.querySelector("#game-over h2")`) {
		t.Errorf("after resigning, Ann's keyboard is on %s, not the banner saying how the game ended", e2e.Eval[string](ann, `(a => a === document.body ? "the page's body" : a.outerHTML.slice(0, 80))(document.activeElement)`))
	}
	if !e2e.Eval[bool](ann, `(r => r.top > -1 && r.bottom < window.innerHeight + 1)(document.querySelector("#game-over h2").getBoundingClientRect())`) {
		t.Errorf("after resigning by the keyboard, the banner saying how the game ended is out of sight")
	}
}

// TestGameEndKeepsTheReadersPlace ends a game while Ann, who plays by the
// mouse, reads lower down the page: the keyboard goes to the banner that
// says how it ended, as for a keyboard player, but the page stays where
// she was reading it rather than jumping up to the banner.
func TestGameEndKeepsTheReadersPlace(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.CreateTable("nymphabet", "A friend")
	ben.Join(ann.InviteLink())
	ann.WaitTurn(true)
	ann.Do("a short window", chromedp.EmulateViewport(900, 420))
	y := e2e.Eval[float64](ann, `(window.scrollTo(0, document.documentElement.scrollHeight), window.scrollY)`)
	if y <= 0 {
		t.Fatalf("the table's page does not scroll in a 900 by 420 window")
	}
	ann.Do("a click beside the controls", chromedp.MouseClickXY(3, 400))
	e2e.Eval[bool](ben, `(window.confirm = () => true, true)`)
	ben.Click("#resign")
	ann.Wait("the end", `!!document.querySelector("#game-over")`)
	ann.Wait("the focus on the banner", `document.activeElement === document.querySelector("#game-over h2")`)
	// The page may have grown shorter (the move's controls gone): it
	// keeps her place as far as it still reaches.
	if got, most := e2e.Eval[float64](ann, `window.scrollY`), e2e.Eval[float64](ann, `document.documentElement.scrollHeight - window.innerHeight`); got < min(y, most)-1 {
		t.Errorf("as the game ended the page jumped from %.0f to %.0f pixels down (of %.0f)", y, got, most)
	}
}
