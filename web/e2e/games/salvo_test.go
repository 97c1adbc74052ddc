package games

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"parlour/web/e2e"
)

// TestSalvo plays Salvo: Ann places her fleet by hand and then at
// random, Ben has the computer hide his; Ann aims by clicking
// and sinks Ben's fleet ship by ship, Ben types salvos that fall in the
// ocean; Ann outlines Ben's fleet and wins. Every report, tally and shot
// count is checked on both screens, and neither browser receives the
// other's fleet before the end.
func TestSalvo(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.CreateTable("salvo", "A friend")
	ben.Join(ann.InviteLink())
	// The referee's random fleet keeps the rule; moving its battleship by
	// hand along the top edge breaks the strict rule, and the referee's
	// note says so.
	ann.Wait("fleet placement", `!!document.querySelector("#s-random")`)
	ann.Click("#s-random")
	ann.Wait("a legal fleet", `document.querySelector("#s-setup-h").parentElement.querySelector("[role=status]").textContent.startsWith("Every ship is placed")`)
	ann.ClickText(`[aria-label="Ship to place"] button`, "battleship (5) ✓")
	ann.Click(`#s-setup-h ~ div [data-sq="A1"]`)
	ann.Wait("the placement note", `document.querySelector("#s-setup-h").parentElement.querySelector("[role=status]").textContent.includes("the battleship A1-E1 has 5 squares on the edge of the ocean")`)
	// On a cleared ocean, dragging from B6 up to B2 lays the battleship
	// down column B, and the note says which ships are still to place.
	ann.ClickText("#s-setup-h ~ .row button", "Clear")
	ann.Wait("the cleared ocean", `document.querySelector("#s-setup-h").parentElement.querySelector("[role=status]").textContent.startsWith("0 of 5 ships placed")`)
	ann.ClickText(`[aria-label="Ship to place"] button`, "battleship (5)")
	from := e2e.Eval[[]float64](ann, `(r => [r.x + r.width / 2, r.y + r.height / 2])(document.querySelector('#s-setup-h ~ div [data-sq="B6"]').getBoundingClientRect())`)
	to := e2e.Eval[[]float64](ann, `(r => [r.x + r.width / 2, r.y + r.height / 2])(document.querySelector('#s-setup-h ~ div [data-sq="B2"]').getBoundingClientRect())`)
	ann.Do("drag the battleship", chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, from[0], from[1], chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, to[0], to[1], chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, to[0], to[1], chromedp.ButtonLeft, chromedp.ClickCount(1)))
	ann.Wait("the placement note", `document.querySelector("#s-place-note").textContent === "1 of 5 ships placed. Still to place: the cruiser, the destroyer, the first submarine, the second submarine. The ships placed so far keep the placement rule."`)
	if got := e2e.Eval[string](ann, `[...document.querySelectorAll('#s-setup-h ~ div .ship')].map(e => e.dataset.sq).join(" ")`); got != "B2 B3 B4 B5 B6" {
		t.Errorf("after the drag the battleship lies on %q, want B2 to B6", got)
	}
	// Each ship is checked as it is placed: a battleship along the top
	// edge and a cruiser alongside it break the rule twice; the referee
	// names both problems and both ships are marked, before the fleet is
	// complete.
	ann.ClickText("#s-setup-h ~ .row button", "Clear")
	for i := 0; i < 4 && !strings.Contains(ann.Text("#s-rotate"), "across"); i++ {
		ann.Click("#s-rotate")
	}
	ann.Click(`#s-setup-h ~ div [data-sq="A1"]`)
	ann.Wait("the first problem", `document.querySelector("#s-place-note").textContent.includes("the battleship A1-E1 has 5 squares on the edge of the ocean")`)
	if got := e2e.Eval[string](ann, `[...document.querySelectorAll('#s-setup-h ~ div .wrong')].map(e => e.dataset.sq).join(" ")`); got != "A1 B1 C1 D1 E1" {
		t.Errorf("after the battleship the marked squares are %q", got)
	}
	ann.Click(`#s-setup-h ~ div [data-sq="B2"]`)
	ann.Wait("both problems", `document.querySelectorAll("#s-place-note .problems li").length === 2`)
	problems := e2e.Eval[[]string](ann, `[...document.querySelectorAll("#s-place-note .problems li")].map(e => e.textContent)`)
	if !strings.HasPrefix(problems[0], "the battleship A1-E1 has 5 squares on the edge") || problems[1] != "the cruiser B2-E2 touches the battleship A1-E1 on more than one square." {
		t.Errorf("the problems named: %q", problems)
	}
	if got := e2e.Eval[string](ann, `[...document.querySelectorAll('#s-setup-h ~ div .wrong')].map(e => e.dataset.sq).sort().join(" ")`); got != "A1 B1 B2 C1 C2 D1 D2 E1 E2" {
		t.Errorf("with two problems the marked squares are %q, want both ships", got)
	}
	if got := ann.Text("#s-place-note"); !strings.Contains(got, "Not allowed, 2 problems") || !strings.Contains(got, "2 of 5 ships placed") {
		t.Errorf("the placement note: %q", got)
	}
	ann.Shot("salvo-setup-problems")
	ann.Accessible("Salvo's placement with problems")
	ann.Click("#s-random")
	ann.Wait("a legal fleet", `document.querySelector("#s-setup-h").parentElement.querySelector("[role=status]").textContent.startsWith("Every ship is placed")`)
	ann.Shot("salvo-setup")
	ann.Labelled("fleet placement")
	ann.Click("#s-submit")
	// Ben has the computer hide his fleet.
	ben.Wait("fleet placement", `!!document.querySelector("#s-random")`)
	ben.ClickText("#main button", "Let the computer hide my fleet")
	annFleet, benFleet := ann.SalvoFleet(), ben.SalvoFleet()
	annSquares := map[string]bool{}
	for _, s := range annFleet {
		for _, q := range e2e.ShipSquares(s) {
			annSquares[q] = true
		}
	}
	var water []string // squares of Ann's ocean where Ben's shots fall in the sea
	for r := 1; r <= 10; r++ {
		for c := 'A'; c <= 'J'; c++ {
			if q := fmt.Sprintf("%c%d", c, r); !annSquares[q] {
				water = append(water, q)
			}
		}
	}

	// Ann's salvos, each at the squares of Ben's ships in fleet order, and
	// the reports they must get.
	var targets []string
	for _, s := range benFleet {
		targets = append(targets, e2e.ShipSquares(s)...)
	}
	annSalvos := []struct {
		n      int
		report string
	}{
		{5, "five in the battleship; sank the battleship"},
		{4, "four in the cruiser; sank the cruiser"},
		{3, "three in the destroyer; sank the destroyer"},
		{2, "two in submarines; sank a submarine"},
		{1, "one in a submarine"},
		{1, "one in a submarine; sank a submarine"},
	}
	var lat e2e.Latencies
	salvos := 0
	for i, as := range annSalvos {
		// Ann aims by clicking her tracking ocean of Ben, then fires.
		ann.WaitTurn(true)
		ben.WaitTurn(false)
		if got := ann.Text("#s-shots"); !strings.Contains(got, fmt.Sprintf("%d shot", as.n)) {
			t.Errorf("salvo %d: Ann's screen says %q, want %d shots", i+1, got, as.n)
		}
		shots := targets[:as.n]
		targets = targets[as.n:]
		for _, q := range shots {
			ann.Click(fmt.Sprintf(`[data-board="1"] [data-sq="%s"]`, q))
		}
		if i == 1 {
			ann.Shot("salvo-aim")
			ann.Labelled("the Salvo play screen")
			ann.AccessibleThemes("the Salvo play screen of two players")
		}
		salvos++
		ben.WatchFor(fmt.Sprintf(`document.querySelectorAll("#s-reports li").length === %d`, salvos))
		sent := ann.SubmitAt("#s-fire-btn")
		lat = append(lat, time.Duration((ben.SeenAt()-sent)*float64(time.Millisecond)))
		for _, p := range []*e2e.Player{ann, ben} {
			p.Wait("the report", fmt.Sprintf(`document.querySelectorAll("#s-reports li").length === %d`, salvos))
			if got := p.Text("#s-reports li"); !strings.HasSuffix(got, as.report) || !strings.Contains(got, strings.Join(shots, " ")) {
				t.Errorf("salvo %d: %s reads the report %q, want the squares %v and %q", i+1, p.Name, got, shots, as.report)
			}
		}
		for _, q := range shots {
			if got := e2e.Eval[string](ann, fmt.Sprintf(`document.querySelector('[data-board="1"] [data-sq="%s"]').textContent`, q)); got != fmt.Sprint(i+1) {
				t.Errorf("Ann's tracking ocean shows %q at %s, want salvo number %d", got, q, i+1)
			}
		}
		if i == 2 {
			// A pencil mark on a square not yet fired at.
			ann.Click("#s-mode")
			ann.Click(fmt.Sprintf(`[data-board="1"] [data-sq="%s"]`, targets[0]))
			ann.Wait("the pencil mark", fmt.Sprintf(`document.querySelector('[data-board="1"] [data-sq="%s"]').classList.contains("pm-hit")`, targets[0]))
			ann.Click("#s-mode")
		}

		// Ben types a salvo into the ocean.
		if i == len(annSalvos)-1 {
			break // Ann has sunk every ship: the game waits for her outline
		}
		ben.WaitTurn(true)
		shotsBen := water[:5]
		water = water[5:]
		ben.TypeIn("#s-fire", strings.ToLower(strings.Join(shotsBen, " ")))
		salvos++
		ann.WatchFor(fmt.Sprintf(`document.querySelectorAll("#s-reports li").length === %d`, salvos))
		sent = ben.SubmitAt("#s-fire-btn")
		lat = append(lat, time.Duration((ann.SeenAt()-sent)*float64(time.Millisecond)))
		for _, p := range []*e2e.Player{ann, ben} {
			p.Wait("the report", fmt.Sprintf(`document.querySelectorAll("#s-reports li").length === %d`, salvos))
			if got := p.Text("#s-reports li"); !strings.HasSuffix(got, "all in the ocean") {
				t.Errorf("Ben's salvo: %s reads %q", p.Name, got)
			}
		}
		if got := ann.Text(`[data-board="own"]`); !strings.Contains(got, "0 of 5 hit") {
			t.Errorf("Ann's own fleet after Ben's miss: %q", got)
		}
	}
	tally := ann.Text(`[data-board="1"] table`)
	for _, want := range []string{"battleship\t5 of 5\t1 of 1", "submarine\t4 of 4\t2 of 2"} {
		if !strings.Contains(tally, want) {
			t.Errorf("Ann's tally lacks %q:\n%s", want, tally)
		}
	}
	ann.NoSecrets("before the outline", notIn(benFleet, annFleet)...)
	ben.NoSecrets("before the outline", notIn(annFleet, benFleet)...)

	// Ben's fleet is sunk, so he takes no more turns; Ann's only move is
	// the outline.
	ann.WaitTurn(true)
	ben.WaitTurn(false)
	ann.Wait("the outline tool", `!document.querySelector("#s-outline").hidden`)
	ann.Shot("salvo-outline")
	for i, s := range benFleet {
		ann.TypeIn(fmt.Sprintf("#s-ol-%d", i), s)
	}
	ann.Click("#s-ol-send")
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("the end", `!!document.querySelector("#game-over")`)
		p.Wait("the commitment checks", `document.querySelectorAll("#commitments li .ok").length === 2`)
		if got := p.Text("#game-over h2"); !strings.Contains(got, map[string]string{"Ann": "you won", "Ben": "Ann won"}[p.Name]) {
			t.Errorf("%s's end screen: %q", p.Name, got)
		}
		// The banner says why, in words.
		if got, want := p.Text("#end-reason"), map[string]string{"Ann": "You outlined Ben's fleet rightly.", "Ben": "Ann outlined your fleet rightly."}[p.Name]; got != want {
			t.Errorf("%s's end screen says why: %q, want %q", p.Name, got, want)
		}
		if got := p.Text("#end-scores"); !regexp.MustCompile(`^Ships sunk: Ann \d, Ben \d$`).MatchString(got) {
			t.Errorf("%s's end screen counts %q", p.Name, got)
		}
		// Beside Ben's name, what befell his fleet, not an outline of his.
		if got := p.Text(`#players li[data-seat="1"]`); !strings.Contains(got, "· fleet outlined") {
			t.Errorf("%s's list of players has Ben as %q", p.Name, got)
		}
	}
	ben.Shot("salvo-over")
	// Opened afresh, the end still says why, from the view alone.
	ben.Open(e2e.Eval[string](ben, `location.pathname`))
	ben.Wait("the end again", `!!document.querySelector("#end-reason")`)
	if got := ben.Text("#end-reason"); got != "Ann outlined your fleet rightly." {
		t.Errorf("after a reload Ben's end says %q", got)
	}
	// On a phone the ocean aimed at keeps 32-pixel squares; your own is
	// smaller.
	ann.Phone(false)
	ann.FitsWidth("the end of Salvo")
	aimW := e2e.Eval[float64](ann, `document.querySelector('[data-board="1"] [data-sq="E5"]').getBoundingClientRect().width`)
	ownW := e2e.Eval[float64](ann, `document.querySelector('[data-board="own"] [data-sq="E5"]').getBoundingClientRect().width`)
	if aimW < 32 || ownW >= aimW {
		t.Errorf("on a phone the squares of Ben's ocean are %.1f pixels, Ann's own %.1f: want at least 32, and Ann's smaller", aimW, ownW)
	}
	ann.Shot("salvo-phone")
	t.Logf("Salvo, time for a salvo to show on the other screen: %s", lat.Summary())
}

