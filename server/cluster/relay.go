package cluster

// Forwarding between the nodes of a cluster (the package's documentation
// tells the whole): a request about a table another node owns goes to the
// owner over the bus and is served there, a watcher on another node
// fetches its updates from the owner, and a request that finds the owner
// gone starts the takeover (cluster.go).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"parlour/bus"
	"parlour/server/analyses"
	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/server/social"
	"parlour/server/table"
	"parlour/store"
)

// relayRequest is what crosses the bus: an HTTP request, or a remote
// watcher's ask for its update.
type relayRequest struct {
	Kind   string      `json:"kind"` // "http" or "update"
	Table  string      `json:"table"`
	Method string      `json:"method,omitempty"`
	Path   string      `json:"path,omitempty"`
	Query  string      `json:"query,omitempty"`
	Header http.Header `json:"header,omitempty"`
	Remote string      `json:"remote,omitempty"`
	Body   []byte      `json:"body,omitempty"`
	// Token and Since are an update's: the watcher's token ("" for a
	// spectator) and the version it has.
	Token string `json:"token,omitempty"`
	Since int    `json:"since,omitempty"`
	// Chat, Sent and Ended are an update's too: the number of the last
	// chat message the watcher was sent (-1: none yet, send every one at
	// hand), whether it was sent an update yet, and whether one showed
	// the game's end (see table.Watcher).
	Chat  int  `json:"chat,omitempty"`
	Sent  bool `json:"sent,omitempty"`
	Ended bool `json:"ended,omitempty"`
	// Watcher and Gone are a "here" note's: the id the sender gave one of
	// its watchers, and whether that watcher stopped (see
	// remoteWatch.heartbeat). A node from before they were sent leaves
	// both out.
	Watcher string `json:"watcher,omitempty"`
	Gone    bool   `json:"gone,omitempty"`
	// Identity, Event, Hashes, Status, Limit and Name are a note's, about
	// players or the lobby rather than a table (nodes.go).
	Identity string              `json:"identity,omitempty"`
	Event    *social.StreamEvent `json:"event,omitempty"`
	Hashes   [][]byte            `json:"hashes,omitempty"`
	Status   store.Status        `json:"status,omitempty"`
	Limit    int                 `json:"limit,omitempty"`
	// Name is a closed account's name, in a "closed" note, or a renamed
	// one's new name, in a "renamed" note.
	Name string `json:"name,omitempty"`
	// Tournament is the event a request about an event is about
	// (eventrelay.go).
	Tournament string `json:"tournament,omitempty"`
	// Identities are those a "holding" note asks about (seeks.go).
	Identities []string `json:"identities,omitempty"`
	// Epoch is the sender's lease of the seek book, in a "book" note
	// that hands the book on (seeks.go); its seeks are in Body.
	Epoch int64 `json:"epoch,omitempty"`
}

// relayReply is the owner's answer.
type relayReply struct {
	// NotOwner: the node no longer owns the table; ask again.
	NotOwner bool        `json:"not_owner,omitempty"`
	Status   int         `json:"status,omitempty"`
	Header   http.Header `json:"header,omitempty"`
	Body     []byte      `json:"body,omitempty"`
	// Chat and Mark are an update's: the number of the table's last chat
	// message, and the table's mark (see publish), when it was made.
	Chat int `json:"chat,omitempty"`
	Mark int `json:"mark,omitempty"`
	// Handed: the owner gave the table to the node that forwarded the
	// request, after answering it (see handOff).
	Handed bool `json:"handed,omitempty"`
}

// relayedHeaders are the request headers a forwarded request keeps.
var relayedHeaders = [...]string{"Authorization", "Content-Type", "Cookie", "Accept", "Last-Event-ID"}

