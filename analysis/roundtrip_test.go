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
			// The server's mark of a move it played comes back too.
			a.Forfeits = []Forfeit{{Index: a.Moves, Why: ForfeitTimeout}}
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

// TestRenamed: an analysis renamed for a record whose seats go by new
// names names them so everywhere, the grids in Quizl's notes too.
func TestRenamed(t *testing.T) {
	t.Parallel()
	a := analyse(t, readRecord(t, "quizl.json"))
	a.Forfeits = []Forfeit{{Index: a.Moves, Why: ForfeitClaim}}
	raw, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	if same, changed, err := Renamed(raw, a.Players); err != nil || changed || string(same) != string(raw) {
		t.Fatalf("renamed to the names it has: changed %v, %v", changed, err)
	}
	got, changed, err := Renamed(raw, []string{"deleted player", a.Players[1]})
	if err != nil || !changed {
		t.Fatalf("renamed: changed %v, %v", changed, err)
	}
	if strings.Contains(string(got), a.Players[0]) {
		t.Errorf("%q is still in the renamed analysis", a.Players[0])
	}
	var back Analysis
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Forfeits) != 1 || back.Forfeits[0] != a.Forfeits[0] {
		t.Errorf("the renamed analysis's forfeits: %+v, want %+v", back.Forfeits, a.Forfeits)
	}
	boards := 0
	for _, m := range back.Quizl.Moves {
		for _, bd := range m.Boards {
			if bd.Against == 0 {
				boards++
				if bd.Name != "deleted player" {
					t.Errorf("move %d names the grid %q", m.Index, bd.Name)
				}
			}
		}
	}
	if back.Players[0] != "deleted player" || boards == 0 {
		t.Errorf("players %v, %d notes on the renamed seat's grid", back.Players, boards)
	}
}