// notIn returns the ships of fleet that own does not also hold: both
// fleets are random, and a ship the two share (the same squares) is in
// the receiver's own setup, which it is meant to receive.
func notIn(fleet, own []string) []string {
	var out []string
	for _, s := range fleet {
		if !slices.Contains(own, s) {
			out = append(out, s)
		}
	}
	return out
}

// TestSalvoWrongOutline: Ann sinks Ben's whole fleet (the salvos sent
// through the API with her seat's token, Ben's falling in the ocean),
// then outlines his fleet wrongly in the page, on purpose: her own fleet,
// a legal fleet that is not his. Both end banners say who outlined whose
// fleet wrongly and that it loses, above the oceans, and still do after a
// reload.
func TestSalvoWrongOutline(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	id := ann.CreateTable("salvo", "A friend")
	ben.Join(ann.InviteLink())
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("fleet placement", `!!document.querySelector("#s-random")`)
		p.ClickText("#main button", "Let the computer hide my fleet")
	}
	annFleet, benFleet := ann.SalvoFleet(), ben.SalvoFleet()
	if slices.Equal(annFleet, benFleet) {
		t.Fatalf("both fleets are %v: Ann's cannot serve as a wrong outline of Ben's", annFleet)
	}
	annTok, benTok := ann.SeatToken(), ben.SeatToken()
	own := map[string]bool{}
	for _, s := range annFleet {
		for _, q := range e2e.ShipSquares(s) {
			own[q] = true
		}
	}
	var water []string
	for r := 1; r <= 10; r++ {
		for c := 'A'; c <= 'J'; c++ {
			if q := fmt.Sprintf("%c%d", c, r); !own[q] {
				water = append(water, q)
			}
		}
	}
	var targets []string
	for _, s := range benFleet {
		targets = append(targets, e2e.ShipSquares(s)...)
	}
	move := func(who, tok, mv string) {
		t.Helper()
		if st, body := e2e.API(t, base, "POST", "/tables/"+id+"/moves", tok, map[string]any{"move": mv}); st != 200 {
			t.Fatalf("%s's move %q: %d %s", who, mv, st, body)
		}
	}
	// Ann's salvos shrink as she sinks ships (5, 4, 3, 2, 1, 1), each at
	// the next ship's squares; Ben's five shots fall in the ocean.
	for i, n := range []int{5, 4, 3, 2, 1, 1} {
		move("Ann", annTok, "fire "+strings.Join(targets[:n], " "))
		targets = targets[n:]
		if i < 5 {
			move("Ben", benTok, "fire "+strings.Join(water[:5], " "))
			water = water[5:]
		}
	}
	ann.WaitTurn(true)
	ann.Wait("the outline tool", `!document.querySelector("#s-outline").hidden`)
	for i, s := range annFleet {
		ann.TypeIn(fmt.Sprintf("#s-ol-%d", i), s)
	}
	ann.Click("#s-ol-send")
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("the end", `!!document.querySelector("#game-over")`)
		if got, want := p.Text("#game-over h2"), map[string]string{"Ann": "Game over: Ben won", "Ben": "Game over: you won"}[p.Name]; got != want {
			t.Errorf("%s's end banner is headed %q, want %q", p.Name, got, want)
		}
		if got, want := p.Text("#end-reason"), map[string]string{
			"Ann": "You outlined Ben's fleet wrongly, and a wrong outline loses.",
			"Ben": "Ann outlined your fleet wrongly, and a wrong outline loses.",
		}[p.Name]; got != want {
			t.Errorf("%s's end screen says why: %q, want %q", p.Name, got, want)
		}
		if got := p.Text(`#players li[data-seat="0"]`); !strings.Contains(got, "· outlined wrongly") {
			t.Errorf("%s's list of players has Ann as %q", p.Name, got)
		}
		// The reason is in the banner, above the oceans, not further down.
		if !e2e.Eval[bool](p, `(() => { const r = document.querySelector("#end-reason"), o = document.querySelector("[data-board]"); return !!r.closest("#game-over") && !!o && r.getBoundingClientRect().bottom <= o.getBoundingClientRect().top; })()`) {
			t.Errorf("%s's reason for the end is not in the banner above the oceans", p.Name)
		}
	}
	ann.Shot("salvo-outline-wrong")
	ann.Open("/t/" + id)
	ann.Wait("the end again", `!!document.querySelector("#end-reason")`)
	if got := ann.Text("#end-reason"); got != "You outlined Ben's fleet wrongly, and a wrong outline loses." {
		t.Errorf("after a reload Ann's end says %q", got)
	}
}

