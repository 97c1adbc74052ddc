package wordfight

import (
	"testing"

	"parlour/game"
)

// TestForfeit: a seat that runs out of time answers a waiting word with
// "cannot" and resigns when it was to declare; the move is one Apply
// takes.
func TestForfeit(t *testing.T) {
	s := newPlay(t, 3, nil)
	if got := game.ForfeitMove(s, 0); got != "resign" {
		t.Errorf("declarer: %q, want resign", got)
	}
	play(t, s, "0:declare cart", "1:place A1 across")
	for seat, want := range []string{"cannot", "resign", "cannot"} {
		if got := game.ForfeitMove(s, game.Seat(seat)); got != want {
			t.Errorf("seat %d: %q, want %q", seat, got, want)
		}
	}
	if _, err := s.Apply(2, game.ForfeitMove(s, 2)); err != nil {
		t.Fatalf("the forfeit is refused: %v", err)
	}
}