// handle answers a request from another node.
func (c *Node) handle(ctx context.Context, req bus.Request) ([]byte, error) {
	rq, err := decodeRelay(req.Data)
	if err != nil {
		return nil, err
	}
	if noteKind(rq.Kind) {
		return c.serveNote(ctx, rq, req.From)
	}
	if eventKind(rq.Kind) {
		return c.serveEvent(ctx, rq)
	}
	if rq.Kind == "seeks" {
		return c.serveSeeks(ctx, rq)
	}
	if !c.owns(rq.Table) && !c.ownsByLease(ctx, rq) {
		if rq.Kind != "ping" {
			// A lease that lapsed here: let the table go (in the
			// background: Disown waits for this handler).
			go c.lapsed(rq.Table)
		}
		return json.Marshal(relayReply{NotOwner: true})
	}
	switch rq.Kind {
	case "ping":
		return json.Marshal(relayReply{Status: http.StatusOK})
	case "http":
		rp, err := c.serveRelayed(ctx, rq)
		if err != nil {
			return nil, err
		}
		if !rp.NotOwner {
			rp.Handed = c.handOff(ctx, rq.Table, req.From)
		}
		return json.Marshal(rp)
	case "here":
		return c.serveHere(ctx, rq)
	case "heal":
		c.heal(ctx, rq.Table)
		return json.Marshal(relayReply{Status: http.StatusOK})
	}
	return c.serveUpdate(ctx, rq)
}

// decodeRelay reads a request from another node, and refuses one that is
// not about the table it names or is not one a node sends.
func decodeRelay(b []byte) (relayRequest, error) {
	var rq relayRequest
	if err := json.Unmarshal(b, &rq); err != nil {
		return relayRequest{}, fmt.Errorf("a request it cannot read: %w", err)
	}
	if rq.Kind != "here" && (rq.Watcher != "" || rq.Gone) {
		return relayRequest{}, fmt.Errorf("a %q request with a watcher's fields", refuse.Clip(rq.Kind))
	}
	if noteKind(rq.Kind) {
		return decodeNote(rq)
	}
	if eventKind(rq.Kind) {
		return decodeEvent(rq)
	}
	if rq.Kind == "seeks" {
		return decodeSeeks(rq)
	}
	if rq.Tournament != "" {
		return relayRequest{}, fmt.Errorf("a request about table %s with an event's field", refuse.Clip(rq.Table))
	}
	if len(rq.Identity) > 0 || rq.Event != nil || len(rq.Hashes) > 0 || rq.Status != "" || rq.Limit != 0 || rq.Name != "" || len(rq.Identities) > 0 || rq.Epoch != 0 {
		return relayRequest{}, fmt.Errorf("a request about table %s with a note's fields", refuse.Clip(rq.Table))
	}
	rq.Hashes, rq.Identities = nil, nil // empty: as they read back
	if !auth.ValidID(rq.Table) {
		return relayRequest{}, fmt.Errorf("a request about no table (%q)", refuse.Clip(rq.Table))
	}
	switch rq.Kind {
	case "here":
		if rq.Watcher != "" && !auth.ValidID(rq.Watcher) || rq.Gone && rq.Watcher == "" {
			return relayRequest{}, fmt.Errorf("a watcher (%q) at table %s that is none", refuse.Clip(rq.Watcher), rq.Table)
		}
	case "ping", "heal":
	case "update":
		if rq.Since < -1 {
			return relayRequest{}, fmt.Errorf("an update since version %d", rq.Since)
		}
		if rq.Chat < -1 {
			return relayRequest{}, fmt.Errorf("an update since chat message %d", rq.Chat)
		}
	case "http":
		if id, _, ok := tablePath(rq.Path); !ok || id != rq.Table {
			return relayRequest{}, fmt.Errorf("a forwarded request for %q about table %s", refuse.Clip(rq.Path), rq.Table)
		}
		switch rq.Method {
		case http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete:
		default:
			return relayRequest{}, fmt.Errorf("a forwarded request with method %q", refuse.Clip(rq.Method))
		}
		if strings.ContainsAny(rq.Path, "?#") || strings.Contains(rq.Path, "..") {
			return relayRequest{}, fmt.Errorf("a forwarded request for %q", refuse.Clip(rq.Path))
		}
	default:
		return relayRequest{}, fmt.Errorf("a request of unknown kind %q", refuse.Clip(rq.Kind))
	}
	return rq, nil
}

