package server

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"parlour/server/auth"
	"parlour/server/internal/servertest"
	"parlour/server/refuse"
	"parlour/server/table"
	"parlour/store"
)

// TestLeave: a player who leaves before the game begins frees the seat
// and forgets its setup, for somebody else to take; when the last person
// leaves, the table is cancelled for good, on every store and across a
// restart, and its watcher is told.
func TestLeave(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		ctx := context.Background()
		f := newFixtureOn(t, k)
		a, err := f.s.Create(ctx, nil, table.CreateRequest{Game: "guess", Seats: []string{"me", "open", "computer"}, Name: "Ann"})
		if err != nil {
			t.Fatal(err)
		}
		b, err := f.s.Join(ctx, nil, a.Table, table.JoinRequest{Name: "Ben"})
		if err != nil {
			t.Fatal(err)
		}
		pa, pb := f.principal(a.Token), f.principal(b.Token)
		if _, err := f.s.Setup(ctx, pb, a.Table, table.SetupRequest{Setup: setupOf(7)}); err != nil {
			t.Fatal(err)
		}
		w, err := f.s.Watch(ctx, nil, a.Table, -1)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		if _, err := w.Next(ctx); err != nil {
			t.Fatal(err)
		}

		left, err := f.s.Leave(ctx, pb, a.Table)
		if err != nil || left != (table.Left{Table: a.Table, Seat: 1}) {
			t.Fatalf("Ben leaves: %+v, %v", left, err)
		}
		u, err := f.s.View(ctx, pa, a.Table)
		if err != nil {
			t.Fatal(err)
		}
		if s := u.Table.Seats[1]; u.Table.Status != store.Open || s.Kind != "open" || s.Ready || s.Name != "Seat 2" {
			t.Fatalf("after Ben left: status %s, seat %+v", u.Table.Status, s)
		}
		if got, err := w.Next(ctx); err != nil || got.Table.Seats[1].Kind != "open" {
			t.Fatalf("the watcher after Ben left: %+v, %v", got.Table.Seats, err)
		}
		if mine := f.s.MyTables(ctx, pb); len(mine) != 0 {
			t.Fatalf("Ben's tables after he left: %+v", mine)
		}
		if lobby, err := f.s.Lobby(ctx, store.Open, 10); err != nil || len(lobby) != 1 || lobby[0].ID != a.Table {
			t.Fatalf("the lobby after Ben left: %+v, %v", lobby, err)
		}
		// His token no longer acts for the seat, and he may not leave twice.
		if _, err := f.s.Setup(ctx, pb, a.Table, table.SetupRequest{Setup: setupOf(3)}); refuse.Status(err) != http.StatusForbidden {
			t.Fatalf("Ben's setup after he left: %v", err)
		}
		wantRefusal(t, "Ben leaves again", func() error { _, err := f.s.Leave(ctx, pb, a.Table); return err }, http.StatusForbidden, "you hold no seat")

		// Cara takes the seat; a stranger cannot leave it for her.
		c, err := f.s.Join(ctx, nil, a.Table, table.JoinRequest{Name: "Cara"})
		if err != nil || c.Seat != 1 {
			t.Fatalf("Cara joins: %+v, %v", c, err)
		}
		pc := f.principal(c.Token)
		wantRefusal(t, "a spectator leaves", func() error { _, err := f.s.Leave(ctx, nil, a.Table); return err }, http.StatusForbidden, "you hold no seat")
		if _, err := f.s.Leave(ctx, pc, a.Table); err != nil {
			t.Fatal(err)
		}

		// Ann, the last person, leaves: the computer seat does not keep
		// the table open.
		ok := f.s.Loaded(a.Table)
		if !ok {
			t.Fatal("the table left memory before its last player left it")
		}
		left, err = f.s.Leave(ctx, pa, a.Table)
		if err != nil || left != (table.Left{Table: a.Table, Seat: 0, Cancelled: true}) {
			t.Fatalf("Ann leaves: %+v, %v", left, err)
		}
		if _, err := w.Next(ctx); refuse.Status(err) != http.StatusGone || !strings.Contains(err.Error(), "closed before its game began: Ann left before the game began, the last player seated") {
			t.Fatalf("the watcher after the table was cancelled: %v, want the reason naming Ann", err)
		}
		for round := range 2 {
			checkCancelled(t, f, a.Table, pa)
			if round == 0 {
				f.restart()
				pa = f.principal(a.Token)
			}
		}
		row, err := f.st.Table(ctx, a.Table)
		if err != nil || row.Status != store.Cancelled || len(row.Moves) != 0 {
			t.Fatalf("the stored table: %+v, %v", row, err)
		}
		live, err := f.st.LiveTables(ctx)
		if err != nil || len(live) != 0 {
			t.Fatalf("live tables after the cancel: %+v, %v", live, err)
		}
	})
}

