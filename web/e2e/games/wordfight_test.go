package games

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"parlour/web/e2e"
)

// TestWordFight plays Sightless Word Fight: Ann and Ben take turns to
// declare; both place the first two words in their secret grids (Ann by
// clicking squares, Ben by typing them) with the live preview checked,
// then three words nobody places give three strikes and end the game.
// The end shows both grids and the audit.
func TestWordFight(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	id := ann.CreateTable("wordfight", "A friend")
	// Ben finds the table in the lobby rather than by the invite link.
	ben.Open("/lobby")
	ben.Wait("the open table", fmt.Sprintf(`!!document.querySelector('a[href="/t/%s"]')`, id))
	if row := ben.Text("#main tbody tr"); !strings.Contains(row, "Sightless Word Fight") || !strings.Contains(row, "Ann") || !strings.Contains(row, "open seat") {
		t.Errorf("the lobby row reads %q", row)
	}
	ben.Shot("lobby")
	ben.Click(fmt.Sprintf(`a[href="/t/%s"]`, id))
	ben.Wait("the join form", `!!document.querySelector("#join-name")`)
	ben.TypeIn("#join-name", ben.Name)
	ben.Click("#main form button[type=submit]")
	ben.Wait("the table", `!!document.querySelector("#turn")`)

	var lat e2e.Latencies
	listLen := 0
	declare := func(by, other *e2e.Player, word string) {
		t.Helper()
		by.WaitTurn(true)
		other.WaitTurn(false)
		if got := other.Text("#w-status"); !strings.Contains(got, "Waiting for "+by.Name+" to declare") {
			t.Errorf("%s's status while %s declares: %q", other.Name, by.Name, got)
		}
		by.TypeIn("#w-declare", word)
		listLen++
		other.WatchFor(fmt.Sprintf(`document.querySelectorAll("#w-list tbody tr").length === %d`, listLen))
		sent := by.SubmitAt("#w-controls form button[type=submit]")
		lat = append(lat, time.Duration((other.SeenAt()-sent)*float64(time.Millisecond)))
		for _, p := range []*e2e.Player{ann, ben} {
			// The declarer may already hold the turn (to answer), so wait
			// for the word itself to reach the list before reading it.
			p.Wait("the declared word", fmt.Sprintf(`document.querySelectorAll("#w-list tbody tr").length === %d`, listLen))
			p.WaitTurn(true)
			row := p.Text("#w-list tbody tr:last-child")
			if !strings.HasPrefix(row, strings.ToUpper(word)+"\t"+fmt.Sprint(len(word))+"\t"+by.Name) {
				t.Errorf("%s's list ends %q after %s declared %s", p.Name, row, by.Name, word)
			}
		}
	}
	// pick chooses the first letter's square: by clicking, or by typing.
	pick := func(p *e2e.Player, sq string, down, click bool) {
		t.Helper()
		if click {
			p.Click(fmt.Sprintf(`#w-controls ~ .boards [data-sq="%s"], .wordfight [data-sq="%s"]`, sq, sq))
		} else {
			p.TypeIn("#w-square", sq)
		}
		if want := map[bool]string{true: "down", false: "across"}[down]; !strings.Contains(p.Text("#w-dir"), want) {
			p.Click("#w-dir")
		}
	}
	place := func(p *e2e.Player, sq string, down, click bool, preview string) {
		t.Helper()
		pick(p, sq, down, click)
		p.Wait("the preview", fmt.Sprintf(`document.querySelector("#w-preview").textContent.includes(%q)`, preview))
		if p == ann && sq == "D2" {
			ann.Shot("wordfight-play")
			ann.Labelled("the Word Fight play screen")
		}
		p.Click("#w-place")
		p.Wait("my answer", `document.querySelector("#w-place") === null || document.querySelector("#w-place").offsetParent === null`)
	}
	// sayCannot says the word cannot be placed: the first press only says
	// what the second does (it may cost a strike), and sends nothing.
	sayCannot := func(p *e2e.Player) {
		t.Helper()
		p.Click("#w-cannot")
		p.Wait("what a second press does", `document.querySelector("#w-controls .error").textContent.startsWith("Press again to say you cannot place")`)
		if got := p.Text("#w-list tbody tr:last-child td:last-child"); got != "—" {
			t.Errorf("%s's first press on Cannot answered the word: %q", p.Name, got)
		}
		p.Click("#w-cannot")
	}
	cannot := func(p *e2e.Player) {
		t.Helper()
		p.WaitTurn(true)
		sayCannot(p)
		p.Wait("my answer", `document.querySelector("#w-list tbody tr:last-child td:last-child").textContent === "cannot"`)
	}

	// A desktop of 1280 pixels: the board's squares are at least 28 wide.
	ann.Do("a 1280-pixel desktop", chromedp.EmulateViewport(1280, 900))
	declare(ann, ben, "cat")
	if w := e2e.Eval[float64](ann, `document.querySelector('.wordfight [data-sq="J10"]').getBoundingClientRect().width`); w < 28 {
		t.Errorf("on a 1280-pixel desktop Word Fight's squares are %.1f pixels wide, want at least 28", w)
	}
	place(ann, "B2", false, true, "legal so far, would score 0")
	if got := ann.Text("#w-status"); !strings.Contains(got, "Waiting for Ben") {
		t.Errorf("Ann's status after answering: %q", got)
	}
	place(ben, "D4", true, false, "legal so far, would score 0")

	// Ben plays the second word on a phone in the dark: at each step, as
	// he declares, while Ann places and as he places by tapping his board,
	// the board scrolls inside its own frame and the page never sideways.
	ben.Phone(true)
	ben.Wait("the phone layout", `document.documentElement.clientWidth <= 375`)
	ben.PhonePlay("Word Fight as Ben declares")
	declare(ben, ann, "tar")
	pick(ann, "A1", false, true)
	ann.Wait("the refusing preview", `document.querySelector("#w-preview").textContent.includes("must reuse a letter already there")`)
	ben.PhonePlay("Word Fight while Ann places")
	place(ann, "D2", true, true, "legal so far, would score 3")
	pick(ben, "D6", false, true)
	ben.Wait("the preview", `document.querySelector("#w-preview").textContent.includes("legal so far, would score 3")`)
	ben.PhonePlay("Word Fight as Ben places")
	ben.Do("scroll to the board", chromedp.ScrollIntoView(chromedp.CSS("#w-grid-h")))
	ben.ShotView("wordfight-phone-play")
	place(ben, "D6", false, true, "legal so far, would score 3")
	ben.PhonePlay("Word Fight after Ben placed")
	ben.Do("back to the desktop", chromedp.EmulateViewport(1200, 900))
	ben.Theme(false)
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("my score", `document.querySelector("#main .board p.muted").textContent === "Your score: 3"`)
	}
	ann.NoSecrets("before the end", "D4 DOWN", "D6 ACROSS", "...TAR")
	ben.NoSecrets("before the end", "B2 ACROSS", "D2 DOWN", ".CAT.")

	for i, w := range []struct {
		by, other *e2e.Player
		word      string
	}{{ann, ben, "zebra"}, {ben, ann, "quiz"}, {ann, ben, "fox"}} {
		declare(w.by, w.other, w.word)
		if i == 0 {
			// A square chosen after the first press takes it back.
			w.by.WaitTurn(true)
			w.by.Click("#w-cannot")
			w.by.Wait("the question", `document.querySelector("#w-cannot").textContent === "Confirm: cannot"`)
			w.by.TypeIn("#w-square", "A1")
			w.by.Wait("the question taken back", `document.querySelector("#w-cannot").textContent === "Cannot" && document.querySelector("#w-controls .error").textContent === ""`)
		}
		cannot(w.by)
		if i < 2 {
			cannot(w.other)
			for _, p := range []*e2e.Player{ann, ben} {
				p.Wait("the strikes", fmt.Sprintf(`document.querySelector("#w-strikes").textContent === "Strikes: %d of 3"`, i+1))
			}
		} else {
			sayCannot(w.other)
		}
	}
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("the end", `!!document.querySelector("#game-over")`)
		if got := p.Text("#game-over h2"); !strings.Contains(got, "shared win") {
			t.Errorf("%s's end screen: %q", p.Name, got)
		}
		if got, want := p.Text("#end-reason"), "FOX gave the third strike: Ann and Ben could not place it, and 3 strikes end the game."; got != want {
			t.Errorf("%s's end screen says why: %q, want %q", p.Name, got, want)
		}
		// No grid revealed at the end shows a chosen square.
		if n := e2e.Eval[int](p, `document.querySelectorAll("#w-audit-h ~ .boards .sel, #w-audit-h ~ .boards :focus").length`); n != 0 {
			t.Errorf("%s's revealed grids show %d chosen squares", p.Name, n)
		}
		audit := p.Text("#w-audit-h + .boards")
		if strings.Count(audit, "Score confirmed: 3") != 2 {
			t.Errorf("%s's audit does not confirm both scores:\n%s", p.Name, audit)
		}
	}
	// A spectator of the finished game sees every grid in the audit, no
	// grid of their own, and the list without a player's answers.
	cy := e2e.NewPlayer(t, b, "Cy", base)
	cy.Open("/t/" + id + "?watch=1")
	cy.Wait("the end, watched", `!!document.querySelector("#w-audit-h") && !!document.querySelector("#w-list-h")`)
	if !e2e.Eval[bool](cy, `document.querySelector("#w-grid").hidden`) {
		t.Errorf("a spectator at the end is shown a grid of their own: %q", cy.Text("#w-grid"))
	}
	heads := `[...document.querySelectorAll("#w-list-h ~ div th")].map(th => th.textContent).join(",")`
	if got := e2e.Eval[string](cy, heads); got != "Word,Length,By,Outcome" {
		t.Errorf("a spectator's list has the columns %s", got)
	}
	if got := e2e.Eval[string](ann, heads); got != "Word,Length,By,Outcome,You" {
		t.Errorf("a player's list has the columns %s", got)
	}
	ben.Shot("wordfight-over")
	// In the Table card the record's button and the rules link sit apart.
	if e2e.Eval[bool](ben, `(() => { const a = document.querySelector("#download").getBoundingClientRect(), b = document.querySelector("#rules-link").getBoundingClientRect(); return b.top < a.bottom; })()`) {
		t.Error("the rules link runs into the download button")
	}
	// On a phone in the dark the board scrolls inside its own frame, the
	// page never sideways, and empty squares and letters keep WCAG AA
	// contrast.
	ann.Phone(true)
	ann.PhonePlay("the end of Word Fight")
	contrast := e2e.Eval[map[string]float64](ann, `(() => {
		const rgb = s => s.match(/[\d.]+/g).slice(0, 3).map(Number);
		const lum = c => { const [r, g, b] = c.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
		const ratio = (a, b) => { const [x, y] = [lum(rgb(a)), lum(rgb(b))].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
		const cells = [...document.querySelectorAll("#w-grid-h ~ div .cell")];
		const empty = getComputedStyle(cells.find(e => !e.textContent));
		const letter = getComputedStyle(cells.find(e => e.textContent));
		const page = getComputedStyle(document.body).backgroundColor;
		return { edge: ratio(empty.borderTopColor, page), edgeOnCell: ratio(empty.borderTopColor, empty.backgroundColor), letter: ratio(letter.color, letter.backgroundColor) };
	})()`)
	if contrast["edge"] < 3 || contrast["edgeOnCell"] < 3 || contrast["letter"] < 4.5 {
		t.Errorf("dark Word Fight board contrast %v: want empty squares' edges at least 3:1, letters at least 4.5:1", contrast)
	}
	t.Logf("dark Word Fight board contrast: empty square edge %.2f:1 on the page, %.2f:1 on the square; letters %.2f:1", contrast["edge"], contrast["edgeOnCell"], contrast["letter"])
	ann.Accessible("the end of Word Fight (dark theme)")
	ann.Shot("wordfight-phone")
	ann.Do("scroll to the board", chromedp.ScrollIntoView(chromedp.CSS("#w-grid-h")))
	ann.ShotView("wordfight-phone-dark")
	t.Logf("Word Fight, time for a word to show on the other screen: %s", lat.Summary())
}