// TestSalvoFleetSurvivesReload: Ann places two ships with the keyboard
// (Enter on a square, R to turn the next one down) and reloads the page
// before sending the fleet: both ships, the ship she was about to place
// and its direction are still there. Once the fleet is sent, the browser
// keeps no copy of it.
func TestSalvoFleetSurvivesReload(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	id := ann.CreateTable("salvo", "The computer")
	ann.Wait("fleet placement", `!!document.querySelector("#s-submit")`)
	ann.Do("place the battleship across from B2", chromedp.Focus(chromedp.CSS(`#s-setup-h ~ div [data-sq="B2"]`)), chromedp.KeyEvent(kb.Enter))
	// The referee's answer about the fleet draws the ocean again: the
	// next square is focused once it is in, not from under it.
	ann.Wait("the battleship, and the referee's answer", `document.querySelectorAll("#s-setup-h ~ div .ship").length === 5 && document.querySelector("#s-place-note").textContent.includes("keep the placement rule")`)
	ann.Do("turn the cruiser down and place it from H4", chromedp.Focus(chromedp.CSS(`#s-setup-h ~ div [data-sq="H4"]`)), chromedp.KeyEvent("r"), chromedp.KeyEvent(kb.Enter))
	ann.Wait("the cruiser", `document.querySelectorAll("#s-setup-h ~ div .ship").length === 9`)
	ships := `[...document.querySelectorAll("#s-setup-h ~ div .ship")].map(e => e.dataset.sq).sort().join(" ")`
	want := e2e.Eval[string](ann, ships)
	if want != "B2 C2 D2 E2 F2 H4 H5 H6 H7" {
		t.Fatalf("placed by keyboard: %q", want)
	}

	ann.Do("reload", chromedp.Reload())
	ann.Wait("fleet placement again", `!!document.querySelector("#s-submit") && document.querySelectorAll("#s-setup-h ~ div [data-sq]").length === 100`)
	if got := e2e.Eval[string](ann, ships); got != want {
		t.Errorf("after a reload the ocean holds ships on %q, want %q", got, want)
	}
	if got := ann.Text("#s-place-note"); !strings.HasPrefix(got, "2 of 5 ships placed. Still to place: the destroyer,") {
		t.Errorf("after a reload the placement note reads %q", got)
	}
	if got := ann.Text(`[aria-label="Ship to place"] [aria-checked="true"]`); got != "destroyer (3)" {
		t.Errorf("after a reload the ship to place is %q, want the destroyer", got)
	}
	if got := ann.Text("#s-rotate"); !strings.Contains(got, "down") {
		t.Errorf("after a reload the direction reads %q, want down as chosen", got)
	}

	ann.Click("#s-random")
	ann.Wait("a legal fleet", `document.querySelector("#s-place-note").textContent.startsWith("Every ship is placed")`)
	ann.Click("#s-submit")
	ann.Wait("the game", `!document.querySelector("#s-submit")`)
	if n := e2e.Eval[int](ann, `Object.keys(sessionStorage).filter(k => k.includes(`+"`"+`salvo.draft.`+id+"`"+`)).length`); n != 0 {
		t.Errorf("the sent fleet is still kept in the browser (%d keys)", n)
	}
}

