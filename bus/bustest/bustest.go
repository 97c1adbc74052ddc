// Package bustest is the contract every bus.Bus keeps, as tests: the
// in-process Hub and bus/nats run the same suite, so that a server which
// works on one node works on several.
package bustest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"parlour/bus"
)

// Join connects a node called name to the network under test, answering
// requests with h. It registers the node's Close with t.Cleanup.
type Join func(t *testing.T, name string, h bus.Handler) (bus.Bus, error)

// Network makes a fresh network for one test: nodes joined through one
// Join see each other and nothing of another test's.
type Network func(t *testing.T) Join

// prompt is how soon an answer that needs no waiting must come: well
// under the deadlines the tests set, so that a hang shows as a failure
// and not as a slow pass.
const prompt = 2 * time.Second

// Run runs the contract's tests against the networks net makes.
func Run(t *testing.T, net Network) {
	tests := []struct {
		name string
		run  func(t *testing.T, join Join)
	}{
		{"Names", testNames},
		{"BadPublish", testBadPublish},
		{"OtherNode", testOtherNode},
		{"OrderPerTable", testOrderPerTable},
		{"Gaps", testGaps},
		{"SlowSubscriber", testSlowSubscriber},
		{"Unsubscribe", testUnsubscribe},
		{"ManySubscribers", testManySubscribers},
		{"RequestOwner", testRequestOwner},
		{"RequestNode", testRequestNode},
		{"RemoteError", testRemoteError},
		{"OwnerGone", testOwnerGone},
		{"TwoOwners", testTwoOwners},
		{"Concurrent", testConcurrent},
		{"Deadline", testDeadline},
		{"Cancel", testCancel},
		{"Copies", testCopies},
		{"TooLarge", testTooLarge},
		{"Close", testClose},
		{"CloseFinishes", testCloseFinishes},
		{"Nodes", testNodes},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, net(t)) })
	}
}

func mustJoin(t *testing.T, join Join, name string, h bus.Handler) bus.Bus {
	t.Helper()
	b, err := join(t, name, h)
	if err != nil {
		t.Fatalf("joining node %s: %v", name, err)
	}
	return b
}