// TestWordFightTypedPlacement writes a whole placement, square and
// direction, in the square's box, as the rules write one: the direction
// word turns the direction button, the preview asks about that
// placement, and the word goes where it says.
func TestWordFightTypedPlacement(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	for _, c := range []struct {
		typed, dir string
		turnFirst  bool     // press the direction button before typing
		squares    []string // where C, A and T go
	}{
		{"b2 DOWN", "down", false, []string{"B2", "B3", "B4"}},
		{" C3 across ", "across", true, []string{"C3", "D3", "E3"}},
	} {
		ann := e2e.NewPlayer(t, b, "Ann", base)
		ann.CreateTable("wordfight", "The computer")
		ann.WaitTurn(true)
		ann.TypeIn("#w-declare", "cat")
		ann.Click("#w-controls form button[type=submit]")
		ann.Wait("the square's box", `!!document.querySelector("#w-square") && document.querySelector("#w-square").offsetParent !== null`)
		if c.turnFirst {
			ann.Click("#w-dir")
		}
		ann.TypeIn("#w-square", c.typed)
		ann.Wait(c.typed+": the direction", fmt.Sprintf(`document.querySelector("#w-dir").textContent === "Direction: %s (D)"`, c.dir))
		want := fmt.Sprintf("CAT at %s %s: legal", c.squares[0], c.dir)
		ann.Wait(c.typed+": the preview", fmt.Sprintf(`document.querySelector("#w-preview").textContent.startsWith(%q)`, want))
		ann.Click("#w-place")
		for i, sq := range c.squares {
			ann.Wait(fmt.Sprintf("%s: %c at %s", c.typed, "CAT"[i], sq), fmt.Sprintf(`(document.querySelector('#w-grid [data-sq="%s"]')||{}).textContent === %q`, sq, string("CAT"[i])))
		}
		if got := ann.Text("#w-controls .error"); got != "" {
			t.Errorf("%q: the placement was refused: %q", c.typed, got)
		}
	}
}