// serveRelayed serves a forwarded HTTP request through this node's
// handler.
func (c *Node) serveRelayed(ctx context.Context, rq relayRequest) (relayReply, error) {
	h := c.handler()
	if h == nil {
		return relayReply{}, errors.New("the node serves no HTTP yet")
	}
	u := &url.URL{Path: rq.Path, RawQuery: rq.Query}
	r, err := http.NewRequestWithContext(auth.WithForwarded(ctx), rq.Method, u.String(), bytes.NewReader(rq.Body))
	if err != nil {
		return relayReply{}, fmt.Errorf("a forwarded request: %w", err)
	}
	for _, k := range relayedHeaders {
		if v := rq.Header.Values(k); len(v) > 0 {
			r.Header[k] = v
		}
	}
	r.RemoteAddr = rq.Remote
	rec := &recorder{header: http.Header{}}
	h.ServeHTTP(rec, r)
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	if rec.header.Get(table.MovedHeader) != "" {
		// The table left this node while the request waited for it:
		// nothing was done; the asker finds the new owner.
		return relayReply{NotOwner: true}, nil
	}
	return relayReply{Status: rec.status, Header: rec.header, Body: rec.body.Bytes()}, nil
}

// handOffAfter is how many requests for a table in a row, all forwarded
// from one other node, make its owner hand the table to that node: few
// enough that a short game (a dozen moves) moves early. Where a table's
// requests come through several nodes at random, a run of 12 from one
// other node comes about once in 4,000 requests with two nodes (once in
// 265,000 with three), and a needless hand-over costs a write of the
// lease and a read of the table.
const handOffAfter = 12

// handOff counts a request for table id forwarded from node from, and
// when the table's last handOffAfter requests all came from that node,
// gives the table to it: its lease passes to that node at a new epoch (so
// this node can no longer write the table), and this node lets the table
// go. Behind a balancer that sends every request about a table to one
// node (hashing the table's path), a table made through another node
// then stops costing a forward a request after its first few. Only a
// table under way with nothing here tied to it moves: no watcher on this
// node, no computer seat and no clock running. It reports whether the
// table was handed.
func (c *Node) handOff(ctx context.Context, id, from string) bool {
	if from == "" || from == c.node {
		return false
	}
	c.mu.Lock()
	o, ok := c.owned[id]
	if ok {
		if o.from != from {
			o.from, o.streak = from, 0
		}
		o.streak++
	}
	due := ok && o.streak >= handOffAfter
	c.mu.Unlock()
	if !due {
		return false
	}
	handed, err := c.tables.HandOff(id, func() (bool, error) {
		c.mu.Lock()
		if len(c.handing) >= maxElsewhere {
			clear(c.handing)
		}
		c.handing[id] = o.lease.Epoch
		c.mu.Unlock()
		o, ok := c.disown(ctx, id)
		if !ok {
			c.unhand(id)
			return false, nil
		}
		// Handed or not, this node no longer answers for the table:
		// should the lease not have passed (the store away), it runs
		// out and another node takes the table over.
		if _, err := c.leases.TakeLease(ctx, o.lease, from, c.ttl); err != nil {
			c.unhand(id) // the lease may still be this node's to take again
			return true, err
		}
		// The epoch handed away stays noted: a claim that read the
		// lease before it passed must not adopt it after.
		return true, nil
	})
	if !handed {
		c.mu.Lock()
		o.streak = 0 // look again after as many more
		c.mu.Unlock()
		return false
	}
	if err != nil {
		c.log.Warn("handing a table to the node its requests come from", "table", id, "to", from, "err", err)
		return false
	}
	c.mu.Lock()
	c.elsewhere[id] = remoteOwner{node: from, until: time.Now().Add(rememberOwner)}
	c.mu.Unlock()
	c.handed.Inc()
	c.log.Debug("table handed to the node its requests come from", "table", id, "to", from)
	return true
}

// unhand forgets that table id was being handed away: the hand-over did
// not happen.
func (c *Node) unhand(id string) {
	c.mu.Lock()
	delete(c.handing, id)
	c.mu.Unlock()
}

// here notes a request for table id made on this node, its owner (see
// handOff).
func (c *Node) here(id string) {
	c.mu.Lock()
	if o, ok := c.owned[id]; ok {
		o.from, o.streak = c.node, 0
	}
	c.mu.Unlock()
}

