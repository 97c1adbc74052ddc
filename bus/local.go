package bus

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"parlour/bus/internal/feed"
)

// Hub is the in-process bus: the nodes that join it share one process.
// A single node uses it as its bus, so that a server written against Bus
// runs the same way on one machine as on several; tests join several
// nodes to stand in for a cluster.
//
// It keeps the contract as a network would: payloads are copied on the
// way in, a handler's error reaches the requester as text, and the same
// size limit holds.
type Hub struct {
	mu     sync.Mutex
	nodes  map[string]*Local
	subs   map[string]map[*localSub]struct{} // by table
	owners map[string][]*Local               // by table
	turn   int                               // spreads requests over a table's owners
}

// NewHub returns an empty hub.
func NewHub() *Hub {
	return &Hub{nodes: map[string]*Local{}, subs: map[string]map[*localSub]struct{}{}, owners: map[string][]*Local{}}
}

// Join connects the node called name, which answers requests with handle
// (nil: it takes none). A name already connected is refused.
func (h *Hub) Join(name string, handle Handler) (*Local, error) {
	if err := CheckName("node", name); err != nil {
		return nil, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.nodes[name]; ok {
		return nil, fmt.Errorf("bus: node name %q is taken: another node runs under it", name)
	}
	n := &Local{hub: h, name: name, handle: handle, subs: map[*localSub]struct{}{}}
	h.nodes[name] = n
	return n, nil
}

// Local is one node joined to a Hub.
type Local struct {
	hub    *Hub
	name   string
	handle Handler
	busy   sync.WaitGroup // requests under way

	// guarded by hub.mu
	closed bool
	subs   map[*localSub]struct{}
}

var _ Bus = (*Local)(nil)

// Node returns the node's name.
func (n *Local) Node() string { return n.name }

// Publish hands the change to every subscriber of table on the hub.
func (n *Local) Publish(table string, version int, data []byte) error {
	if err := CheckPublish(table, version, data); err != nil {
		return err
	}
	data = bytes.Clone(data)
	h := n.hub
	h.mu.Lock()
	defer h.mu.Unlock()
	if n.closed {
		return fmt.Errorf("bus: publishing table %s: %w", table, ErrClosed)
	}
	for s := range h.subs[table] {
		s.f.Push(version, data)
	}
	return nil
}

// Subscribe follows table's changes.
func (n *Local) Subscribe(ctx context.Context, table string) (Subscription, error) {
	if err := CheckName("table", table); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("bus: subscribing to table %s: %w", table, err)
	}
	h := n.hub
	h.mu.Lock()
	defer h.mu.Unlock()
	if n.closed {
		return nil, fmt.Errorf("bus: subscribing to table %s: %w", table, ErrClosed)
	}
	s := &localSub{n: n, table: table, f: feed.New(Buffer)}
	if h.subs[table] == nil {
		h.subs[table] = map[*localSub]struct{}{}
	}
	h.subs[table][s] = struct{}{}
	n.subs[s] = struct{}{}
	return s, nil
}

// Own makes the node answer for table.
func (n *Local) Own(ctx context.Context, table string) error {
	if err := CheckName("table", table); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("bus: owning table %s: %w", table, err)
	}
	h := n.hub
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case n.closed:
		return fmt.Errorf("bus: owning table %s: %w", table, ErrClosed)
	case n.handle == nil:
		return fmt.Errorf("bus: node %s takes no requests, so cannot own table %s", n.name, table)
	}
	if !slices.Contains(h.owners[table], n) {
		h.owners[table] = append(h.owners[table], n)
	}
	return nil
}

// Disown stops answering for table.
func (n *Local) Disown(ctx context.Context, table string) error {
	if err := CheckName("table", table); err != nil {
		return err
	}
	h := n.hub
	h.mu.Lock()
	defer h.mu.Unlock()
	h.disown(n, table)
	return nil
}

// disown drops n from table's owners. h.mu must be held.
func (h *Hub) disown(n *Local, table string) {
	o := slices.DeleteFunc(h.owners[table], func(m *Local) bool { return m == n })
	if len(o) == 0 {
		delete(h.owners, table)
	} else {
		h.owners[table] = o
	}
}