// TestWordFightEndSummary reads the end banner's reason for a game that
// strikes ended. With a strike for each player who could not place the
// word, the last word can give more than one strike: the banner names
// every strike it gave, not only the count the game reached.
func TestWordFightEndSummary(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "reader", base)
	p.Open("/")
	p.Wait("the home page", `document.readyState === "complete"`)
	for _, c := range []struct {
		name                  string
		strikes, limit, given int
		cannot                string
		want                  string
	}{
		{"one strike", 3, 3, 1, "[1]", "FOX gave the third strike: ben could not place it, and 3 strikes end the game."},
		{"two strikes past the limit", 4, 3, 2, "[0, 1]", "FOX gave the third and fourth strikes: ann and ben could not place it, and 3 strikes end the game."},
		{"two strikes to the limit", 2, 2, 2, "[0, 1]", "FOX gave the first and second strikes: ann and ben could not place it, and 2 strikes end the game."},
		{"three strikes", 3, 1, 3, "[0, 1, 2]", "FOX gave the first, second and third strikes: ann and ben and cy could not place it, and 1 strike ends the game."},
	} {
		got := e2e.Eval[string](p, fmt.Sprintf(`(async () => {
			const mod = await import("/static/js/games/wordfight.js");
			const v = { status: "finished", players: ["ann", "ben", "cy"], seat: -1, strikes: %d, strike_limit: %d,
				list: [{ word: "CAT", length: 3, by: 0, done: true }, { word: "FOX", length: 3, by: 1, done: true, cannot: %s, strikes: %d }] };
			return mod.endSummary(v, { last: null }).reason;
		})()`, c.strikes, c.limit, c.cannot, c.given))
		if got != c.want {
			t.Errorf("%s: the banner reads %q, want %q", c.name, got, c.want)
		}
	}
}