// serveUpdate answers a remote watcher: its seat's update since the
// version it has, with the chat lines after the last it was sent that
// its seat may read and its identity has not muted, as a local
// Watcher's.
func (c *Node) serveUpdate(ctx context.Context, rq relayRequest) ([]byte, error) {
	var p *auth.Principal
	if rq.Token != "" {
		var err error
		if p, err = c.auth.Authenticate(ctx, rq.Token); err != nil {
			return replyError(err)
		}
	}
	u, last, mark, err := c.tables.RemoteUpdate(ctx, p, rq.Table, rq.Since, rq.Chat, rq.Ended, rq.Sent)
	if err != nil {
		return replyError(err)
	}
	b, err := json.Marshal(u)
	if err != nil {
		return nil, err
	}
	return json.Marshal(relayReply{Status: http.StatusOK, Body: b, Chat: last, Mark: mark})
}

// serveHere notes that a watcher on another node (its seat, or a
// spectator) is at the table until its node's next word, remoteHold from
// now, or has gone (see remoteWatch.heartbeat). A node from before
// watchers were named only says a seat was seen.
func (c *Node) serveHere(ctx context.Context, rq relayRequest) ([]byte, error) {
	var p *auth.Principal // a spectator without a token: nobody
	if rq.Token != "" || rq.Watcher == "" {
		var err error
		if p, err = c.auth.Authenticate(ctx, rq.Token); err != nil {
			return replyError(err)
		}
	}
	var err error
	switch {
	case rq.Watcher == "":
		err = c.tables.Touch(ctx, p, rq.Table)
	case rq.Gone:
		err = c.tables.Attend(ctx, p, rq.Table, rq.Watcher, time.Time{})
	default:
		err = c.tables.Attend(ctx, p, rq.Table, rq.Watcher, c.tables.Now().Add(c.remoteHold()))
	}
	if err != nil {
		return replyError(err)
	}
	return json.Marshal(relayReply{Status: http.StatusOK})
}

// replyError answers a refusal as its status and message.
func replyError(err error) ([]byte, error) {
	st := refuse.Status(err)
	if st == http.StatusInternalServerError {
		return nil, err
	}
	b, _ := json.Marshal(map[string]string{"error": err.Error()})
	return json.Marshal(relayReply{Status: st, Body: b})
}

// recorder is the response of a forwarded request, kept to send back.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	if r.body.Len()+len(b) > bus.MaxData-4096 {
		return 0, errors.New("the answer is too large to forward")
	}
	return r.body.Write(b)
}

func (r *recorder) Flush() {}

// tablePath returns the table a request is about, and what of it
// (/api/v1/tables/{id}/{rest}).
func tablePath(p string) (id, rest string, ok bool) {
	p, ok = strings.CutPrefix(p, "/api/v1/tables/")
	if !ok {
		return "", "", false
	}
	id, rest, _ = strings.Cut(p, "/")
	return id, rest, auth.ValidID(id)
}

// errNoBus says that this node cannot reach the bus (NATS is away, or
// this node is cut off from it): the request was not sent.
var errNoBus = refuse.Unavailable("this server cannot reach the one that runs this table just now; nothing was done: try again in a moment")

// errGone says that the table's owner died mid-request.
var errGone = refuse.Unavailable("the node that runs this table stopped answering; what you asked may or may not have been done: look at the table before asking again")

// errClosing is the cause of a context untilClose ended: this node is
// stopping.
var errClosing = errors.New("this node is stopping")

// errStopping answers a request forwarded from this node cut short as
// this node stops: the owner lives,
// and may have done what was asked.
var errStopping = refuse.Unavailable(table.ShuttingDown + ": what you asked may or may not have been done: look at the table before asking again")

// untilClose returns a context that ends with parent, or when this node
// begins to close (its cause errClosing), so that what waits on another
// node (a forwarded request, a follow) answers as this node stops, not
// once the server has given up waiting for it.
func (c *Node) untilClose(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	go func() {
		select {
		case <-c.closing:
			cancel(errClosing)
		case <-ctx.Done():
		}
	}()
	return ctx, func() { cancel(context.Canceled) }
}

