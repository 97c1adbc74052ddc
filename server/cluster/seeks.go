package cluster

// The seek book of a cluster. One node keeps every seek (quick pairing),
// the one that holds the book's lease (store.SeekBookLease), so that two
// players who seek the same game through different nodes pair as they
// would on one: the HTTP API's requests about seeks (/api/v1/seeks and
// what lies under it) are carried to that node as a table's are to its
// owner. What the book needs of the other nodes goes as notes:
//
//   - "seeks": an HTTP request about seeks, served by the node that keeps
//     the book, or answered NotOwner;
//   - "holding": which of the players whose seeks wait hold a stream or
//     socket open on the node, which keeps a seek waiting however long
//     since its player asked about it;
//   - "waiting": a player's seeks waiting on the node, for the opening of
//     their stream on another;
//   - "started": a game of a player's began at a table on the node: their
//     seeks leave the book, lest they pair them into a second game;
//   - "book": the seeks of a node that closes, with its lease of the
//     book, which the node they are sent to takes over.
//
// Nobody holds the book at first: the first node asked about seeks takes
// it, and keeps it while it lives, renewing its lease with its tables'.
// A node that closes hands the book on to another, seeks and lease
// (handBook), so that a rolling restart of the cluster loses no seek;
// the last node to close keeps them in the store, and the first node to
// take the lease after takes them back (seek.Service.TakeBack), so that
// a restart of the whole cluster loses none either. A node that dies
// takes the seeks waiting with it: the next node asked about seeks takes
// the book over, at once when the dead node is gone from the bus (a new
// epoch), and their players seek again.

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"parlour/bus"
	"parlour/server/refuse"
	"parlour/store"
)

// seekBook is this node's lease of the seek book, when it holds it, or
// another node's, as last read.
type seekBook struct {
	lease store.Lease
	held  bool
	// renewed is when this node last took or renewed the lease, by its
	// own clock.
	renewed time.Time
	// until, when the lease is another node's, is when to read it
	// again (rememberOwner): a page that waits asks about its seek every
	// few seconds, and each would otherwise cost a write of the lease.
	until time.Time
	// closing is set once the node closes: it keeps the book no more.
	closing bool
	// from is the node that handed this node the book as it closed.
	from string
}

// SeekBook is what the node asks of its seek service, for the notes of
// the other nodes and for the book's hand-overs; the root sets it
// (SeeksHere).
type SeekBook struct {
	// Waiting returns identity's seeks waiting on this node, as JSON.
	Waiting func(identity string) json.RawMessage
	// Started withdraws identity's seeks waiting on this node: their
	// game at table began on another.
	Started func(identity, table string)
	// Lost empties the book on this node, telling each player: another
	// node took the book's lease, and keeps the seeks from now on.
	Lost func()
	// Hand takes every seek out of the book, each as JSON, for another
	// node to Take: this node closes.
	Hand func() []json.RawMessage
	// Take adds the seeks another node handed on, a JSON list of them.
	Take func(json.RawMessage)
	// Keep keeps seeks handed out of the book, each as JSON, in the store
	// for the next node to take the book's lease: this node closes, and
	// no other took them (the cluster stops).
	Keep func(seeks []json.RawMessage)
	// TakeBack adds to the book the seeks a node kept as the cluster
	// stopped: this node took the book's lease from nobody.
	TakeBack func(ctx context.Context)
}

// SeeksHere sets what the node asks of its seek service.
func (c *Node) SeeksHere(b SeekBook) {
	c.hmu.Lock()
	c.seekHooks = b
	c.hmu.Unlock()
}

func (c *Node) seekBookHooks() SeekBook {
	c.hmu.RLock()
	defer c.hmu.RUnlock()
	return c.seekHooks
}

// seeksPath reports whether p is about seeks.
func seeksPath(p string) bool {
	return p == "/api/v1/seeks" || strings.HasPrefix(p, "/api/v1/seeks/")
}

// holdsBook reports whether this node holds the seek book's lease, by
// its own clock.
func (c *Node) holdsBook() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.book.held && time.Since(c.book.renewed) < c.ttl
}

