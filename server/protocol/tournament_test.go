package protocol

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"parlour/server/refuse"
)

// FuzzDecodeTournamentRequest: an event's body is refused with a 400 (or
// 413) that says something, or decoded to a request whose shape holds: a
// known kind with its own length and not the other's, a game, a compact
// clock that is a number or an object, a start that parsed, seats of 2
// to 4, words within their bounds.
func FuzzDecodeTournamentRequest(f *testing.F) {
	for _, s := range []string{
		`{"kind": "arena", "game": "salvo", "clock": {"kind": "fischer", "initial": 180, "increment": 2}, "minutes": 30}`,
		`{"kind": "swiss", "game": "quizl", "clock": 60, "rounds": 5, "seats": 4, "password": "x", "min_rated_games": 3}`,
		`{"kind": "Arena", "name": " Friday ", "game": "nymphabet", "mode": "cyclic", "rated": true, "clock": 30, "minutes": 60, "starts": "2026-05-01T18:00:00Z"}`,
		`{"kind": "arena", "game": "salvo", "clock": 60, "minutes": 30, "rounds": 3}`, `{"kind": "swiss", "game": "salvo", "clock": 60}`,
		`{"kind": "arena", "game": "salvo", "minutes": 30}`, `{"kind": "arena", "game": "salvo", "clock": "fast", "minutes": 3}`,
		`{"kind": "arena", "game": "salvo", "clock": 60, "minutes": 3, "starts": "tomorrow"}`, `{"kind": "cup"}`,
		`{"kind": "swiss", "game": "salvo", "clock": 60, "rounds": 3, "seats": 9}`, `{"kind": "swiss", "kind": "arena"}`, `{}`, `[]`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		req, err := DecodeTournamentRequest(bytes.NewReader(b), 4096)
		if err != nil {
			if st := refuse.Status(err); st != http.StatusBadRequest && st != http.StatusRequestEntityTooLarge || err.Error() == "" {
				t.Fatalf("error %v has status %d", err, refuse.Status(err))
			}
			return
		}
		switch {
		case req.Kind == "arena" && (req.Minutes < 1 || req.Rounds != 0):
			t.Fatalf("accepted an arena of %d minutes and %d rounds", req.Minutes, req.Rounds)
		case req.Kind == "swiss" && (req.Rounds < 1 || req.Minutes != 0):
			t.Fatalf("accepted a Swiss of %d rounds and %d minutes", req.Rounds, req.Minutes)
		case req.Kind != "arena" && req.Kind != "swiss":
			t.Fatalf("accepted kind %q", req.Kind)
		case strings.TrimSpace(req.Game) == "":
			t.Fatal("accepted an event of no game")
		case req.Seats != 0 && (req.Seats < 2 || req.Seats > 4):
			t.Fatalf("accepted %d seats", req.Seats)
		case req.Starts != "" && req.At.IsZero():
			t.Fatalf("start %q not parsed", req.Starts)
		case len(req.Name) > 4*TournamentNameMax || len(req.Password) > 4*TournamentPasswordMax:
			t.Fatal("accepted words past their bounds")
		}
		var buf bytes.Buffer
		if json.Compact(&buf, req.Clock) != nil || !bytes.Equal(buf.Bytes(), req.Clock) || req.Clock[0] == '"' && !takenClock(req.Clock) || req.Clock[0] == '[' || string(req.Clock) == "null" {
			t.Fatalf("accepted clock %q", req.Clock)
		}
	})
}

