package keyboard

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"parlour/web/e2e"
)

// repeated lists the names that occur more than once in names.
func repeated(names []string) []string {
	var out []string
	for i, n := range names {
		if slices.Index(names, n) < i && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// TestAccessibleNames reads names from Chromium's accessibility tree,
// which is what a screen reader is given: the brand's badge letter is
// drawn, not read ("P Parlour"); Salvo's two submarines are told apart
// in the ship picker and in the outline's boxes, where a screen reader
// heard "submarine (2)" twice; and the outline's pointer at the ship the
// ocean's clicks outline is drawn, not read as "left-pointing triangle".
func TestAccessibleNames(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)

	ann.Open("/")
	ann.Wait("the header", `!!document.querySelector("a.brand")`)
	if got := ann.AXNames("a.brand"); len(got) != 1 || got[0] != "Parlour" {
		t.Errorf("the brand link is read %q, want \"Parlour\"", got)
	}

	ann.CreateTable("salvo", "A friend")
	ben.Join(ann.InviteLink())
	const radios = `[aria-label="Ship to place"] [role=radio]`
	ann.Wait("the ships to place", `document.querySelectorAll('`+radios+`').length === 5`)
	ships := ann.AXNames(radios)
	if r := repeated(ships); len(r) > 0 {
		t.Errorf("the ship picker reads %q: %q more than once", ships, r)
	}
	if want := []string{"submarine 1 (2)", "submarine 2 (2)"}; !slices.Equal(ships[3:], want) {
		t.Errorf("the ship picker's submarines read %q, want %q", ships[3:], want)
	}
	// A placed ship's tick is read as the word, not as "check mark".
	ann.Click("#s-random")
	ann.Wait("the fleet placed", `[...document.querySelectorAll('`+radios+`')].every(b => b.textContent.includes("✓"))`)
	if got := ann.AXNames(radios); len(got) != 5 || got[0] != "battleship (5), placed" {
		t.Errorf("the ship picker of a placed fleet reads %q, want \"battleship (5), placed\" first", got)
	}

	salvoToOutline(t, ann, ben)
	boxes := ann.AXNames("#s-outline input")
	if len(boxes) != 5 {
		t.Fatalf("the outline has %d boxes: %q", len(boxes), boxes)
	}
	if r := repeated(boxes); len(r) > 0 {
		t.Errorf("the outline's boxes read %q: %q more than once", boxes, r)
	}
	for _, n := range boxes {
		if strings.ContainsAny(n, "◀▶") {
			t.Errorf("the outline's box is read %q: the pointer's glyph is read aloud", n)
		}
	}
	// The pointer is still drawn, beside the ship the ocean outlines,
	// and follows the focus to the second submarine's box.
	pointer := `(l => getComputedStyle(l, "::after").content)(document.querySelector('label[for="s-ol-%d"]'))`
	ann.Do("go to the second submarine's box", chromedp.Focus(chromedp.CSS("#s-ol-4")))
	ann.Wait("the pointer at the second submarine", fmt.Sprintf(pointer, 4)+`.includes("◀")`)
	if got := e2e.Eval[string](ann, fmt.Sprintf(pointer, 0)); strings.Contains(got, "◀") {
		t.Errorf("the battleship's label still shows the pointer (%s) with the focus on the second submarine", got)
	}
}
