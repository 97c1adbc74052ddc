package tables

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"parlour/server"
	"parlour/web/e2e"
)

// TestNewTableForm: every rule option says its range and default in words
// (the Quizl penalty's range starts at 0, not "undefined"), the number
// inputs carry their bounds, the "who plays" buttons show which is chosen
// from the start and as it changes, and a join page says the table's
// rules in words.
func TestNewTableForm(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.Open("/new/quizl")
	ann.Wait("the form", `!!document.querySelector("#opt-wrong_announcement_penalty")`)
	form := ann.Text("#main form")
	if strings.Contains(form, "undefined") {
		t.Errorf("the form says undefined:\n%s", form)
	}
	for _, want := range []string{"Points lost for a wrong password (0–5, default 1)", "Points to the grid's owner for a wrong password (0–25, default 0)", "Points that end a set (1–1000, default 25)"} {
		if !strings.Contains(form, want) {
			t.Errorf("the form lacks %q:\n%s", want, form)
		}
	}
	if got := e2e.Eval[string](ann, `["penalty", "award"].map(n => document.querySelector("#opt-wrong_announcement_" + n)).map(e => e.min + "-" + e.max).join(" ")`); got != "0-5 0-25" {
		t.Errorf("the wrong-announcement inputs' bounds are %s, want 0-5 0-25", got)
	}
	pressed := func() string {
		return e2e.Eval[string](ann, `[...document.querySelectorAll("button[aria-pressed]")].filter(b => b.getAttribute("aria-pressed") === "true").map(b => b.textContent).join(",")`)
	}
	if got := pressed(); got != "A friend" {
		t.Errorf("before any choice, the pressed button is %q, want A friend shown", got)
	}
	if n := e2e.Eval[int](ann, `document.querySelectorAll("button[aria-pressed]").length`); n != 3 {
		t.Errorf("%d who-plays buttons with a pressed state, want 3", n)
	}
	ann.ClickText("#main form button", "The computer")
	if got := pressed(); got != "The computer" {
		t.Errorf("after choosing the computer, pressed: %q", got)
	}
	ann.ClickText("#main form button", "Solitaire")
	if got := pressed(); got != "Solitaire" {
		t.Errorf("after choosing solitaire, pressed: %q", got)
	}
	if got := ann.Text("#who-help"); !strings.Contains(got, "Chosen: solitaire") {
		t.Errorf("the choice is said as %q", got)
	}
	ann.Labelled("the new table form")
	ann.Shot("new-table-quizl")

	// A Word Fight table's join page says its rules in words.
	ann.CreateTable("wordfight", "A friend")
	ben.Open(strings.TrimPrefix(ann.InviteLink(), base))
	ben.Wait("the join page", `!!document.querySelector(".rules-words li") && document.querySelector(".rules-words").textContent.includes("Strike limit")`)
	rules := ben.Text(".rules-words")
	for _, want := range []string{"Board: 20 x 20", "Strike limit: 3", "Be Fruitful and Multiply: on", "Strikes per: word"} {
		if !strings.Contains(rules, want) {
			t.Errorf("the join page's rules lack %q:\n%s", want, rules)
		}
	}
	// In the game's order, as the new table form lists them.
	if a, b, c := strings.Index(rules, "Be Fruitful"), strings.Index(rules, "Strikes per"), strings.Index(rules, "Strike limit"); a > b || b > c {
		t.Errorf("the join page's rules are not in the game's order:\n%s", rules)
	}
	if strings.Contains(rules, "shape") || strings.Contains(rules, ";") {
		t.Errorf("the join page shows raw rule values:\n%s", rules)
	}
	ben.Shot("join-wordfight")
}

