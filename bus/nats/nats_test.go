package nats

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"parlour/bus"
	"parlour/bus/bustest"
	"parlour/bus/nats/natstest"
)

// runServer and port are natstest's, named short for these tests.
func runServer(t testing.TB, port int) *server.Server { return natstest.Run(t, port) }

func port(s *server.Server) int { return natstest.Port(s) }

func connect(t testing.TB, url, prefix, node string, h bus.Handler) (*Bus, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	b, err := Connect(ctx, Config{URL: url, Node: node, Prefix: prefix, Handler: h})
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { b.Close() })
	return b, nil
}

// TestContract runs the bus contract over one NATS server, each test
// under its own subject prefix, as if on a cluster of its own.
func TestContract(t *testing.T) {
	s := runServer(t, -1)
	var n atomic.Int64
	bustest.Run(t, func(t *testing.T) bustest.Join {
		prefix := fmt.Sprintf("test%d", n.Add(1))
		return func(t *testing.T, name string, h bus.Handler) (bus.Bus, error) {
			return connect(t, s.ClientURL(), prefix, name, h)
		}
	})
}

// TestUnreachable: a node that cannot reach NATS at start says so, with
// the address it tried, and does not hang; bad settings are refused in
// words.
func TestUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	tests := []struct {
		name, url, node string
		want            []string // in the error
		not             string   // not in the error
	}{
		{"nobody there", "nats://" + addr, "a", []string{"NATS at nats://" + addr, "refused"}, ""},
		{"no scheme", addr, "a", []string{"NATS at " + addr, "refused"}, ""},
		{"one of two", "nats://" + addr + ",nats://" + addr, "a", []string{"NATS at nats://" + addr + ",nats://" + addr, "refused"}, ""},
		{"credentials hidden", "nats://alice:s3cret@" + addr, "a", []string{"NATS at nats://xxxxx@" + addr, "refused"}, "s3cret"},
		{"no address", "", "a", []string{"NATS", "empty"}, ""},
		{"not a URL", "nats://[::1", "a", []string{"NATS address", "[::1"}, ""},
		{"not a URL, with credentials", "nats://bob:pw@[::1", "a", []string{"NATS address", "not shown"}, "pw"},
		{"no host", "nats://:4222", "a", []string{"NATS address"}, ""},
		{"bad node name", "nats://" + addr, "a.b", []string{"node name"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			b, err := Connect(ctx, Config{URL: tc.url, Node: tc.node})
			if err == nil {
				b.Close()
				t.Fatal("connected")
			}
			t.Logf("%v (after %v)", err, time.Since(start).Round(time.Millisecond))
			if errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("waited out its deadline rather than failing at once: %v", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if tc.not != "" && strings.Contains(err.Error(), tc.not) {
				t.Errorf("error %q shows %q", err, tc.not)
			}
		})
	}
}