// closing says whether ctx, made by untilClose, ended because this node
// closes.
func closing(ctx context.Context) bool { return errors.Is(context.Cause(ctx), errClosing) }

// serveHTTP serves r when it concerns a table another node owns, and
// reports whether it did; otherwise the caller serves it here.
func (c *Node) serveHTTP(w http.ResponseWriter, r *http.Request) bool {
	if auth.Forwarded(r.Context()) {
		return false
	}
	if id, ok := eventPath(r.URL.Path); ok {
		return c.serveEventHTTP(w, r, id)
	}
	if seeksPath(r.URL.Path) {
		return c.serveSeeksHTTP(w, r)
	}
	id, rest, ok := tablePath(r.URL.Path)
	if !ok {
		return false
	}
	ctx, cancel := c.untilClose(r.Context())
	defer cancel()
	owner, err := c.claim(ctx, id)
	if err != nil {
		c.fail(w, r, err)
		return true
	}
	if owner == "" {
		c.here(id)
		return false // this node owns it: serve here, the body unread
	}
	if rest == "socket" || rest == "events" {
		// The doors follow another node's table from here, through a
		// remote follower (Follow).
		return false
	}
	body, ok := c.readBody(w, r)
	if !ok {
		return true
	}
	conditional := false
	if r.Method == http.MethodPost && rest == "moves" {
		var mr struct {
			Version *int `json:"version"`
		}
		conditional = json.Unmarshal(body, &mr) == nil && mr.Version != nil
	}
	var h handOver
	for try := 0; ; try++ {
		if try > 0 {
			// Between two owners, a table has none for a moment: ask
			// again, more slowly each time, for as long as a hand-over
			// may take.
			if !h.wait(ctx) {
				if closing(ctx) {
					c.fail(w, r, refuse.Unavailable(table.ShuttingDown))
				}
				return true // the client went away, or this node stops
			}
			if owner, err = c.claim(ctx, id); err != nil {
				c.fail(w, r, err)
				return true
			}
			if owner == "" {
				return false // this node owns it now: serve here
			}
			if h.over() {
				c.fail(w, r, errHanding)
				return true
			}
		}
		rp, err := c.forward(ctx, owner, relayRequest{
			Kind: "http", Table: id, Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery,
			Header: pick(r.Header), Remote: r.RemoteAddr, Body: body,
		})
		if err != nil || rp.NotOwner {
			c.forget(id)
		}
		switch {
		case err != nil && closing(ctx):
			c.fail(w, r, errStopping)
			return true
		case errors.Is(err, bus.ErrUnavailable):
			// Not sent: the owner lives, as far as anyone knows, and
			// taking its table over would only wait for its lease.
			c.fail(w, r, errNoBus)
			return true
		case errors.Is(err, bus.ErrNoResponder):
			if err := c.takeover(ctx, id); err != nil {
				c.fail(w, r, err)
				return true
			}
			continue
		case err != nil && ctx.Err() == nil && !conditional && r.Method != http.MethodGet:
			c.fail(w, r, errGone)
			return true
		case err != nil && ctx.Err() == nil:
			// Safe to ask again: a read, or a move conditional on the
			// version, which the new owner refuses if it was made.
			if err := c.takeover(ctx, id); err != nil {
				c.fail(w, r, err)
				return true
			}
			continue
		case err != nil:
			return true // the client went away
		case rp.NotOwner:
			continue // the owner let the table go, and the next has not taken it up yet
		}
		if rp.Handed {
			// The table is this node's now: take it up at once rather
			// than at the next request, which would first ask the old
			// owner.
			c.forget(id)
			go c.adoptHanded(id)
		}
		rp.write(w)
		return true
	}
}

// handOver paces a request that found its table, event or seek book
// between two nodes (the old one gone, or letting it go, and the next
// not yet there): it asks again after 5 ms, then twice as long each
// time up to 100 ms, for changingHands from its first wait. That is
// counted from when the hand-over was found, not from the request: a
// first forward may have waited for most of its time (a move that waits
// for its reply, an analysis) before its node died or let go.
type handOver struct {
	until time.Time
	pause time.Duration
}

