package salvo

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"parlour/game"
)

// solo starts practice at a one-seat table against fleetB, as a daily
// puzzle is played.
func solo(t *testing.T) *State {
	t.Helper()
	st, err := Game{}.New(config(t, nil, "Ann"), []json.RawMessage{setupJSON(fleetB)})
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

// sinkFleetB fires at every square of fleetB, as many a salvo as st allows,
// and returns how many salvos it took.
func sinkFleetB(t *testing.T, st *State) int {
	t.Helper()
	salvos := 0
	for todo := squaresOf(fleetB...); len(todo) > 0; salvos++ {
		n := min(st.SeatView(0).Shots, len(todo))
		apply(t, st, 0, "fire "+strings.Join(todo[:n], " "))
		todo = todo[n:]
	}
	return salvos
}

// TestTally plays practice to its end: the tally counts the salvos and
// the wrong outlines, and pictures the squares fired at and no ship.
func TestTally(t *testing.T) {
	t.Parallel()
	wrong := slices.Clone(fleetB)
	wrong[0], wrong[1], wrong[2] = "C4-G4", "B6-B9", "F6-F8"
	for _, tc := range []struct {
		name       string
		start      func(t *testing.T) *State
		end        string // the last move, after every ship is sunk; "" to resign after one salvo
		solved     bool
		wrong      int
		marksFleet bool // every square of the fleet marked
	}{
		{"a one-seat table outlined rightly", solo, "outline " + strings.Join(fleetB, " "), true, 0, true},
		{"a one-seat table outlined wrongly", solo, "outline " + strings.Join(wrong, " "), false, 1, true},
		{"NewPractice outlined rightly", func(t *testing.T) *State {
			f, _ := ParseFleet(fleetB)
			st, err := NewPractice(game.Defaults(Game{}.Options()), f)
			if err != nil {
				t.Fatal(err)
			}
			return st
		}, "outline " + strings.Join(fleetB, " "), true, 0, true},
		{"resigned after a salvo", solo, "", false, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st := tc.start(t)
			salvos := 1
			if tc.end == "" {
				apply(t, st, 0, "fire A1 A2 A3 A4 A5")
				apply(t, st, 0, "resign")
			} else {
				salvos = sinkFleetB(t, st)
				apply(t, st, 0, tc.end)
			}
			got, err := Game{}.Tally(st)
			if err != nil {
				t.Fatal(err)
			}
			if got.Solved != tc.solved || got.Moves != salvos || got.Wrong != tc.wrong || strings.Count(got.Marks, "/") != Size-1 {
				t.Errorf("tally %+v after %d salvos", got, salvos)
			}
			rows := strings.Split(got.Marks, "/")
			for _, sq := range squaresOf(fleetB...) {
				s, _ := ParseSquare(sq)
				if marked := rows[s.Row()][s.Col()] == '#'; marked != tc.marksFleet {
					t.Errorf("%s marked %v in %s", sq, marked, got.Marks)
				}
			}
			if strings.Trim(got.Marks, "#./") != "" {
				t.Errorf("the marks hold more than marks: %q", got.Marks)
			}
			// The trail: a row a salvo, hits first (every shot at fleetB's
			// squares hits; the salvo at A1-A5 misses five times), then
			// a row for the outline.
			want := []string{"....."}
			if tc.end != "" {
				want = want[:0]
				for _, sv := range st.salvos {
					want = append(want, strings.Repeat("#", len(sv.Squares)))
				}
				want = append(want, map[bool]string{true: "+", false: "x"}[tc.solved])
			}
			if got.Trail != strings.Join(want, "/") {
				t.Errorf("trail %q, want %q", got.Trail, strings.Join(want, "/"))
			}
		})
	}
}

// TestTallyRefuses: only a finished practice play of Salvo is tallied.
func TestTallyRefuses(t *testing.T) {
	t.Parallel()
	unfinished := solo(t)
	apply(t, unfinished, 0, "fire A1 A2 A3 A4 A5")
	pair := newState(t, nil, fleetA, fleetB)
	apply(t, pair, 0, "resign")
	for _, tc := range []struct {
		name string
		st   game.State
		want string
	}{
		{"in progress", unfinished, "once it is over"},
		{"of two players", pair, "practice against a hidden fleet; this play seats 2"},
		{"of no play", nil, "no play of Salvo"},
	} {
		if _, err := (Game{}).Tally(tc.st); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

func TestTallyWords(t *testing.T) {
	t.Parallel()
	w := Game{}.TallyWords()
	for _, tc := range []struct {
		moves, wrong int
		want         string
	}{
		{1, 0, "1 salvo, 0 wrong outlines"},
		{7, 1, "7 salvos, 1 wrong outline"},
	} {
		if got := w.Counts(tc.moves, tc.wrong); got != tc.want {
			t.Errorf("Counts(%d, %d) = %q, want %q", tc.moves, tc.wrong, got, tc.want)
		}
	}
}