// waitFor polls cond until it holds, failing the test after d.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	end := time.Now().Add(d)
	for !cond() {
		if time.Now().After(end) {
			t.Fatalf("after %v: %s", d, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestReconnect restarts the NATS server under two nodes: while it is
// down, requests fail at once with ErrUnavailable; once it is back, the
// nodes reconnect by themselves, subscribers learn they may have missed
// changes, and changes and requests flow again, with nothing done by
// the nodes' users.
func TestReconnect(t *testing.T) {
	s := runServer(t, -1)
	p := port(s)
	url := s.ClientURL()
	a, err := connect(t, url, "parlour", "a", func(ctx context.Context, req bus.Request) ([]byte, error) {
		return append([]byte("a has "), req.Data...), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := connect(t, url, "parlour", "b", nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := a.Own(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	sub, err := b.Subscribe(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Publish("t", 1, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if c, err := sub.Next(ctx); err != nil || c.Version != 1 || c.Gap {
		t.Fatalf("before the restart: %+v, %v", c, err)
	}
	if err := b.Ping(ctx); err != nil {
		t.Errorf("a ping before the restart: %v", err)
	}

	s.Shutdown()
	s.WaitForShutdown()
	waitFor(t, 10*time.Second, "the nodes still think they are connected", func() bool {
		return !a.nc.IsConnected() && !b.nc.IsConnected()
	})
	// Failing at once is told by the error: a request that waited for
	// NATS to come back would end with its context's deadline.
	start := time.Now()
	_, err = b.Request(ctx, bus.ToOwner("t"), []byte("move"))
	if !errors.Is(err, bus.ErrUnavailable) || !strings.Contains(err.Error(), "NATS at "+url) || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("request while NATS is down: %v, want ErrUnavailable naming NATS at %s", err, url)
	}
	t.Logf("the request failed in %v", time.Since(start))
	if err := b.Ping(ctx); !errors.Is(err, bus.ErrUnavailable) {
		t.Errorf("a ping while NATS is down: %v, want ErrUnavailable", err)
	}
	if _, err := b.Subscribe(ctx, "other"); !errors.Is(err, bus.ErrUnavailable) {
		t.Errorf("a new subscription while NATS is down: %v, want ErrUnavailable", err)
	}
	// Published while down: nats.go keeps it and sends it when back.
	if err := a.Publish("t", 2, []byte("two")); err != nil {
		t.Errorf("publishing while NATS is down: %v", err)
	}

	restarted := time.Now()
	runServer(t, p)
	waitFor(t, 10*time.Second, "the nodes did not reconnect", func() bool {
		return a.nc.IsConnected() && b.nc.IsConnected()
	})
	t.Logf("both nodes reconnected %v after the server came back", time.Since(restarted).Round(time.Millisecond))
	if err := b.Ping(ctx); err != nil {
		t.Errorf("a ping once NATS is back: %v", err)
	}

	// The first thing the subscriber hears is that it may have missed
	// changes: a bare mark, or the kept change marked.
	c, err := sub.Next(ctx)
	if err != nil || !c.Gap {
		t.Fatalf("after the restart: %+v, %v, want a gap", c, err)
	}
	last := c.Version
	// Requests reach the owner again (its subscription came back by
	// itself), and so do changes.
	waitFor(t, 10*time.Second, "requests to the owner still fail", func() bool {
		got, err := b.Request(ctx, bus.ToOwner("t"), []byte("move"))
		return err == nil && string(got) == "a has move"
	})
	if err := a.Publish("t", 3, []byte("three")); err != nil {
		t.Fatal(err)
	}
	for last < 3 {
		c, err := sub.Next(ctx)
		if err != nil {
			t.Fatalf("waiting for version 3: %v", err)
		}
		if c.Version <= last {
			t.Fatalf("version %d after %d", c.Version, last)
		}
		last = c.Version
	}
	if got, err := a.Nodes(ctx); err != nil || strings.Join(got, " ") != "a b" {
		t.Errorf("Nodes after the restart: %q, %v", got, err)
	}
}

// TestOwnerCut cuts the owner's connection to NATS the way a kill -9 or
// a crash does, without a goodbye: NATS drops its subscriptions, and a
// request to the table fails at once with ErrNoResponder rather than
// wait for its deadline, so that another node can take the table over.
func TestOwnerCut(t *testing.T) {
	s := runServer(t, -1)
	h := func(ctx context.Context, req bus.Request) ([]byte, error) { return []byte("ok"), nil }
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// a waits long before it reconnects, as a dead node would forever.
	a, err := Connect(ctx, Config{URL: s.ClientURL(), Node: "a", Handler: h, ReconnectWait: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	b, err := connect(t, s.ClientURL(), "parlour", "b", h)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Own(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Request(ctx, bus.ToOwner("t"), nil); err != nil {
		t.Fatal(err)
	}
	// The server drops a's connection, as it does when a's process dies
	// and its socket closes: until a comes back, nobody answers for t.
	cid, err := a.nc.GetClientID()
	if err != nil {
		t.Fatal(err)
	}
	s.DisconnectClientByID(cid)
	waitFor(t, 5*time.Second, "the owner's connection is still up", func() bool { return !a.nc.IsConnected() })
	// NATS says at once that nobody listens; a request that waited for
	// an answer would end with its context's deadline instead.
	start := time.Now()
	_, err = b.Request(ctx, bus.ToOwner("t"), nil)
	if !errors.Is(err, bus.ErrNoResponder) || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("request to a cut owner: %v, want ErrNoResponder", err)
	}
	t.Logf("the request failed in %v", time.Since(start))
}

// TestCloseWhileDown: a node shutting down while NATS is away does not
// wait for it.
func TestCloseWhileDown(t *testing.T) {
	s := runServer(t, -1)
	a, err := connect(t, s.ClientURL(), "parlour", "a", func(ctx context.Context, req bus.Request) ([]byte, error) { return nil, nil })
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.Own(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Subscribe(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	s.Shutdown()
	waitFor(t, 5*time.Second, "the node is still connected", func() bool { return !a.nc.IsConnected() })
	// Without a connection there is nothing to drain: a Close that
	// drained anyway would wait drainWait for a confirmation that cannot
	// come.
	start := time.Now()
	if err := a.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if d := time.Since(start); d >= drainWait {
		t.Errorf("Close took %v while NATS was down: it waited for a drain (at most %v)", d, drainWait)
	}
}
