package table

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"parlour/game"
)

// TestPack: packing a table's parts into one allocation changes none of
// what they say, and what is changed through the table afterwards is
// changed where the table reads it.
func TestPack(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name  string
		seats int
		set   bool
	}{
		{"one seat", 1, false},
		{"two seats with a set", 2, true},
		{"three seats, too many to pack", 3, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tb := &table{}
			for i := range c.seats {
				tb.m.Seats = append(tb.m.Seats, seatMeta{
					Name: string(rune('A' + i)), Identity: "id" + string(rune('a'+i)), Player: "guest",
					Setup: json.RawMessage(`{"grid":["ABCDE"]}`), Salt: []byte("0123456789abcdef"),
				})
			}
			if c.set {
				tb.m.Set = game.NewSet(c.seats, 50)
				tb.m.Set.Totals[0] = 7
			}
			tb.cfg.Players = tb.players()
			tb.here.size(c.seats, now)
			tb.here.seats[0].open = 2
			want := tb.m.clone()
			wantPlayers := append([]string(nil), tb.cfg.Players...)
			wantHere := append([]presence(nil), tb.here.seats...)

			tb.pack()
			if !reflect.DeepEqual(tb.m, want) {
				t.Errorf("description after pack = %+v, want %+v", tb.m, want)
			}
			if !reflect.DeepEqual(tb.cfg.Players, wantPlayers) {
				t.Errorf("players after pack = %q, want %q", tb.cfg.Players, wantPlayers)
			}
			if !reflect.DeepEqual(tb.here.seats, wantHere) {
				t.Errorf("attendance after pack = %+v, want %+v", tb.here.seats, wantHere)
			}
			// The setups and salts share one allocation, each capped so
			// that growing one cannot write over the next.
			for i, s := range tb.m.Seats {
				if cap(s.Setup) != len(s.Setup) || cap(s.Salt) != len(s.Salt) {
					t.Errorf("seat %d: setup and salt have room beyond their ends", i)
				}
			}
			last := c.seats - 1
			tb.arrive(game.Seat(last), now)
			if got, want := tb.here.seats[last].open, wantHere[last].open+1; got != want {
				t.Errorf("a connection counted after pack: %d open, want %d", got, want)
			}
			if c.set {
				if over, _ := tb.m.Set.Add(make([]int, c.seats)); over || tb.m.Set.Games != 1 {
					t.Errorf("a game added to the packed set: over %v, %d games", over, tb.m.Set.Games)
				}
			}
		})
	}
}
