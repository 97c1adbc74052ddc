package salvo

import (
	"strings"
	"testing"

	"parlour/game"
)

// TestDailyTally sinks a practice fleet and outlines it: the tally counts
// the salvos, the right outline, and pictures the squares fired at.
func TestDailyTally(t *testing.T) {
	f, _ := ParseFleet(fleetB)
	st, err := NewPractice(game.Defaults(Game{}.Options()), f)
	if err != nil {
		t.Fatal(err)
	}
	todo := squaresOf(fleetB...)
	salvos := 0
	for len(todo) > 0 {
		n := min(st.SeatView(0).Shots, len(todo))
		apply(t, st, 0, "fire "+strings.Join(todo[:n], " "))
		todo = todo[n:]
		salvos++
	}
	apply(t, st, 0, "outline "+strings.Join(fleetB, " "))
	got := st.DailyTally()
	if !got.Solved || got.Moves != salvos || got.Wrong != 0 || strings.Count(got.Marks, "#") != len(squaresOf(fleetB...)) || strings.Count(got.Marks, "/") != Size-1 {
		t.Errorf("tally %+v after %d salvos", got, salvos)
	}
	for _, sq := range squaresOf(fleetB...) {
		s, _ := ParseSquare(sq)
		if row := strings.Split(got.Marks, "/")[s.Row()]; row[s.Col()] != '#' {
			t.Errorf("%s is not marked in %s", sq, got.Marks)
		}
	}
}
