// Package bus carries what passes between the nodes of a Parlour cluster:
// a table's changes to the watchers on every node, and requests (a move
// that reached a node which does not run the table) to the one node that
// does, with the answer back.
//
// It is deliberately small. A table's state lives on its owner node and
// its record in the store; the bus holds nothing and promises little:
//
//   - Changes are fire and forget. Each carries the table's version, so a
//     watcher that missed some (it fell behind, or the node lost its
//     connection to the broker for a moment) learns so from the Gap mark
//     and reads the table again rather than showing a wrong state. Nothing
//     is replayed: the record in the store is the history.
//   - Requests are answered by exactly one node or fail: with ErrNoResponder
//     at once when nobody answers for the address (the owner is gone, so the
//     caller looks up or takes over ownership and retries), or with the
//     context's error when the answer does not come in time. A request
//     never waits without a deadline.
//   - Ownership on the bus is routing only. Who owns a table is decided by
//     a lease in the store, and every write of a move is fenced by the
//     lease's epoch there; a node that holds a table on the bus after it
//     lost the lease can answer, but cannot commit.
//
// The in-process implementation here (Hub) is the default, for one node;
// package bus/nats carries the same contract between processes. Both copy
// every payload and turn a handler's error into text, as a network would,
// so that code which works on one node does not break on several.
// Package bus/bustest holds the contract's tests, run against both.
package bus

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Bus is one node's connection to the others.
type Bus interface {
	// Node returns the name this node answers to.
	Node() string

	// Publish sends a change of table, now at version, to every
	// subscriber of the table on every node, this one included. It does
	// not wait for them: a subscriber that is not there, or too slow,
	// misses the change (see Change.Gap). Versions are the table's, one
	// more at every change, from 1.
	Publish(table string, version int, data []byte) error

	// Subscribe follows table's changes from now on: every change
	// published after Subscribe returns reaches the subscription, in the
	// order its publisher published them, unless it is dropped and
	// marked (see Change.Gap). A watcher subscribes first, then reads
	// the table, then applies the changes above the version it read:
	// so none falls between the read and the subscription.
	Subscribe(ctx context.Context, table string) (Subscription, error)

	// Own makes this node answer the requests addressed to table's owner
	// (ToOwner), until Disown or Close. If two nodes own a table at once,
	// as during a takeover while the old owner still runs, each request
	// reaches exactly one of them.
	Own(ctx context.Context, table string) error
	// Disown stops answering for table. Disowning a table the node does
	// not own does nothing.
	Disown(ctx context.Context, table string) error

	// Request sends data to the node at to and returns its answer. The
	// handler's error comes back as a *RemoteError. Nobody answering for
	// to fails at once with ErrNoResponder; an answer that has not come
	// when ctx ends (or after DefaultTimeout, if ctx has no deadline)
	// fails with ctx's error. The answering node's handler gets the same
	// deadline.
	Request(ctx context.Context, to Address, data []byte) ([]byte, error)

	// Nodes returns the names of the nodes connected now, this one
	// included, sorted: those that answer within a short while (at most
	// GatherWait, or until ctx ends).
	Nodes(ctx context.Context) ([]string, error)

	// Close stops taking requests, lets those under way finish, ends
	// every subscription and disconnects. It is safe to call twice.
	Close() error
}

// Subscription is one follower of one table's changes.
type Subscription interface {
	// Next returns the next change, waiting for it until ctx ends. After
	// Close, or once the bus is closed, it returns ErrClosed.
	Next(ctx context.Context) (Change, error)
	// Close ends the subscription.
	Close() error
}

// Change is one change of a table as its owner published it.
type Change struct {
	Table string
	// Version is the table's version after the change; 0 in a bare gap
	// mark (see Gap).
	Version int
	// Data is what the publisher sent. It may be shared by every
	// subscriber on the node: read it, do not change it.
	Data []byte
	// Gap reports that changes before this one may have been lost: the
	// subscriber fell more than Buffer changes behind (the bus then
	// keeps only the newest change, with Gap set), the bus lost its
	// connection for a while, or the version is more than one past the
	// last one delivered. The subscriber reads the table afresh. A bare
	// mark (Version 0, no Data) comes when the bus got its connection
	// back and no change has come since.
	Gap bool
}

// Handler answers one request. It must be safe to call from several
// goroutines at once: every request runs in its own. Its ctx ends at the
// requester's deadline. An error it returns reaches the requester as a
// *RemoteError holding its text; answers that the caller should act on
// (a refused move, say) belong in the reply's data.
type Handler func(ctx context.Context, req Request) ([]byte, error)

