package tables

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"parlour/web/e2e"
)

// TestRatedSaidBeforeSitting: a rated table says so before anybody sits
// down and all through the game. Ben's rated challenge says "rated" on
// Ann's banner; Ann's rated table says so in her invite banner, and Ben
// reads it in the lobby's row, on the join page the invite code opens,
// and in the table's header once seated, as Ann does in hers.
func TestRatedSaidBeforeSitting(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.SignUp("Ann", "correct horse battery")
	ben.SignUp("Ben", "another fine phrase")

	// A rated challenge, Ben to Ann.
	ben.Open("/players/Ann")
	ben.Wait("the Challenge button", `!!document.querySelector("#profile-actions .challenge-open")`)
	ben.Click("#profile-actions .challenge-open")
	ben.Wait("the challenge form", `!!document.querySelector("#challenge-form #challenge-game")`)
	ben.Click("#challenge-rated")
	ben.Click("#challenge-send")
	ann.Wait("the challenge", `!!document.querySelector(".banner.challenge[data-dir=in]")`)
	if got := ann.Text(".banner.challenge[data-dir=in]"); !strings.Contains(strings.ToLower(got), "rated") {
		t.Errorf("the banner of a rated challenge does not say rated: %q", got)
	}
	ann.Click(".banner.challenge[data-dir=in] .challenge-decline")

	// A rated table of Ann's.
	ann.Open("/new/nymphabet")
	ann.Wait("the new table form", `!!document.querySelector("#rated")`)
	ann.Click("#rated")
	ann.Click("form button[type=submit]")
	ann.Wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	id := strings.TrimPrefix(e2e.Eval[string](ann, `location.pathname`), "/t/")
	ann.Wait("the invite code", `!!document.querySelector("#invite-code")`)
	code := ann.Text("#invite-code")
	if got := ann.Text("#invite-rated"); !strings.Contains(got, "Rated") {
		t.Errorf("the invite banner of a rated table reads %q", got)
	}
	if !e2e.Eval[bool](ann, `!!document.querySelector("h1 #rated-badge")`) {
		t.Errorf("the rated table's header does not say rated: %q", ann.Text("h1"))
	}

	ben.Open("/lobby")
	ben.Wait("the table in the lobby", `[...document.querySelectorAll("#main table.list tbody tr")].some(r => r.querySelector('a[href="/t/`+id+`"]'))`)
	row := e2e.Eval[string](ben, `[...document.querySelectorAll("#main table.list tbody tr")].find(r => r.querySelector('a[href="/t/`+id+`"]')).innerText`)
	if !strings.Contains(strings.ToLower(row), "rated") {
		t.Errorf("the lobby's row of a rated table reads %q", row)
	}

	// A guest reads, before trying, that the seat needs an account.
	cy := e2e.NewPlayer(t, b, "Cy", base)
	cy.Open("/t/" + id)
	cy.Wait("the join page", `!!document.querySelector("#join-rated")`)
	if got := cy.Text("#join-rated-account"); !strings.Contains(got, "sign up or sign in") {
		t.Errorf("a guest on a rated table's join page reads %q", cy.Text("#main"))
	}

	ben.Open("/j/" + code)
	ben.WaitPage("the join page", `location.pathname === "/t/`+id+`" && !!document.querySelector("#main form button[type=submit]")`)
	if got := ben.Text("#join-rated"); !strings.Contains(got, "Rated game") {
		t.Errorf("the join page of a rated table says %q", ben.Text("#main"))
	}
	ben.Click("#main form button[type=submit]")
	ben.Wait("the table", `!!document.querySelector("#turn")`)
	ben.Wait("the header", `!!document.querySelector("h1 #rated-badge")`)
	ann.Wait("Ben seated", `!document.querySelector("#invite")`)
	if !e2e.Eval[bool](ann, `!!document.querySelector("h1 #rated-badge")`) {
		t.Errorf("Ann's header once the game began reads %q", ann.Text("h1"))
	}
}

