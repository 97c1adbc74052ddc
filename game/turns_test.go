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

// TestTurnsAborts: an aborted record has nothing to analyse, said with
// its aborter's name as the record's players have it; an abort the rules
// refuse (after the game ended, or by a stranger) is a record that does
// not replay, as Replay says, not an aborted game.
func TestTurnsAborts(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		moves   int
		by      string
		refused string // "" for an abort that stands
	}{
		{"before every player moved", 1, "ben", ""},
		{"after the end", 3, "Ben", "the game is over"},
		{"after every player moved", 2, "Ann", "every player has made a move"},
		{"by a stranger", 1, "Cy", `"Cy" is not a player`},
	} {
		rec, err := DecodeBytes([]byte(goodRecord))
		if err != nil {
			t.Fatal(err)
		}
		rec.Moves = rec.Moves[:c.moves]
		rec.Aborted = &Abort{By: c.by}
		_, res, _, err := Turns(testRegistry(), rec, nil)
		var ref *Refusal
		switch {
		case c.refused == "":
			if err == nil || errors.As(err, &ref) || res.Status != Aborted || !strings.Contains(err.Error(), "aborted by Ben") {
				t.Errorf("%s: %v, %+v", c.name, err, res)
			}
		case !errors.As(err, &ref) || !ref.Abort || !strings.Contains(err.Error(), c.refused):
			t.Errorf("%s: %v, want the abort refused: %s", c.name, err, c.refused)
		}
	}
}