// TestSolitaireLevel: solitaire Quizl's grid maker level is chosen on the
// new table form, shown on the table, and at the end the grid is named
// as the computer's, not the player's.
func TestSolitaireLevel(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.Open("/new/quizl")
	ann.Wait("the form", `!!document.querySelector("form button[type=submit]")`)
	ann.ClickText("#main form button", "Solitaire")
	ann.Wait("the level choice", `!!document.querySelector("#maker")`)
	if got := e2e.Eval[string](ann, `[...document.querySelector("#maker").options].map(o => o.value).join(",")`); got != "easy,medium,strong" {
		t.Errorf("the levels offered: %s", got)
	}
	e2e.Eval[bool](ann, `(() => { const s = document.querySelector("#maker"); s.value = "easy"; s.dispatchEvent(new Event("change")); return true; })()`)
	ann.TypeIn("#my-name", "Ann")
	ann.Click("form button[type=submit]")
	ann.Wait("the computer's grid", `document.querySelectorAll('[data-board="0"] [data-sq]').length === 25`)
	if got := ann.Text("#q-maker-note"); got != "Made by the computer, easy (a random filling)." {
		t.Errorf("the table says %q about its grid", got)
	}
	ann.Shot("quizl-solitaire-easy")
	e2e.Eval[bool](ann, `(window.confirm = () => true, true)`)
	ann.Click("#resign")
	ann.Wait("the end", `!!document.querySelector("#game-over") && document.querySelectorAll("#commitments li").length === 1`)
	end := ann.Text("#commitments")
	if !strings.Contains(end, "The computer's grid (easy)") || strings.Contains(end, "Ann:") {
		t.Errorf("the end names the grid as %q", end)
	}
	if got := ann.Text(`[data-board="0"] h3`); got != "The computer's grid" {
		t.Errorf("the revealed grid is headed %q", got)
	}
	if n := e2e.Eval[int](ann, `document.querySelectorAll('[data-board="0"] .pw').length`); n != 5 {
		t.Errorf("the revealed grid marks %d squares as the password, want 5", n)
	}
	ann.Shot("quizl-solitaire-easy-over")
}

// TestSolitaireMakerFallback: on a server whose computer cannot make the
// grid (here one configured without computer players, server.Config's
// NewBot left out), solitaire Quizl falls back to a random filling, and
// the table says so, in the page and after a reload, rather than pass the
// grid off as the level's.
func TestSolitaireMakerFallback(t *testing.T) {
	t.Parallel()
	srv := e2e.NewConfiguredServer(t, func(c *server.Config) { c.NewBot = nil })
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", srv.Base)
	id := ann.CreateTable("quizl", "Solitaire")
	ann.Wait("the computer's grid", `document.querySelectorAll('[data-board="0"] [data-sq]').length === 25`)
	want := "The computer (medium) found no deceptive grid, so this one was filled at random."
	if got := ann.Text("#q-maker-note"); got != want {
		t.Errorf("the table says %q about its grid, want %q", got, want)
	}
	var info struct {
		Table struct {
			Solitaire struct {
				Maker  string `json:"maker"`
				Random bool   `json:"random"`
			} `json:"solitaire"`
		} `json:"table"`
	}
	if st, body := e2e.API(t, srv.Base, "GET", "/tables/"+id, "", nil); st != 200 || json.Unmarshal(body, &info) != nil || !info.Table.Solitaire.Random || info.Table.Solitaire.Maker != "medium" {
		t.Errorf("the table's API answer does not say the medium maker fell back: %d %s", st, body)
	}
	ann.Shot("quizl-solitaire-fallback")
	ann.Open("/t/" + id)
	ann.Wait("the grid again", `document.querySelectorAll('[data-board="0"] [data-sq]').length === 25 && !!document.querySelector("#q-maker-note")`)
	if got := ann.Text("#q-maker-note"); got != want {
		t.Errorf("after a reload the table says %q about its grid", got)
	}
}

