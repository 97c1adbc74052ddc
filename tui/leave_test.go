package tui

import (
	"context"
	"errors"
	"strings"
	"testing"

	"parlour/tui/client"
)

// TestLeaveBeforeTheGame: ctrl+x once says what a second press does, any
// other key takes it back, and a second press leaves: Ann is home, the
// table is gone from her recent games and her seat is open for Ben to
// see. Ben, the last person seated, then closes the table by leaving.
func TestLeaveBeforeTheGame(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("quizl", 3) // a friend
	tm.key("enter")
	tm.waitFor("the invite", has("Invite a friend: "+ts.URL+"/t/", "Make your grid"))
	id := tm.table().id
	ctx := context.Background()
	bc, _ := client.New(ts.URL, "Ben")
	seat, err := bc.Join(ctx, "", id)
	if err != nil {
		t.Fatal(err)
	}
	tm.waitFor("Ben seated", func(string) bool { return tm.table().upd != nil && tm.table().upd.Table.Seats[1].Kind == "person" })

	tm.key("ctrl+x")
	tm.waitFor("what a second press does", has("ctrl+x again leaves this table: your seat opens for somebody else"))
	checkFits(t, tm)
	tm.key("tab") // across/down in the grid: not a second press
	tm.key("ctrl+x")
	// The leave itself is answered later: what the key did shows at once
	// in the message line.
	if tm.m.note != "ctrl+x again leaves this table: your seat opens for somebody else" {
		t.Fatalf("ctrl+x, another key, ctrl+x: the message is %q, want the first press's", tm.m.note)
	}
	tm.key("ctrl+x")
	tm.waitFor("home, the leave said", has("you left table "+id))
	if tm.table() != nil {
		t.Fatal("still at the table")
	}
	for _, r := range tm.m.recent {
		if r.Table == id {
			t.Errorf("the table Ann left is among her recent games: %+v", r)
		}
	}
	u, err := bc.Get(ctx, seat.Token, id)
	if err != nil {
		t.Fatal(err)
	}
	if s := u.Table.Seats[0]; s.Kind != "open" || u.Table.Status != "open" {
		t.Fatalf("Ann's seat after she left: %+v, status %s", s, u.Table.Status)
	}
	l, err := bc.Leave(ctx, seat.Token, id)
	if err != nil || !l.Cancelled || l.Seat != 1 {
		t.Fatalf("Ben leaves: %+v, %v", l, err)
	}
	var refused *client.Error
	if _, err := bc.Get(ctx, seat.Token, id); !errors.As(err, &refused) || refused.Status != 410 {
		t.Fatalf("the table after the last left: %v, want 410", err)
	}
}

// TestLeaveOnceBegun: ctrl+x during a game leaves nothing and says how a
// seat is given up then.
func TestLeaveOnceBegun(t *testing.T) {
	ts := newTestServer(t)
	tm, _ := twoPlayerQuizl(t, ts)
	tm.key("ctrl+x")
	s := tm.waitFor("the refusal", has("the game has begun: :resign gives up your seat"))
	if tm.table() == nil || !strings.Contains(s, "your turn") {
		t.Fatalf("ctrl+x in play left the table:\n%s", s)
	}
}