// checkCancelled checks that cancelled table id refuses everything and
// shows up nowhere.
func checkCancelled(t *testing.T, f *fixture, id string, p *auth.Principal) {
	t.Helper()
	ctx := context.Background()
	gone := func(what string, err error) {
		t.Helper()
		if refuse.Status(err) != http.StatusGone || !strings.Contains(err.Error(), "closed before its game began") {
			t.Errorf("%s at a cancelled table: %v, want 410", what, err)
		}
	}
	_, err := f.s.View(ctx, p, id)
	gone("view", err)
	_, err = f.s.Join(ctx, nil, id, table.JoinRequest{Name: "Dan"})
	gone("join", err)
	_, err = f.s.Leave(ctx, p, id)
	gone("leave", err)
	_, err = f.s.Watch(ctx, nil, id, -1)
	gone("watch", err)
	_, err = f.s.Move(ctx, p, id, table.MoveRequest{Move: "guess 1"})
	gone("move", err)
	if mine := f.s.MyTables(ctx, p); len(mine) != 0 {
		t.Errorf("my tables list the cancelled table: %+v", mine)
	}
	if lobby, err := f.s.Lobby(ctx, store.Open, 10); err != nil || len(lobby) != 0 {
		t.Errorf("the lobby lists the cancelled table: %+v, %v", lobby, err)
	}
}

// wantRefusal checks that do fails with status and a message holding want.
func wantRefusal(t *testing.T, what string, do func() error, status int, want string) {
	t.Helper()
	err := do()
	var e *refuse.Error
	if !errors.As(err, &e) || e.Status != status || !strings.Contains(e.Msg, want) {
		t.Errorf("%s: %v, want %d with %q", what, err, status, want)
	}
}

// guessBegun seats first and second at a new two-seat guess table and
// gives both setups, which begins its game. It returns the table and the
// two seats' principals.
func guessBegun(t *testing.T, f *fixture, first, second string) (string, *auth.Principal, *auth.Principal) {
	t.Helper()
	ctx := context.Background()
	a, err := f.s.Create(ctx, nil, table.CreateRequest{Game: "guess", Seats: []string{"me", "open"}, Name: first})
	if err != nil {
		t.Fatal(err)
	}
	b, err := f.s.Join(ctx, nil, a.Table, table.JoinRequest{Name: second})
	if err != nil {
		t.Fatal(err)
	}
	pa, pb := f.principal(a.Token), f.principal(b.Token)
	for i, p := range []*auth.Principal{pa, pb} {
		if _, err := f.s.Setup(ctx, p, a.Table, table.SetupRequest{Setup: setupOf(10 * (i + 1))}); err != nil {
			t.Fatal(err)
		}
	}
	return a.Table, pa, pb
}

// TestLeaveRefusals: only a seat holder leaves, and only before play.
func TestLeaveRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	tableID, pa, _ := guessBegun(t, f, "Ann", "Ben")
	begun, _ := f.s.View(ctx, pa, tableID)
	overID, pc, pd := guessBegun(t, f, "Cara", "Dan")
	if _, err := f.s.Move(ctx, pc, overID, table.MoveRequest{Move: "resign"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		p       *auth.Principal
		tableID string
		status  int
		want    string
	}{
		{"the game has begun", pa, tableID, http.StatusConflict, "the game has begun: to give up your seat, resign"},
		{"the game is over", pd, overID, http.StatusConflict, "the game is over"},
		{"a spectator", nil, tableID, http.StatusForbidden, "you hold no seat at this table"},
		{"another table's seat token", pc, tableID, http.StatusForbidden, "you hold no seat at this table"},
		{"no such table", pa, "nosuchtable0", http.StatusNotFound, "there is no table"},
		{"not a table id", pa, "../../x", http.StatusNotFound, "there is no table"},
	} {
		t.Run(c.name, func(t *testing.T) {
			wantRefusal(t, c.name, func() error { _, err := f.s.Leave(ctx, c.p, c.tableID); return err }, c.status, c.want)
		})
	}
	// Nothing changed.
	if u, err := f.s.View(ctx, pa, tableID); err != nil || u.Version != begun.Version || u.Table.Status != store.Playing || u.Table.Seats[1].Name != "Ben" {
		t.Fatalf("the table after the refusals: %+v, %v (was version %d)", u.Table, err, begun.Version)
	}
}