func ctxFor(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func subscribe(t *testing.T, b bus.Bus, table string) bus.Subscription {
	t.Helper()
	s, err := b.Subscribe(ctxFor(t, prompt), table)
	if err != nil {
		t.Fatalf("node %s subscribing to %s: %v", b.Node(), table, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func publish(t *testing.T, b bus.Bus, table string, version int, data string) {
	t.Helper()
	if err := b.Publish(table, version, []byte(data)); err != nil {
		t.Fatalf("node %s publishing %s v%d: %v", b.Node(), table, version, err)
	}
}

// next reads one change, failing the test if none comes promptly.
func next(t *testing.T, s bus.Subscription) bus.Change {
	t.Helper()
	c, err := s.Next(ctxFor(t, prompt))
	if err != nil {
		t.Fatalf("waiting for a change: %v", err)
	}
	return c
}

// none checks that no change comes within a moment.
func none(t *testing.T, s bus.Subscription) {
	t.Helper()
	if c, err := s.Next(ctxFor(t, 100*time.Millisecond)); err == nil {
		t.Fatalf("got change %+v, want none", c)
	} else if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("waiting for no change: %v, want the deadline", err)
	}
}

func echo(name string) bus.Handler {
	return func(ctx context.Context, req bus.Request) ([]byte, error) {
		return []byte(name + ":" + req.From + ":" + string(req.Data)), nil
	}
}

func testNames(t *testing.T, join Join) {
	a := mustJoin(t, join, "a", echo("a"))
	long := strings.Repeat("x", bus.MaxName+1)
	for _, name := range []string{"", "a.b", "a b", "*", ">", "t>", "tâble", "a\nb", long} {
		t.Run(fmt.Sprintf("%q", name), func(t *testing.T) {
			if _, err := join(t, name, nil); err == nil {
				t.Errorf("joining as node %q: no error", name)
			}
			if err := a.Publish(name, 1, nil); err == nil {
				t.Errorf("publishing to table %q: no error", name)
			}
			if _, err := a.Subscribe(ctxFor(t, prompt), name); err == nil {
				t.Errorf("subscribing to table %q: no error", name)
			}
			if err := a.Own(ctxFor(t, prompt), name); err == nil {
				t.Errorf("owning table %q: no error", name)
			}
			for _, to := range []bus.Address{bus.ToNode(name), bus.ToOwner(name)} {
				if _, err := a.Request(ctxFor(t, prompt), to, nil); err == nil {
					t.Errorf("request to %v: no error", to)
				}
			}
		})
	}
	if _, err := a.Request(ctxFor(t, prompt), bus.Address{Node: "a", Table: "t"}, nil); err == nil {
		t.Error("a request to a node and a table at once: no error")
	}
	// A name in use is refused, and the node that has it goes on.
	if _, err := join(t, "a", nil); err == nil || !strings.Contains(err.Error(), `"a"`) {
		t.Errorf("joining as a second node a: %v, want an error naming it", err)
	}
	if b, err := a.Request(ctxFor(t, prompt), bus.ToNode("a"), []byte("x")); err != nil || string(b) != "a:a:x" {
		t.Errorf("node a after the refused join: %q, %v", b, err)
	}
	// The longest name is fine.
	ok := strings.Repeat("Z", bus.MaxName)
	mustJoin(t, join, ok, nil)
	subscribe(t, a, ok)
	publish(t, a, ok, 1, "")
}

func testBadPublish(t *testing.T, join Join) {
	a := mustJoin(t, join, "a", nil)
	s := subscribe(t, a, "t")
	for _, v := range []int{0, -1} {
		if err := a.Publish("t", v, []byte("x")); err == nil {
			t.Errorf("publishing version %d: no error", v)
		}
	}
	if err := a.Publish("t", 1, make([]byte, bus.MaxData+1)); !errors.Is(err, bus.ErrTooLarge) {
		t.Errorf("publishing %d bytes: %v, want ErrTooLarge", bus.MaxData+1, err)
	}
	none(t, s)
}

func testOtherNode(t *testing.T, join Join) {
	a := mustJoin(t, join, "a", nil)
	b := mustJoin(t, join, "b", nil)
	c := mustJoin(t, join, "c", nil)
	onB := subscribe(t, b, "t1")
	onA := subscribe(t, a, "t1") // the publisher's own node hears it too
	other := subscribe(t, c, "t2")
	publish(t, a, "t1", 1, "hello")
	for _, s := range []bus.Subscription{onB, onA} {
		got := next(t, s)
		if got.Table != "t1" || got.Version != 1 || string(got.Data) != "hello" || got.Gap {
			t.Errorf("got %+v, want t1 v1 hello", got)
		}
	}
	none(t, other)
	// Empty data arrives as empty data.
	publish(t, c, "t2", 7, "")
	if got := next(t, other); got.Version != 7 || len(got.Data) != 0 || got.Gap {
		t.Errorf("got %+v, want t2 v7 with nothing", got)
	}
}

func testOrderPerTable(t *testing.T, join Join) {
	a := mustJoin(t, join, "a", nil)
	b := mustJoin(t, join, "b", nil)
	s1 := subscribe(t, b, "t1")
	s2 := subscribe(t, b, "t2")
	const n = bus.Buffer - 1
	for v := 1; v <= n; v++ {
		publish(t, a, "t1", v, fmt.Sprint("one ", v))
		publish(t, a, "t2", v, fmt.Sprint("two ", v))
	}
	for _, s := range []struct {
		sub    bus.Subscription
		table  string
		prefix string
	}{{s1, "t1", "one "}, {s2, "t2", "two "}} {
		for v := 1; v <= n; v++ {
			got := next(t, s.sub)
			if got.Table != s.table || got.Version != v || string(got.Data) != fmt.Sprint(s.prefix, v) || got.Gap {
				t.Fatalf("change %d of %s: got %+v", v, s.table, got)
			}
		}
		none(t, s.sub)
	}
}

func testGaps(t *testing.T, join Join) {
	a := mustJoin(t, join, "a", nil)
	b := mustJoin(t, join, "b", nil)
	s := subscribe(t, b, "t")
	// A subscriber may start at any version; a skipped one is a gap; a
	// version at or below the last one delivered (a late publish) is
	// dropped.
	for _, v := range []int{10, 11, 14, 12, 14, 15} {
		publish(t, a, "t", v, fmt.Sprint(v))
	}
	want := []struct {
		v   int
		gap bool
	}{{10, false}, {11, false}, {14, true}, {15, false}}
	for _, w := range want {
		if got := next(t, s); got.Version != w.v || got.Gap != w.gap || string(got.Data) != fmt.Sprint(w.v) {
			t.Errorf("got %+v, want version %d gap %v", got, w.v, w.gap)
		}
	}
	none(t, s)
}

func testSlowSubscriber(t *testing.T, join Join) {
	a := mustJoin(t, join, "a", nil)
	b := mustJoin(t, join, "b", nil)
	slow := subscribe(t, b, "t")
	fast := subscribe(t, b, "t")
	const n = bus.Buffer*2 + 50
	// The fast one reads as the changes come, and misses nothing: the
	// slow one holds nobody up. It is given them a half buffer at a time,
	// so that it keeps up however the machine schedules it.
	read := make(chan int)
	fastErr := make(chan error, 1)
	go func() {
		for v := 1; v <= n; v++ {
			c, err := fast.Next(ctxFor(t, prompt))
			if err == nil && (c.Version != v || c.Gap) {
				err = fmt.Errorf("fast subscriber: got %+v, want version %d", c, v)
			}
			if err != nil {
				fastErr <- err
				return
			}
			read <- v
		}
		fastErr <- nil
	}()
	start := time.Now()
	for v := 1; v <= n; v++ {
		publish(t, a, "t", v, fmt.Sprint(v))
		if v%(bus.Buffer/2) == 0 || v == n {
			for r := 0; r < v; {
				select {
				case r = <-read:
				case err := <-fastErr:
					t.Fatal(err)
				}
			}
		}
	}
	if err := <-fastErr; err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > prompt {
		t.Errorf("publishing %d changes to a subscriber that reads none took %v: the publisher waited for it", n, d)
	}
	// The slow one gets a gap, and after it the newest changes in order.
	first := next(t, slow)
	if !first.Gap || first.Version <= bus.Buffer {
		t.Fatalf("slow subscriber's first change: %+v, want a gap past version %d", first, bus.Buffer)
	}
	if string(first.Data) != fmt.Sprint(first.Version) {
		t.Errorf("the gap's change holds %q, want its own data", first.Data)
	}
	got := 1
	for last := first.Version; last < n; got++ {
		c := next(t, slow)
		if c.Version <= last || string(c.Data) != fmt.Sprint(c.Version) {
			t.Fatalf("slow subscriber: %+v after version %d", c, last)
		}
		last = c.Version
	}
	if got > bus.Buffer {
		t.Errorf("slow subscriber read %d changes after falling behind, want at most %d held", got, bus.Buffer)
	}
	none(t, slow)
	// Once it keeps up, it has everything again.
	publish(t, a, "t", n+1, "more")
	if c := next(t, slow); c.Version != n+1 || c.Gap {
		t.Errorf("after catching up: %+v, want version %d without a gap", c, n+1)
	}
}

func testUnsubscribe(t *testing.T, join Join) {
	a := mustJoin(t, join, "a", nil)
	b := mustJoin(t, join, "b", nil)
	gone := subscribe(t, b, "t")
	stays := subscribe(t, b, "t")
	publish(t, a, "t", 1, "x")
	next(t, gone)
	next(t, stays)
	if err := gone.Close(); err != nil {
		t.Fatalf("closing a subscription: %v", err)
	}
	if err := gone.Close(); err != nil {
		t.Errorf("closing a subscription twice: %v", err)
	}
	publish(t, a, "t", 2, "y")
	if c := next(t, stays); c.Version != 2 {
		t.Errorf("the other subscriber of the table on the node: %+v, want version 2", c)
	}
	if _, err := gone.Next(ctxFor(t, prompt)); !errors.Is(err, bus.ErrClosed) {
		t.Errorf("Next after Close: %v, want ErrClosed", err)
	}
	// The last subscriber of a table on a node gone, a new one still
	// works.
	stays.Close()
	again := subscribe(t, b, "t")
	publish(t, a, "t", 3, "z")
	if c := next(t, again); c.Version != 3 || c.Gap {
		t.Errorf("subscribing again: %+v, want version 3", c)
	}
}

func testManySubscribers(t *testing.T, join Join) {
	a := mustJoin(t, join, "a", nil)
	b := mustJoin(t, join, "b", nil)
	// Subscribers of one table on one node, coming all at once, each get
	// every change; those that leave take nothing from the others.
	const n = 20
	subs := make([]bus.Subscription, n)
	errs := make(chan error, n)
	for i := range subs {
		go func() {
			var err error
			subs[i], err = b.Subscribe(ctxFor(t, prompt), "t")
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	publish(t, a, "t", 1, "x")
	for i, s := range subs {
		if c := next(t, s); c.Version != 1 {
			t.Errorf("subscriber %d: %+v", i, c)
		}
		if i%2 == 0 {
			s.Close()
		}
	}
	publish(t, a, "t", 2, "y")
	for i, s := range subs {
		if i%2 == 0 {
			continue
		}
		if c := next(t, s); c.Version != 2 || c.Gap {
			t.Errorf("subscriber %d: %+v", i, c)
		}
		s.Close()
	}
}

// recorder is a handler that records what it was asked.
type recorder struct {
	name string
	mu   sync.Mutex
	got  []bus.Request
}

func (r *recorder) handle(ctx context.Context, req bus.Request) ([]byte, error) {
	r.mu.Lock()
	r.got = append(r.got, req)
	r.mu.Unlock()
	return []byte(r.name + " has " + string(req.Data)), nil
}

func (r *recorder) requests() []bus.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

func testRequestOwner(t *testing.T, join Join) {
	ra := &recorder{name: "a"}
	a := mustJoin(t, join, "a", ra.handle)
	b := mustJoin(t, join, "b", echo("b"))
	if err := a.Own(ctxFor(t, prompt), "t"); err != nil {
		t.Fatal(err)
	}
	if err := a.Own(ctxFor(t, prompt), "t"); err != nil {
		t.Errorf("owning a table twice: %v", err)
	}
	for _, from := range []bus.Bus{b, a} {
		got, err := from.Request(ctxFor(t, prompt), bus.ToOwner("t"), []byte("move 1"))
		if err != nil || string(got) != "a has move 1" {
			t.Errorf("request from %s to the owner of t: %q, %v", from.Node(), got, err)
		}
	}
	reqs := ra.requests()
	want := []bus.Request{
		{From: "b", To: bus.ToOwner("t"), Data: []byte("move 1")},
		{From: "a", To: bus.ToOwner("t"), Data: []byte("move 1")},
	}
	if len(reqs) != len(want) {
		t.Fatalf("owner got %d requests, want %d", len(reqs), len(want))
	}
	for i := range want {
		if reqs[i].From != want[i].From || reqs[i].To != want[i].To || !bytes.Equal(reqs[i].Data, want[i].Data) {
			t.Errorf("request %d: %+v, want %+v", i, reqs[i], want[i])
		}
	}
	// An empty request is a request.
	if got, err := b.Request(ctxFor(t, prompt), bus.ToOwner("t"), nil); err != nil || string(got) != "a has " {
		t.Errorf("empty request: %q, %v", got, err)
	}
}

func testRequestNode(t *testing.T, join Join) {
	ra := &recorder{name: "a"}
	mustJoin(t, join, "a", ra.handle)
	b := mustJoin(t, join, "b", nil)
	got, err := b.Request(ctxFor(t, prompt), bus.ToNode("a"), []byte("ping"))
	if err != nil || string(got) != "a has ping" {
		t.Fatalf("request to node a: %q, %v", got, err)
	}
	if r := ra.requests(); len(r) != 1 || r[0].To != bus.ToNode("a") || r[0].From != "b" {
		t.Errorf("node a got %+v", r)
	}
	// A node without a handler answers that it takes no requests, and
	// cannot own a table.
	_, err = b.Request(ctxFor(t, prompt), bus.ToNode("b"), []byte("ping"))
	var re *bus.RemoteError
	if !errors.As(err, &re) || re.Node != "b" || !strings.Contains(re.Msg, "no requests") {
		t.Errorf("request to a node without a handler: %v", err)
	}
	if err := b.Own(ctxFor(t, prompt), "t"); err == nil {
		t.Error("a node without a handler owns a table")
	}
}

func testRemoteError(t *testing.T, join Join) {
	type private struct{ error }
	fail := func(ctx context.Context, req bus.Request) ([]byte, error) {
		return []byte("ignored"), fmt.Errorf("table t: %w", private{errors.New("not your turn")})
	}
	mustJoin(t, join, "a", fail)
	b := mustJoin(t, join, "b", nil)
	got, err := b.Request(ctxFor(t, prompt), bus.ToNode("a"), nil)
	var re *bus.RemoteError
	if !errors.As(err, &re) {
		t.Fatalf("got %q, %v, want a RemoteError", got, err)
	}
	if re.Node != "a" || re.Msg != "table t: not your turn" || got != nil {
		t.Errorf("got %+v and %q", re, got)
	}
	// Only the text crosses: the handler's own error values do not, on
	// one node as on several.
	var p private
	if errors.As(err, &p) {
		t.Error("the handler's error value reached the requester")
	}
	if !strings.Contains(err.Error(), "not your turn") {
		t.Errorf("error %q lost the handler's text", err)
	}
}

func testOwnerGone(t *testing.T, join Join) {
	a := mustJoin(t, join, "a", echo("a"))
	b := mustJoin(t, join, "b", echo("b"))
	c := mustJoin(t, join, "c", echo("c"))
	for _, tbl := range []string{"t1", "t2"} {
		if err := a.Own(ctxFor(t, prompt), tbl); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.Request(ctxFor(t, prompt), bus.ToOwner("t1"), nil); err != nil {
		t.Fatalf("while a owns t1: %v", err)
	}
	if err := a.Disown(ctxFor(t, prompt), "t1"); err != nil {
		t.Fatal(err)
	}
	if err := a.Disown(ctxFor(t, prompt), "never"); err != nil {
		t.Errorf("disowning a table never owned: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	// cases are asked from b, with a deadline far off: an answer must
	// come at once, not at the deadline.
	cases := []struct {
		name string
		to   bus.Address
		drop func()
	}{
		{"disowned", bus.ToOwner("t1"), nil},
		{"never owned", bus.ToOwner("t9"), nil},
		{"node closed", bus.ToNode("c"), nil},
		{"node never there", bus.ToNode("z"), nil},
		{"owner closed", bus.ToOwner("t2"), func() { a.Close() }},
		{"closed owner's node", bus.ToNode("a"), nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.drop != nil {
				tc.drop()
			}
			start := time.Now()
			_, err := b.Request(ctxFor(t, 10*time.Second), tc.to, []byte("move"))
			if d := time.Since(start); d > prompt {
				t.Errorf("took %v to fail", d)
			}
			if !errors.Is(err, bus.ErrNoResponder) {
				t.Fatalf("got %v, want ErrNoResponder", err)
			}
			if !strings.Contains(err.Error(), tc.to.String()) {
				t.Errorf("error %q does not say where the request went", err)
			}
		})
	}
	// Another node takes the table over, and requests reach it.
	if err := b.Own(ctxFor(t, prompt), "t2"); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Request(ctxFor(t, prompt), bus.ToOwner("t2"), []byte("m")); err != nil || string(got) != "b:b:m" {
		t.Errorf("after the takeover: %q, %v", got, err)
	}
}

func testTwoOwners(t *testing.T, join Join) {
	var na, nb atomic.Int32
	count := func(n *atomic.Int32) bus.Handler {
		return func(ctx context.Context, req bus.Request) ([]byte, error) {
			n.Add(1)
			return nil, nil
		}
	}
	a := mustJoin(t, join, "a", count(&na))
	b := mustJoin(t, join, "b", count(&nb))
	c := mustJoin(t, join, "c", nil)
	for _, o := range []bus.Bus{a, b} {
		if err := o.Own(ctxFor(t, prompt), "t"); err != nil {
			t.Fatal(err)
		}
	}
	const n = 40
	for i := range n {
		if _, err := c.Request(ctxFor(t, prompt), bus.ToOwner("t"), nil); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
	}
	if got := na.Load() + nb.Load(); got != n {
		t.Errorf("%d requests were handled %d times (a %d, b %d): want each exactly once", n, got, na.Load(), nb.Load())
	}
}

func testConcurrent(t *testing.T, join Join) {
	// Each handler call waits for the others: served one at a time, they
	// would wait until the deadline.
	const n = 8
	var arrived sync.WaitGroup
	arrived.Add(n)
	wait := func(ctx context.Context, req bus.Request) ([]byte, error) {
		arrived.Done()
		done := make(chan struct{})
		go func() { arrived.Wait(); close(done) }()
		select {
		case <-done:
			return req.Data, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	a := mustJoin(t, join, "a", wait)
	b := mustJoin(t, join, "b", nil)
	if err := a.Own(ctxFor(t, prompt), "t"); err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, n)
	for i := range n {
		to := bus.ToOwner("t")
		if i%2 == 0 {
			to = bus.ToNode("a")
		}
		go func() {
			want := fmt.Sprint(i)
			got, err := b.Request(ctxFor(t, prompt), to, []byte(want))
			if err == nil && string(got) != want {
				err = fmt.Errorf("request %d got the answer %q", i, got)
			}
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

func testDeadline(t *testing.T, join Join) {
	type seen struct {
		deadline time.Time
		has      bool
		err      error
	}
	seenc := make(chan seen, 2)
	stall := func(ctx context.Context, req bus.Request) ([]byte, error) {
		d, ok := ctx.Deadline()
		if string(req.Data) == "quick" {
			seenc <- seen{d, ok, nil}
			return nil, nil
		}
		<-ctx.Done() // the requester's deadline reaches the handler
		seenc <- seen{d, ok, ctx.Err()}
		time.Sleep(50 * time.Millisecond) // answering after the requester gave up
		return nil, ctx.Err()
	}
	mustJoin(t, join, "a", stall)
	b := mustJoin(t, join, "b", nil)
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := b.Request(ctx, bus.ToNode("a"), []byte("slow"))
	if d := time.Since(start); d > prompt {
		t.Errorf("the request came back after %v, its deadline was 200ms", d)
	}
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "node a") {
		t.Errorf("got %v, want the deadline, naming node a", err)
	}
	select {
	case s := <-seenc:
		if !s.has || !errors.Is(s.err, context.DeadlineExceeded) || s.deadline.After(start.Add(prompt)) {
			t.Errorf("the handler saw deadline %v (set %v), ending %v", s.deadline, s.has, s.err)
		}
	case <-time.After(prompt):
		t.Error("the handler's context did not end with the requester's deadline")
	}
	// Without a deadline, a request gets DefaultTimeout.
	if _, err := b.Request(context.Background(), bus.ToNode("a"), []byte("quick")); err != nil {
		t.Fatal(err)
	}
	s := <-seenc
	if left := time.Until(s.deadline); !s.has || left <= 0 || left > bus.DefaultTimeout {
		t.Errorf("a request without a deadline: the handler's deadline is %v away (set %v), want under %v", left, s.has, bus.DefaultTimeout)
	}
}

func testCancel(t *testing.T, join Join) {
	release := make(chan struct{})
	block := func(ctx context.Context, req bus.Request) ([]byte, error) {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return []byte("late"), nil
	}
	mustJoin(t, join, "a", block)
	b := mustJoin(t, join, "b", nil)
	defer close(release)
	// A request canceled while waiting returns at once.
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	start := time.Now()
	if _, err := b.Request(ctx, bus.ToNode("a"), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled request: %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > prompt {
		t.Errorf("the canceled request came back after %v", d)
	}
	// One canceled before it starts does not start.
	if _, err := b.Request(ctx, bus.ToNode("a"), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("request with a canceled context: %v, want context.Canceled", err)
	}
	// Next gives up with its context, and the subscription goes on.
	s := subscribe(t, b, "t")
	nctx, ncancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); ncancel() }()
	if _, err := s.Next(nctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Next canceled: %v, want context.Canceled", err)
	}
	publish(t, b, "t", 1, "after")
	if c := next(t, s); c.Version != 1 || string(c.Data) != "after" {
		t.Errorf("after a canceled Next: %+v", c)
	}
	// Calls with a context already over change nothing.
	done, stop := context.WithCancel(context.Background())
	stop()
	if _, err := b.Subscribe(done, "u"); !errors.Is(err, context.Canceled) {
		t.Errorf("Subscribe with a canceled context: %v", err)
	}
	if err := b.Own(done, "u"); err == nil {
		t.Error("Own with a canceled context: no error")
	}
}

func testCopies(t *testing.T, join Join) {
	// The data handed over is the receiver's: changing the sender's
	// slice afterwards changes nothing, as over a network.
	keep := make(chan []byte, 1)
	answer := make(chan []byte, 1)
	mut := func(ctx context.Context, req bus.Request) ([]byte, error) {
		keep <- req.Data
		out := []byte("answer")
		answer <- out
		return out, nil
	}
	mustJoin(t, join, "a", mut)
	b := mustJoin(t, join, "b", nil)
	s := subscribe(t, b, "t")
	data := []byte("change")
	if err := b.Publish("t", 1, data); err != nil {
		t.Fatal(err)
	}
	copy(data, "XXXXXX")
	if c := next(t, s); string(c.Data) != "change" {
		t.Errorf("subscriber got %q after the publisher changed its slice", c.Data)
	}
	req := []byte("request")
	got, err := b.Request(ctxFor(t, prompt), bus.ToNode("a"), req)
	if err != nil {
		t.Fatal(err)
	}
	copy(req, "XXXXXXX")
	copy(<-answer, "XXXXXX")
	if h := <-keep; string(h) != "request" {
		t.Errorf("handler's request changed to %q", h)
	}
	if string(got) != "answer" {
		t.Errorf("answer changed to %q", got)
	}
}

func testTooLarge(t *testing.T, join Join) {
	big := func(ctx context.Context, req bus.Request) ([]byte, error) {
		return make([]byte, bus.MaxData+1), nil
	}
	mustJoin(t, join, "a", big)
	b := mustJoin(t, join, "b", echo("b"))
	if _, err := b.Request(ctxFor(t, prompt), bus.ToNode("b"), make([]byte, bus.MaxData+1)); !errors.Is(err, bus.ErrTooLarge) {
		t.Errorf("request over MaxData: %v, want ErrTooLarge", err)
	}
	got, err := b.Request(ctxFor(t, prompt), bus.ToNode("b"), make([]byte, bus.MaxData-10))
	if err != nil || len(got) != bus.MaxData-10+4 {
		t.Errorf("request just under MaxData: %d bytes back, %v", len(got), err)
	}
	var re *bus.RemoteError
	if _, err := b.Request(ctxFor(t, prompt), bus.ToNode("a"), nil); !errors.As(err, &re) || re.Node != "a" {
		t.Errorf("an answer over MaxData: %v, want a RemoteError from a", err)
	}
	s := subscribe(t, b, "t")
	publish(t, b, "t", 1, string(make([]byte, bus.MaxData)))
	if c := next(t, s); len(c.Data) != bus.MaxData {
		t.Errorf("a change of MaxData bytes arrived with %d", len(c.Data))
	}
}

func testClose(t *testing.T, join Join) {
	a := mustJoin(t, join, "a", echo("a"))
	b := mustJoin(t, join, "b", nil)
	s := subscribe(t, a, "t")
	waiting := make(chan error, 1)
	go func() {
		_, err := s.Next(ctxFor(t, 10*time.Second))
		waiting <- err
	}()
	time.Sleep(20 * time.Millisecond)
	if err := a.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	select {
	case err := <-waiting:
		if !errors.Is(err, bus.ErrClosed) {
			t.Errorf("Next waiting at Close: %v, want ErrClosed", err)
		}
	case <-time.After(prompt):
		t.Fatal("Next still waits after Close")
	}
	if err := a.Close(); err != nil {
		t.Errorf("Close twice: %v", err)
	}
	checks := map[string]error{
		"Publish": a.Publish("t", 1, nil),
		"Own":     a.Own(ctxFor(t, prompt), "t"),
	}
	_, checks["Subscribe"] = a.Subscribe(ctxFor(t, prompt), "t")
	_, checks["Request"] = a.Request(ctxFor(t, prompt), bus.ToNode("b"), nil)
	_, checks["Nodes"] = a.Nodes(ctxFor(t, prompt))
	_, checks["Next"] = s.Next(ctxFor(t, prompt))
	for what, err := range checks {
		if !errors.Is(err, bus.ErrClosed) {
			t.Errorf("%s after Close: %v, want ErrClosed", what, err)
		}
	}
	// The others go on.
	sb := subscribe(t, b, "t")
	publish(t, b, "t", 1, "x")
	next(t, sb)
	// The name is free again.
	a2 := mustJoin(t, join, "a", echo("a2"))
	if got, err := b.Request(ctxFor(t, prompt), bus.ToNode("a"), []byte("x")); err != nil || string(got) != "a2:b:x" {
		t.Errorf("the node that took the name: %q, %v", got, err)
	}
	_ = a2
}

func testCloseFinishes(t *testing.T, join Join) {
	started := make(chan struct{})
	slow := func(ctx context.Context, req bus.Request) ([]byte, error) {
		close(started)
		time.Sleep(150 * time.Millisecond)
		return []byte("done"), nil
	}
	a := mustJoin(t, join, "a", slow)
	b := mustJoin(t, join, "b", nil)
	if err := a.Own(ctxFor(t, prompt), "t"); err != nil {
		t.Fatal(err)
	}
	type answer struct {
		b   []byte
		err error
	}
	got := make(chan answer, 1)
	go func() {
		r, err := b.Request(ctxFor(t, prompt), bus.ToOwner("t"), nil)
		got <- answer{r, err}
	}()
	<-started
	closed := make(chan error, 1)
	go func() { closed <- a.Close() }()
	// A request under way at Close is answered; new ones find nobody.
	if a := <-got; a.err != nil || string(a.b) != "done" {
		t.Errorf("request under way at Close: %q, %v", a.b, a.err)
	}
	if err := <-closed; err != nil {
		t.Errorf("Close: %v", err)
	}
	if _, err := b.Request(ctxFor(t, prompt), bus.ToOwner("t"), nil); !errors.Is(err, bus.ErrNoResponder) {
		t.Errorf("request after the owner closed: %v, want ErrNoResponder", err)
	}
}

func testNodes(t *testing.T, join Join) {
	a := mustJoin(t, join, "a", nil)
	mustJoin(t, join, "c", echo("c"))
	b := mustJoin(t, join, "b", nil)
	got, err := a.Nodes(ctxFor(t, prompt))
	if err != nil || !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("Nodes: %q, %v, want a b c", got, err)
	}
	b.Close()
	got, err = a.Nodes(ctxFor(t, prompt))
	if err != nil || !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("Nodes after b closed: %q, %v, want a c", got, err)
	}
}