// TestSalvoFleetOnAPhone: on a 375-pixel phone, the ocean of the fleet
// placement, which sits in a card, fits the card whole, column J
// included, with no sideways scrolling of its own, and its squares stay
// large enough to tap: a battleship laid down from J1 by taps lands there.
func TestSalvoFleetOnAPhone(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.Phone(true)
	ann.CreateTable("salvo", "The computer")
	ann.Wait("fleet placement", `!!document.querySelector("#s-submit")`)
	ann.FitsWidth("Salvo's fleet placement")
	fits := e2e.Eval[string](ann, `(() => {
		const card = document.querySelector("#s-setup-h").closest(".card"), j = document.querySelector('#s-setup-h ~ div [data-sq="J1"]');
		const inner = card.getBoundingClientRect().right - parseFloat(getComputedStyle(card).paddingRight);
		const wide = [...card.querySelectorAll("*")].filter(e => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== "visible").map(e => e.tagName + "." + e.className);
		return Math.round(j.getBoundingClientRect().right) + " " + Math.round(inner) + " " + Math.round(j.getBoundingClientRect().width) + " " + wide.join(",");
	})()`)
	var right, inner, side int
	var scrolled string
	fmt.Sscan(fits, &right, &inner, &side, &scrolled)
	if right > inner || scrolled != "" || side < 24 {
		t.Errorf("on a phone, square J1 of the placement ocean ends at %d pixels, the card's room at %d; it is %d pixels wide (want at least 24); scrolling sideways: %q", right, inner, side, scrolled)
	}
	ann.Click("#s-rotate")
	ann.Click(`#s-setup-h ~ div [data-sq="J1"]`)
	ann.Wait("the battleship", `document.querySelectorAll("#s-setup-h ~ div .ship").length === 5`)
	if got := e2e.Eval[string](ann, `[...document.querySelectorAll("#s-setup-h ~ div .ship")].map(e => e.dataset.sq).join(" ")`); got != "J1 J2 J3 J4 J5" {
		t.Errorf("a battleship laid down from J1 by taps covers %q", got)
	}
	ann.ShotView("salvo-setup-phone-dark")
}