// TestDecodeTournamentRequest: each refusal names what is wrong.
func TestDecodeTournamentRequest(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ body, want string }{
		{`{"kind": "cup", "game": "salvo", "clock": 60}`, `"arena" or "swiss"`},
		{`{"game": "salvo", "clock": 60, "minutes": 3}`, `"kind"`},
		{`{"kind": "arena", "game": "salvo", "clock": 60}`, `"minutes"`},
		{`{"kind": "arena", "game": "salvo", "clock": 60, "minutes": 3, "rounds": 2}`, `leave out rounds`},
		{`{"kind": "swiss", "game": "salvo", "clock": 60}`, `"rounds"`},
		{`{"kind": "arena", "clock": 60, "minutes": 3}`, `"game"`},
		{`{"kind": "arena", "game": "salvo", "minutes": 3}`, `need a clock`},
		{`{"kind": "arena", "game": "salvo", "clock": "fast", "minutes": 3}`, `got "fast"`},
		{`{"kind": "arena", "game": "salvo", "clock": "5+", "minutes": 3}`, `minutes and seconds a move ("5+3")`},
		{`{"kind": "arena", "game": "salvo", "clock": true, "minutes": 3}`, `not true`},
		{`{"kind": "arena", "game": "salvo", "clock": 60, "minutes": 3, "starts": "tomorrow"}`, `RFC 3339`},
		{`{"kind": "swiss", "game": "salvo", "clock": 60, "rounds": 3, "seats": 5}`, `not 5`},
		{`{"kind": "swiss", "game": "salvo", "clock": 60, "rounds": 3, "min_rated_games": -1}`, `not -1`},
		{`{"kind": "swiss", "game": "salvo", "clock": 60, "rounds": 3, "min_rated_games": 1001}`, `0 to 1000, not 1001`},
		{`{"kind": "swiss", "game": "salvo", "clock": 60, "rounds": 3, "name": "` + strings.Repeat("a", 61) + `"}`, `61 characters`},
		{`{"kind": "swiss", "game": "salvo", "clock": 60, "rounds": 3, "color": "red"}`, `color`},
	} {
		_, err := DecodeTournamentRequest(strings.NewReader(c.body), 4096)
		if err == nil || refuse.Status(err) != 400 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a 400 saying %s", c.body, err, c.want)
		}
	}
	req, err := DecodeTournamentRequest(strings.NewReader(`{"kind": " Arena", "game": "salvo", "clock": { "kind": "fischer", "initial": 60 }, "minutes": 3, "starts": "2026-05-01T20:00:00+02:00"}`), 4096)
	if err != nil || req.Kind != "arena" || string(req.Clock) != `{"kind":"fischer","initial":60}` || !req.At.Equal(req.At.UTC()) || req.At.Hour() != 18 {
		t.Errorf("a good request: %+v, %v", req, err)
	}
	if j, err := DecodeJoinTournamentRequest(strings.NewReader(""), 100); err != nil || j.Password != "" {
		t.Errorf("an empty join: %+v, %v", j, err)
	}
	if _, err := DecodeJoinTournamentRequest(strings.NewReader(`{"pass": "x"}`), 100); err == nil {
		t.Error("a join with an unknown field was taken")
	}
}

// TestDecodeTournamentRequestText: an event's name and description are
// shown to every player, in lists, streams, the terminal and each game's
// record: what a name or a chat message may not hold they may not hold
// either, and a description keeps its line breaks.
func TestDecodeTournamentRequestText(t *testing.T) {
	t.Parallel()
	const base = `{"kind": "arena", "game": "salvo", "clock": 60, "minutes": 30, `
	for _, c := range []struct {
		name, field, want   string
		wantName, wantAbout string
	}{
		{"a NUL in the name", `"name": "Friday\u0000Salvo"`, "control characters", "", ""},
		{"an escape in the name", `"name": "\u001b[2JFriday"`, "control characters", "", ""},
		{"a line break in the name", `"name": "Friday\nSalvo"`, "", "Friday Salvo", ""},
		{"a direction control in the name", `"name": "Friday \u202eovlaS"`, "direction", "", ""},
		{"an escape in the description", `"description": "Bring a friend\u001b[31m"`, "control characters", "", ""},
		{"an invisible character in the description", `"description": "free\u200bfor all"`, "invisible", "", ""},
		{"lines in the description", `"name": "  Friday   Salvo ", "description": "Bring a friend.\r\nThree rounds,\tthen tea.\n"`, "", "Friday Salvo", "Bring a friend.\nThree rounds, then tea."},
	} {
		req, err := DecodeTournamentRequest(strings.NewReader(base+c.field+`}`), 4096)
		if c.want != "" {
			if err == nil || refuse.Status(err) != 400 || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: %v, want a 400 saying %q", c.name, err, c.want)
			}
			continue
		}
		if err != nil || req.Name != c.wantName || req.Description != c.wantAbout {
			t.Errorf("%s: %q, %q, %v; want %q, %q", c.name, req.Name, req.Description, err, c.wantName, c.wantAbout)
		}
	}
}
