package tui

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"parlour/tui/client"
)

func TestRulesWords(t *testing.T) {
	t.Parallel()
	n := func(i int) *int { return &i }
	fight := &client.Game{Name: "wordfight", Options: []client.Option{
		{Name: "width", Label: "Board width", Kind: "int", Default: 20.0, Min: n(5), Max: n(30)},
		{Name: "height", Label: "Board height", Kind: "int", Default: 20.0, Min: n(5), Max: n(30)},
		{Name: "shape", Label: "Board shape", Kind: "text", Default: ""},
		{Name: "multiply", Label: "Be Fruitful and Multiply", Kind: "bool", Default: true},
		{Name: "strikes_per", Label: "Strikes per", Kind: "choice", Default: "word", Choices: []string{"word", "player"}},
		{Name: "strike_limit", Label: "Strike limit", Kind: "int", Default: 3.0, Min: n(1), Max: n(10)},
	}}
	salvo := &client.Game{Name: "salvo", Options: []client.Option{
		{Name: "placement", Label: "Ship placement", Kind: "choice", Default: "strict", Choices: []string{"strict", "free"}},
		{Name: "shots_lost_by", Label: "Shots lost by", Kind: "choice", Default: "sinker", Choices: []string{"sinker", "owner"}},
	}}
	for _, tc := range []struct {
		name  string
		game  *client.Game
		rules string
		want  []string
	}{
		{"none", fight, `{}`, nil},
		{"every rule at its default", fight, `{"width": 20, "height": 20, "shape": "", "multiply": true, "strikes_per": "word", "strike_limit": 3, "clock": 0}`, nil},
		{"a number", fight, `{"strike_limit": 1}`, []string{"Strike limit: 1"}},
		{"a switch off", fight, `{"multiply": false}`, []string{"Be Fruitful and Multiply: off"}},
		{"one side of the board", fight, `{"width": 9, "height": 20}`, []string{"Board: 9 x 20"}},
		{"the other side, the first at its default", fight, `{"height": 12}`, []string{"Board: 20 x 12"}},
		{"a shape", fight, `{"shape": "#..../...../...../...../....#"}`, []string{"Board shape: 2 unusable squares"}},
		{"a choice, with its underscore", salvo, `{"shots_lost_by": "owner", "placement": "free"}`, []string{"Ship placement: free", "Shots lost by: owner"}},
		{"seconds a turn", salvo, `{"clock": 60}`, []string{"Clock: 1 minute a turn"}},
		{"a turn clock object", salvo, `{"clock": {"kind": "turn", "seconds": 45}}`, []string{"Clock: 45 seconds a turn"}},
		{"a game clock", salvo, `{"clock": {"kind": "fischer", "initial": 300, "increment": 3}}`, []string{"Clock: 5+3"}},
		{"a game clock of odd seconds", salvo, `{"clock": {"kind": "fischer", "initial": 90, "increment": 0}}`, []string{"Clock: 1:30+0"}},
		{"a day a move", salvo, `{"clock": {"kind": "correspondence", "days": 1}}`, []string{"Clock: 1 day a move"}},
		{"days a move, beside a rule", salvo, `{"clock": {"kind": "correspondence", "days": 3}, "placement": "free"}`, []string{"Clock: 3 days a move", "Ship placement: free"}},
		{"a clock it cannot read", salvo, `{"clock": {"kind": "hourglass"}}`, nil},
		{"an option the game does not list", salvo, `{"fog_of_war": true}`, []string{"Fog of war: on"}},
		{"a game the client does not know", nil, `{"set_target": 50}`, []string{"Set target: 50"}},
		{"one side of an unknown game's board", nil, `{"height": 12}`, []string{"Height: 12"}},
		{"both sides of an unknown game's board", nil, `{"height": 12, "width": 9}`, []string{"Board: 9 x 12"}},
		{"a value of no kind it says", salvo, `{"placement": ["free"]}`, nil},
		{"names no server gives a rule", nil, `{": ": 0, "Fog": 1, "fog of war": 2, "_x": 3, "": 4, "éclat": 5, "ok_2": 6}`, []string{"Ok 2: 6"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var rules map[string]json.RawMessage
			if err := json.Unmarshal([]byte(tc.rules), &rules); err != nil {
				t.Fatal(err)
			}
			if got := rulesWords(tc.game, rules); !slices.Equal(got, tc.want) {
				t.Errorf("rulesWords(%s) = %q, want %q", tc.rules, got, tc.want)
			}
		})
	}
}

// FuzzRulesWords: whatever rules a server sends, rulesWords says each
// as "Label: value", with no empty phrase, and never panics.
func FuzzRulesWords(f *testing.F) {
	for _, s := range []string{`{}`, `{"strike_limit": 1, "clock": {"kind": "fischer", "initial": 90, "increment": 2}}`, `{"width": 9}`, `{"shape": "#./.."}`, `{"clock": -5}`, `{"x": null}`} {
		f.Add(s)
	}
	n := func(i int) *int { return &i }
	g := &client.Game{Name: "wordfight", Options: []client.Option{
		{Name: "width", Label: "Board width", Kind: "int", Default: 20.0, Min: n(5), Max: n(30)},
		{Name: "shape", Label: "Board shape", Kind: "text", Default: ""},
		{Name: "strikes_per", Label: "Strikes per", Kind: "choice", Default: "word", Choices: []string{"word", "player"}},
	}}
	f.Fuzz(func(t *testing.T, s string) {
		var rules map[string]json.RawMessage
		if json.Unmarshal([]byte(s), &rules) != nil {
			return
		}
		for _, game := range []*client.Game{g, nil} {
			for _, w := range rulesWords(game, rules) {
				label, value, ok := strings.Cut(w, ": ")
				if !ok || label == "" || value == "" {
					t.Fatalf("rulesWords(%s) said %q", s, w)
				}
			}
		}
	})
}
