package server_test

import (
	"bytes"
	"context"
	"net/http"
	"testing"
	"time"

	"parlour/server/seek"
	"parlour/server/table"
	"parlour/store"
)

// TestClusterSeeks: players who seek the same game through different
// nodes of a cluster pair as they would on one. The first node asked
// about seeks keeps them all; the others carry the requests to it. Ann
// seeks through a, her stream open on c; Ben, through b, sees her seek in
// the lobby, and his own seek pairs them; her stream hears it. A stream
// opened on another node opens with its player's seek. A game that
// begins on another node withdraws its player's seek. The node that
// keeps the seeks closes: it hands them on, and a seek waiting pairs
// after it. Then the node that keeps them dies: the next seek takes the
// book over at once, and pairs with the one after it.
func TestClusterSeeks(t *testing.T) {
	// Not parallel: the notes between nodes (a stream's opening, a game
	// begun) go to the nodes that answered within bus.GatherWait, which a
	// loaded run can miss (see TestClusterPlayersAcrossNodes).
	nodes := startCluster(t, "a", "b", "c")
	a, b, c := nodes[0], nodes[1], nodes[2]
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ann, ben, cat, dan := nodeSignUp(t, a, "Ann"), nodeSignUp(t, b, "Ben"), nodeSignUp(t, c, "Cat"), nodeSignUp(t, b, "Dan")
	annStream := openPlayerStream(t, ctx, c, "Ann", ann)
	terms := map[string]any{"game": "nymphabet"}

	var waiting seek.Answer
	if st, body := nodeCall(t, a, "POST", "/api/v1/seeks", ann, terms, &waiting); st != http.StatusCreated || waiting.Status != "waiting" {
		t.Fatalf("Ann seeks through a: %d %s", st, body)
	}
	if ev := annStream.next("seek"); ev.Seek == nil {
		t.Fatalf("Ann's stream on c: a seek line without its seek")
	}
	var lobby struct{ Seeks []seek.Seek }
	if st, body := nodeCall(t, b, "GET", "/api/v1/seeks?game=nymphabet", ben, nil, &lobby); st != 200 || len(lobby.Seeks) != 1 || lobby.Seeks[0].ID != waiting.Seek.ID {
		t.Fatalf("the lobby through b: %d %s, want Ann's seek", st, body)
	}
	// A stream opened on b, which keeps no seeks, opens with Ann's.
	again := openPlayerStream(t, ctx, b, "Ann", ann)
	if ev := again.next("seek"); ev.Seek == nil || !jsonHas(ev.Seek, waiting.Seek.ID) {
		t.Fatalf("Ann's stream opened on b: %s, want her seek %s", ev.Seek, waiting.Seek.ID)
	}

	var paired seek.Answer
	if st, body := nodeCall(t, b, "POST", "/api/v1/seeks", ben, terms, &paired); st != http.StatusCreated || paired.Status != "paired" || paired.Table == nil {
		t.Fatalf("Ben seeks the same through b: %d %s, want paired with Ann", st, body)
	}
	if ev := annStream.next("seekGone"); !jsonHas(ev.Seek, paired.Table.Table) {
		t.Fatalf("Ann's stream on c: %s, want her seek paired at %s", ev.Seek, paired.Table.Table)
	}
	if got := bookOwner(t, a); got != "a" {
		t.Fatalf("the seeks are kept by %q, want a, the first asked", got)
	}
	var mine seek.Mine
	if st, body := nodeCall(t, c, "GET", "/api/v1/seeks/"+waiting.Seek.ID, ann, nil, &mine); st != 200 || mine.Status != "paired" || mine.Pairing.Table != paired.Table.Table || mine.Pairing.Seat == paired.Table.Seat {
		t.Fatalf("Ann reads her seek through c: %d %s, want the other seat at %s", st, body, paired.Table.Table)
	}

	// Cat's seek waits on a; a game of hers begins at a table c runs.
	var catSeek seek.Answer
	if st, body := nodeCall(t, c, "POST", "/api/v1/seeks", cat, map[string]any{"game": "quizl"}, &catSeek); st != http.StatusCreated || catSeek.Status != "waiting" {
		t.Fatalf("Cat seeks through c: %d %s", st, body)
	}
	var made, joined table.Seated
	if st, body := nodeCall(t, c, "POST", "/api/v1/tables", cat, map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}}, &made); st >= 300 {
		t.Fatalf("Cat makes a table through c: %d %s", st, body)
	}
	if st, body := nodeCall(t, c, "POST", "/api/v1/tables/"+made.Table+"/join", dan, map[string]any{}, &joined); st >= 300 {
		t.Fatalf("Dan joins Cat's table through c: %d %s", st, body)
	}
	withdrawn := false
	for end := time.Now().Add(10 * time.Second); !withdrawn && time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		st, _ := nodeCall(t, c, "GET", "/api/v1/seeks/"+catSeek.Seek.ID, cat, nil, nil)
		withdrawn = st == http.StatusNotFound
	}
	if !withdrawn {
		t.Fatalf("Cat's seek still waits after her game at %s began on c", made.Table)
	}

	// The node that keeps the seeks closes, as a rolling restart closes
	// it: Dan's seek, made through b, is handed on and pairs with Ben's,
	// made through c.
	var danSeek seek.Answer
	if st, body := nodeCall(t, b, "POST", "/api/v1/seeks", dan, map[string]any{"game": "salvo"}, &danSeek); st != http.StatusCreated || danSeek.Status != "waiting" {
		t.Fatalf("Dan seeks through b: %d %s", st, body)
	}
	t.Log("closing node a, which keeps the seeks")
	a.close()
	var benSalvo seek.Answer
	if st, body := nodeCall(t, c, "POST", "/api/v1/seeks", ben, map[string]any{"game": "salvo"}, &benSalvo); st != http.StatusCreated || benSalvo.Status != "paired" {
		t.Fatalf("Ben seeks the same as Dan through c after a closed: %d %s, want paired with Dan's seek, handed on", st, body)
	}
	keeper, other := b, c
	if bookOwner(t, b) == "c" {
		keeper, other = c, b
	} else if got := bookOwner(t, b); got != "b" {
		t.Fatalf("after a closed the seeks are kept by %q, want b or c", got)
	}

	// The node that keeps them now dies, the seeks waiting gone with it as
	// a restart takes them: the next seek takes the book over at once.
	t.Logf("killing node %s, which keeps the seeks", keeper.name)
	keeper.kill()
	killed := time.Now()
	var ben2 seek.Answer
	if st, body := nodeCall(t, other, "POST", "/api/v1/seeks", ben, map[string]any{"game": "quizl"}, &ben2); st != http.StatusCreated || ben2.Status != "waiting" {
		t.Fatalf("Ben seeks through %s after %s died: %d %s", other.name, keeper.name, st, body)
	}
	t.Logf("the first seek after %s died was answered %v after", keeper.name, time.Since(killed).Round(time.Millisecond))
	if got := bookOwner(t, other); got != other.name {
		t.Fatalf("after %s died the seeks are kept by %q, want %s", keeper.name, got, other.name)
	}
	var cat2 seek.Answer
	if st, body := nodeCall(t, other, "POST", "/api/v1/seeks", cat, map[string]any{"game": "quizl"}, &cat2); st != http.StatusCreated || cat2.Status != "paired" {
		t.Fatalf("Cat seeks the same through %s: %d %s, want paired with Ben", other.name, st, body)
	}
}