// Request is one request as its handler sees it.
type Request struct {
	// From is the node that sent it, To where it was sent.
	From string
	To   Address
	Data []byte
}

// Address is where a request goes: one node by name, or whichever node
// owns a table now. Exactly one of its fields is set.
type Address struct {
	Node  string
	Table string
}

// ToNode addresses the node called name.
func ToNode(name string) Address { return Address{Node: name} }

// ToOwner addresses the node that owns table.
func ToOwner(table string) Address { return Address{Table: table} }

func (a Address) String() string {
	if a.Table != "" {
		return "the owner of table " + a.Table
	}
	return "node " + a.Node
}

// Check reports what is wrong with a, or nil.
func (a Address) Check() error {
	switch {
	case a.Node != "" && a.Table != "":
		return errors.New("bus: an address names a node or a table, not both")
	case a.Node != "":
		return CheckName("node", a.Node)
	case a.Table != "":
		return CheckName("table", a.Table)
	}
	return errors.New("bus: the address is empty: name a node or a table")
}

// Limits and waits every implementation keeps to.
const (
	// Buffer is how many changes a subscription holds for a subscriber
	// that has not read them. Beyond it the bus drops them rather than
	// hold up the publisher or the node's other subscribers (see
	// Change.Gap): a watcher that far behind reads the table afresh.
	Buffer = 256

	// MaxData is the most data a change, a request or an answer may
	// carry: NATS refuses messages over 1 MB by default, and the bus's
	// own framing needs a little room.
	MaxData = 1<<20 - 1024

	// MaxName is the longest name of a node or a table.
	MaxName = 64

	// DefaultTimeout bounds a request whose context has no deadline.
	DefaultTimeout = 10 * time.Second

	// GatherWait is how long Nodes waits for the nodes' answers.
	GatherWait = 200 * time.Millisecond
)

// Errors a bus returns, wrapped with what was asked.
var (
	// ErrClosed: the bus or the subscription was closed.
	ErrClosed = errors.New("bus: closed")
	// ErrNoResponder: no node answers for the address (the node is gone,
	// or no node owns the table).
	ErrNoResponder = errors.New("no node answers for it")
	// ErrUnavailable: the bus cannot reach its broker now; it keeps
	// trying by itself.
	ErrUnavailable = errors.New("the message broker cannot be reached")
	// ErrTooLarge: the data is over MaxData.
	ErrTooLarge = fmt.Errorf("bus: data over %d bytes", MaxData)
)

// RemoteError is a handler's error, as its requester gets it: only the
// text crosses the network.
type RemoteError struct {
	Node string // the node whose handler failed
	Msg  string
}

func (e *RemoteError) Error() string { return "node " + e.Node + ": " + e.Msg }

// CheckName reports whether s may name a node or a table (kind says
// which, for the message): 1 to MaxName letters, digits, '-' or '_'.
// Names become parts of NATS subjects, where '.', '*', '>' and spaces
// mean something.
func CheckName(kind, s string) error {
	if s == "" {
		return fmt.Errorf("bus: the %s name is empty", kind)
	}
	if len(s) > MaxName {
		return fmt.Errorf("bus: the %s name %.20q... is longer than %d characters", kind, s, MaxName)
	}
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return fmt.Errorf("bus: the %s name %q may hold only letters, digits, '-' and '_'", kind, s)
		}
	}
	return nil
}

// CheckPublish reports what is wrong with a change to publish, or nil.
func CheckPublish(table string, version int, data []byte) error {
	if err := CheckName("table", table); err != nil {
		return err
	}
	if version < 1 {
		return fmt.Errorf("bus: publishing table %s at version %d: versions start at 1", table, version)
	}
	if len(data) > MaxData {
		return fmt.Errorf("bus: publishing table %s: %w", table, ErrTooLarge)
	}
	return nil
}

// WithDeadline returns ctx with DefaultTimeout as its deadline if it has
// none.
func WithDeadline(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, DefaultTimeout)
}

// Pinger is a bus that can say whether it carries messages now: one
// between nodes loses its connection and gets it back. A node's
// readiness check (GET /readyz) asks it, so that a load balancer leaves
// out a node cut off from the others.
type Pinger interface {
	// Ping returns nil once the bus has made a round trip to what
	// carries its messages, or why it could not by the time ctx ends.
	Ping(ctx context.Context) error
}