// TestWordFightRefusedInPlayersWords types what is not a move into Word
// Fight's boxes: each is refused in the words of the box the player
// typed in (not in the move's notation, nor quoting back what nobody
// typed), and a square chosen before no longer shows as where the word
// goes once the box holds no square.
func TestWordFightRefusedInPlayersWords(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.CreateTable("wordfight", "The computer")
	ann.WaitTurn(true)
	refused := func(box, typed, submit, want string) {
		t.Helper()
		e2e.Eval[bool](ann, `(document.querySelector("#w-controls .error").textContent = "", true)`)
		ann.TypeIn(box, typed)
		ann.Click(submit)
		ann.Wait(typed+": refused", `document.querySelector("#w-controls .error").textContent !== ""`)
		if got := ann.Text("#w-controls .error"); got != want {
			t.Errorf("%q typed in %s is refused with %q, want %q", typed, box, got, want)
		}
	}
	refused("#w-declare", "ice cream", "#w-controls form button[type=submit]", "Declare one word, without spaces: “ice cream” is more than one.")
	if n := e2e.Eval[int](ann, `document.querySelectorAll("#w-list tbody tr").length`); n != 0 {
		t.Errorf("after a refused declaration the list holds %d words", n)
	}
	ann.TypeIn("#w-declare", "cat")
	ann.Click("#w-controls form button[type=submit]")
	ann.Wait("the square's box", `!!document.querySelector("#w-square") && document.querySelector("#w-square").offsetParent !== null`)
	ann.Click(`#w-grid [data-sq="B2"]`)
	ann.Wait("the preview", `document.querySelector("#w-preview").textContent.startsWith("CAT at B2 across: legal")`)
	for _, typed := range []string{"B2 sideways", "B2 across please"} {
		refused("#w-square", typed, "#w-place", fmt.Sprintf("“%s” is not a placement: write the first letter's square, then across or down, such as B2 across.", typed))
	}
	ann.TypeIn("#w-square", "2B")
	ann.Wait("the preview of no square", `!document.querySelector("#w-preview").textContent.includes("B2")`)
	if n := e2e.Eval[int](ann, `document.querySelectorAll("#w-grid .sel, #w-grid .prev").length`); n != 0 {
		t.Errorf("with 2B in the box the grid still shows %d squares chosen or previewed", n)
	}
	if n := e2e.Eval[int](ann, `[...document.querySelectorAll("#w-grid [data-sq]")].filter(e => e.textContent).length`); n != 0 {
		t.Errorf("after refused placements Ann's grid holds %d letters", n)
	}
}