// Request asks the node at to.
func (n *Local) Request(ctx context.Context, to Address, data []byte) ([]byte, error) {
	if err := to.Check(); err != nil {
		return nil, err
	}
	if len(data) > MaxData {
		return nil, fmt.Errorf("bus: request to %v: %w", to, ErrTooLarge)
	}
	ctx, cancel := WithDeadline(ctx)
	defer cancel()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("bus: request to %v: %w", to, err)
	}
	h := n.hub
	h.mu.Lock()
	if n.closed {
		h.mu.Unlock()
		return nil, fmt.Errorf("bus: request to %v: %w", to, ErrClosed)
	}
	var at *Local
	if to.Node != "" {
		at = h.nodes[to.Node]
	} else if o := h.owners[to.Table]; len(o) > 0 {
		at = o[h.turn%len(o)]
		h.turn++
	}
	if at != nil {
		// Under h.mu, so that Close, which takes at out of the hub
		// under it too, waits for this request.
		at.busy.Add(1)
	}
	h.mu.Unlock()
	if at == nil {
		return nil, fmt.Errorf("bus: request to %v: %w", to, ErrNoResponder)
	}
	deadline, _ := ctx.Deadline()
	req := Request{From: n.name, To: to, Data: bytes.Clone(data)}
	type answer struct {
		b   []byte
		err error
	}
	done := make(chan answer, 1)
	go func() {
		defer at.busy.Done()
		b, err := at.serve(deadline, req)
		done <- answer{b, err}
	}()
	select {
	case a := <-done:
		if a.err != nil {
			return nil, fmt.Errorf("bus: request to %v: %w", to, &RemoteError{Node: at.name, Msg: a.err.Error()})
		}
		return a.b, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("bus: request to %v: no answer in time: %w", to, ctx.Err())
	}
}

// serve runs the node's handler on req, as the requester's deadline
// allows, and returns a copy of its answer.
func (n *Local) serve(deadline time.Time, req Request) ([]byte, error) {
	if n.handle == nil {
		return nil, fmt.Errorf("node %s takes no requests", n.name)
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	b, err := n.handle(ctx, req)
	if err != nil {
		return nil, err
	}
	if len(b) > MaxData {
		return nil, fmt.Errorf("the answer is %d bytes, over the bus's %d", len(b), MaxData)
	}
	return bytes.Clone(b), nil
}

// Nodes returns the hub's nodes.
func (n *Local) Nodes(ctx context.Context) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("bus: listing nodes: %w", err)
	}
	h := n.hub
	h.mu.Lock()
	defer h.mu.Unlock()
	if n.closed {
		return nil, fmt.Errorf("bus: listing nodes: %w", ErrClosed)
	}
	names := make([]string, 0, len(h.nodes))
	for name := range h.nodes {
		names = append(names, name)
	}
	slices.Sort(names)
	return names, nil
}

// Close leaves the hub.
func (n *Local) Close() error {
	h := n.hub
	h.mu.Lock()
	if n.closed {
		h.mu.Unlock()
		return nil
	}
	n.closed = true
	delete(h.nodes, n.name)
	for table, o := range h.owners {
		if slices.Contains(o, n) {
			h.disown(n, table)
		}
	}
	subs := n.subs
	n.subs = nil
	for s := range subs {
		h.unsubscribe(s)
	}
	h.mu.Unlock()
	n.busy.Wait()
	for s := range subs {
		s.f.Close()
	}
	return nil
}

// unsubscribe takes s out of the hub. h.mu must be held.
func (h *Hub) unsubscribe(s *localSub) {
	delete(h.subs[s.table], s)
	if len(h.subs[s.table]) == 0 {
		delete(h.subs, s.table)
	}
}

// localSub is a subscription on a Hub.
type localSub struct {
	n     *Local
	table string
	f     *feed.Feed
}

func (s *localSub) Next(ctx context.Context) (Change, error) {
	it, ok, err := s.f.Next(ctx)
	if !ok {
		return Change{}, fmt.Errorf("bus: following table %s: %w", s.table, ErrClosed)
	}
	if err != nil {
		return Change{}, fmt.Errorf("bus: following table %s: %w", s.table, err)
	}
	return Change{Table: s.table, Version: it.Version, Data: it.Data, Gap: it.Gap}, nil
}

func (s *localSub) Close() error {
	h := s.n.hub
	h.mu.Lock()
	h.unsubscribe(s)
	delete(s.n.subs, s)
	h.mu.Unlock()
	s.f.Close()
	return nil
}
