package table

import (
	"bytes"
	"context"
	"regexp"
	"testing"
	"time"

	"parlour/game"
	"parlour/server/auth"
)

// socketEnvelope is the WebSocket's envelope (socket.UpdateHead and
// UpdateTail), which the table's tests cannot import.
var socketEnvelope = Envelope{Head: `{"type":"update","update":`, Tail: "}"}

// envelopes are the envelopes an update is tested in: none, and the
// socket's.
var envelopes = []Envelope{{}, socketEnvelope}

// TestUpdateMessageBytes checks that the shared encoding of an update
// (its table information encoded once, spliced in) is byte for byte what
// encoding the whole update gives, in each envelope, for each seat, a
// spectator, with and without moves, before and after the end. An update asked for with a
// tail past the view's log carries the view whole too, whether the state
// appends its tails itself (tailguess) or its views do (guess).
func TestUpdateMessageBytes(t *testing.T) {
	t.Parallel()
	for _, g := range []string{"guess", "tailguess"} {
		t.Run(g, func(t *testing.T) { testUpdateMessageBytes(t, g) })
	}
}

func testUpdateMessageBytes(t *testing.T, gameName string) {
	// claimIn matches a seat's claim_in, which depends on the moment of
	// encoding.
	claimIn := regexp.MustCompile(`,"claim_in":[0-9.e+-]+`)
	f := newFixture(t)
	ctx := context.Background()
	a, err := f.s.Create(ctx, nil, CreateRequest{Game: gameName, Seats: []string{"me", "open"}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := f.s.Join(ctx, nil, a.Table, JoinRequest{})
	if err != nil {
		t.Fatal(err)
	}
	ps := []*auth.Principal{f.principal(a.Token), f.principal(b.Token)}
	for _, p := range ps {
		if _, err := f.s.Setup(ctx, p, a.Table, SetupRequest{Setup: []byte(`{"number": 50}`)}); err != nil {
			t.Fatal(err)
		}
	}
	tb, err := f.s.table(ctx, a.Table)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string) {
		t.Helper()
		tb.mu.Lock()
		defer tb.mu.Unlock()
		v := tb.version()
		for _, seat := range []game.Seat{0, 1, -1} {
			for _, since := range []int{-1, v - 2, v - 1, v} {
				u, err := tb.update(f.s.games, seat, since)
				if err != nil {
					t.Fatal(err)
				}
				for _, env := range envelopes {
					want, _ := encodeUpdate(u, env)
					for _, tail := range []int{-1, 1000} { // none; past the log
						enc, _, err := tb.updateMessage(f.s.games, env, seat, since, tail, time.Now())
						if err != nil {
							t.Fatal(err)
						}
						got, err := enc()
						// The seconds to a claim are those at the moment
						// of encoding.
						got, want := claimIn.ReplaceAll(got, nil), claimIn.ReplaceAll(want, nil)
						if err != nil || !bytes.Equal(got, want) {
							t.Fatalf("%s, seat %d since %d tail %d: %v\n got %s\nwant %s", what, seat, since, tail, err, got, want)
						}
					}
				}
			}
		}
	}
	check("at the start")
	res, err := f.s.Move(ctx, ps[0], a.Table, MoveRequest{Move: "guess 10"})
	if err != nil {
		t.Fatal(err)
	}
	check("after a move")
	if _, err := f.s.Move(ctx, ps[res.ToMove[0]], a.Table, MoveRequest{Move: "guess 50"}); err != nil {
		t.Fatal(err)
	}
	check("at the end")
}
