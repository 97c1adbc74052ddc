package games

import (
	"strings"
	"testing"

	"parlour/lexicon"
)

// TestHelpersHouseList: helpers given a house word list judge words by it
// when a request or a record names it, and still know the embedded
// lexicons; the package's helpers, which have none, refuse its name.
func TestHelpersHouseList(t *testing.T) {
	t.Parallel()
	club, err := lexicon.Parse("club", strings.NewReader("abide\nzebra\n"))
	if err != nil {
		t.Fatal(err)
	}
	h := Helpers{Reg: Registry(), House: []*lexicon.Lexicon{club}}
	// Ann's ABIDE is on the list; Ben's EFFIGY, a word of en, is not.
	rec := `{"parlour":1,"game":"nymphabet","players":["Ann","Ben"],"lexicon":"club","moves":[{"by":"Ann","move":"abide"},{"by":"Ben","move":"effigy"}]}`
	ans, err := h.Replay([]byte(rec))
	if err != nil || len(ans.Steps) != 1 || !strings.Contains(ans.Refused, "EFFIGY") {
		t.Errorf("the replay on the house list: %+v, %v; want one step, then EFFIGY refused", ans, err)
	}
	if _, err := Replay(Registry(), []byte(rec)); err == nil || !strings.Contains(err.Error(), `"club", which this server does not hold`) {
		t.Errorf("the replay without the house list: %v", err)
	}
	for _, name := range []string{"club", "en-common", ""} {
		if _, err := h.RandomSetup([]byte(`{"game": "salvo", "lexicon": "` + name + `", "seed": 3}`)); err != nil {
			t.Errorf("a random setup on %q: %v", name, err)
		}
	}
	if _, err := h.RandomSetup([]byte(`{"game": "salvo", "lexicon": "pub"}`)); err == nil || !strings.Contains(err.Error(), "en-large, club") {
		t.Errorf("a random setup on a list nobody holds: %v", err)
	}
	if _, err := Preview([]byte(`{"lexicon": "club", "grid": ["...."], "word": "cat", "placement": "A1 across"}`)); err == nil || !strings.Contains(err.Error(), `no lexicon "club"`) {
		t.Errorf("the package's preview on the house list: %v", err)
	}
}