// TestFinishedTableLink: the link of a finished table opens on its
// result for somebody who never sat there: who won, why, the revealed
// grid with its check, the replay and the analysis, and no join form.
func TestFinishedTableLink(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	cy := e2e.NewPlayer(t, b, "Cy", base)
	id := finishedTable(t, base, "quizl", []string{"me"}, "0", "50", "0", "resign")
	cy.Open("/t/" + id)
	cy.Wait("the result", `!!document.querySelector("#game-over") || !!document.querySelector("#join-name")`)
	if e2e.Eval[bool](cy, `!!document.querySelector("#join-name")`) {
		t.Fatalf("the finished table's link opens on a join form: %s", cy.Text("#main"))
	}
	if got := cy.Text("#game-over"); !strings.Contains(got, "Game over") || !strings.Contains(got, "resigned") {
		t.Errorf("the result reads %q", got)
	}
	cy.Wait("the commitment checked", `document.querySelector("#commitments").textContent.includes("matches the commitment")`)
	if n := e2e.Eval[int](cy, `[...document.querySelectorAll('.quizl .board [data-letter]')].filter(e => e.dataset.letter).length`); n != 25 {
		t.Errorf("the revealed grid shows %d letters, want 25", n)
	}
	for _, sel := range []string{`#game-over a[href^="/replay?table="]`, "#analyse-game"} {
		if !e2e.Eval[bool](cy, `!!document.querySelector('`+sel+`')`) {
			t.Errorf("the result has no %s", sel)
		}
	}
	if e2e.Eval[bool](cy, `!!document.querySelector("#rematch")`) {
		t.Errorf("somebody who never sat at the table is offered a rematch")
	}
}

// TestQuizlDraftAndCalledSquares: the grid Ann is typing survives a
// reload of the page until she sends it, and is dropped from the browser
// once sent; in play, her own grid shows which of her squares Ben has
// called, a password square among them, and says how many.
func TestQuizlDraftAndCalledSquares(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	id := ann.CreateTable("quizl", "A friend")
	ben.Join(ann.InviteLink())
	ben.Wait("the grid editor", `!!document.querySelector("#q-password")`)
	ben.Click("#q-auto")

	ann.Wait("the grid editor", `!!document.querySelector("#q-password")`)
	ann.TypeIn("#q-password", "psalm")
	e2e.Eval[bool](ann, `(document.querySelector("#q-line").value = "2", true)`)
	ann.ClickText("#main button", "Write it in")
	ann.ClickText("#main button", "Fill the rest for me")
	ann.Wait("a filled grid", `[...document.querySelectorAll("#main input.cell")].every(e => /^[A-Z]$/.test(e.value))`)
	typed := e2e.Eval[string](ann, `[...document.querySelectorAll("#main input.cell")].map(e => e.value).join("")`)

	ann.Do("reload", chromedp.Reload())
	ann.Wait("the grid editor again", `!!document.querySelector("#q-password") && document.querySelectorAll("#main input.cell").length === 25`)
	if got := e2e.Eval[string](ann, `[...document.querySelectorAll("#main input.cell")].map(e => e.value).join("")`); got != typed {
		t.Fatalf("after a reload the editor holds %q, want the grid typed, %q", got, typed)
	}
	if got := e2e.Eval[string](ann, `document.querySelector("#q-password").value`); got != "PSALM" {
		t.Errorf("after a reload the password box holds %q", got)
	}
	if got := ann.EditorRow(7); got != "PSALM" {
		t.Errorf("after a reload row 7 reads %q", got)
	}
	ann.Wait("the referee's word", `document.querySelector("#q-note").textContent.startsWith("The referee accepts this grid") || document.querySelector("#q-note").className === "warn"`)
	ann.Click("#q-submit")
	ann.Wait("the game", `!document.querySelector("#q-submit") || document.querySelector("#main .error[role=alert]").textContent !== ""`)
	if msg := ann.Text("#main .error[role=alert]"); msg != "" {
		t.Fatalf("the referee refused the grid: %s", msg)
	}
	if n := e2e.Eval[int](ann, `Object.keys(sessionStorage).filter(k => k.includes(`+"`"+`quizl.draft.`+id+"`"+`)).length`); n != 0 {
		t.Errorf("the sent grid is still kept in the browser (%d keys)", n)
	}

	// Ann calls a square of Ben's grid; Ben calls 72, on Ann's password.
	// A word in the call box is no square: the box says where a password
	// goes, in its own words, and sends nothing.
	ann.WaitTurn(true)
	ann.TypeIn("#q-call", "ab")
	ann.Click("#q-controls form button[type=submit]")
	ann.Wait("the call box's refusal", `document.querySelector("#q-controls .error").textContent.startsWith("ab is not a square") && document.querySelector("#q-controls .error").textContent.includes("Announce box")`)
	if n := e2e.Eval[int](ann, `document.querySelectorAll("#moves li").length`); n != 0 {
		t.Errorf("a word in the call box was sent: %d moves", n)
	}
	ann.TypeIn("#q-call", "50")
	ann.Click("#q-controls form button[type=submit]")
	ben.WaitTurn(true)
	ben.TypeIn("#q-call", "72")
	ben.Click("#q-controls form button[type=submit]")
	ann.WaitTurn(true)
	own := `[data-board="own"] [data-sq="72"]`
	ann.Wait("the called square on Ann's own grid", `document.querySelector('`+own+`').classList.contains("taken")`)
	if got := e2e.Eval[string](ann, `document.querySelector('`+own+`').getAttribute("aria-label")`); !strings.Contains(got, "password") || !strings.Contains(got, "called") {
		t.Errorf("the called password square is labelled %q", got)
	}
	if n := e2e.Eval[int](ann, `document.querySelectorAll('[data-board="own"] .taken').length`); n != 1 {
		t.Errorf("%d squares of Ann's grid are marked called, want 1", n)
	}
	if got := ann.Text("#q-own-called"); !strings.Contains(got, "1 square") || !strings.Contains(got, "1 of your password's 5") {
		t.Errorf("the note under Ann's grid reads %q", got)
	}
	// Calls differ from the squares left alone to the eye, not only by name.
	if e2e.Eval[string](ann, `getComputedStyle(document.querySelector('`+own+`')).backgroundColor`) == e2e.Eval[string](ann, `getComputedStyle(document.querySelector('[data-board="own"] [data-sq="73"]')).backgroundColor`) {
		t.Errorf("the called password square looks like the uncalled one beside it")
	}
}

