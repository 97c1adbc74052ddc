package e2e

import (
	"fmt"
	"strings"
	"testing"

	"parlour/lexicon"
)

// TestNymphabetComputer plays Nymphabet against the computer: the
// computer's words arrive through the same socket as a person's, and the
// game runs to its end.
func TestNymphabetComputer(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", base)
	ann.createTable("nymphabet", "The computer")
	ann.wait("the computer's seat", `document.querySelector("#players").textContent.includes("Computer (medium)")`)
	byFirst := map[byte][]string{}
	for _, w := range lexicon.Default().OfLength(5) {
		byFirst[w[0]] = append(byFirst[w[0]], w)
	}
	for words := 0; ; {
		ann.wait("my turn or the end", `!!document.querySelector("#game-over") || document.querySelector("#turn").dataset.mine === "1"`)
		if eval[bool](ann, `!!document.querySelector("#game-over")`) {
			break
		}
		cur := eval[string](ann, `document.querySelector(".alphabet .cur").textContent`)
		list := byFirst[strings.ToLower(cur)[0]]
		if len(list) == 0 {
			t.Fatalf("no five-letter word begins with %s", cur)
		}
		w := list[words%len(list)]
		n := eval[int](ann, `document.querySelectorAll(".nwords li").length`)
		ann.typeIn("#n-word", w)
		ann.click("#n-controls button[type=submit]")
		ann.wait("my word", fmt.Sprintf(`document.querySelectorAll(".nwords li").length > %d`, n))
		words++
		if words > 30 {
			t.Fatal("the game does not end")
		}
	}
	if got := ann.text("#game-over h2"); !strings.Contains(got, "you won") && !strings.Contains(got, "won") {
		t.Errorf("the end: %q", got)
	}
	if n := eval[int](ann, `document.querySelectorAll(".alphabet span.gone").length`); n != 26 {
		t.Errorf("%d letters struck through at the end, want 26", n)
	}
}