// wait waits before the next ask; it reports false when ctx ends first
// (the client went away).
func (h *handOver) wait(ctx context.Context) bool {
	if h.until.IsZero() {
		h.until, h.pause = time.Now().Add(changingHands), 5*time.Millisecond
	}
	select {
	case <-ctx.Done():
		return false
	case <-time.After(h.pause):
	}
	h.pause = min(2*h.pause, 100*time.Millisecond)
	return true
}

// over reports whether the hand-over has taken longer than changingHands
// since the first wait.
func (h *handOver) over() bool { return !h.until.IsZero() && time.Now().After(h.until) }

// write writes rp, the answer of the node a request was forwarded to, as
// this node's.
func (rp relayReply) write(w http.ResponseWriter) {
	for k, v := range rp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(rp.Status)
	w.Write(rp.Body)
}

// changingHands is how long a forwarded request goes on asking for a
// table that is passing between nodes (the old owner has let it go, or
// died, and the new one has not yet taken it up: a lease written to the
// store and the table read from it), from the moment it found the
// hand-over under way, before it answers errHanding. Milliseconds on a
// quiet store; much more on a busy one, and a hand-over should not show
// to players.
const changingHands = 3 * time.Second

// errHanding answers a request whose table found no owner to serve it.
var errHanding = refuse.Unavailable("the table is changing hands; try again")

// readBody reads r's body to forward it, and puts it back for the local
// handler should the request be served here after all. It reports false
// when it answered r itself (a body too large to forward).
func (c *Node) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	var body []byte
	if r.Body != nil && r.Body != http.NoBody {
		b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, bus.MaxData/2))
		if err != nil {
			c.fail(w, r, refuse.With(http.StatusRequestEntityTooLarge, "the request's body is too large, or did not all come"))
			return nil, false
		}
		body = b
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return body, true
}

// pick returns the headers a forwarded request keeps.
func pick(h http.Header) http.Header {
	out := http.Header{}
	for _, k := range relayedHeaders {
		if v := h.Values(k); len(v) > 0 {
			out[k] = v
		}
	}
	return out
}

// errOwnerGone fails a forwarded request whose owner left the bus
// before it answered: it may or may not have served it.
var errOwnerGone = errors.New("the table's node left before it answered")