// salvoUnderWay seats Ann and Ben at a Salvo table through the API with
// known fleets and plays three salvos: Ann's first hits four of Ben's
// ships, Ben's falls in the water, Ann's second sinks Ben's battleship.
// It answers the table and Ann's token.
func salvoUnderWay(t *testing.T, base string) (string, string) {
	t.Helper()
	ann, ben := annAndBen(t, base, "salvo", nil)
	for _, s := range []struct {
		tok   string
		fleet []string
	}{
		{ann.Token, []string{"B2-B6", "D2-G2", "I4-I6", "D8-E8", "G9-G10"}},
		{ben.Token, []string{"D4-H4", "B6-B9", "F6-F8", "H7-I7", "D9-E9"}},
	} {
		if st, body := e2e.API(t, base, "POST", "/tables/"+ann.Table+"/setup", s.tok, map[string]any{"setup": map[string]any{"fleet": s.fleet}}); st != 200 {
			t.Fatalf("setup: %d %s", st, body)
		}
	}
	for _, m := range []struct{ tok, move string }{
		{ann.Token, "fire D4 B6 H7 E9 A1"},
		{ben.Token, "fire A10 C10 E10 J1 J2"},
		{ann.Token, "fire E4 F4 G4 H4 A2"},
	} {
		if st, body := e2e.API(t, base, "POST", "/tables/"+ann.Table+"/moves", m.tok, map[string]any{"move": m.move}); st != 200 {
			t.Fatalf("%s: %d %s", m.move, st, body)
		}
	}
	return ann.Table, ann.Token
}

