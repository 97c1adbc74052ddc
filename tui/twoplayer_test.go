package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"parlour/tui/client"
)

// apiPlayer is a player at the same table through the HTTP API alone.
type apiPlayer struct {
	c        *client.Client
	token    string
	id       string
	password string
	next     int
}

// twoPlayerQuizl seats a terminal player (Ann, who opens the table for a
// friend) and an API player (Ben, who joins by the table's id) at a Quizl
// table, both setups in, play started.
func twoPlayerQuizl(t testing.TB, ts *testServer) (*term, *apiPlayer) {
	t.Helper()
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("quizl", 3) // a friend
	if s := tm.screen(); !strings.Contains(s, "a friend") {
		t.Fatalf("the form does not offer a friend:\n%s", s)
	}
	tm.key("enter")
	tm.waitFor("the invite", has("Invite a friend: "+ts.URL+"/t/", "Make your grid"))
	checkFits(t, tm)
	ctx := context.Background()
	bc, _ := client.New(ts.URL, "Ben")
	seat, err := bc.Join(ctx, "", client.TableID(ts.URL+"/t/"+tm.table().id))
	if err != nil {
		t.Fatal(err)
	}
	a, err := bc.Setup(ctx, seat.Token, seat.Table, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	var setup struct{ Password string }
	json.Unmarshal(a.Setup, &setup)
	ben := &apiPlayer{c: bc, token: seat.Token, id: seat.Table, password: setup.Password}
	tm.key("ctrl+r")
	tm.waitFor("a random grid, checked", has("✓ the referee accepts"))
	tm.key("enter")
	tm.waitFor("play", has("▶ your turn", "Tracking Ben"))
	return tm, ben
}

// call makes Ben call his next square.
func (b *apiPlayer) call(t testing.TB) string {
	t.Helper()
	sq := fmt.Sprintf("%d%d", b.next/5+5, b.next%5)
	b.next++
	if _, err := b.c.Move(context.Background(), b.token, b.id, sq, 0, false); err != nil {
		t.Fatalf("Ben calling %s: %v", sq, err)
	}
	return sq
}

func TestQuizlTerminalAgainstAnAPIPlayer(t *testing.T) {
	ts := newTestServer(t)
	tm, ben := twoPlayerQuizl(t, ts)
	var lat []time.Duration
	calls, benTurns, dropped := 0, 0, false
	for turn := 0; turn < 60; turn++ {
		s := tm.screen()
		if over(s) {
			break
		}
		if strings.Contains(s, ben.password) {
			t.Fatalf("Ben's password %s shows on Ann's screen before the end:\n%s", ben.password, s)
		}
		if tm.table().myTurn() {
			i := calls
			calls++
			tm.typeText(fmt.Sprintf("%d%d", i/5+5, i%5))
			tm.key("enter")
			// Then Ben's turn, or Ann's again once Ben is done.
			s = tm.waitFor("the call's letter", func(s string) bool {
				n, _ := trackingLetters(s, i/5, i%5)
				return over(s) || n == calls && !tm.table().busy
			})
			if over(s) {
				break
			}
			continue
		}
		// Ben's turn: Ann's keys are refused in words, and nothing is sent.
		tm.key("enter")
		s = tm.screen()
		if !strings.Contains(s, "it is not your turn") {
			t.Fatalf("a call out of turn is not refused:\n%s", s)
		}
		benTurns++
		if benTurns == 3 {
			// The network drops; Ben moves while Ann's stream is down;
			// Ann's screen comes back with the move, once.
			ts.drop()
			tm.waitFor("the drop to show", has("reconnecting"))
			ts.restore()
			// Ben's program lost its kept-alive connection in the drop
			// too: it starts afresh (a move sent on the dead one fails).
			ben.c.CloseIdleConnections()
			sq := ben.call(t)
			s = tm.waitFor("Ben's call after the drop", has("Ben called "+sq, "▶ your turn"))
			if n := strings.Count(strings.Join(tm.table().log, "\n"), "Ben called "+sq); n != 1 {
				t.Fatalf("Ben's call %s is in Ann's log %d times", sq, n)
			}
			dropped = true
			continue
		}
		start := time.Now()
		sq := ben.call(t)
		tm.waitFor("Ben's call", func(s string) bool { return over(s) || strings.Contains(s, "Ben called "+sq) })
		lat = append(lat, time.Since(start))
	}
	if !dropped {
		t.Error("the game ended before the network drop was tried")
	}
	s := tm.waitFor("the end", over)
	checkFits(t, tm)
	if strings.Count(s, "✓ commitment matches") != 2 || !strings.Contains(s, "password "+ben.password) {
		t.Errorf("the end does not reveal Ben's grid and check both commitments:\n%s", s)
	}
	// No event twice, none lost: Ann's log holds every move of the record.
	var log []string
	for _, l := range tm.table().log {
		if strings.Contains(l, " called ") {
			log = append(log, l)
		}
	}
	rec, err := ben.c.Record(context.Background(), ben.token, ben.id)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Moves []struct{ By, Move string }
	}
	json.Unmarshal(rec, &r)
	var want []string
	for _, mv := range r.Moves {
		if isDigits(mv.Move) {
			want = append(want, mv.By+" called "+mv.Move)
		}
	}
	if !slices.Equal(log, want) {
		t.Errorf("Ann's log of calls:\n%v\nthe record's:\n%v", log, want)
	}
	slices.Sort(lat)
	if len(lat) > 0 {
		t.Logf("a move reaches the other terminal: median %v, worst %v over %d moves", lat[len(lat)/2], lat[len(lat)-1], len(lat))
		if lat[len(lat)/2] > 500*time.Millisecond {
			t.Errorf("median %v from a move to the other terminal", lat[len(lat)/2])
		}
	}
}