// TestLeaveRematch: when both players leave a rematch before it begins,
// the finished table offers a new one rather than the cancelled table.
func TestLeaveRematch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	tableID, pa, pb := guessBegun(t, f, "Ann", "Ben")
	if _, err := f.s.Move(ctx, pa, tableID, table.MoveRequest{Move: "resign"}); err != nil {
		t.Fatal(err)
	}
	ra, err := f.s.Rematch(ctx, pa, tableID)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := f.s.Rematch(ctx, pb, tableID)
	if err != nil || rb.Table != ra.Table {
		t.Fatalf("Ben's rematch: %+v, %v; want table %s", rb, err, ra.Table)
	}
	if l, err := f.s.Leave(ctx, f.principal(ra.Token), ra.Table); err != nil || l.Cancelled {
		t.Fatalf("Ann leaves the rematch: %+v, %v", l, err)
	}
	if l, err := f.s.Leave(ctx, f.principal(rb.Token), ra.Table); err != nil || !l.Cancelled {
		t.Fatalf("Ben leaves the rematch: %+v, %v", l, err)
	}
	again, err := f.s.Rematch(ctx, pb, tableID)
	if err != nil || again.Table == ra.Table {
		t.Fatalf("a rematch after the last was cancelled: %+v, %v", again, err)
	}
	u, err := f.s.View(ctx, f.principal(again.Token), again.Table)
	if err != nil || u.Table.Status != store.Setup || u.Table.Prev != tableID || u.Seat != 0 || u.Table.Seats[1].Name != "Ann" {
		t.Fatalf("the new rematch: %+v, %v", u.Table, err)
	}
	if u, err := f.s.View(ctx, pa, tableID); err != nil || u.Table.Rematch != again.Table {
		t.Fatalf("the finished table's rematch: %+v, %v", u.Table, err)
	}
}

// TestLeaveHTTP: the endpoint wants a token and answers in JSON.
func TestLeaveHTTP(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv := startServer(t, f, generous)
	ann := &client{t: t, base: srv.URL}
	var sa table.Seated
	if st, body := ann.do("POST", "/api/v1/tables", map[string]any{"game": "guess", "seats": []string{"me", "open"}, "name": "Ann"}, &sa); st != 201 {
		t.Fatalf("create: %d %s", st, body)
	}
	if st, body := ann.do("POST", "/api/v1/tables/"+sa.Table+"/leave", nil, nil); st != http.StatusUnauthorized || !strings.Contains(body, "token") {
		t.Fatalf("leave without a token: %d %s", st, body)
	}
	ann.token = sa.Token
	if st, body := ann.do("POST", "/api/v1/tables/"+sa.Table+"/leave", nil, nil); st != 200 || body != `{"table":"`+sa.Table+`","seat":0,"cancelled":true}`+"\n" {
		t.Fatalf("leave: %d %q", st, body)
	}
	if st, body := ann.do("GET", "/api/v1/tables/"+sa.Table, nil, nil); st != http.StatusGone || !strings.Contains(body, "closed before its game began") {
		t.Fatalf("the table after: %d %s", st, body)
	}
}

