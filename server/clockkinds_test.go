package server_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"parlour/game"
	"parlour/games"
	"parlour/lexicon"
	"parlour/server/internal/servertest"
)

// timesLeft answers each seat's time left as the table shows it (-1 for
// none), and whether each has a deadline.
func timesLeft(u clockUpdate) ([]float64, []bool) {
	left, running := make([]float64, len(u.Table.Seats)), make([]bool, len(u.Table.Seats))
	for i, s := range u.Table.Seats {
		left[i] = -1
		if s.TimeLeft != nil {
			left[i] = *s.TimeLeft
		}
		running[i] = s.Deadline != nil
	}
	return left, running
}

// TestFischerClockWithoutIncrement: a Fischer clock of no increment
// ("1+0") says its increment is 0, as the table's clock promises for
// every Fischer clock, where it left the field out.
func TestFischerClockWithoutIncrement(t *testing.T) {
	t.Parallel()
	e := newClockEnv(t)
	id, _ := e.table("nymphabet", 2, map[string]any{"clock": "1+0"})
	st, b := e.call("GET", "/api/v1/tables/"+id, "", nil)
	var u struct {
		Table struct {
			Clock map[string]any `json:"clock"`
		} `json:"table"`
	}
	if err := json.Unmarshal(b, &u); st != 200 || err != nil {
		t.Fatalf("the table: %d %s", st, b)
	}
	if c := u.Table.Clock; c["kind"] != "fischer" || c["initial"] != 60.0 || c["increment"] != 0.0 {
		t.Errorf("the table's clock: %v; want a Fischer clock of 60 s and an increment of 0", c)
	}
}

// TestFischerClock: a Fischer clock charges each seat the time its turns
// take and adds the increment for each move; the times left follow from
// the stored start and moves, so a server restarted mid-game shows the
// same times and runs out the same seat at the same moment, as an
// ordinary resign after a "timeout" event.
func TestFischerClock(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		e := newClockEnvOn(t, k)
		id, toks := e.table("nymphabet", 2, map[string]any{"clock": map[string]any{"kind": "fischer", "initial": 60, "increment": 5}})
		check := func(when string, wantLeft []float64, wantRunning []bool) {
			t.Helper()
			u := e.view(id, "")
			c := u.Table.Clock
			if c == nil || c.Kind != "fischer" || c.Initial != 60 || c.Increment != 5 || c.Turn != 0 {
				t.Fatalf("%s: the clock as the table shows it: %+v", when, c)
			}
			left, running := timesLeft(u)
			if !slicesEqual(left, wantLeft) || !slicesEqual(running, wantRunning) {
				t.Errorf("%s: times left %v running %v; want %v %v", when, left, running, wantLeft, wantRunning)
			}
			for i, s := range u.Table.Seats {
				if s.Deadline != nil && !s.Deadline.Equal(c.Now.Add(time.Duration(*s.TimeLeft*float64(time.Second)))) {
					t.Errorf("%s: seat %d's deadline %v is not %v s after %v", when, i, s.Deadline, *s.TimeLeft, c.Now)
				}
			}
		}
		check("at the start", []float64{60, 60}, []bool{true, false})
		e.clock.Advance(10 * time.Second)
		e.play(id, toks, "0:abdicated") // Ann: 60 - 10 + 5
		check("after Ann's first word", []float64{55, 60}, []bool{false, true})
		e.clock.Advance(20 * time.Second)
		e.play(id, toks, "1:eight") // Ben: 60 - 20 + 5
		e.clock.Advance(30 * time.Second)
		e.play(id, toks, "0:fig") // Ann: 55 - 30 + 5
		check("after three words", []float64{30, 45}, []bool{false, true})
		e.clock.Advance(7 * time.Second)
		before := e.view(id, "")
		e.stop()
		e.start()
		after := e.view(id, "")
		if l0, r0 := timesLeft(before); true {
			l1, r1 := timesLeft(after)
			if !slicesEqual(l0, l1) || !slicesEqual(r0, r1) || !after.Table.Seats[1].Deadline.Equal(*before.Table.Seats[1].Deadline) {
				t.Errorf("the times left before the restart %v %v, after %v %v", l0, r0, l1, r1)
			}
		}
		check("after the restart", []float64{30, 38}, []bool{false, true})
		e.clock.Advance(37 * time.Second)
		if n := len(e.record(id, toks[0]).Moves); n != 3 {
			t.Fatalf("%d moves a second before Ben's time runs out", n)
		}
		e.clock.Advance(time.Second)
		rec := e.record(id, toks[0])
		if len(rec.Moves) != 4 || rec.Moves[3].By != "Ben" || rec.Moves[3].Move != "resign" {
			t.Fatalf("Ben's time ran out, yet the record has %+v", rec.Moves)
		}
		if got, _ := json.Marshal(rec.Rules); string(got) != `{"clock":{"kind":"fischer","initial":60,"increment":5}}` {
			t.Errorf("the record's rules: %s", got)
		}
		if _, st, _, err := game.Replay(games.Registry(), rec, lexicon.Default()); err != nil || st.Result().Status != game.Finished {
			t.Errorf("the record with a Fischer clock does not replay: %v", err)
		}
		u := e.movesSince(id, toks[0], e.view(id, "").Version-1)
		if len(u.Moves) != 1 || u.Moves[0].Events[0].Kind != "timeout" || !strings.Contains(u.Moves[0].Events[0].Text, "Ben ran out of time (1+5)") {
			t.Fatalf("the timeout's event: %+v", u.Moves)
		}
		if d, _ := json.Marshal(u.Moves[0].Events[0].Data); !bytes.Contains(d, []byte(`"kind":"fischer"`)) || !bytes.Contains(d, []byte(`"clock":60`)) {
			t.Errorf("the timeout's data: %s", d)
		}
	})
}