// TestSalvoShotsAndOnlookers: the Players card says each side's shots
// in the default rule's terms ("shots: 4 (sank 1)"), the first game's
// guide teaches that rule, and an onlooker sees the squares fired at on
// both oceans with the hits per class the reports gave.
func TestSalvoShotsAndOnlookers(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	id, tok := salvoUnderWay(t, base)

	cy := e2e.NewPlayer(t, b, "Cy", base)
	cy.Open("/t/" + id + "?watch=1")
	cy.Wait("both oceans", `document.querySelectorAll('.salvo [data-board="0"] .cell, .salvo [data-board="1"] .cell').length === 200`)
	if n := e2e.Eval[int](cy, `document.querySelectorAll('.salvo [data-board="1"] .cell.shot').length`); n != 10 {
		t.Errorf("the onlooker sees %d squares fired at Ben's ocean, want 10", n)
	}
	if n := e2e.Eval[int](cy, `document.querySelectorAll('.salvo [data-board="0"] .cell.shot').length`); n != 5 {
		t.Errorf("the onlooker sees %d squares fired at Ann's ocean, want 5", n)
	}
	if got := e2e.Eval[string](cy, `document.querySelector('.salvo [data-board="1"] [data-sq="D4"]').getAttribute("aria-label")`); !strings.Contains(got, "salvo 1") {
		t.Errorf("D4 of Ben's ocean reads %q for the onlooker", got)
	}
	if n := e2e.Eval[int](cy, `document.querySelectorAll('.salvo .cell.ship').length`); n != 0 {
		t.Errorf("the onlooker sees %d ship squares before the end", n)
	}
	// Before the end an onlooker watches the oceans, not the fleets.
	if got := e2e.Eval[string](cy, `[...document.querySelectorAll('.salvo [data-board] h3')].map(e => e.textContent).join(", ")`); got != "Ann's ocean, Ben's ocean" {
		t.Errorf("the onlooker's boards are headed %q", got)
	}
	tally := cy.Text(`.salvo [data-board="1"] table.tally`)
	for _, want := range []string{"battleship\t5 of 5\t1 of 1", "cruiser\t1 of 4\t0 of 1", "submarine\t2 of 4\t0 of 2"} {
		if !strings.Contains(tally, want) {
			t.Errorf("the onlooker's tally of Ben's fleet reads %q, want %q in it", tally, want)
		}
	}
	if got := cy.Text(`#players li[data-seat="0"]`); !strings.Contains(got, "shots: 4 (sank 1)") {
		t.Errorf("Ann's line on the Players card reads %q", got)
	}
	if got := cy.Text(`#players li[data-seat="1"]`); !strings.Contains(got, "shots: 5") || strings.Contains(got, "lost") {
		t.Errorf("Ben's line on the Players card reads %q", got)
	}

	// Ann's first Salvo game in this browser: the guide teaches the rule.
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.Open("/")
	e2e.Eval[bool](ann, `(localStorage.setItem("parlour.seats", JSON.stringify({"`+id+`": {seat: 0, token: "`+tok+`"}})), true)`)
	ann.Open("/t/" + id)
	ann.Wait("the guide", `!!document.querySelector("#guide")`)
	ann.Click("#guide-next")
	ann.Wait("the guide's second step", `document.querySelector("#guide-step").textContent.startsWith("Step 2")`)
	if got := ann.Text("#guide-text"); !strings.Contains(got, "lose one for each enemy ship you sink") || strings.Contains(got, "one shot per ship you still have afloat") {
		t.Errorf("the guide teaches: %q", got)
	}
}

// ratedGames signs Ann and Ben up through the API and has Ann resign a
// rated game to Ben in each of games (Nymphabet's modes are pools of
// their own), once both have moved (before that a resignation aborts),
// so that their profiles list a rating per pool.
func ratedGames(t *testing.T, base string, games ...map[string]any) {
	t.Helper()
	tok := map[string]string{}
	for _, name := range []string{"Ann", "Ben"} {
		st, body := e2e.API(t, base, "POST", "/accounts", "", map[string]any{"name": name, "password": "correct horse staple"})
		if st != 201 {
			t.Fatalf("sign up %s: %d %s", name, st, body)
		}
		var s struct{ Token string }
		json.Unmarshal(body, &s)
		tok[name] = s.Token
	}
	for _, g := range games {
		g["seats"], g["rated"] = []string{"me", "open"}, true
		st, body := e2e.API(t, base, "POST", "/tables", tok["Ann"], g)
		if st != 201 {
			t.Fatalf("create %v: %d %s", g, st, body)
		}
		var s seated
		json.Unmarshal(body, &s)
		st, body = e2e.API(t, base, "POST", "/tables/"+s.Table+"/join", tok["Ben"], map[string]any{})
		if st != 200 {
			t.Fatalf("join: %d %s", st, body)
		}
		var b seated
		json.Unmarshal(body, &b)
		moves := [][2]string{{s.Token, "apple"}, {b.Token, "bed"}}
		if g["game"] == "wordfight" {
			moves = [][2]string{{s.Token, "declare cat"}, {s.Token, "place A1 across"}, {b.Token, "place A1 across"}}
		}
		for _, m := range append(moves, [2]string{s.Token, "resign"}) {
			if st, body := e2e.API(t, base, "POST", "/tables/"+s.Table+"/moves", m[0], map[string]any{"move": m[1]}); st != 200 {
				t.Fatalf("%s: %d %s", m[1], st, body)
			}
		}
	}
}

