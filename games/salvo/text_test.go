package salvo

import (
	"encoding/json"
	"strings"
	"testing"

	"parlour/game"
)

func TestViewString(t *testing.T) {
	f, err := ParseFleet([]string{"B2-B6", "D2-G2", "I4-I6", "D8-E8", "G9-G10"})
	if err != nil {
		t.Fatal(err)
	}
	v := View{
		Seat:        game.Spectator,
		Placement:   "strict",
		ShotsLostBy: "sinker",
		Players:     []Player{{Name: "Ann", Shots: 5}, {Name: "Ben", Shots: 5, ShipsLost: 0}},
		Fleets:      []Fleet{f, f},
		Salvos:      []Salvo{{By: 0, At: 1, Number: 1, Squares: []Square{1*Size + 1, 0}, Report: Report{Hits: Tally{1, 0, 0, 0}}}},
	}
	got := v.String()
	for _, want := range []string{
		"Ann's ocean", "Ben's ocean",
		"  1 * . . . . . . . . .", // Ann's salvo missed A1 in Ben's ocean
		"  2 . b . C C C C . . .", // and hit the battleship on B2
		"  2 . B . C C C C . . .", // Ann's own ocean is untouched
		"Ann #1 at Ben: B2 A1: one in the battleship",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("String() lacks %q:\n%s", want, got)
		}
	}
}

// TestPracticeViewString: at the end of practice the one player has no
// fleet of their own: only the computer's ocean is drawn, not the hidden
// fleet a second time under the player's name.
func TestPracticeViewString(t *testing.T) {
	t.Parallel()
	cfg := game.Config{Players: []string{"Tess"}, Rules: game.Rules{OptPlacement: PlacementStrict, OptShotsLostBy: LostBySinker}}
	s, err := NewState(cfg, []json.RawMessage{json.RawMessage(`{"fleet":["B2-B6","D2-G2","I4-I6","D8-E8","G9-G10"]}`)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(0, "resign"); err != nil {
		t.Fatal(err)
	}
	for _, seat := range []game.Seat{0, game.Spectator} {
		got := s.View(seat).(View).String()
		if strings.Contains(got, "Tess's ocean") || !strings.Contains(got, FleetOwner+"'s ocean") {
			t.Errorf("seat %d: the end of practice draws the oceans\n%s", seat, got)
		}
	}
}