// BenchmarkMoveToOtherTerminal measures the time from an API player's
// move to the terminal player's screen showing it, over loopback.
func BenchmarkMoveToOtherTerminal(b *testing.B) {
	ts := newTestServer(b)
	var lat []time.Duration
	tm, ben := twoPlayerQuizl(b, ts)
	calls := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		// Ann calls (not timed); then Ben's call is timed to Ann's screen.
		// A game over, or Ben done (Ann's turn again), starts a new table.
		for {
			annDone := func() bool {
				var v quizlView
				tm.view(&v)
				return len(v.Done) > 0 && v.Done[0]
			}
			s := tm.waitFor("Ann's turn", func(s string) bool { return over(s) || annDone() || tm.table().myTurn() && !tm.table().busy })
			if !over(s) && !annDone() && calls < 25 {
				tm.typeText(fmt.Sprintf("%d%d", calls/5+5, calls%5))
				calls++
				tm.key("enter")
				s = tm.waitFor("Ben's turn", func(s string) bool { return over(s) || !tm.table().busy && tm.table().upd.Version > tm.table().sentAt })
				if !over(s) && !tm.table().myTurn() && ben.next < 25 {
					break
				}
			}
			tm.m.Close()
			tm, ben = twoPlayerQuizl(b, ts)
			calls = 0
		}
		b.StartTimer()
		start := time.Now()
		sq := ben.call(b)
		tm.waitFor("Ben's call", func(s string) bool { return over(s) || strings.Contains(s, "Ben called "+sq) })
		lat = append(lat, time.Since(start))
	}
	slices.Sort(lat)
	if len(lat) > 0 {
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "median-ms")
		b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "worst-ms")
	}
}