// TestPhoneHeaderAndRatings: on a 375-pixel phone the header takes one
// line (the brand, the account and a Menu button); the menu opens the
// site's links and closes when one is followed; a profile's ratings
// table fits the screen without sideways scrolling.
func TestPhoneHeaderAndRatings(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	ratedGames(t, base,
		map[string]any{"game": "nymphabet"},
		map[string]any{"game": "nymphabet", "rules": map[string]any{"mode": "scoring"}},
		map[string]any{"game": "nymphabet", "rules": map[string]any{"mode": "cyclic"}},
		map[string]any{"game": "wordfight"})
	b := e2e.NewBrowser(t)
	cy := e2e.NewPlayer(t, b, "Cy", base)
	cy.Do("a 375x812 phone", chromedp.EmulateViewport(375, 812, chromedp.EmulateScale(2), chromedp.EmulateMobile))

	cy.Open("/players/Ben")
	cy.Wait("the ratings", `document.querySelectorAll("#ratings tbody tr").length === 4`)
	cy.FitsWidth("Ben's profile")
	if right := e2e.Eval[float64](cy, `document.querySelector("#ratings").getBoundingClientRect().right`); right > 375 {
		t.Errorf("the ratings table reaches %v pixels on a 375-pixel screen", right)
	}
	cy.ShotView("profile-phone")

	// The header: one line while the menu is shut.
	oneLine := headerOnOneLine(64)
	if !e2e.Eval[bool](cy, oneLine) {
		t.Errorf("the phone's header takes more than one line: %v pixels high", e2e.Eval[float64](cy, `document.querySelector("header.top").getBoundingClientRect().height`))
	}
	// The longest account name keeps to the line too.
	e2e.Eval[bool](cy, `(document.querySelector("#account-link").textContent = "Gus_the_Great_Player", true)`)
	if !e2e.Eval[bool](cy, oneLine) {
		t.Errorf("with a 20-letter account name the phone's header takes more than one line")
	}
	cy.FitsWidth("the header with a long account name")
	if e2e.Eval[bool](cy, `document.querySelector("header nav").offsetParent !== null`) {
		t.Errorf("the site's links show in the phone's header before the menu is opened")
	}
	cy.Click("#menu-toggle")
	cy.Wait("the menu open", `document.querySelector("#menu-toggle").getAttribute("aria-expanded") === "true" && document.querySelector("header nav").offsetParent !== null`)
	cy.FitsWidth("the open menu")
	cy.Accessible("the phone's open menu")
	cy.Click(`header nav a[href="/lobby"]`)
	cy.WaitPage("the lobby", `location.pathname === "/lobby"`)
	cy.Wait("the menu shut", `document.querySelector("#menu-toggle").getAttribute("aria-expanded") === "false" && document.querySelector("header nav").offsetParent === null`)
	if !e2e.Eval[bool](cy, oneLine) {
		t.Errorf("after following a link the header takes more than one line")
	}

	// A wide screen shows the links with no Menu button.
	cy.Do("a desktop", chromedp.EmulateViewport(1200, 900))
	cy.Wait("the links in the header", `document.querySelector("header nav").offsetParent !== null && document.querySelector("#menu-toggle").offsetParent === null`)
}

