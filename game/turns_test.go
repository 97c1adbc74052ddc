package game

import (
	"errors"
	"strings"
	"testing"
)

func TestTurns(t *testing.T) {
	rec, err := DecodeBytes([]byte(goodRecord))
	if err != nil {
		t.Fatal(err)
	}
	cfg, res, turns, err := Turns(testRegistry(), rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Finished || len(turns) != 3 || len(cfg.Players) != 2 {
		t.Fatalf("result %+v, %d turns", res, len(turns))
	}
	// The pile of 5 loses 2, 2 and 1: each turn sees it before and after.
	want := [][2]int{{5, 3}, {3, 1}, {1, 0}}
	for i, tu := range turns {
		if tu.Index != i+1 || tu.Before != want[i][0] || tu.After != want[i][1] || len(tu.Events) != 1 {
			t.Errorf("turn %d: %+v", i+1, tu)
		}
	}
	if turns[1].By != "Ben" || turns[1].Seat != 1 || turns[1].Move != "2" {
		t.Errorf("Ben's turn: %+v", turns[1])
	}

	rec.Moves = rec.Moves[:2]
	if _, _, _, err := Turns(testRegistry(), rec, nil); !errors.Is(err, ErrInProgress) || !strings.Contains(err.Error(), "after 2 moves") {
		t.Errorf("unfinished game: %v", err)
	}
	rec.Moves[1].Move = "9"
	var ref *Refusal
	if _, _, _, err := Turns(testRegistry(), rec, nil); !errors.As(err, &ref) || ref.Move != 2 {
		t.Errorf("refused move: %v", err)
	}
}