// bookNode returns the node that keeps the seek book, "" when it is this
// one: it takes the book's lease when nobody holds it, renews this
// node's when it lapsed by its clock, and returns the lease it read.
func (c *Node) bookNode(ctx context.Context) (string, store.Lease, error) {
	if c.holdsBook() {
		return "", store.Lease{}, nil
	}
	c.mu.Lock()
	old, had := c.book.lease, c.book.held
	if c.book.closing {
		c.mu.Unlock()
		return "", store.Lease{}, errors.New("this node is closing")
	}
	if !had && time.Now().Before(c.book.until) {
		c.mu.Unlock()
		return old.Owner, old, nil
	}
	c.mu.Unlock()
	if had {
		l, err := c.leases.RenewLease(ctx, old, c.ttl)
		switch {
		case err == nil:
			c.keepBook(l)
			return "", l, nil
		case !errors.Is(err, store.ErrFenced):
			return "", store.Lease{}, err
		}
		c.loseBook()
	}
	l, err := c.leases.AcquireLease(ctx, store.SeekBookLease, c.node, c.ttl)
	switch {
	case err == nil:
		c.keepBook(l)
		if take := c.seekBookHooks().TakeBack; take != nil {
			take(ctx)
		}
		return "", l, nil
	case errors.Is(err, store.ErrLeased) && l.Owner != "" && l.Owner != c.node:
		c.mu.Lock()
		if !c.book.held {
			c.book = seekBook{lease: l, until: time.Now().Add(rememberOwner)}
		}
		c.mu.Unlock()
		return l.Owner, l, nil
	case errors.Is(err, store.ErrLeased):
		return "", store.Lease{}, errors.New("the seek book's lease names nobody")
	}
	return "", store.Lease{}, err
}

// forgetBook forgets another node's lease of the book, which did not
// answer as its keeper: the next request reads the lease again.
func (c *Node) forgetBook() {
	c.mu.Lock()
	if !c.book.held {
		c.book = seekBook{}
	}
	c.mu.Unlock()
}

func (c *Node) keepBook(l store.Lease) {
	c.mu.Lock()
	if !c.book.closing {
		c.book = seekBook{lease: l, held: true, renewed: time.Now()}
	}
	c.mu.Unlock()
}

// handBook hands the seek book to another node as this one closes: its
// seeks, and its lease, which that node takes over (a new epoch). The
// first node that takes them keeps them; should none, they are lost, as
// a restart's are. From then on this node keeps no seeks: a request
// about seeks that comes meanwhile is refused, or sent on by its node.
func (c *Node) handBook(ctx context.Context) {
	c.mu.Lock()
	b := c.book
	c.book.closing = true
	c.mu.Unlock()
	hooks := c.seekBookHooks()
	if !b.held || hooks.Hand == nil {
		return
	}
	seeks := hooks.Hand()
	parts := packSeeks(seeks, maxBookPart)
	peers, err := c.others(ctx, true)
	if err != nil {
		c.log.Warn("handing the seek book on: no node found", "err", err)
	}
	for _, n := range peers {
		// The first part hands the lease over (the node answers the new
		// epoch); the rest go under it.
		epoch := b.lease.Epoch
		sent := 0
		for _, part := range parts {
			rp, err := c.note(ctx, n, relayRequest{Kind: "book", Epoch: epoch, Body: part})
			if err != nil || rp.Status != http.StatusOK || json.Unmarshal(rp.Body, &epoch) != nil {
				break
			}
			sent++
		}
		if sent == 0 {
			continue // not taken: the next node may
		}
		c.mu.Lock()
		c.book = seekBook{closing: true}
		c.mu.Unlock()
		if sent < len(parts) {
			c.log.Warn("seek book handed on in part: the rest of its seeks are lost", "to", n, "parts", len(parts), "sent", sent)
		} else {
			c.log.Info("seek book handed on", "to", n, "parts", len(parts))
		}
		return
	}
	switch {
	case len(seeks) == 0:
		c.log.Info("no node took the seek book, which held no seeks", "nodes", len(peers))
		return
	case hooks.Keep != nil:
		hooks.Keep(seeks)
		return
	}
	c.log.Warn("handing the seek book on: no node took it; its seeks are lost", "nodes", len(peers), "seeks", len(seeks))
}

// maxBookPart bounds the seeks of one "book" note, in bytes: well within
// what the bus carries.
const maxBookPart = bus.MaxData / 2

// packSeeks packs seeks into JSON lists of at most max bytes each (a
// seek longer than that alone in its list), and one empty list when
// there are none: the hand-over of the lease goes all the same.
func packSeeks(seeks []json.RawMessage, max int) []json.RawMessage {
	var parts []json.RawMessage
	part := []byte{'['}
	for _, sk := range seeks {
		if len(part) > 1 && len(part)+len(sk)+2 > max {
			parts = append(parts, append(part, ']'))
			part = []byte{'['}
		}
		if len(part) > 1 {
			part = append(part, ',')
		}
		part = append(part, sk...)
	}
	return append(parts, append(part, ']'))
}

