package bot

import (
	"encoding/json"
	"strings"
	"testing"

	"parlour/game"
	"parlour/games/quizl"
	"parlour/lexicon"
)

// TestTripAnnounceableAt checks that a trip's announceable_at names the
// mover's first move whose strong suggestion is to announce the password
// it tripped over, so that the note and the suggestions above it agree.
func TestTripAnnounceableAt(t *testing.T) {
	t.Parallel()
	// The grid of the record spec's example: PSALM down column 4.
	grid := json.RawMessage(`{"grid":["TQUFP","WZVES","OGBRA","CHINL","KYXDM"],"password":"PSALM"}`)
	tests := []struct {
		name    string
		players []string
		moves   []string // played in turn by the players
		trip    int      // the 1-based index of the tripping call
		want    int      // its announceable_at
	}{
		{"solitaire down the column", []string{"Ann"}, []string{"54", "64", "74", "84", "94"}, 5, 5},
		{"solitaire from the bottom", []string{"Ann"}, []string{"94", "84", "74", "64", "54"}, 5, 5},
		{"a call after the last chance", []string{"Ann"}, []string{"64", "74", "84", "94", "60", "54"}, 6, 5},
		{"two players", []string{"Ann", "Ben"}, []string{"50", "54", "51", "64", "52", "74", "53", "84", "60", "94", "say psalm"}, 10, 10},
	}
	lex := lexicon.Default()
	reg := game.NewRegistry(quizl.Game{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rec := &game.Record{Parlour: 1, Game: "quizl", Players: tt.players, Setup: map[string]json.RawMessage{}}
			for _, p := range tt.players {
				rec.Setup[p] = grid
			}
			for i, m := range tt.moves {
				rec.Moves = append(rec.Moves, game.Move{By: tt.players[i%len(tt.players)], Move: m})
			}
			cfg, _, turns, err := game.Turns(reg, rec, lex)
			if err != nil {
				t.Fatal(err)
			}
			a, err := Analyse(t.Context(), cfg, turns)
			if err != nil {
				t.Fatal(err)
			}
			trip := a.Moves[tt.trip-1]
			if len(trip.Trips) != 1 || trip.Trips[0].Password != "PSALM" {
				t.Fatalf("move %d: trips %+v, want one over PSALM", tt.trip, trip.Trips)
			}
			first := 0 // the mover's first move whose strong choice says PSALM
			for _, m := range a.Moves[:tt.trip] {
				if m.Seat == trip.Seat && strings.EqualFold(m.Strong, "say PSALM") {
					first = m.Index
					break
				}
			}
			tn := trip.Trips[0]
			if tn.AnnounceableAt != first || tn.AnnounceableAt != tt.want {
				t.Errorf("announceable_at %d (%.2f), want %d, the first strong announcement %d", tn.AnnounceableAt, tn.Probability, tt.want, first)
			}
			if tn.AnnounceableAt > 0 && tn.Probability <= 0 {
				t.Errorf("announceable_at %d with probability %v", tn.AnnounceableAt, tn.Probability)
			}
		})
	}
}
