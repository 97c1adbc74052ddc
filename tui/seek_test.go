package tui

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"parlour/tui/client"
)

// TestQuickGame: the terminal looks for an opponent; a player asking for
// the same game through the API, as the browser does, pairs with it, and
// the terminal opens the table at its seat. A second search is cancelled
// and leaves no seek waiting.
func TestQuickGame(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.key("g")
	tm.waitFor("the quick-game form", has("Quick game", "a guest's quick games are casual"))
	checkFits(t, tm)
	for i := 0; i < 8 && !strings.Contains(tm.screen(), "‹ Nymphabet ›"); i++ {
		tm.key("right")
	}
	tm.key("enter")
	tm.waitFor("the search", has("Looking for an opponent: Nymphabet (standard), casual, 2 minutes a turn"))
	checkFits(t, tm)

	ctx := context.Background()
	bc, ben := guestAt(t, ts, "Ben")
	a, err := bc.SeekGame(ctx, ben.Token, client.SeekRequest{Game: "nymphabet", Clock: 120})
	if err != nil || a.Status != "paired" || a.Table == nil {
		t.Fatalf("Ben's seek answered %+v, %v: Ann's was not waiting", a, err)
	}
	s := tm.waitFor("the table the seeks made", func(s string) bool {
		return tm.table() != nil && strings.Contains(s, "Nymphabet") && strings.Contains(s, "Ben")
	})
	checkFits(t, tm)
	if tb := tm.table(); tb.id != a.Table.Table || tb.seat != 1-a.Table.Seat {
		t.Errorf("the terminal sits at %s seat %d; Ben is at %s seat %d", tb.id, tb.seat, a.Table.Table, a.Table.Seat)
	}
	if strings.Contains(s, "!") && strings.Contains(s, "token") {
		t.Errorf("the seat's token was refused:\n%s", s)
	}

	// A search cancelled: nothing is left waiting.
	cat := newTerm(t, ts.URL, "Cat", 80, 24)
	cat.key("g")
	cat.key("enter")
	cat.waitFor("Cat's search", has("Looking for an opponent"))
	if n := waitingSeeks(t, ts.URL); n != 1 {
		t.Fatalf("%d seeks waiting, want Cat's", n)
	}
	cat.key("esc")
	cat.waitFor("the form again", has("the search is cancelled", "enter look for an opponent"))
	checkFits(t, cat)
	deadline := time.Now().Add(10 * time.Second)
	for waitingSeeks(t, ts.URL) != 0 {
		if time.Now().After(deadline) {
			t.Fatal("Cat's seek still waits after the search was cancelled")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestQuickGameMode: a game whose modes are rated apart (Nymphabet) has
// a Mode field; a seek of the cyclic mode pairs only with another of it,
// and its table plays that mode.
func TestQuickGameMode(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.key("g")
	tm.keyUntil("right", "‹ Nymphabet ›")
	tm.key("down")
	tm.waitFor("the mode", has("> Mode", "‹ standard ›", "each rated apart"))
	tm.key("right")
	tm.waitFor("cyclic", has("‹ cyclic ›"))
	checkFits(t, tm)
	tm.key("enter")
	tm.waitFor("the search", has("Looking for an opponent: Nymphabet (cyclic), casual"))

	bc, ben := guestAt(t, ts, "Ben")
	// The standard mode does not meet Ann's seek; the cyclic one does.
	a, err := bc.SeekGame(ctx, ben.Token, client.SeekRequest{Game: "nymphabet", Clock: 120})
	if err != nil || a.Status != "waiting" {
		t.Fatalf("Ben's standard seek answered %+v, %v: it met Ann's cyclic one", a, err)
	}
	if err := bc.CancelSeek(ctx, ben.Token, a.Seek.ID); err != nil {
		t.Fatal(err)
	}
	a, err = bc.SeekGame(ctx, ben.Token, client.SeekRequest{Game: "nymphabet", Mode: "cyclic", Clock: 120})
	if err != nil || a.Status != "paired" || a.Table == nil {
		t.Fatalf("Ben's cyclic seek answered %+v, %v", a, err)
	}
	tm.waitFor("the cyclic table", func(s string) bool { return tm.table() != nil && strings.Contains(s, "Ben") })
	u, err := bc.Get(ctx, ben.Token, a.Table.Table)
	if err != nil {
		t.Fatal(err)
	}
	var rules struct{ Mode string }
	if err := json.Unmarshal(u.Table.Rules, &rules); err != nil || rules.Mode != "cyclic" {
		t.Errorf("the table's rules are %s, want the cyclic mode", u.Table.Rules)
	}
}

// waitingSeeks counts the seeks the server lists as waiting.
func waitingSeeks(t *testing.T, base string) int {
	t.Helper()
	resp, err := http.Get(base + "/api/v1/seeks")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var l struct{ Seeks []json.RawMessage }
	if err := json.NewDecoder(resp.Body).Decode(&l); err != nil {
		t.Fatal(err)
	}
	return len(l.Seeks)
}

// TestQuickGameComputer: after the wait, c plays the computer at the
// player's level instead, and the search ends.
func TestQuickGameComputer(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.key("g")
	tm.m.cur.(*seekScreen).offer = 0
	tm.key("enter")
	tm.waitFor("the offer", has("No one yet: play the computer at your level"))
	checkFits(t, tm)
	tm.key("c")
	tm.waitFor("the table against the computer", func(s string) bool {
		return tm.table() != nil && strings.Contains(s, "Computer")
	})
	deadline := time.Now().Add(10 * time.Second)
	for waitingSeeks(t, ts.URL) != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the seek still waits after the computer's game began")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestQuickGameFromTheStream: a signed-in player's waiting seek that
// pairs is noticed from the player stream, not only by reading the seek
// back: with the read-back put off for an hour, the terminal still goes
// to the table. (A guest has no player stream: TestQuickGame pairs one
// by the read-back.)
func TestQuickGameFromTheStream(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()
	_, as := signedUp(t, ts, "ann_q")
	tm := newTermWith(t, ts.URL, "ann_q", 80, 24, Config{DataDir: t.TempDir(), Session: as.Token, Account: "ann_q"})
	tm.key("g")
	tm.keyUntil("right", "‹ Nymphabet ›")
	tm.m.cur.(*seekScreen).every = time.Hour
	tm.key("enter")
	tm.waitFor("the search", has("Looking for an opponent: Nymphabet (standard)"))
	bc, ben := guestAt(t, ts, "Ben")
	a, err := bc.SeekGame(ctx, ben.Token, client.SeekRequest{Game: "nymphabet", Clock: 120})
	if err != nil || a.Status != "paired" || a.Table == nil {
		t.Fatalf("Ben's seek answered %+v, %v: Ann's was not waiting", a, err)
	}
	tm.waitFor("the table the seeks made", func(s string) bool { return tm.table() != nil && strings.Contains(s, "Ben") })
	if tb := tm.table(); tb.id != a.Table.Table {
		t.Errorf("the terminal sits at %s; Ben is at %s", tb.id, a.Table.Table)
	}
}

// TestQuickGameTellsIdentity: a guest whose first seat comes from a
// quick game has the guest identity made for it told to
// Config.OnIdentity, as any other first seat is, so that the SSH door
// knows the guest when its key comes back after a dropped connection.
func TestQuickGameTellsIdentity(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	var told []string
	tm := newTermWith(t, ts.URL, "Gus", 80, 24, Config{NoDisk: true, OnIdentity: func(tok string) { told = append(told, tok) }})
	tm.key("g")
	tm.m.cur.(*seekScreen).offer = 0
	tm.key("enter")
	tm.waitFor("the offer", has("No one yet: play the computer at your level"))
	tm.key("c")
	tm.waitFor("the table against the computer", func(s string) bool {
		return tm.table() != nil && strings.Contains(s, "Computer")
	})
	if len(told) != 1 || told[0] == "" || told[0] != tm.m.idToken {
		t.Errorf("OnIdentity told %q; want the one guest identity the client plays as, %q", told, tm.m.idToken)
	}
}

// TestQuickGamePassingFailure: a read of the waiting seek that fails (the
// server away a moment, restarting) is shown and tried again; once a read
// finds the seek waiting, the failure leaves the screen. One that finds
// the seek gone ends the search, saying why.
func TestQuickGamePassingFailure(t *testing.T) {
	t.Parallel()
	sk := &seekScreen{shared: &shared{}, seek: &client.Seek{ID: "s1", Game: "quizl"}, every: time.Hour}
	if cmd := sk.readIn(seekStateMsg{err: errors.New("connection refused")}); cmd == nil || sk.err != "connection refused" || sk.seek == nil {
		t.Fatalf("after a failed read: err %q, seek %v, next read %v; want the failure shown and another read", sk.err, sk.seek, cmd != nil)
	}
	if cmd := sk.readIn(seekStateMsg{s: client.SeekState{Status: "waiting"}}); cmd == nil || sk.err != "" || sk.seek == nil {
		t.Fatalf("after the seek read waiting: err %q, seek %v, next read %v; want no failure shown and another read", sk.err, sk.seek, cmd != nil)
	}
	sk.readIn(seekStateMsg{err: &client.Error{Status: http.StatusNotFound, Message: "you have no seek waiting"}})
	if sk.seek != nil || !strings.Contains(sk.err, "the seek is gone") {
		t.Fatalf("after the seek was not found: err %q, seek %v", sk.err, sk.seek)
	}
}

// TestQuickGameOffline: with the client's own server, which nobody else
// can reach, the quick game says so and plays the computer at once,
// leaving no seek waiting.
func TestQuickGameOffline(t *testing.T) {
	ts := newTestServer(t)
	tm := newTermWith(t, ts.URL, "Ann", 80, 24, Config{DataDir: t.TempDir(), Offline: true})
	tm.waitFor("the home screen", has("g Quick game: the computer at your level (offline"))
	tm.key("g")
	tm.waitFor("the quick-game form", has("Quick game  ·  the computer at your level", "nobody else can reach", "enter play the computer"))
	checkFits(t, tm)
	if s := tm.screen(); strings.Contains(s, "opponent") || strings.Contains(s, "a guest's quick games are casual") {
		t.Errorf("the offline form offers a search:\n%s", s)
	}
	tm.key("enter")
	s := tm.waitFor("the table against the computer", func(s string) bool {
		return tm.table() != nil && strings.Contains(s, "Computer")
	})
	if strings.Contains(s, "Looking for an opponent") {
		t.Errorf("the offline quick game looked for an opponent:\n%s", s)
	}
	if n := waitingSeeks(t, ts.URL); n != 0 {
		t.Errorf("%d seeks waiting after the offline quick game", n)
	}
}
