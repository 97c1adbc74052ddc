package analysis

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTextOfJSON: the text of an analysis read back from its JSON, as the
// server keeps it, is the text of the analysis itself.
func TestTextOfJSON(t *testing.T) {
	for _, g := range []string{"nymphabet", "quizl", "salvo", "wordfight"} {
		t.Run(g, func(t *testing.T) {
			a := analyse(t, readRecord(t, g+".json"))
			var want, got strings.Builder
			if err := a.WriteText(&want); err != nil {
				t.Fatal(err)
			}
			raw, err := json.Marshal(a)
			if err != nil {
				t.Fatal(err)
			}
			var back Analysis
			if err := json.Unmarshal(raw, &back); err != nil {
				t.Fatal(err)
			}
			if err := back.WriteText(&got); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("the text read back from JSON differs:\n%s\nwant\n%s", got.String(), want.String())
			}
		})
	}
}
