package accounts

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"parlour/web/e2e"
)

// TestRatedFormHoldsDefaults: on the new-table form, a rated game holds
// the options it may not change (the games list's rated_options) and the
// word list at their defaults, disabled and saying why, rather than send
// a table the server refuses; unticked, what was chosen comes back. The
// challenge form holds them alike. The rated table made plays the
// defaults.
func TestRatedFormHoldsDefaults(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.SignUp("Ann", "correct horse battery")
	ann.Open("/new/wordfight")
	ann.Wait("the new table form", `!!document.querySelector("#rated") && !!document.querySelector("#opt-width") && document.querySelectorAll("#lexicon option").length > 1`)
	ann.Click(`button[data-mode="friend"]`)
	ann.TypeIn("#opt-width", "10")
	ann.Pick("#lexicon", "en-large")
	held := `(() => { const w = document.querySelector("#opt-width"), l = document.querySelector("#lexicon"), c = document.querySelector("#opt-strike_limit");
		return [w.value, w.disabled, l.value, l.disabled, !!w.closest(".field").querySelector(".rated-held"), c ? c.disabled : null, (w.getAttribute("aria-describedby") || "").includes("opt-width-rated")].join(","); })()`
	// A shape drawn on the board of 10 columns.
	ann.Click("#opt-shape-draw summary")
	ann.Click(`#opt-shape-draw [data-sq="A1"]`)
	drawn := `(() => { const s = document.querySelector("#opt-shape"), cells = [...document.querySelectorAll("#opt-shape-draw [data-sq]")];
		return [s.value.split("/")[0], s.disabled, cells.length, cells.filter(c => c.getAttribute("aria-selected") === "true").map(c => c.dataset.sq).join(" "), cells.every(c => c.disabled)].join(","); })()`
	ann.Wait("the shape drawn", drawn+` === "#.........,false,200,A1,false"`)
	ann.Click("#rated")
	ann.Accessible("the new-table form, rated")
	if got := e2e.Eval[string](ann, drawn); got != ",true,400,,true" {
		t.Errorf("rated: the shape and its drawing read %q, not held at none on the board of 20 by 20", got)
	}
	if got := e2e.Eval[string](ann, held); got != "20,true,en,true,true,true,true" {
		t.Errorf("rated: the width, the word list and the strike limit read %q, not held at their defaults", got)
	}
	ann.Click("#rated")
	if got := e2e.Eval[string](ann, held); got != "10,false,en-large,false,false,false,false" {
		t.Errorf("unrated again: %q, not what was chosen", got)
	}
	if got := e2e.Eval[string](ann, drawn); got != "#.........,false,200,A1,false" {
		t.Errorf("unrated again: the shape and its drawing read %q, not what was drawn", got)
	}
	ann.Click("#rated")
	ann.Click("form button[type=submit]")
	ann.Wait("the table", `location.pathname.startsWith("/t/")`)
	id := strings.TrimPrefix(e2e.Eval[string](ann, `location.pathname`), "/t/")
	resp, err := http.Get(base + "/api/v1/tables/" + id)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v struct {
		Table struct {
			Rated   bool           `json:"rated"`
			Lexicon string         `json:"lexicon"`
			Rules   map[string]any `json:"rules"`
		} `json:"table"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		t.Fatal(err)
	}
	if !v.Table.Rated || v.Table.Rules["width"] != float64(20) || v.Table.Lexicon != "" && v.Table.Lexicon != "en" {
		t.Errorf("the table made: %+v", v.Table)
	}

	// The challenge form, from the lobby: Word Fight, rated.
	ann.Open("/lobby")
	ann.Wait("the lobby", `[...document.querySelectorAll("button.challenge-open")].length > 0`)
	ann.Click("button.challenge-open")
	ann.Wait("the challenge form", `!!document.querySelector("#challenge-form")`)
	ann.Pick("#challenge-game", "wordfight")
	ann.Wait("Word Fight's options", `!!document.querySelector("#challenge-form #opt-width") && document.querySelectorAll("#challenge-lexicon option").length > 1`)
	// The board's shape is drawn there too.
	ann.Wait("the shape's drawing", `document.querySelectorAll("#challenge-form #opt-shape-draw [data-sq]").length === 400`)
	ann.TypeIn("#challenge-form #opt-width", "12")
	ann.Pick("#challenge-lexicon", "en-common")
	ann.Click("#challenge-rated")
	if got := e2e.Eval[string](ann, `[document.querySelector("#challenge-form #opt-width").value, document.querySelector("#challenge-form #opt-width").disabled, document.querySelector("#challenge-lexicon").value].join(",")`); got != "20,true,en" {
		t.Errorf("the rated challenge's width and word list read %q", got)
	}

	// The form that makes an event: Salvo, rated.
	ann.Open("/tournaments")
	ann.Wait("the event form", `document.querySelectorAll("#t-game option").length > 1`)
	ann.Pick("#t-game", "salvo")
	ann.Wait("Salvo's options", `!!document.querySelector("#t-create-form #opt-placement")`)
	ann.Pick("#t-create-form #opt-placement", "free")
	ann.Click("#t-rated")
	if got := e2e.Eval[string](ann, `[document.querySelector("#t-create-form #opt-placement").value, document.querySelector("#t-create-form #opt-placement").disabled].join(",")`); got != "strict,true" {
		t.Errorf("the rated event's placement reads %q", got)
	}
}