// close stops n as a server that is told to stop does: its HTTP door
// first, then the service, which hands on what it keeps, then the bus.
func (n *node) close() {
	n.dead = true
	n.srv.Close()
	n.h.CloseSockets("closing")
	n.svc.Close()
	n.bus.Close()
}

// bookOwner returns the node that holds the seek book's lease.
func bookOwner(t *testing.T, n *node) string {
	t.Helper()
	l, err := n.st.Lease(context.Background(), store.SeekBookLease)
	if err != nil {
		t.Fatalf("reading the seek book's lease: %v", err)
	}
	return l.Owner
}

// jsonHas reports whether the JSON b holds the string s.
func jsonHas(b []byte, s string) bool { return bytes.Contains(b, []byte(`"`+s+`"`)) }

// TestClusterSeeksThroughRestart: a restart of the whole cluster loses no
// seek. Ann's seek waits on a; a closes and hands it to b; b, the last
// node, closes and keeps it in the store; once both are back, Ann reads
// it waiting and Ben's seek pairs with it.
func TestClusterSeeksThroughRestart(t *testing.T) {
	nodes := startCluster(t, "a", "b")
	a, b := nodes[0], nodes[1]
	ann, ben := nodeSignUp(t, a, "Ann"), nodeSignUp(t, b, "Ben")
	terms := map[string]any{"game": "nymphabet", "rated": true}
	var waiting seek.Answer
	if st, body := nodeCall(t, a, "POST", "/api/v1/seeks", ann, terms, &waiting); st != http.StatusCreated || waiting.Status != "waiting" {
		t.Fatalf("Ann seeks through a: %d %s", st, body)
	}
	a.close()
	if st, body := nodeCall(t, b, "GET", "/api/v1/seeks/"+waiting.Seek.ID, ann, nil, nil); st != 200 {
		t.Fatalf("Ann reads her seek through b once a closed: %d %s", st, body)
	}
	b.close()
	a, b = a.again(t), b.again(t)
	var mine seek.Mine
	if st, body := nodeCall(t, b, "GET", "/api/v1/seeks/"+waiting.Seek.ID, ann, nil, &mine); st != 200 || mine.Status != "waiting" {
		t.Fatalf("Ann reads her seek through b after the restart: %d %s", st, body)
	}
	var paired seek.Answer
	if st, body := nodeCall(t, a, "POST", "/api/v1/seeks", ben, terms, &paired); st != http.StatusCreated || paired.Status != "paired" || paired.Table == nil {
		t.Fatalf("Ben seeks the same through a: %d %s, want paired with Ann", st, body)
	}
	if st, body := nodeCall(t, a, "GET", "/api/v1/seeks/"+waiting.Seek.ID, ann, nil, &mine); st != 200 || mine.Status != "paired" || mine.Pairing.Table != paired.Table.Table {
		t.Fatalf("Ann reads her seek through a: %d %s, want paired at %s", st, body, paired.Table.Table)
	}
}