// TestWordFightKeyboardOnly declares and places by the keyboard alone:
// when a form goes (the word declared, the word placed) the keyboard
// goes on to the form that comes, so that Ann types her placement right
// after her word, and the next word's placement when it comes, however
// long her friend takes: while nothing is hers to do the keyboard waits
// on the status line, not on the page's body.
func TestWordFightKeyboardOnly(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.CreateTable("wordfight", "A friend")
	ben.Join(ann.InviteLink())
	ann.WaitTurn(true)
	ann.TypeIn("#w-declare", "cat")
	ann.Do("declare", chromedp.KeyEvent(kb.Enter))
	ann.Wait("the square's box", `!!document.querySelector("#w-square") && document.querySelector("#w-square").offsetParent !== null`)
	ann.Do("type the placement", chromedp.KeyEvent("B2 down"))
	ann.Wait("the preview", `document.querySelector("#w-preview").textContent.startsWith("CAT at B2 down: legal")`)
	ann.Do("place", chromedp.KeyEvent(kb.Enter))
	ann.Wait("CAT placed", `(document.querySelector('#w-grid [data-sq="B4"]')||{}).textContent === "T"`)
	ann.Wait("the wait for Ben", `document.querySelector("#w-status").textContent.includes("Waiting for Ben")`)
	if got := e2e.Eval[string](ann, `document.activeElement.id || document.activeElement.tagName`); got != "w-status" {
		t.Errorf("while Ben places, Ann's keyboard is on %s, not the status line", got)
	}
	// Ben takes his time to place and to declare the next word.
	ben.WaitTurn(true)
	ben.TypeIn("#w-square", "D4")
	ben.Wait("the preview", `document.querySelector("#w-preview").textContent.includes("legal so far")`)
	ben.Click("#w-place")
	ben.WaitTurn(true)
	ben.Wait("the declaration's box", `!!document.querySelector("#w-declare") && document.querySelector("#w-declare").offsetParent !== null`)
	ben.TypeIn("#w-declare", "tar")
	ben.Click("#w-controls form button[type=submit]")
	ann.Wait("the next word", `document.querySelectorAll("#w-list tbody tr").length === 2 && document.querySelector("#w-square").offsetParent !== null`)
	if got := e2e.Eval[string](ann, `document.activeElement.id || document.activeElement.tagName`); got != "w-square" {
		t.Errorf("with the next word to place, the keyboard is on %s, not the square's box", got)
	}
	ann.Do("type the next placement", chromedp.KeyEvent("B4 across"))
	ann.Wait("the next preview", `document.querySelector("#w-preview").textContent.startsWith("TAR at B4 across: legal")`)
}
