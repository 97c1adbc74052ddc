package game

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// abortRecord is goodRecord cut to moves and given an abort by by.
func abortRecord(t *testing.T, moves int, by string) *Record {
	t.Helper()
	rec, err := DecodeBytes([]byte(goodRecord))
	if err != nil {
		t.Fatal(err)
	}
	rec.Moves = rec.Moves[:moves]
	rec.Aborted = &Abort{By: by}
	return rec
}

func TestReplayAborted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		moves int
		by    string
	}{
		{"before any move", 0, "Ann"},
		{"by the player who has not moved", 1, "Ben"},
		{"by the player who has moved", 1, "ann"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := abortRecord(t, tc.moves, tc.by)
			cfg, st, steps, err := Replay(testRegistry(), rec, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(steps) != tc.moves {
				t.Fatalf("%d steps, want %d", len(steps), tc.moves)
			}
			res := st.Result()
			if res.Status != Aborted || len(res.Winners) != 0 || res.Scores != nil || !res.Status.Over() {
				t.Fatalf("result = %+v, want aborted without winners or scores", res)
			}
			if by, ok := AbortedBy(st); !ok || !strings.EqualFold(cfg.Name(by), tc.by) {
				t.Fatalf("AbortedBy = %d, %v", by, ok)
			}
			if tm := st.ToMove(); len(tm) != 0 {
				t.Fatalf("to move after the abort: %v", tm)
			}
			if _, err := st.Apply(1, "1"); !errors.Is(err, ErrNotYourTurn) {
				t.Fatalf("a move after the abort: %v", err)
			}
		})
	}
}

func TestReplayRefusesLateAbort(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		moves int
		by    string
		want  string
	}{
		{"after every player moved", 2, "Ann", "can no longer be aborted"},
		{"after the end", 3, "Ben", "the game is over"},
		{"by nobody at the table", 0, "Cy", `"Cy" is not a player`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := abortRecord(t, tc.moves, tc.by)
			_, _, steps, err := Replay(testRegistry(), rec, nil)
			var ref *Refusal
			if !errors.As(err, &ref) {
				t.Fatalf("err = %v, want a refusal", err)
			}
			if !ref.Abort || ref.Move != tc.moves+1 || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "abort by ") {
				t.Fatalf("refusal = %+v (%v), want the abort after move %d refused: %s", ref, err, tc.moves, tc.want)
			}
			if len(steps) != tc.moves {
				t.Fatalf("%d steps accepted, want %d", len(steps), tc.moves)
			}
		})
	}
}

func TestAbortedRoundTrip(t *testing.T) {
	t.Parallel()
	in := `{"parlour": 1, "game": "nim", "rules": {}, "players": ["Ann", "Ben"],
	  "setup": {"Ann": {"lucky": 3}, "Ben": {"lucky": 4}},
	  "moves": [{"by": "Ann", "move": "2"}],
	  "aborted": {"by": "Ben", "at": "2026-11-21T10:00:00Z"}}`
	rec, err := DecodeBytes([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Aborted == nil || rec.Aborted.By != "Ben" || rec.Aborted.At == nil || rec.Aborted.At.Hour() != 10 {
		t.Fatalf("aborted = %+v", rec.Aborted)
	}
	var buf bytes.Buffer
	if err := rec.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(buf.Bytes(), &fields); err != nil {
		t.Fatal(err)
	}
	if string(fields["aborted"]) == "" || !strings.Contains(string(fields["moves"]), `"2"`) {
		t.Fatalf("encoded record lost the abort or the moves:\n%s", buf.String())
	}
	again, err := DecodeBytes(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if *again.Aborted.At != *rec.Aborted.At || again.Aborted.By != "Ben" {
		t.Fatalf("round trip changed the abort: %+v", again.Aborted)
	}
	// A record that was never aborted says nothing of it.
	plain, _ := DecodeBytes([]byte(goodRecord))
	buf.Reset()
	plain.Encode(&buf)
	if strings.Contains(buf.String(), "aborted") {
		t.Fatalf("a plain record mentions an abort:\n%s", buf.String())
	}
}

func TestAbortable(t *testing.T) {
	t.Parallel()
	two := Config{Players: []string{"Ann", "Ben"}}
	three := Config{Players: []string{"Ann", "Ben", "Cy"}}
	one := Config{Players: []string{"Ann"}}
	nine := Config{Players: []string{"A", "B", "C", "D", "E", "F", "G", "H", "I"}}
	mv := func(by ...string) []Move {
		var out []Move
		for _, b := range by {
			out = append(out, Move{By: b, Move: "1"})
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		cfg   Config
		moves []Move
		want  bool
	}{
		{"no moves", two, nil, true},
		{"one player moved twice", two, mv("Ann", "Ann"), true},
		{"both moved", two, mv("Ann", "BEN"), false},
		{"two of three moved", three, mv("Ann", "Ben", "Ann"), true},
		{"all three moved", three, mv("Cy", "Ben", "Ann"), false},
		{"one seat", one, nil, false},
		{"eight of nine moved", nine, mv("A", "B", "C", "D", "E", "F", "G", "H"), true},
		{"all nine moved", nine, mv("I", "A", "B", "C", "D", "E", "F", "G", "H"), false},
	} {
		if got := Abortable(tc.cfg, tc.moves); got != tc.want {
			t.Errorf("%s: Abortable = %v, want %v", tc.name, got, tc.want)
		}
		// The same moves told by seat.
		seats := make([]Seat, len(tc.moves))
		for i, m := range tc.moves {
			seats[i], _ = tc.cfg.SeatOf(m.By)
		}
		mover := func(i int) Seat { return seats[i] }
		if got := AbortableBy(len(tc.cfg.Players), len(seats), mover); got != tc.want {
			t.Errorf("%s: AbortableBy = %v, want %v", tc.name, got, tc.want)
		}
	}
	if err := AbortRefusal(one, nil, Result{Status: InProgress}); err == nil || !strings.Contains(err.Error(), "resign") {
		t.Errorf("one seat: %v", err)
	}
	if err := AbortRefusal(two, nil, Result{Status: Finished}); err == nil {
		t.Error("a finished game may be aborted")
	}
}

// TestAbortableByAllocs: a table asks on every move, and up to eight
// players the answer takes no allocation (not parallel: AllocsPerRun).
func TestAbortableByAllocs(t *testing.T) {
	seats := []Seat{0, 0, 1, 2, 1, 3}
	mover := func(i int) Seat { return seats[i] }
	for _, n := range []int{2, 4, 8} {
		if got := testing.AllocsPerRun(10, func() { AbortableBy(n, len(seats), mover) }); got != 0 {
			t.Errorf("%d players: AbortableBy took %v allocations, want none", n, got)
		}
	}
}

func TestRecordForAborted(t *testing.T) {
	t.Parallel()
	rec := abortRecord(t, 1, "Ben")
	cfg, st, _, err := Replay(testRegistry(), rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.For(nim{}, cfg, st.Result(), Spectator); len(got.Setup) != 2 || got.Aborted == nil {
		t.Fatalf("an aborted game's record is not whole: %+v", got)
	}
}

// TestTurnsRefusesAborted: an aborted game has nothing to analyse, and
// says why rather than that it is still in progress.
func TestTurnsRefusesAborted(t *testing.T) {
	t.Parallel()
	_, res, _, err := Turns(testRegistry(), abortRecord(t, 1, "Ben"), nil)
	if err == nil || errors.Is(err, ErrInProgress) || !strings.Contains(err.Error(), "aborted by Ben") || res.Status != Aborted {
		t.Fatalf("Turns of an aborted record: %+v, %v", res, err)
	}
}
