package games

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"parlour/game"
	"parlour/games/salvo"
	salvobot "parlour/games/salvo/bot"
	"parlour/web/e2e"
)

// TestSalvoPractice practises Salvo from the home page: one seat against a
// fleet the computer hides and that never fires back. Ann aims by clicking
// (a sixth square is refused with the reason, the box shows the salvo)
// and by typing (the squares typed are marked, a bad one is named), then
// plays on a phone in the dark theme with a strong computer player's
// choices typed in, to the outline and an end screen that says why.
func TestSalvoPractice(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.Open("/")
	ann.Wait("the games", `!!document.querySelector("#salvo-practice")`)
	ann.Click("#salvo-practice")
	ann.Wait("the new table form", `!!document.querySelector("#seats")`)
	ann.Wait("the practice note", `document.querySelector("#seats").textContent.includes("Practice: you fire at a fleet the computer hides")`)
	ann.TypeIn("#my-name", "Ann")
	ann.Shot("new-table-salvo-practice")
	ann.Click("form button[type=submit]")
	ann.Wait("the practice table", `document.querySelectorAll('[data-board="1"] [data-sq]').length === 100`)
	ann.WaitTurn(true)
	if got := ann.Text(`[data-board="1"] h3`); got != "Your shots at the computer" {
		t.Errorf("the tracking ocean is headed %q", got)
	}
	if n := e2e.Eval[int](ann, `document.querySelectorAll('[data-board="own"]').length + document.querySelectorAll("#players li").length`); n != 1 {
		t.Errorf("a practice table shows an ocean of Ann's own or a second player (%d)", n-1)
	}
	if got := ann.Text("#invite"); got != "" {
		t.Errorf("a practice table offers an invite: %q", got)
	}

	// Clicking five squares fills the box; a sixth is refused, saying why.
	for _, q := range []string{"B2", "C3", "D4", "E5", "F6"} {
		ann.Click(fmt.Sprintf(`[data-board="1"] [data-sq="%s"]`, q))
	}
	if got := e2e.Eval[string](ann, `document.querySelector("#s-fire").value`); got != "B2 C3 D4 E5 F6" {
		t.Errorf("after five clicks the box holds %q", got)
	}
	ann.Click(`[data-board="1"] [data-sq="G7"]`)
	if got := ann.Text("#s-aim-note"); !strings.Contains(got, "Your salvo has 5 shots and all are chosen") || !strings.Contains(got, "G7") {
		t.Errorf("a sixth click is answered %q", got)
	}
	if got := ann.Aimed(1); got != "B2 C3 D4 E5 F6" {
		t.Errorf("after a refused sixth click the marked squares are %q", got)
	}
	ann.Shot("salvo-aim-refused")
	// A second click takes a square back, in the box too.
	ann.Click(`[data-board="1"] [data-sq="C3"]`)
	if got := e2e.Eval[string](ann, `document.querySelector("#s-fire").value`); got != "B2 D4 E5 F6" {
		t.Errorf("after taking C3 back the box holds %q", got)
	}
	// Typing marks the squares typed and names what cannot be aimed at.
	ann.TypeIn("#s-fire", "a1 j10 zz a1")
	ann.Wait("the typed squares marked", `[...document.querySelectorAll('[data-board="1"] .cell.aim')].map(e => e.dataset.sq).join(" ") === "A1 J10"`)
	if got := ann.Text("#s-aim-note"); !strings.Contains(got, "zz is not a square") || !strings.Contains(got, "A1 is named twice") {
		t.Errorf("the note on typed squares: %q", got)
	}
	ann.Labelled("Salvo practice")
	// Leaving the box writes back the salvo as marked.
	ann.Do("leave the box", chromedp.Focus(chromedp.CSS("#s-mode")))
	if got := e2e.Eval[string](ann, `document.querySelector("#s-fire").value`); got != "A1 J10" {
		t.Errorf("after leaving the box it holds %q, want the marked A1 J10", got)
	}

	// The rest of the game on a phone, in the dark: the ocean aimed at has
	// targets of at least 32 pixels and the page never scrolls sideways.
	ann.Phone(true)
	ann.Wait("the phone layout", `document.querySelector('[data-board="1"] [data-sq="A1"]').getBoundingClientRect().width >= 32`)
	if w := e2e.Eval[float64](ann, `document.querySelector('[data-board="1"] [data-sq="E5"]').getBoundingClientRect().width`); w < 32 {
		t.Errorf("on a phone the squares aimed at are %.1f pixels wide, want at least 32", w)
	}
	ann.FitsWidth("Salvo practice")
	ann.ShotView("salvo-practice-phone-dark")

	bot, err := salvobot.New(game.Strong, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := game.Config{Players: []string{"Ann"}, Rules: game.Defaults(salvo.Game{}.Options())}
	ctx := context.Background()
	salvos := 0
	for moves := 0; ; moves++ {
		if moves > 60 {
			t.Fatal("the practice game does not end")
		}
		v := ann.SalvoView()
		if v.Finished {
			break
		}
		if v.Fleet != nil || v.Fleets != nil {
			t.Fatalf("the player's view shows a fleet before the end: %+v %+v", v.Fleet, v.Fleets)
		}
		mv, err := bot.Move(ctx, cfg, 0, v)
		if err != nil {
			t.Fatal(err)
		}
		if verb, list, _ := strings.Cut(mv, " "); verb == "fire" {
			ann.TypeIn("#s-fire", list)
			want := strings.Join(strings.Fields(strings.ToUpper(list)), " ")
			ann.Wait("the salvo marked", fmt.Sprintf(`[...document.querySelectorAll('[data-board="1"] .cell.aim')].map(e => e.dataset.sq).sort().join(" ") === %q.split(" ").sort().join(" ")`, want))
			ann.Click("#s-fire-btn")
			salvos++
			ann.Wait("the report", fmt.Sprintf(`document.querySelectorAll("#s-reports li").length === %d`, salvos))
			continue
		}
		ships := strings.Fields(strings.TrimPrefix(mv, "outline "))
		ann.Wait("the outline tool", `!document.querySelector("#s-outline").hidden`)
		if salvos == 0 || len(ships) != 5 {
			t.Fatalf("the computer player's move %q", mv)
		}
		// One ship typed and sent: the form says how many are still to
		// outline, and sends nothing.
		ann.TypeIn("#s-ol-0", ships[0])
		ann.Click("#s-ol-send")
		ann.Wait("the outline's refusal", `document.querySelector("#s-controls .error").textContent === "Outline every ship before sending: 4 ships are still to outline."`)
		for i, s := range ships {
			ann.TypeIn(fmt.Sprintf("#s-ol-%d", i), s)
		}
		ann.Click("#s-ol-send")
		ann.Wait("the end", `!!document.querySelector("#game-over")`)
	}
	ann.Wait("the end", `!!document.querySelector("#game-over")`)
	v := ann.SalvoView()
	right := len(v.Outlines) == 1 && v.Outlines[0].Right
	head, reason := ann.Text("#game-over h2"), ann.Text("#end-reason")
	wantHead, wantReason := "the outline was wrong", "outlined the computer's fleet wrongly"
	if right {
		wantHead, wantReason = "you found the hidden fleet", fmt.Sprintf("You sank all five ships and outlined the computer's fleet rightly, in %d salvos.", salvos)
	}
	if !strings.Contains(head, wantHead) || !strings.Contains(reason, wantReason) {
		t.Errorf("the end says %q / %q, want %q / %q", head, reason, wantHead, wantReason)
	}
	if n := e2e.Eval[int](ann, `document.querySelectorAll('[data-board="1"] .cell.ship').length`); n != salvo.FleetSquares {
		t.Errorf("the end shows %d squares of the hidden fleet, want %d", n, salvo.FleetSquares)
	}
	ann.FitsWidth("the end of Salvo practice")
	ann.Accessible("the end of Salvo practice (dark theme)")
	ann.Labelled("the end of Salvo practice")
	ann.ShotView("salvo-practice-over")
	t.Logf("Salvo practice: %d salvos, outline right: %v", salvos, right)
}