// TestOpenTablesExpire: a table whose game has not begun is cancelled
// once it has gone DefaultOpenExpiry without a change, whoever sits at
// it; a join starts the wait again, and a game begun never expires.
func TestOpenTablesExpire(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sf := newSocial(t)
	s := sf.s
	create := func(game string, seats ...string) table.Seated {
		t.Helper()
		st, err := s.Create(ctx, nil, table.CreateRequest{Game: game, Seats: seats, Name: "Ann"})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	alone := create("quizl", "me", "open")
	late := create("quizl", "me", "open")
	computer := create("quizl", "me", "computer:easy")
	begun := create("nymphabet", "me", "open")
	if _, err := s.Join(ctx, nil, begun.Table, table.JoinRequest{Name: "Cara"}); err != nil {
		t.Fatal(err)
	}
	w, err := s.Watch(ctx, nil, alone.Table, -1)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.Next(ctx); err != nil {
		t.Fatal(err)
	}
	status := func(id string) (store.Status, error) {
		u, err := s.View(ctx, nil, id)
		return u.Table.Status, err
	}
	// The computer's setup is a change too: let it come before the clock
	// moves.
	servertest.Eventually(t, 10*time.Second, "the computer's setup", func() bool {
		u, err := s.View(ctx, nil, computer.Table)
		if err != nil {
			t.Fatal(err)
		}
		return u.Table.Seats[1].Ready
	})

	sf.clock.Advance(table.DefaultOpenExpiry - 24*time.Hour)
	if _, err := s.Join(ctx, nil, late.Table, table.JoinRequest{Name: "Ben"}); err != nil {
		t.Fatal(err)
	}
	s.ExpireOpen(ctx)
	for _, id := range []string{alone.Table, late.Table, computer.Table, begun.Table} {
		if st, err := status(id); err != nil {
			t.Fatalf("table %s a day before it may expire: %s, %v", id, st, err)
		}
	}

	sf.clock.Advance(2 * 24 * time.Hour)
	s.ExpireOpen(ctx)
	for _, c := range []struct {
		name   string
		id     string
		status store.Status // "": cancelled
	}{
		{"nobody came", alone.Table, ""},
		{"waiting for Ann's setup against the computer", computer.Table, ""},
		{"Ben joined two days ago", late.Table, store.Setup},
		{"the game began", begun.Table, store.Playing},
	} {
		st, err := status(c.id)
		switch {
		case c.status == "" && (refuse.Status(err) != http.StatusGone || !strings.Contains(err.Error(), "closed before its game began: it waited too long for its players")):
			t.Errorf("%s: %s, %v; want it cancelled", c.name, st, err)
		case c.status != "" && (err != nil || st != c.status):
			t.Errorf("%s: %s, %v; want %s", c.name, st, err, c.status)
		}
	}
	if _, err := w.Next(ctx); refuse.Status(err) != http.StatusGone {
		t.Fatalf("the watcher of the expired table: %v", err)
	}
	if row, err := sf.st.Table(ctx, alone.Table); err != nil || row.Status != store.Cancelled {
		t.Fatalf("the expired table as stored: %+v, %v", row, err)
	}
	if mine := s.MyTables(ctx, sf.principal(late.Token)); len(mine) != 1 || mine[0].ID != late.Table {
		t.Fatalf("Ann's tables under way after the expiry: %+v", mine)
	}
}

// TestOpenExpiryRuns: the service expires waiting tables by itself.
func TestOpenExpiryRuns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := &fixture{t: t, dir: t.TempDir(), openExpiry: 300 * time.Millisecond}
	f.open()
	t.Cleanup(f.close)
	a, err := f.s.Create(ctx, nil, table.CreateRequest{Game: "guess", Seats: []string{"me", "open"}, Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	servertest.Eventually(t, 10*time.Second, "the table to expire", func() bool {
		_, err := f.s.View(ctx, nil, a.Table)
		return refuse.Status(err) == http.StatusGone
	})
}

// TestRematchAfterLeavingIt: a player who left the rematch before it
// began, while another stayed seated there, and asks for the rematch
// again is told that they left it and how to sit down again, rather than
// given a token for a seat they no longer hold.
func TestRematchAfterLeavingIt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	tableID, pa, pb := guessBegun(t, f, "Ann", "Ben")
	if _, err := f.s.Move(ctx, pa, tableID, table.MoveRequest{Move: "resign"}); err != nil {
		t.Fatal(err)
	}
	ra, err := f.s.Rematch(ctx, pa, tableID)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := f.s.Rematch(ctx, pb, tableID)
	if err != nil {
		t.Fatal(err)
	}
	if l, err := f.s.Leave(ctx, f.principal(rb.Token), ra.Table); err != nil || l.Cancelled {
		t.Fatalf("Ben leaves the rematch: %+v, %v", l, err)
	}
	again, err := f.s.Rematch(ctx, pb, tableID)
	if err == nil {
		u, _ := f.s.View(ctx, f.principal(again.Token), again.Table)
		t.Fatalf("Ben's rematch after he left it: %+v, seating him at seat %d of %s", again, u.Seat, again.Table)
	}
	if refuse.Status(err) != http.StatusConflict || !strings.Contains(err.Error(), "you left") || !strings.Contains(err.Error(), ra.Table) {
		t.Fatalf("Ben's rematch after he left it: %v, want a 409 saying he left %s", err, ra.Table)
	}
	// Joining it again seats him.
	if _, err := f.s.Join(ctx, pb, ra.Table, table.JoinRequest{}); err != nil {
		t.Fatalf("Ben joins the rematch again: %v", err)
	}
	if again, err := f.s.Rematch(ctx, pb, tableID); err != nil || again.Table != ra.Table {
		t.Fatalf("Ben's rematch once seated again: %+v, %v", again, err)
	}
}
