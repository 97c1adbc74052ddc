package salvo

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestProblems checks that a fleet's refusal names every problem, and that
// a fleet with ships still to place is checked as far as it goes.
func TestProblems(t *testing.T) {
	strict := Placement{Strict: true}
	for _, tc := range []struct {
		name  string
		p     Placement
		ships []string
		want  []string // the refusal's parts, in order; none when legal
	}{
		{"legal", strict, fleetA, nil},
		{"one problem", strict, []string{"A2-A6", "D2-G2", "I4-I6", "D8-E8", "G9-G10"},
			[]string{"the battleship A2-A6 has 5 squares on the edge of the ocean: at most one square of a ship may lie on row 1, row 10, column A or column J"}},
		{"three problems", strict, []string{"A2-A6", "D2-G2", "D3-F3", "D8-E8", "J9-J10"}, []string{
			"the battleship A2-A6 has 5 squares on the edge of the ocean: at most one square of a ship may lie on row 1, row 10, column A or column J",
			"the second submarine J9-J10 has 2 squares on the edge of the ocean: at most one square of a ship may lie on row 1, row 10, column A or column J",
			"the destroyer D3-F3 touches the cruiser D2-G2 on more than one square",
		}},
		{"overlap and touch", strict, []string{"B2-B6", "B3-E3", "C4-C6", "D8-E8", "G9-G10"}, []string{
			"the cruiser B3-E3 overlaps the battleship B2-B6 on B3",
			"the destroyer C4-C6 touches the battleship B2-B6 on more than one square",
		}},
		{"free overlaps only", Placement{}, []string{"A2-A6", "A3-D3", "I4-I6", "D8-E8", "E8-E9"}, []string{
			"the cruiser A3-D3 overlaps the battleship A2-A6 on A3",
			"the second submarine E8-E9 overlaps the first submarine D8-E8 on E8",
		}},
		{"nothing placed", strict, []string{"", "", "", "", ""},
			[]string{"still to place: the battleship, the cruiser, the destroyer, the first submarine and the second submarine"}},
		{"placed so far legal", strict, []string{"B2-B6", "", "I4-I6", "", ""},
			[]string{"still to place: the cruiser, the first submarine and the second submarine"}},
		{"placed so far wrong", strict, []string{"A1-E1", "B2-E2", "", "", ""}, []string{
			"the battleship A1-E1 has 5 squares on the edge of the ocean: at most one square of a ship may lie on row 1, row 10, column A or column J",
			"the cruiser B2-E2 touches the battleship A1-E1 on more than one square",
			"still to place: the destroyer, the first submarine and the second submarine",
		}},
		{"last one missing", strict, []string{"B2-B6", "D2-G2", "I4-I6", "D8-E8", " "},
			[]string{"still to place: the second submarine"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseSetup(setupJSON(tc.ships), tc.p)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("accepted")
			}
			if got := strings.Split(err.Error(), "; "); !slices.Equal(got, tc.want) {
				t.Errorf("refusal\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
	f, _ := ParseFleet([]string{"A2-A6", "D2-G2", "D3-F3", "D8-E8", "J9-J10"})
	got := strict.Problems(f, [FleetSize]bool{true, true, true, true, true})
	var ships [][]int
	for _, p := range got {
		ships = append(ships, p.Ships)
	}
	if want := [][]int{{0}, {4}, {1, 2}}; !reflect.DeepEqual(ships, want) {
		t.Errorf("the problems concern ships %v, want %v", ships, want)
	}
	if err := strict.Check(f); err == nil || err.Error() != got[0].Text {
		t.Errorf("Check says %v, want the first problem %q", err, got[0].Text)
	}
	if _, err := ParseSetup(setupJSON([]string{"B2-B6", "", "K1-K3", "", ""}), strict); err == nil || !strings.Contains(err.Error(), "the destroyer: ") {
		t.Errorf("a ship off the ocean in a partial fleet: %v", err)
	}
	// A fleet with a ship still to place is never a setup.
	if _, err := (Game{}).CheckSetup(config(t, nil, "Ann", "Ben"), 0, setupJSON([]string{"B2-B6", "D2-G2", "I4-I6", "D8-E8", ""})); err == nil {
		t.Error("a fleet of four ships and a gap was accepted as a setup")
	}
}
