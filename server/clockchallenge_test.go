package server

import (
	"context"
	"strings"
	"testing"

	"parlour/game"
	"parlour/server/social"
	"parlour/server/table"
)

// TestChallengeClockKinds: a challenge takes a clock of any kind, as its
// object or as players write it ("3+2"), which the table made on its
// acceptance keeps; an impossible one is refused
// with a 400 naming what is wrong, and no challenge is made.
func TestChallengeClockKinds(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	ann, bob := signUp(t, sf.srv.URL, "Ann"), signUp(t, sf.srv.URL, "Bob")
	for _, tc := range []struct{ body, says string }{
		{`{"to": "bob", "game": "nymphabet", "rules": {"clock": {"kind": "fischer", "initial": 0}}}`, "initial (seconds for the whole game): 0 is out of range"},
		{`{"to": "bob", "game": "nymphabet", "rules": {"clock": {"kind": "correspondence", "days": -2}}}`, "days a move): -2 is out of range"},
		{`{"to": "bob", "game": "nymphabet", "rules": {"clock": {"kind": "hourglass", "minutes": 3}}}`, `is no kind of clock`},
		{`{"to": "bob", "game": "nymphabet", "rules": {"clock": "0+3"}}`, `0+3\": a fischer clock's initial (seconds for the whole game): 0 is out of range`},
		{`{"to": "bob", "game": "nymphabet", "rules": {"clock": "3+"}}`, `minutes and seconds a move (\"5+3\"), days a move`},
	} {
		if st, got := ann.do("POST", "/api/v1/challenges", tc.body, nil); st != 400 || !strings.Contains(got, tc.says) {
			t.Errorf("%s: %d %s, want 400 saying %q", tc.body, st, got, tc.says)
		}
	}
	if l := listOf(t, bob); len(l.In) != 0 {
		t.Fatalf("refused challenges reached Bob: %+v", l)
	}
	for _, tc := range []struct {
		clock string
		want  game.Clock
	}{
		{`{"kind": "fischer", "initial": 300, "increment": 3}`, game.Clock{Kind: game.ClockFischer, Initial: 300, Increment: 3}},
		{`{"kind": "correspondence", "days": 2}`, game.Clock{Kind: game.ClockCorrespondence, Days: 2}},
		{`{"kind": "turn", "seconds": 45}`, game.Clock{Kind: game.ClockTurn, Seconds: 45}},
		{`"3+2"`, game.Clock{Kind: game.ClockFischer, Initial: 180, Increment: 2}},
		{`"7d"`, game.Clock{Kind: game.ClockCorrespondence, Days: 7}},
	} {
		var ch social.Challenge
		if st, body := ann.do("POST", "/api/v1/challenges", `{"to": "bob", "game": "nymphabet", "rules": {"clock": `+tc.clock+`}}`, &ch); st != 201 {
			t.Fatalf("challenge with clock %s: %d %s", tc.clock, st, body)
		}
		var seated table.Seated
		if st, body := bob.do("POST", "/api/v1/challenges/"+ch.ID+"/accept", nil, &seated); st != 201 {
			t.Fatalf("accept: %d %s", st, body)
		}
		v, err := sf.s.View(context.Background(), nil, seated.Table)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := game.ClockOf(v.Table.Rules); !ok || got != tc.want {
			t.Errorf("challenge with clock %s: the table's clock is %#v", tc.clock, got)
		}
		if c := v.Table.Clock; c == nil || c.Kind != tc.want.Kind && !(tc.want.Kind == game.ClockTurn && c.Kind == "") {
			t.Errorf("challenge with clock %s: the table shows %+v", tc.clock, c)
		}
	}
}