// TestSalvoOutlineAgainstAnAPIPlayer plays Salvo between the terminal (Ann)
// and an API player (Ben). The test knows both fleets: Ben fires only
// where Ann has no ship, Ann fires at Ben's ships first, then outlines
// Ben's fleet with the outline editor's keys, rightly, and wins.
func TestSalvoOutlineAgainstAnAPIPlayer(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("salvo", 3)
	tm.key("enter")
	tm.waitFor("the fleet editor", has("Invite a friend", "✓ the referee accepts"))
	ctx := context.Background()
	bc, _ := client.New(ts.URL, "Ben")
	seat, err := bc.Join(ctx, "", tm.table().id)
	if err != nil {
		t.Fatal(err)
	}
	a, err := bc.Setup(ctx, seat.Token, seat.Table, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	var benFleet struct{ Fleet []string }
	json.Unmarshal(a.Setup, &benFleet)
	tm.key("enter")
	tm.waitFor("play", has("Aiming at Ben's ocean"))
	var annFleet struct{ Fleet []string }
	json.Unmarshal(tm.table().upd.Setup, &annFleet)
	annSq := map[string]bool{}
	for _, s := range annFleet.Fleet {
		sh, _ := parseShip(s)
		for i := range sh.n {
			c, r := sh.col, sh.row
			if sh.down {
				r += i
			} else {
				c += i
			}
			annSq[sqName(c, r)] = true
		}
	}
	// Ann's targets: Ben's ships first, then the rest of the ocean.
	var targets []string
	seen := map[string]bool{}
	for _, s := range benFleet.Fleet {
		sh, _ := parseShip(s)
		for i := range sh.n {
			c, r := sh.col, sh.row
			if sh.down {
				r += i
			} else {
				c += i
			}
			targets = append(targets, sqName(c, r))
			seen[sqName(c, r)] = true
		}
	}
	for r := range 10 {
		for c := range 10 {
			if !seen[sqName(c, r)] {
				targets = append(targets, sqName(c, r))
			}
		}
	}
	benNext := 0
	benFire := func() {
		u, err := bc.Get(ctx, seat.Token, seat.Table)
		if err != nil {
			t.Fatal(err)
		}
		var v salvoView
		json.Unmarshal(u.View, &v)
		var shots []string
		for len(shots) < v.Shots && benNext < 100 {
			q := sqName(benNext%10, benNext/10)
			benNext++
			if !annSq[q] {
				shots = append(shots, q)
			}
		}
		if _, err := bc.Move(ctx, seat.Token, seat.Table, "fire "+strings.Join(shots, " "), 0, false); err != nil {
			t.Fatalf("Ben firing %v: %v", shots, err)
		}
	}
	for round := 0; round < 40; round++ {
		s := tm.screen()
		if over(s) {
			break
		}
		u, _ := bc.Get(ctx, seat.Token, seat.Table)
		if slices.Contains(u.Table.ToMove, 1) {
			benFire()
		}
		s = tm.waitFor("Ann's turn", func(s string) bool { return over(s) || tm.table().myTurn() && !tm.table().busy })
		if over(s) {
			break
		}
		var v salvoView
		tm.view(&v)
		if v.MustOutline {
			tm.key("o")
			p := tm.table().play
			for i, want := range benFleet.Fleet {
				w, _ := parseShip(want)
				for p.osel != i {
					tm.key("tab")
				}
				if p.outline[i].down != w.down {
					tm.key("space")
				}
				for p.outline[i].row > w.row {
					tm.key("up")
				}
				for p.outline[i].row < w.row {
					tm.key("down")
				}
				for p.outline[i].col > w.col {
					tm.key("left")
				}
				for p.outline[i].col < w.col {
					tm.key("right")
				}
			}
			if s := tm.screen(); !strings.Contains(s, "Outline: "+strings.Join(benFleet.Fleet, " ")) {
				t.Fatalf("the outline is not Ben's fleet:\n%s", s)
			}
			tm.key("enter")
			break
		}
		p := tm.table().play
		for range v.Shots {
			q := targets[0]
			targets = targets[1:]
			c, r, _ := parseSquare(q)
			for p.r != r {
				tm.key("down")
			}
			for p.c != c {
				tm.key("right")
			}
			tm.key("space")
		}
		tm.key("enter")
		tm.waitFor("the salvo", func(s string) bool { return over(s) || !tm.table().busy && tm.table().upd.Version > tm.table().sentAt })
	}
	s := tm.waitFor("the end", over)
	checkFits(t, tm)
	if !strings.Contains(s, "Game over: Ann outlined Ben's fleet") || !strings.Contains(s, "you won") {
		t.Errorf("Ann's right outline does not win:\n%s", s)
	}
}