// TestHeaderOneLineAtEveryWidth: from a phone to a desktop, through a
// tablet and half a desktop's screen, the header keeps to one line with
// "Sign in" and with the longest account name, and never widens the page:
// the links fold under Menu where they do not fit beside the account, and
// above that a long name gives way to an ellipsis. (Between 640 and 1,000
// pixels the account went onto a line of its own, or the links did.)
func TestHeaderOneLineAtEveryWidth(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	// Wider than a phone, the header keeps its wider padding around the
	// Menu button: a line a few pixels taller than a phone's.
	oneLine := headerOnOneLine(72)
	for _, w := range []int64{360, 600, 700, 768, 769, 800, 900, 1000, 1024, 1280} {
		ann.Do("the width", chromedp.EmulateViewport(w, 800))
		ann.Open("/")
		ann.Wait("the home page", `!!document.querySelector("#main h1") && document.querySelector("header.top").classList.contains("menu-ready")`)
		for _, name := range []string{"Sign in", "Gus_the_Great_Player"} {
			e2e.Eval[bool](ann, fmt.Sprintf(`(document.querySelector("#account-link").textContent = %q, true)`, name))
			if !e2e.Eval[bool](ann, oneLine) {
				t.Errorf("at %d pixels, with %q, the header takes %v pixels, more than one line", w, name, e2e.Eval[float64](ann, `document.querySelector("header.top").getBoundingClientRect().height`))
			}
			if sw := e2e.Eval[int64](ann, `document.documentElement.scrollWidth`); sw > w {
				t.Errorf("at %d pixels, with %q, the page is %d pixels wide", w, name, sw)
			}
			if right := e2e.Eval[float64](ann, `document.querySelector("#account-slot").getBoundingClientRect().right`); right > float64(w) {
				t.Errorf("at %d pixels, with %q, the account ends at %v pixels", w, name, right)
			}
		}
		folded := e2e.Eval[bool](ann, `document.querySelector("header nav").offsetParent === null`)
		if folded != (w <= 768) {
			t.Errorf("at %d pixels the links are folded under Menu: %v", w, folded)
		}
	}
}

// headerOnOneLine is a script that says whether the page's header shows
// its parts on one line, less than high pixels high.
func headerOnOneLine(high int) string {
	return fmt.Sprintf(`(() => { const top = document.querySelector("header.top"), kids = [...top.children].filter(e => e.offsetParent !== null);
		const r = kids.map(e => e.getBoundingClientRect()); return r.every(x => x.top < r[0].bottom && x.bottom > r[0].top) && top.getBoundingClientRect().height < %d; })()`, high)
}

// tabStop is where Tab took the keyboard: the element's id (or its text)
// and the box it is drawn in.
type tabStop struct {
	Name       string
	L, T, R, B float64
}

// headerTabs presses Tab from the brand until the keyboard leaves the
// header and answers where it went.
func headerTabs(p *e2e.Player) []tabStop {
	var out []tabStop
	p.Do("focus the brand", chromedp.Focus(chromedp.CSS("header a.brand")))
	for range 20 {
		at := e2e.Eval[tabStop](p, `(a => { if (!a.closest("header")) return {Name: ""}; const r = a.getBoundingClientRect(); return {Name: a.id || a.textContent.trim(), L: r.left, T: r.top, R: r.right, B: r.bottom}; })(document.activeElement)`)
		if at.Name == "" {
			break
		}
		out = append(out, at)
		p.Do("press Tab", chromedp.KeyEvent(kb.Tab))
	}
	return out
}