// note sends rq to node n alone and returns its answer.
func (c *Node) note(ctx context.Context, n string, rq relayRequest) (relayReply, error) {
	data, err := json.Marshal(rq)
	if err != nil {
		return relayReply{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*noteWait)
	defer cancel()
	ans, err := c.b.Request(ctx, bus.ToNode(n), data)
	if err != nil {
		return relayReply{}, err
	}
	var rp relayReply
	err = json.Unmarshal(ans, &rp)
	return rp, err
}

// takeBook takes over the seek book that node from hands on as it
// closes (a "book" note): its lease, at the epoch the note names, then
// its seeks; or, when the note names this node's own epoch of the lease,
// taken from from, more of its seeks. It answers the epoch of the lease
// it holds.
func (c *Node) takeBook(ctx context.Context, from string, rq relayRequest) ([]byte, error) {
	take := c.seekBookHooks().Take
	if from == "" || from == c.node || take == nil {
		return json.Marshal(relayReply{Status: http.StatusConflict})
	}
	c.mu.Lock()
	mine := c.book.held && c.book.lease.Epoch == rq.Epoch && c.book.from == from
	l := c.book.lease
	c.mu.Unlock()
	if !mine {
		var err error
		l, err = c.leases.TakeLease(ctx, store.Lease{Table: store.SeekBookLease, Owner: from, Epoch: rq.Epoch}, c.node, c.ttl)
		if err != nil {
			// The lease moved on (the node had lost it): not its to give.
			c.log.Warn("taking the seek book handed on", "from", from, "err", err)
			return json.Marshal(relayReply{Status: http.StatusConflict})
		}
		c.keepBook(l)
		c.mu.Lock()
		c.book.from = from
		c.mu.Unlock()
		c.log.Info("seek book taken over from a node that closes", "from", from)
	}
	take(rq.Body)
	b, _ := json.Marshal(l.Epoch)
	return json.Marshal(relayReply{Status: http.StatusOK, Body: b})
}

// loseBook forgets this node's lease of the book, another node having
// taken it, and empties the book here: its seeks would otherwise wait
// on where nobody asks about them.
func (c *Node) loseBook() {
	c.mu.Lock()
	had := c.book.held
	c.book = seekBook{}
	c.mu.Unlock()
	if !had {
		return
	}
	c.fenced.Inc()
	c.log.Info("the seek book passed to another node")
	if f := c.seekBookHooks().Lost; f != nil {
		f()
	}
}

// renewBook renews this node's lease of the book, with its tables'.
func (c *Node) renewBook(ctx context.Context) {
	c.mu.Lock()
	b := c.book
	c.mu.Unlock()
	if !b.held {
		return
	}
	l, err := c.leases.RenewLease(ctx, b.lease, c.ttl)
	switch {
	case err == nil:
		c.mu.Lock()
		if c.book.held && c.book.lease.Epoch == b.lease.Epoch {
			c.book.lease, c.book.renewed = l, time.Now()
		}
		c.mu.Unlock()
	case errors.Is(err, store.ErrFenced):
		c.loseBook()
	default:
		// Not counted on past its time (holdsBook): the next request
		// about seeks renews it, or finds who has it.
		c.log.Warn("renewing the seek book's lease", "err", err)
	}
}

// releaseBook lets the book's lease go (the node closes), so that the
// next node asked about seeks takes the book at once.
func (c *Node) releaseBook(ctx context.Context) {
	c.mu.Lock()
	b := c.book
	c.book = seekBook{}
	c.mu.Unlock()
	if b.held {
		// A lease taken over meanwhile is not this node's to end.
		_ = c.leases.ReleaseLease(ctx, b.lease)
	}
}

// decodeSeeks checks a request about seeks read by decodeRelay.
func decodeSeeks(rq relayRequest) (relayRequest, error) {
	if rq.Table != "" || rq.Tournament != "" || len(rq.Identity) > 0 || rq.Event != nil || len(rq.Hashes) > 0 || rq.Status != "" || rq.Limit != 0 || rq.Token != "" || rq.Name != "" || len(rq.Identities) > 0 || rq.Epoch != 0 {
		return relayRequest{}, errors.New("a request about seeks with another request's fields")
	}
	if !seeksPath(rq.Path) || strings.ContainsAny(rq.Path, "?#") || strings.Contains(rq.Path, "..") {
		return relayRequest{}, errors.New("a forwarded request about seeks for " + refuse.Clip(rq.Path))
	}
	switch rq.Method {
	case http.MethodGet, http.MethodPost, http.MethodDelete:
	default:
		return relayRequest{}, errors.New("a forwarded request about seeks with method " + refuse.Clip(rq.Method))
	}
	rq.Hashes, rq.Identities = nil, nil
	return rq, nil
}

// serveSeeks answers a request about seeks from another node: served
// here when this node keeps the book (renewing a lease that lapsed by
// its clock), NotOwner otherwise.
func (c *Node) serveSeeks(ctx context.Context, rq relayRequest) ([]byte, error) {
	if owner, _, err := c.bookNode(ctx); err != nil || owner != "" {
		return json.Marshal(relayReply{NotOwner: true})
	}
	rp, err := c.serveRelayed(ctx, rq)
	if err != nil {
		return nil, err
	}
	return json.Marshal(rp)
}

// serveSeeksHTTP serves r, about seeks, at the node that keeps the book
// when that is another, and reports whether it did; otherwise the caller
// serves it here.
func (c *Node) serveSeeksHTTP(w http.ResponseWriter, r *http.Request) bool {
	ctx := r.Context()
	owner, l, err := c.bookNode(ctx)
	if err != nil {
		c.fail(w, r, refuse.Unavailable("the server that keeps the seeks cannot be found just now; nothing was done: try again"))
		return true
	}
	if owner == "" {
		return false
	}
	body, ok := c.readBody(w, r)
	if !ok {
		return true
	}
	var h handOver
	for try := 0; ; try++ {
		if try > 0 {
			if !h.wait(ctx) {
				return true // the client went away
			}
			if owner, l, err = c.bookNode(ctx); err != nil {
				c.fail(w, r, refuse.Unavailable("the server that keeps the seeks cannot be found just now; nothing was done: try again"))
				return true
			}
			if owner == "" {
				return false // this node keeps the book now
			}
			if h.over() {
				c.fail(w, r, refuse.Unavailable("the seeks are changing servers; nothing was done: try again"))
				return true
			}
		}
		rp, err := c.forward(ctx, owner, relayRequest{
			Kind: "seeks", Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery,
			Header: pick(r.Header), Remote: r.RemoteAddr, Body: body,
		})
		if err != nil || rp.NotOwner {
			c.forgetBook()
		}
		switch {
		case errors.Is(err, bus.ErrUnavailable):
			c.fail(w, r, refuse.Unavailable("this server cannot reach the one that keeps the seeks just now; nothing was done: try again in a moment"))
			return true
		case errors.Is(err, bus.ErrNoResponder), errors.Is(err, errOwnerGone):
			// The book's node is gone from the bus (dead, or cut off):
			// its seeks went with it, and waiting out its lease would
			// only keep everybody from seeking. A new epoch fences it
			// should it come back.
			if errors.Is(err, errOwnerGone) && r.Method != http.MethodGet {
				c.fail(w, r, refuse.Unavailable("the server that keeps the seeks stopped answering; what you asked may or may not have been done: look at your seek before asking again"))
				return true
			}
			if !c.present(ctx, owner, "") {
				if taken, err := c.leases.TakeLease(ctx, l, c.node, c.ttl); err == nil {
					c.keepBook(taken)
					c.log.Info("seek book taken from a node gone from the bus", "from", owner)
					return false
				}
			}
			continue
		case err == nil && rp.NotOwner:
			continue // the book's node let it go, or was late renewing its lease
		case err != nil && ctx.Err() == nil && r.Method == http.MethodGet:
			continue // a read is safe to ask again
		case err != nil && ctx.Err() == nil:
			c.fail(w, r, refuse.Unavailable("the server that keeps the seeks stopped answering; what you asked may or may not have been done: look at your seek before asking again"))
			return true
		case err != nil:
			return true // the client went away
		}
		rp.write(w)
		return true
	}
}

// HoldingElsewhere returns those of identities who hold a stream or
// socket open on the other nodes, and an error when a node did not answer
// (its players are missing from the list).
func (c *Node) HoldingElsewhere(ctx context.Context, identities []string) ([]string, error) {
	var out []string
	var errs []error
	for len(identities) > 0 {
		n := min(len(identities), maxHolding)
		ans, err := c.tellAll(ctx, relayRequest{Kind: "holding", Identities: identities[:n]}, false)
		errs = append(errs, err)
		for _, b := range ans {
			var ids []string
			if json.Unmarshal(b, &ids) == nil {
				out = append(out, ids...)
			}
		}
		identities = identities[n:]
	}
	return out, errors.Join(errs...)
}

// maxHolding is the most identities one "holding" note asks about.
const maxHolding = 4096

// WaitingElsewhere returns identity's seeks waiting on the other nodes,
// each node's as the JSON its seek service gave, and an error when a node
// did not answer.
func (c *Node) WaitingElsewhere(ctx context.Context, identity string) ([]json.RawMessage, error) {
	ans, err := c.tellAll(ctx, relayRequest{Kind: "waiting", Identity: identity}, false)
	out := make([]json.RawMessage, 0, len(ans))
	for _, b := range ans {
		if len(b) > 0 {
			out = append(out, b)
		}
	}
	return out, err
}

// StartedElsewhere tells the other nodes, in the background, that a game
// of each of identities began at table: the node that keeps the book
// withdraws their seeks.
func (c *Node) StartedElsewhere(identities []string, table string) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*noteWait)
		defer cancel()
		for _, id := range identities {
			if _, err := c.tellAll(ctx, relayRequest{Kind: "started", Identity: id, Table: table}, false); err != nil {
				c.log.Warn("telling the other nodes of a game begun", "identity", id, "table", table, "err", err)
			}
		}
	}()
}
