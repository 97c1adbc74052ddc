package server_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"parlour/server/social"
	"parlour/server/table"
)

// skewClock is the system's time moved on by what a test skips: every
// node of a cluster shares one, and agrees on the time it says.
type skewClock struct{ skip atomic.Int64 }

func (c *skewClock) Now() time.Time { return time.Now().Add(time.Duration(c.skip.Load())) }

func (c *skewClock) AfterFunc(d time.Duration, f func()) table.Timer { return time.AfterFunc(d, f) }

// Skip moves the clock on by d at once.
func (c *skewClock) Skip(d time.Duration) { c.skip.Add(int64(d)) }

// TestClusterFollowOnline: Ann follows Ben. Both away, Ann's stream is
// open on node a; Ben, known to node b, opens his stream on node c, and
// Ann's stream on a shows him online while it is open (the time it took
// is logged). His game, made through b, reaches her too.
func TestClusterFollowOnline(t *testing.T) {
	// Not parallel, as the other cluster tests: a node missing the
	// gathering window under load would lose a note.
	clock := &skewClock{}
	nodes := startClusterOpts(t, clusterOpts{clock: clock}, "a", "b", "c")
	a, b, c := nodes[0], nodes[1], nodes[2]
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	signUp := func(n *node, name string) string {
		t.Helper()
		var s struct{ Token string }
		if st, body := nodeCall(t, n, "POST", "/api/v1/accounts", "", map[string]string{"name": name, "password": testPassword}, &s); st != 201 {
			t.Fatalf("sign up %s on %s: %d %s", name, n.name, st, body)
		}
		return s.Token
	}
	ann, ben := signUp(a, "Ann"), signUp(b, "Ben")
	if st, body := nodeCall(t, a, "POST", "/api/v1/follows", ann, map[string]string{"name": "Ben"}, nil); st != 201 {
		t.Fatalf("Ann follows Ben through a: %d %s", st, body)
	}
	nodeCall(t, b, "GET", "/api/v1/account", ben, nil, nil) // Ben is about, on b

	clock.Skip(social.OnlineWindow + time.Second) // both away
	annStream := openPlayerStream(t, ctx, a, "Ann", ann)
	start := time.Now()
	openPlayerStream(t, ctx, c, "Ben", ben)
	ev := annStream.next("followOnline")
	took := time.Since(start)
	if ev.Follow == nil || ev.Follow.Name != "Ben" {
		t.Fatalf("followOnline on Ann's stream on a: %+v", ev)
	}
	t.Logf("Ben's coming online on node c reached Ann's stream on node a %v after his stream opened", took)

	// Node b hears of it on its own: every node gets the note, none
	// waits for another, so b may hear a moment after a.
	for {
		var follows struct{ Follows []social.Followed }
		st, body := nodeCall(t, b, "GET", "/api/v1/follows", ann, nil, &follows)
		if st == 200 && len(follows.Follows) == 1 && follows.Follows[0].Online {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("Ann's follows asked on b: %d %s; want Ben online", st, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
	var seated table.Seated
	if st, body := nodeCall(t, b, "POST", "/api/v1/tables", ben, map[string]any{"game": "quizl", "seats": []string{"me"}}, &seated); st != 201 {
		t.Fatalf("Ben's game through b: %d %s", st, body)
	}
	if ev := annStream.next("followPlaying"); ev.Follow == nil || ev.Follow.Table == nil || ev.Follow.Table.ID != seated.Table {
		t.Errorf("followPlaying on Ann's stream on a: %+v, want table %s", ev.Follow, seated.Table)
	}
}