// TestHeaderTabOrderIsVisualOrder presses Tab through the header on
// phones of 360 and 390 pixels, the menu shut and open, and on a desktop,
// the width changed under the open page as a window resized or a phone
// turned: the keyboard goes through the header as it is drawn, left to
// right along a line and then down. On a phone the account shows between
// the brand and the Menu button, and Tab went from the brand to Menu,
// into the links below, and only then back up to the account.
func TestHeaderTabOrderIsVisualOrder(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.Do("a 360-pixel phone", chromedp.EmulateViewport(360, 740, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	ann.Open("/")
	ann.Wait("the home page", `!!document.querySelector("#main h1") && document.querySelector("header.top").classList.contains("menu-ready")`)
	links := []string{"Play", "Lobby", "Daily", "Tournaments", "Rules", "Replay", "Leaderboards"}
	for _, w := range []int64{360, 1200, 390} {
		ann.Do("the width", chromedp.EmulateViewport(w, 740))
		phone := w < 768
		ann.Wait("the header's layout", fmt.Sprintf(`(document.querySelector("#menu-toggle").offsetParent !== null) === %v`, phone))
		for _, open := range []bool{false, true} {
			if open && !phone {
				continue
			}
			if open {
				ann.Click("#menu-toggle")
				ann.Wait("the menu open", `document.querySelector("header nav").offsetParent !== null`)
			}
			stops := headerTabs(ann)
			var names []string
			for i, s := range stops {
				names = append(names, s.Name)
				if i == 0 {
					continue
				}
				p := stops[i-1]
				sameLine := s.T < p.B && s.B > p.T
				if (sameLine && s.L < p.R-1) || (!sameLine && s.T < p.B-1) {
					t.Errorf("at %d pixels (menu open %v), Tab goes from %s to %s, drawn before it", w, open, p.Name, s.Name)
				}
			}
			want := append(append([]string{"Parlour"}, links...), "account-link")
			if phone {
				want = []string{"Parlour", "account-link", "menu-toggle"}
				if open {
					want = append(want, links...)
				}
			}
			if !slices.Equal(names, want) {
				t.Errorf("at %d pixels (menu open %v), Tab goes through the header as %q, want %q", w, open, names, want)
			}
			if open {
				ann.Click("#menu-toggle")
				ann.Wait("the menu shut", `document.querySelector("header nav").offsetParent === null`)
			}
		}
	}
	// The account moves in the document as the width crosses the fold:
	// the keyboard on it stays there.
	ann.Do("focus the account", chromedp.Focus(chromedp.CSS("#account-link")))
	ann.Do("a desktop", chromedp.EmulateViewport(1200, 740))
	ann.Wait("the links unfolded", `document.querySelector("#menu-toggle").offsetParent === null`)
	if got := e2e.Eval[string](ann, `document.activeElement.id`); got != "account-link" {
		t.Errorf("after the width changed the keyboard is on %q, not the account", got)
	}
}

// TestSalvoTabOrderIsVisualOrder presses Tab through a Salvo player's
// table on a phone and on a desktop, the width changed under the open
// page: the keyboard meets the ocean aimed at, the controls and the
// player's own ocean in the order they are drawn. On a phone the ocean
// aimed at is drawn above the controls, and Tab went to the controls
// first.
func TestSalvoTabOrderIsVisualOrder(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	id, tok := salvoUnderWay(t, base)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.Do("a 360-pixel phone", chromedp.EmulateViewport(360, 740, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	ann.Open("/")
	e2e.Eval[bool](ann, `(localStorage.setItem("parlour.seats", JSON.stringify({"`+id+`": {seat: 0, token: "`+tok+`"}})), localStorage.setItem("parlour.guide.salvo", "1"), true)`)
	ann.Open("/t/" + id)
	ann.Wait("both oceans", `document.querySelectorAll('.salvo [data-board="1"] .cell, .salvo [data-board="own"] .cell').length === 200`)
	// part names the part of the table a Tab stop is in, and where that
	// part is drawn on the page (a focus scrolls it into view).
	const part = `(a => {
		const p = a.closest('[data-board="1"]') || a.closest("#s-controls") || a.closest('[data-board="own"]');
		if (!p) return {Name: ""};
		const r = p.getBoundingClientRect();
		return {Name: p.id || p.dataset.board, L: r.left + scrollX, T: r.top + scrollY, R: r.right + scrollX, B: r.bottom + scrollY};
	})(document.activeElement)`
	for _, w := range []int64{360, 1200, 390} {
		ann.Do("the width", chromedp.EmulateViewport(w, 740))
		phone := w < 480
		// The page is laid out for the width once the controls are drawn
		// below the ocean aimed at on a phone, above it elsewhere.
		ann.Wait("the layout", fmt.Sprintf(`window.matchMedia("(max-width: 30rem)").matches === %v && (document.querySelector("#s-controls").getBoundingClientRect().top > document.querySelector('.salvo [data-board="1"]').getBoundingClientRect().top) === %v`, phone, phone))
		ann.Do("focus the page's start", chromedp.Focus(chromedp.CSS("#main")))
		var parts []tabStop
		for range 60 {
			ann.Do("press Tab", chromedp.KeyEvent(kb.Tab))
			at := e2e.Eval[tabStop](ann, part)
			if at.Name == "" {
				if len(parts) >= 3 {
					break
				}
				continue
			}
			if len(parts) == 0 || parts[len(parts)-1].Name != at.Name {
				parts = append(parts, at)
			}
		}
		var names []string
		for i, p := range parts {
			names = append(names, p.Name)
			if i > 0 && p.T < parts[i-1].T-1 && !(p.L >= parts[i-1].R-1) {
				t.Errorf("at %d pixels, Tab goes from %s to %s, drawn above it", w, parts[i-1].Name, p.Name)
			}
		}
		want := []string{"s-controls", "1", "own"}
		if phone {
			want = []string{"1", "s-controls", "own"}
		}
		if !slices.Equal(names, want) {
			t.Errorf("at %d pixels, Tab goes through the table as %q, want %q", w, names, want)
		}
	}
}
