package games

import (
	"fmt"
	"strings"
	"testing"

	"parlour/lexicon"
	"parlour/web/e2e"
)

// TestNymphabetComputer plays Nymphabet against the computer: the
// computer's words arrive through the same socket as a person's, and the
// game runs to its end.
func TestNymphabetComputer(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.CreateTable("nymphabet", "The computer")
	ann.Wait("the computer's seat", `document.querySelector("#players").textContent.includes("Computer (medium)")`)
	byFirst := map[byte][]string{}
	for _, w := range lexicon.Default().OfLength(5) {
		byFirst[w[0]] = append(byFirst[w[0]], w)
	}
	for words := 0; ; {
		ann.Wait("my turn or the end", `!!document.querySelector("#game-over") || document.querySelector("#turn").dataset.mine === "1"`)
		if e2e.Eval[bool](ann, `!!document.querySelector("#game-over")`) {
			break
		}
		cur := e2e.Eval[string](ann, `document.querySelector(".alphabet .cur").textContent`)
		list := byFirst[strings.ToLower(cur)[0]]
		if len(list) == 0 {
			t.Fatalf("no five-letter word begins with %s", cur)
		}
		w := list[words%len(list)]
		n := e2e.Eval[int](ann, `document.querySelectorAll(".nwords li").length`)
		ann.TypeIn("#n-word", w)
		ann.Click("#n-controls button[type=submit]")
		ann.Wait("my word", fmt.Sprintf(`document.querySelectorAll(".nwords li").length > %d`, n))
		words++
		if words > 30 {
			t.Fatal("the game does not end")
		}
	}
	if got := ann.Text("#game-over h2"); !strings.Contains(got, "you won") && !strings.Contains(got, "won") {
		t.Errorf("the end: %q", got)
	}
	if n := e2e.Eval[int](ann, `document.querySelectorAll(".alphabet span.gone").length`); n != 26 {
		t.Errorf("%d letters struck through at the end, want 26", n)
	}
}