// TestWordFightShapeDrawn: the new-table form draws Word Fight's board
// shape: squares chosen in the drawing write the text the option takes,
// text typed redraws it, a board made wider leaves the drawing standing
// until a square is changed, the arrow keys move among the squares, and
// the table opened has the squares masked. On a phone the form needs no
// sideways scrolling.
func TestWordFightShapeDrawn(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.Phone(false)
	ann.Open("/new/wordfight")
	ann.Wait("the drawing", `!!document.querySelector("#opt-shape-draw")`)
	ann.TypeIn("#opt-width", "5")
	ann.TypeIn("#opt-height", "5")
	ann.Click("#opt-shape-draw summary")
	cells := `document.querySelectorAll("#opt-shape-draw [data-sq]").length`
	ann.Wait("a board of 5 by 5", cells+` === 25`)
	ann.Click(`#opt-shape-draw [data-sq="A1"]`)
	ann.Click(`#opt-shape-draw [data-sq="E5"]`)
	value := `document.querySelector("#opt-shape").value`
	ann.Wait("the text of the drawing", value+` === "#..../...../...../...../....#"`)
	if got := ann.Text("#opt-shape-drawn"); got != "5 by 5: 2 squares masked." {
		t.Errorf("the drawing's note reads %q", got)
	}
	ann.Click(`#opt-shape-draw [data-sq="A1"]`)
	ann.Wait("A1 open again", value+` === "...../...../...../...../....#"`)

	ann.TypeIn("#opt-shape", "..#../...../...../...../.....")
	pressed := `[...document.querySelectorAll('#opt-shape-draw [aria-selected="true"]')].map(b => b.dataset.sq).join(" ")`
	ann.Wait("the drawing of the text", pressed+` === "C1"`)

	ann.TypeIn("#opt-width", "6")
	ann.Wait("a board of 6 by 5", cells+` === 30`)
	if got := ann.Text("#opt-shape-drawn"); !strings.Contains(got, "not a shape of 6 by 5") {
		t.Errorf("with text of another size the note reads %q", got)
	}
	if got := e2e.Eval[string](ann, pressed); got != "C1" {
		t.Errorf("a board made wider keeps %q of the drawing, want C1", got)
	}
	ann.Click(`#opt-shape-draw [data-sq="F1"]`)
	ann.Wait("the text of the wider drawing", value+` === "..#..#/....../....../....../......"`)
	// The keyboard: the square changed keeps the focus; an arrow moves on.
	ann.Do("move down to F2 and mask it", chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.Enter))
	ann.Wait("F2 masked", pressed+` === "C1 F1 F2"`)
	ann.FitsWidth("the Word Fight form with its shape drawn")
	ann.AccessibleThemes("the Word Fight form with its shape drawn")
	ann.ShotView("wordfight-shape")

	ann.ClickText("#main form button", "The computer")
	ann.Click("form button[type=submit]")
	ann.WaitPage("the table", `location.pathname.startsWith("/t/") && !!document.querySelector(".wf [data-sq]")`)
	if got := e2e.Eval[string](ann, `[...document.querySelectorAll(".wf .cell.block")].map(c => c.dataset.sq).join(" ")`); got != "C1 F1 F2" {
		t.Errorf("the table's board masks %q, want C1 F1 F2", got)
	}
}

// TestShapeTargetsOnAPhone opens the drawing of Word Fight's board shape
// on a 360-pixel phone, at the default board of 20 by 20: each of its 400
// squares is a target of at least 24 by 24 pixels (WCAG 2.5.8), and the
// page needs no sideways scrolling: the drawing scrolls inside its frame.
func TestShapeTargetsOnAPhone(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.Do("a 360-pixel phone", chromedp.EmulateViewport(360, 740, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	ann.Open("/new/wordfight")
	ann.Wait("the drawing", `!!document.querySelector("#opt-shape-draw")`)
	ann.Click("#opt-shape-draw summary")
	ann.Wait("a board of 20 by 20", `document.querySelectorAll("#opt-shape-draw button.cell").length === 400`)
	small := e2e.Eval[[]string](ann, `[...document.querySelectorAll("#opt-shape-draw button.cell")].map(c => [c.dataset.sq, c.getBoundingClientRect()]).filter(([, r]) => r.width < 24 || r.height < 24).slice(0, 5).map(([sq, r]) => sq + " " + r.width + "x" + r.height)`)
	if len(small) > 0 {
		t.Errorf("the drawing's squares are smaller than 24 by 24 pixels: %v", small)
	}
	if w := e2e.Eval[int](ann, `document.documentElement.scrollWidth`); w > 360 {
		t.Errorf("the form is %d pixels wide on a 360-pixel phone", w)
	}
	if !e2e.Eval[bool](ann, `(f => getComputedStyle(f).overflowX === "auto" && f.getBoundingClientRect().right <= 360)(document.querySelector("#opt-shape-draw .board-frame"))`) {
		t.Errorf("the drawing does not scroll inside a frame that fits the phone")
	}
	ann.Click(`#opt-shape-draw [data-sq="T20"]`)
	ann.Wait("T20 masked by a tap", `document.querySelector("#opt-shape").value.endsWith(".#")`)
	ann.ShotView("wordfight-shape-360")
}