func slicesEqual[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestFischerClockEverySeatToAnswer: in Word Fight each seat still to
// answer a word runs its own time; one who answers stops its own, gains
// the increment, and the others run on.
func TestFischerClockEverySeatToAnswer(t *testing.T) {
	t.Parallel()
	e := newClockEnv(t)
	id, toks := e.table("wordfight", 3, map[string]any{"clock": map[string]any{"kind": "fischer", "initial": 100, "increment": 2}})
	e.clock.Advance(10 * time.Second)
	e.play(id, toks, "0:declare cart") // Ann: 100 - 10 + 2
	e.clock.Advance(5 * time.Second)
	e.play(id, toks, "1:place B2 across") // Ben: 100 - 5 + 2, his turn began with the word
	// Ann has 100 - 10 + 2 for her own answer, 5 s of them gone; Cat 5 s
	// gone.
	left, running := timesLeft(e.view(id, ""))
	if want := []float64{87, 97, 95}; !slicesEqual(left, want) || !slicesEqual(running, []bool{true, false, true}) {
		t.Fatalf("after Ben's answer: times left %v running %v, want %v with Ann and Cat running", left, running, want)
	}
	e.clock.Advance(20 * time.Second)
	e.play(id, toks, "2:place B2 across") // Cat: 100 - 25 + 2
	left, _ = timesLeft(e.view(id, ""))
	if want := []float64{67, 97, 77}; !slicesEqual(left, want) {
		t.Fatalf("after Cat's answer: times left %v, want %v", left, want)
	}
	// Ann's time runs out while she has not answered her own word: the
	// server says she cannot.
	e.clock.Advance(66 * time.Second)
	if n := len(e.record(id, toks[1]).Moves); n != 3 {
		t.Fatalf("%d moves a second before Ann's time runs out", n)
	}
	e.clock.Advance(time.Second)
	rec := e.record(id, toks[0])
	if last := rec.Moves[len(rec.Moves)-1]; last.By != "Ann" || last.Move != "cannot" {
		t.Fatalf("Ann's time ran out, yet the record ends %+v", rec.Moves)
	}
}

// TestFischerClockOfASeatOut: a player out of a game that goes on (Cat
// resigns a Word Fight of three) shows no clock from then on, where a
// Fischer clock shows every seat's time while the game lasts: hers would
// never run again.
func TestFischerClockOfASeatOut(t *testing.T) {
	t.Parallel()
	e := newClockEnv(t)
	id, toks := e.table("wordfight", 3, map[string]any{"clock": map[string]any{"kind": "fischer", "initial": 100, "increment": 2}})
	e.clock.Advance(10 * time.Second)
	// Every player moves first: a resignation before would abort.
	e.play(id, toks, "0:declare cart", "1:place B2 across", "2:place B2 across", "0:place B2 across")
	left, _ := timesLeft(e.view(id, ""))
	if left[2] < 0 {
		t.Fatalf("Cat's clock is not shown while she plays: %v", left)
	}
	e.play(id, toks, "2:resign")
	left, running := timesLeft(e.view(id, ""))
	if left[2] != -1 || running[2] {
		t.Errorf("Cat resigned, yet her clock shows: times left %v, running %v", left, running)
	}
	if left[0] < 0 || left[1] < 0 {
		t.Errorf("the clocks of the players still in went: %v", left)
	}
}

// TestCorrespondenceClock: a correspondence clock gives each move its
// days, shown as an absolute deadline in UTC; a restart moves it on by
// the time the server was down, as every clock stands still then; when
// it passes, the server plays for the seat.
func TestCorrespondenceClock(t *testing.T) {
	t.Parallel()
	e := newClockEnv(t)
	id, toks := e.table("nymphabet", 2, map[string]any{"clock": map[string]any{"kind": "correspondence", "days": 2}})
	e.clock.Advance(time.Hour)
	e.play(id, toks, "0:abdicated")
	u := e.view(id, "")
	c := u.Table.Clock
	if c == nil || c.Kind != "correspondence" || c.Days != 2 || c.Turn != 2*86400 {
		t.Fatalf("the clock as the table shows it: %+v", c)
	}
	want := e.clock.Now().Add(48 * time.Hour).UTC()
	if d := u.Table.Seats[1].Deadline; d == nil || !d.Equal(want) || d.Location() != time.UTC || u.Table.Seats[0].Deadline != nil {
		t.Fatalf("Ben's deadline %v, want %v; Ann's %v", d, want, u.Table.Seats[0].Deadline)
	}
	e.stop()
	e.clock.Advance(47 * time.Hour)
	e.start()
	want = want.Add(47 * time.Hour)
	if d := e.view(id, "").Table.Seats[1].Deadline; d == nil || !d.Equal(want) {
		t.Fatalf("Ben's deadline after a restart: %v, want %v", d, want)
	}
	e.clock.Advance(48*time.Hour - time.Second)
	if rec := e.record(id, toks[0]); rec.Aborted != nil {
		t.Fatalf("Ben's game aborted a second before his deadline: %+v", rec.Aborted)
	}
	e.clock.Advance(time.Second)
	rec := e.record(id, toks[0])
	if len(rec.Moves) != 1 || rec.Aborted == nil || rec.Aborted.By != "Ben" {
		t.Fatalf("Ben's two days passed before his first word: moves %+v, aborted %+v", rec.Moves, rec.Aborted)
	}
}

// TestClockImpossible: an impossible clock, as a table's or a
// challenge's, is refused with a 400 naming what is wrong, and makes
// nothing.
func TestClockImpossible(t *testing.T) {
	t.Parallel()
	e := newClockEnv(t)
	for _, tc := range []struct {
		clock any
		want  string
	}{
		{map[string]any{"kind": "fischer", "initial": 0, "increment": 3}, "a fischer clock's initial (seconds for the whole game): 0 is out of range 10-86400"},
		{map[string]any{"kind": "fischer", "initial": 300, "increment": -3}, "increment (seconds added for each move): -3 is out of range"},
		{map[string]any{"kind": "fischer", "initial": 1e15}, "out of range"},
		{map[string]any{"kind": "correspondence", "days": 0}, "days a move): 0 is out of range 1-14"},
		{map[string]any{"kind": "correspondence", "days": 365}, "out of range 1-14"},
		{map[string]any{"kind": "sudden death", "initial": 60}, `"sudden death" is no kind of clock`},
		{map[string]any{"kind": "fischer", "initial": 60, "seconds": 60}, `a fischer clock has no "seconds"`},
		{map[string]any{"initial": 60}, `a clock object needs a "kind"`},
		{[]int{5, 3}, "rule option clock"},
	} {
		st, b := e.call("POST", "/api/v1/tables", "", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "rules": map[string]any{"clock": tc.clock}})
		var refusal struct{ Error string }
		json.Unmarshal(b, &refusal)
		if st != 400 || !strings.HasPrefix(refusal.Error, "rule option clock") || !strings.Contains(refusal.Error, tc.want) {
			t.Errorf("clock %v: %d %s; want 400 saying %q", tc.clock, st, b, tc.want)
		}
	}
	if l, err := e.svc.Lobby(t.Context(), "open", 10); err != nil || len(l) != 0 {
		t.Errorf("refused tables in the lobby: %v %v", l, err)
	}
}
