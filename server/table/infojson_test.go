package table

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"parlour/game"
)

// TestInfoAppendJSON holds Info.appendJSON to json.Marshal's
// bytes, from an empty table information to one with every field set,
// and names that need escaping.
func TestInfoAppendJSON(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 26, 10, 30, 0, 123456000, time.UTC)
	left := 12.5
	spectators, rating := 3, 1623.4
	full := Info{
		ID: "t1", Game: "quizl", Title: "Quizl", Status: "finished",
		Rules: game.Rules{"clock": 60, "award": 10, "name": "<&>"}, Lexicon: "english", Private: true, Code: "ABC123",
		Seats: []SeatInfo{
			{Seat: 0, Name: "Zoë <b>", Kind: "person", Ready: true, Deadline: &at, TimeLeft: &left},
			{Seat: 1, Name: "Ben\u2028\"x\"", Kind: "computer", Level: "strong", AwaySince: &at, Out: true},
			{Seat: 2, Kind: "open"},
		},
		ToMove:      []game.Seat{1, 2},
		Abortable:   true,
		Commitments: []string{"ab", "cd"},
		Reveal:      []Reveal{{Seat: 0, Salt: "00", Setup: json.RawMessage(`{"a": 1}`), Commitment: "ab"}},
		Result:      &game.Result{Status: game.Aborted, Winners: []game.Seat{}},
		Aborted:     &AbortInfo{Seat: 1, Name: "Ben\u2028\"x\"", Why: AbortResign},
		Set:         &game.Set{Target: 3, Games: 2, Totals: []int{1, 2}, Over: true, Winners: []int{1}},
		Prev:        "t0", Rematch: "t2", Created: at,
		Solitaire: &SolitaireInfo{Maker: "strong", Random: true},
		Daily:     "quizl/2026-11-26", DayOver: true, Event: &game.Tournament{ID: "e1", Name: "Cup", Round: 2}, SetupBy: &at, Paired: true, Rated: true, Pool: "quizl", Clock: &ClockInfo{Turn: 60, Now: at},
		Spectators: &spectators, Rating: &rating,
	}
	fischer, corr := full, full
	fischer.Rules = game.Rules{"clock": game.Clock{Kind: game.ClockFischer, Initial: 300, Increment: 3}}
	three, zero := 3, 0
	fischer.Clock = &ClockInfo{Now: at, Kind: game.ClockFischer, Initial: 300, Increment: &three}
	fischer.Seats = []SeatInfo{{Seat: 0, Name: "Ann", Kind: "person", Deadline: &at, TimeLeft: &left}, {Seat: 1, Name: "Ben", Kind: "person", TimeLeft: &left}}
	corr.Rules = game.Rules{"clock": game.Clock{Kind: game.ClockCorrespondence, Days: 2}}
	corr.Clock = &ClockInfo{Turn: 172800, Now: at, Kind: game.ClockCorrespondence, Days: 2}
	bare := fischer
	bare.Clock = &ClockInfo{Now: at, Kind: game.ClockFischer, Initial: 10, Increment: &zero} // "10+0"
	none := 0
	for _, in := range []Info{{}, {ID: "t", Seats: []SeatInfo{}, ToMove: []game.Seat{}}, {ID: "w", Spectators: &none}, full, fischer, corr, bare} {
		rules, err := json.Marshal(in.Rules)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := in.appendJSON([]byte("x"), rules)
		if err != nil || !bytes.Equal(got[1:], want) {
			t.Errorf("%v\n got %s\nwant %s", err, got, want)
		}
		if in.Clock != nil && in.Clock.Kind == game.ClockFischer && !bytes.Contains(got, []byte(`"increment":`)) {
			t.Errorf("a Fischer clock without its increment: %s", got)
		}
	}
}