// TestSalvoOutlinesTwoFleets: Ann, Ben and Cy play Salvo, a player whose
// ship is sunk losing the shot (so that Ann's salvos stay at five). Ann
// sinks Ben's fleet (the salvos sent through the API with the seats'
// tokens, Ben's and Cy's falling in the ocean) and writes half an outline
// of it in the page: a reload keeps what she wrote. Her right outline
// puts Ben out; she then sinks Cy's fleet, and the outline tool for Cy's
// fleet starts empty, not with Ben's ships in it.
func TestSalvoOutlinesTwoFleets(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	cy := e2e.NewPlayer(t, b, "Cy", base)
	ann.Open("/new/salvo")
	ann.Wait("the new table form", `!!document.querySelector("#opt-shots_lost_by")`)
	ann.ClickText("#main form button", "Add a seat")
	ann.Pick("#opt-shots_lost_by", "owner")
	ann.TypeIn("#my-name", ann.Name)
	ann.Click("form button[type=submit]")
	ann.Wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	id := strings.TrimPrefix(e2e.Eval[string](ann, `location.pathname`), "/t/")
	link := ann.InviteLink()
	ben.Join(link)
	cy.Join(link)
	fleets := map[string][]string{}
	toks := map[string]string{}
	for _, p := range []*e2e.Player{ann, ben, cy} {
		p.Wait("fleet placement", `!!document.querySelector("#s-random")`)
		p.ClickText("#main button", "Let the computer hide my fleet")
	}
	for _, p := range []*e2e.Player{ann, ben, cy} {
		fleets[p.Name] = p.SalvoFleet()
		toks[p.Name] = p.SeatToken()
	}
	// Her first Salvo's guide says the table's rule: her own ships sunk
	// cost her shots, not those she sinks.
	ann.Wait("the guide", `!!document.querySelector("#guide")`)
	ann.Click("#guide-next")
	if got := ann.Text("#guide-text"); !strings.Contains(got, "lose one for each of your own ships that is sunk") || strings.Contains(got, "enemy ship") {
		t.Errorf("the guide's second step says %q", got)
	}
	ann.Click("#guide-skip")
	squares := func(fleet []string) []string {
		var out []string
		for _, s := range fleet {
			out = append(out, e2e.ShipSquares(s)...)
		}
		return out
	}
	// water[who] lists the squares of who's ocean that hold no ship, in
	// the order they are fired at.
	water := map[string][]string{}
	for who, f := range fleets {
		ship := map[string]bool{}
		for _, q := range squares(f) {
			ship[q] = true
		}
		for r := 1; r <= 10; r++ {
			for c := 'A'; c <= 'J'; c++ {
				if q := fmt.Sprintf("%c%d", c, r); !ship[q] {
					water[who] = append(water[who], q)
				}
			}
		}
	}
	type view struct {
		Shots  int   `json:"shots"`
		ToMove []int `json:"to_move"`
	}
	viewOf := func(who string) view {
		t.Helper()
		st, body := e2e.API(t, base, "GET", "/tables/"+id, toks[who], nil)
		var v struct {
			View view `json:"view"`
		}
		if err := json.Unmarshal(body, &v); st != 200 || err != nil {
			t.Fatalf("%s's view: %d %s", who, st, body)
		}
		return v.View
	}
	move := func(who, mv string) {
		t.Helper()
		if st, body := e2e.API(t, base, "POST", "/tables/"+id+"/moves", toks[who], map[string]any{"move": mv}); st != 200 {
			t.Fatalf("%s's move %q: %d %s", who, mv, st, body)
		}
	}
	// others has Ben and Cy, while it is their turn, fire their whole
	// salvos into the ocean of the next seat still in: Ben at Cy, Cy at
	// Ann.
	seats := []string{"Ann", "Ben", "Cy"}
	others := func() {
		t.Helper()
		for {
			v := viewOf("Ann")
			if len(v.ToMove) != 1 || v.ToMove[0] == 0 {
				return
			}
			who := seats[v.ToMove[0]]
			at := map[string]string{"Ben": "Cy", "Cy": "Ann"}[who]
			n := viewOf(who).Shots
			move(who, "fire "+strings.Join(water[at][:n], " "))
			water[at] = water[at][n:]
		}
	}
	// sink has Ann sink the fleet of target in salvos of five (the last
	// one made up with water), the others firing in between.
	sink := func(target string) {
		t.Helper()
		left := squares(fleets[target])
		for len(left) > 0 {
			n := min(5, len(left))
			salvo := left[:n]
			left = left[n:]
			if n < 5 {
				salvo = append(salvo, water[target][:5-n]...)
				water[target] = water[target][5-n:]
			}
			move("Ann", "fire "+strings.Join(salvo, " "))
			others()
		}
	}
	sink("Ben")
	ann.Wait("the outline tool for Ben's fleet", `!!document.querySelector("#s-outline:not([hidden]) #s-ol-0")`)
	ann.TypeIn("#s-ol-0", fleets["Ben"][0])
	ann.TypeIn("#s-ol-1", fleets["Ben"][1])
	ann.Open("/t/" + id)
	ann.Wait("the outline tool again", `!!document.querySelector("#s-outline:not([hidden]) #s-ol-0")`)
	for i := range 5 {
		want := ""
		if i < 2 {
			want = fleets["Ben"][i]
		}
		if got := e2e.Eval[string](ann, fmt.Sprintf(`document.querySelector("#s-ol-%d").value`, i)); got != want {
			t.Errorf("after a reload ship %d of the outline reads %q, want %q", i, got, want)
		}
	}
	for i, s := range fleets["Ben"][2:] {
		ann.TypeIn(fmt.Sprintf("#s-ol-%d", i+2), s)
	}
	ann.Click("#s-ol-send")
	ann.Wait("Ben out", `document.querySelector('#players li[data-seat="1"]').textContent.includes("fleet outlined")`)

	others()
	sink("Cy")
	ann.Wait("the outline tool for Cy's fleet", `!!document.querySelector("#s-outline:not([hidden]) #s-ol-0") && document.querySelector("#s-shots").textContent.includes("Every ship of Cy is sunk")`)
	if got := e2e.Eval[[]string](ann, `[...document.querySelectorAll("#s-outline input")].map(e => e.value).filter(Boolean)`); len(got) != 0 {
		t.Errorf("the outline of Cy's fleet starts as %q", got)
	}
	if got := ann.Aimed(2); got != "" {
		t.Errorf("Cy's ocean marks %q as outlined before Ann has outlined anything", got)
	}
	for i, s := range fleets["Cy"] {
		ann.TypeIn(fmt.Sprintf("#s-ol-%d", i), s)
	}
	ann.Click("#s-ol-send")
	ann.Wait("the end", `!!document.querySelector("#game-over")`)
	if got := ann.Text("#game-over h2"); got != "Game over: you won" {
		t.Errorf("Ann's end banner: %q", got)
	}
}