// forward sends rq to the table's owner and returns its answer, waiting
// for it at most forwardTime. When owner (the node the lease names) is
// known, rq goes to that node by name, not to whoever answers for the
// table on the bus: after an outage NATS may route a table's requests for
// minutes to a dead connection of the owner's that it has not yet found
// dead, where they would wait for nothing, while the node's own address
// reaches the live connection too. Nor is the answer awaited blindly: the
// node it went to is asked every second whether it is still there, and a
// node gone from the bus (killed, cut off) fails the request at once
// with errOwnerGone.
func (c *Node) forward(ctx context.Context, owner string, rq relayRequest) (relayReply, error) {
	b, err := json.Marshal(rq)
	if err != nil {
		return relayReply{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.forwardTime(rq))
	defer cancel()
	c.forwarded.Inc()
	start := time.Now()
	type answer struct {
		b   []byte
		err error
	}
	done := make(chan answer, 1)
	to := bus.ToOwner(rq.Table)
	if owner != "" {
		to = bus.ToNode(owner)
	}
	go func() {
		a, err := c.b.Request(ctx, to, b)
		done <- answer{a, err}
	}()
	var tick <-chan time.Time
	if owner != "" {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		tick = t.C
	}
	var ans []byte
	for answered := false; !answered; {
		select {
		case a := <-done:
			if a.err != nil {
				return relayReply{}, a.err
			}
			ans, answered = a.b, true
		case <-tick:
			// The request is with node owner, by name: while it is on
			// the bus it may yet answer.
			if owner == c.node || c.present(ctx, owner, rq.Table) {
				continue
			}
			cancel()
			<-done
			return relayReply{}, errOwnerGone
		}
	}
	c.forwardTrip.Observe(time.Since(start).Seconds())
	var rp relayReply
	if err := json.Unmarshal(ans, &rp); err != nil {
		return relayReply{}, fmt.Errorf("the owner's answer: %w", err)
	}
	return rp, nil
}

// present reports whether node is still on the bus: anything but "no
// one answers" (an answer, an error, a slow reply) counts as there.
func (c *Node) present(ctx context.Context, node, id string) bool {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	_, err := c.b.Request(ctx, bus.ToNode(node), []byte(`{"kind":"ping","table":"`+id+`"}`))
	return !errors.Is(err, bus.ErrNoResponder)
}

// minForward is the least time a forwarded request waits for the owner's
// answer by default.
const minForward = 10 * time.Second

// forwardTime is how long a forwarded request waits for the owner's
// answer: a move or setup that asked to wait for the asker's turn, a
// setup the computer makes for the asker, a rematch (a game played alone
// waits for the computer to hide its setup), or a game's analysis, as
// long as they may take and a little; anything else Cluster.Forward, so
// that a request the owner received just before it died is known lost,
// then made again or answered 503, within seconds rather than a minute.
func (c *Node) forwardTime(rq relayRequest) time.Duration {
	base := c.fwd
	if rq.Kind == "event" && rq.Method == http.MethodGet {
		return eventWait + base
	}
	if rq.Kind != "http" {
		return base
	}
	_, rest, _ := tablePath(rq.Path)
	switch {
	case rest == "analysis":
		return analyses.Timeout + base
	case rq.Method == http.MethodPost && rest == "rematch":
		return c.botTime + base
	case rq.Method == http.MethodPost && (rest == "moves" || rest == "setup"):
		var w struct {
			Wait     bool   `json:"wait"`
			Auto     bool   `json:"auto"`
			Computer string `json:"computer"`
		}
		if json.Unmarshal(rq.Body, &w) != nil {
			return base
		}
		d := base
		if w.Wait {
			d += c.maxWait
		}
		if rest == "setup" && w.Auto && w.Computer != "" && w.Computer != "random" {
			d += c.botTime
		}
		return d
	}
	return base
}

// answers reports whether a node answers as table id's owner.
func (c *Node) answers(ctx context.Context, id string) bool {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	ans, err := c.b.Request(ctx, bus.ToOwner(id), []byte(`{"kind":"ping","table":"`+id+`"}`))
	var rp relayReply
	return err == nil && json.Unmarshal(ans, &rp) == nil && !rp.NotOwner
}

// fail answers err as the API answers a refusal.
func (c *Node) fail(w http.ResponseWriter, r *http.Request, err error) {
	refuse.Write(w, r, c.log, err)
}

// Serve makes the node serve the requests other nodes forward to it with
// h, the whole of its HTTP door (Forward included, which lets them
// through).
func (c *Node) Serve(h http.Handler) {
	c.hmu.Lock()
	c.h = h
	c.hmu.Unlock()
}

// handler returns the door the node serves forwarded requests through
// (nil before Serve).
func (c *Node) handler() http.Handler {
	c.hmu.RLock()
	defer c.hmu.RUnlock()
	return c.h
}

// Forward is the cluster's middleware around the HTTP API: a request
// about a table another node runs is forwarded to that node (taking the
// table over when its owner is gone), and its answer written back; the
// rest, and the sockets and streams the doors follow from here, go to
// next.
func (c *Node) Forward(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !c.serveHTTP(w, r) {
			next.ServeHTTP(w, r)
		}
	})
}

// ownsByLease takes up table id for rq, a request sent to this node by
// name because the table's lease names it, when the lease is this node's
// in the store yet not counted on here: a table handed to this node (the
// request came before the hand-over's own claim), or a lease that
// lapsed and is this node's still. It reports whether the node owns the
// table now.
func (c *Node) ownsByLease(ctx context.Context, rq relayRequest) bool {
	if rq.Kind != "http" {
		return false
	}
	if l, err := c.leases.Lease(ctx, rq.Table); err != nil || l.Owner != c.node {
		return false
	}
	owner, err := c.claim(ctx, rq.Table)
	return err == nil && owner == ""
}
