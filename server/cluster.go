package server

// Clustered mode: several nodes on one shared store and one bus.
//
// A Service runs clustered when its Config carries a Cluster (a bus and
// this node's name) and its store implements store.Leases; otherwise
// nothing here runs and the service is the single node it always was.
//
// Ownership. A node serves a live table itself only while it holds the
// table's lease in the store. It takes the lease when the table is first
// needed and nobody holds it (a new table's creator takes it at once),
// renews every lease it holds in the background (every third of the
// lease's time), and answers on the bus for the tables it owns
// (bus.Own). Every write of a table's moves and description carries the
// lease's epoch, so a node that lost its lease (paused, cut off) cannot
// commit: the store refuses the write with store.ErrFenced, and the node
// drops the table from memory and stops answering for it. Ownership
// follows memory: a finished table evicted from memory has its lease
// released.
//
// Forwarding. An HTTP request about a table another node owns
// (/api/v1/tables/{id}/...) is carried whole over the bus to the owner
// (method, path, query, the headers that matter, body, the client's
// address); the owner serves it through its own Handler and sends back
// status, headers and body. A node that hears back that the owner no
// longer owns the table asks again.
//
// Watchers. The owner publishes every change of each table it owns on
// the bus: its mark, the table's version plus the number of its last chat
// message (one more at every move, change and chat message), and nothing
// else: no view, no chat line. A socket or event stream held by another
// node subscribes, and at each change (or gap) asks the owner for its own
// seat's update since the version and chat message it has, by the
// watcher's own token: secrets, and chat lines of a channel the watcher
// may not read or has muted, leave the owner only in the update meant
// for that watcher. Moves, setups, chat and mutes sent on such a socket
// are forwarded as their HTTP requests.
//
// Takeover. A forwarded request that finds nobody answering for the
// table (bus.ErrNoResponder: the owner died) makes the node take the
// table: at once when the lease's owner is gone from the bus (no answer
// at its node's address, twice a quarter second apart: TakeLease, a new
// epoch that fences the old owner should it run on), else when the lease
// expires (bounded by the lease's time); it then rebuilds the table from
// its record as after a restart (clocks re-armed from stored deadlines,
// computer seats resumed), owns it on the bus and serves the request. A
// background sweep takes over live tables whose lease expired even when
// nobody asks (a game between computers, a clock running out). A request
// that nobody received (ErrNoResponder) is simply made again on the new
// owner; one whose owner died after receiving it (the owner's node seen
// gone from the bus while the answer is awaited, checked every second;
// or no answer within Cluster.Forward, more for a move that asked to
// wait) is made again only when it was
// conditional on the table's version (a move with "version"): the new
// owner makes it if it was not made, and answers it as made ("repeated")
// if it was; otherwise it is answered 503 saying the move may or may not
// have been made: never twice. A request this node could not send (it
// is cut off from NATS) is answered 503 at once, nothing done.
//
// Presence at a table: a watcher on another node tells the owner that its
// seat is still there at every update it fetches and every quarter of the
// walk-away time, so its player is not taken for away (it counts as seen
// then, not as connected: a node that dies stops telling).
//
// Players. What concerns players rather than one table goes from node to
// node by name (cluster_nodes.go): a player stream's events (a game's
// start and end, challenges) reach the player's streams on every node; a
// deleted credential (sign-out, new password, deleted account) is
// dropped from every node's cache before the request that deleted it is
// answered (and should that fail, a node trusts a cached credential a
// minute at most before asking the store again); who is online and a
// player's tables under way ("my games", a stream's opening lines, the
// check before an account is deleted) are gathered from every node, and
// so are the lobby's open tables and tables at play. A node that does
// not answer in a second is left out (a deletion of an account is
// refused 503 instead).
//
// Still node-local (a later step must share them): the rate limits (per
// identity, per address, sign-ins, chat), each counted by every node on
// its own; and a stream event sent while the other nodes cannot be
// reached is lost for their streams (the client reads the challenges and
// its tables when it reconnects).
import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"parlour/bus"
	"parlour/store"
)

// Cluster makes a Service one node of a cluster (see cluster.go).
type Cluster struct {
	// Bus is this node's connection to the others. Its handler must
	// pass requests to Relay.Handle.
	Bus bus.Bus
	// Relay answers the bus's requests for the service; give its
	// Handle as the bus's handler when connecting.
	Relay *Relay
	// Lease is how long a table's lease lasts unless renewed (default
	// DefaultLease): how long a dead owner's tables stall at most.
	Lease time.Duration
	// Forward is how long a request forwarded to a table's owner waits
	// for its answer (default twice the lease, at least 10 s; a move
	// that asked to wait, or an analysis, waits that much more than it
	// may take): past it, the owner is taken for dead.
	Forward time.Duration
}

// DefaultLease is a table lease's default time.
const DefaultLease = 5 * time.Second

// Relay passes the bus's requests to a Service, which does not exist yet
// when the bus is connected: make one, connect the bus with Handle as
// its handler, then give both in Config.Cluster.
type Relay struct {
	mu sync.RWMutex
	c  *cluster
}

// NewRelay returns a Relay that refuses requests until its service
// starts.
func NewRelay() *Relay { return &Relay{} }

// Handle is a bus.Handler.
func (r *Relay) Handle(ctx context.Context, req bus.Request) ([]byte, error) {
	r.mu.RLock()
	c := r.c
	r.mu.RUnlock()
	if c == nil {
		return nil, errors.New("the node is starting")
	}
	return c.handle(ctx, req)
}

// cluster is a Service's clustered mode.
type cluster struct {
	s      *Service
	b      bus.Bus
	node   string
	leases store.Leases
	ttl    time.Duration
	fwd    time.Duration // see Cluster.Forward
	log    *slog.Logger

	mu    sync.Mutex
	owned map[string]*owned // the tables whose lease this node holds
	// elsewhere remembers, for a while, the tables another node was
	// found to hold, so that a forwarded request costs no write of the
	// lease row. The bus routes by table, not by node: a stale entry
	// only sends the request to whoever answers for the table now.
	elsewhere map[string]remoteOwner

	h      *Handler // set by NewHandler
	hmu    sync.RWMutex
	halted chan struct{}
	once   sync.Once
	loops  sync.WaitGroup

	forwarded, takeovers, fenced prometheus.Counter
	handed                       prometheus.Counter // see handOff
	notesLost                    prometheus.Counter // see cluster_nodes.go
	// forwardTrip times forwarded requests, from this node's send to the
	// owner's answer; busTrip times the probes to the other nodes, the
	// bus's own round trip (see probes).
	forwardTrip, busTrip prometheus.Histogram

	notes nodeNotes // what the nodes tell each other of players (cluster_nodes.go)
}

// remoteOwner is another node's lease, as last seen.
type remoteOwner struct {
	node  string
	until time.Time // by this node's clock: then look again
}

// owned is one lease this node holds.
type owned struct {
	lease store.Lease
	taken time.Time // when this node took it
	// renewed is when the lease was last taken or renewed, by this
	// node's clock: past the lease's time without a renewal, the node
	// no longer counts on it (another may have taken the table).
	renewed time.Time
	stop    chan struct{} // stops the table's publisher
	// from is the node the table's last requests came from (this one
	// for a request made here), streak how many came from it in a row:
	// see handOff.
	from   string
	streak int
}

// newCluster returns s's clustered mode, or nil when s is not clustered.
func newCluster(s *Service) (*cluster, error) {
	cc := s.cfg.Cluster
	if cc == nil || cc.Bus == nil {
		return nil, nil
	}
	if cc.Relay == nil {
		return nil, errors.New("server: a cluster needs the Relay its bus hands requests to")
	}
	ls, ok := s.st.(store.Leases)
	if !ok {
		return nil, errors.New("server: a cluster needs a store that keeps leases (PostgreSQL), not this one")
	}
	ttl := cc.Lease
	if ttl <= 0 {
		ttl = DefaultLease
	}
	fwd := cc.Forward
	if fwd <= 0 {
		fwd = max(2*ttl, minForward)
	}
	c := &cluster{
		s: s, b: cc.Bus, node: cc.Bus.Node(), leases: ls, ttl: ttl, fwd: fwd,
		log: s.log.With("node", cc.Bus.Node()), owned: map[string]*owned{}, elsewhere: map[string]remoteOwner{}, halted: make(chan struct{}),
		notes: nodeNotes{queue: make(chan relayRequest, noteQueue)},
	}
	reg := s.metrics.reg
	c.forwarded = prometheus.NewCounter(prometheus.CounterOpts{Name: "parlour_cluster_forwarded_total", Help: "Requests this node forwarded to the owner of their table."})
	c.takeovers = prometheus.NewCounter(prometheus.CounterOpts{Name: "parlour_cluster_takeovers_total", Help: "Tables this node took over from an owner that stopped renewing its lease."})
	c.handed = prometheus.NewCounter(prometheus.CounterOpts{Name: "parlour_cluster_handed_total", Help: "Tables this node handed to the node their requests came from."})
	c.fenced = prometheus.NewCounter(prometheus.CounterOpts{Name: "parlour_cluster_leases_lost_total", Help: "Leases this node lost to another node."})
	c.notesLost = prometheus.NewCounter(prometheus.CounterOpts{Name: "parlour_cluster_notes_unanswered_total", Help: "Notes to another node (a player stream's event, credentials to forget, who is online, a player's tables, the lobby) that it did not answer."})
	c.forwardTrip = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "parlour_cluster_forward_seconds", Help: "Time from forwarding a request to its table's owner to the owner's answer, the owner's work included.", Buckets: latencyBuckets})
	c.busTrip = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "parlour_cluster_bus_seconds", Help: "Round trip over the bus of a probe to another node, answered at once (every few seconds, to each other node).", Buckets: busBuckets})
	reg.MustRegister(c.forwarded, c.takeovers, c.handed, c.fenced, c.notesLost, c.forwardTrip, c.busTrip,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "parlour_cluster_owned_tables", Help: "Tables whose lease this node holds."}, func() float64 {
			c.mu.Lock()
			defer c.mu.Unlock()
			return float64(len(c.owned))
		}))
	// A credential deleted on another node is dropped here when that
	// node tells this one; should it not (the bus was away), at the
	// latest after credMaxAge.
	s.creds.maxAge = credMaxAge
	cc.Relay.mu.Lock()
	cc.Relay.c = c
	cc.Relay.mu.Unlock()
	return c, nil
}

// start runs the renewals and the sweep for expired leases.
func (c *cluster) start() {
	c.loops.Add(3)
	go c.renewals()
	go c.sendNotes()
	go c.probes()
}

// halt stops the background work without releasing anything, as a
// node's death would. It is safe to call twice.
func (c *cluster) halt() {
	c.once.Do(func() { close(c.halted) })
	c.loops.Wait()
}

// close halts and releases every lease, so that other nodes take the
// tables at once rather than after the lease's time.
func (c *cluster) close() {
	select {
	case <-c.halted:
		return // halted as if dead: release nothing
	default:
	}
	c.halt()
	c.mu.Lock()
	all := make([]*owned, 0, len(c.owned))
	for _, o := range c.owned {
		all = append(all, o)
	}
	clear(c.owned)
	c.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, o := range all {
		close(o.stop)
		c.b.Disown(ctx, o.lease.Table)
		if err := c.leases.ReleaseLease(ctx, o.lease); err != nil {
			c.log.Warn("releasing a lease", "table", o.lease.Table, "err", err)
		}
	}
}

// epoch returns the epoch that fences writes of table id: its lease's if
// this node holds it, and otherwise -1, which the store refuses (a node
// that does not own a table must not write it). 0 when not clustered.
func (s *Service) epoch(id string) int64 {
	c := s.cl
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if o, ok := c.owned[id]; ok {
		return o.lease.Epoch
	}
	return -1
}

// owns reports whether this node holds table id's lease, renewed less
// than the lease's time ago (a node paused or cut off from the store past
// that stops answering for the table before the store fences it).
func (c *cluster) owns(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	o, ok := c.owned[id]
	return ok && time.Since(o.renewed) < c.ttl
}

// claim takes table id's lease for this node, or returns the node that
// holds it ("" when this node does now).
func (c *cluster) claim(ctx context.Context, id string) (string, error) {
	if c.owns(id) {
		return "", nil
	}
	c.mu.Lock()
	ro, ok := c.elsewhere[id]
	c.mu.Unlock()
	if ok && time.Now().Before(ro.until) {
		return ro.node, nil
	}
	if !ok { // a table seen leased before exists: only a new one is looked up
		if _, err := c.leases.Lease(ctx, id); errors.Is(err, store.ErrNotFound) {
			// Never leased: a table from before the cluster, or none at
			// all, which must leave no lease behind.
			if _, err := c.s.st.Table(ctx, id); errors.Is(err, store.ErrNotFound) {
				return "", refuse(http.StatusNotFound, "there is no table %q", id)
			}
		}
	}
	l, err := c.leases.AcquireLease(ctx, id, c.node, c.ttl)
	if errors.Is(err, store.ErrLeased) {
		c.lose(id) // if this node held it, it lapsed and passed on
		c.mu.Lock()
		if len(c.elsewhere) >= maxElsewhere {
			clear(c.elsewhere)
		}
		c.elsewhere[id] = remoteOwner{node: l.Owner, until: time.Now().Add(rememberOwner)}
		c.mu.Unlock()
		return l.Owner, nil
	}
	if err != nil {
		c.log.Warn("taking a lease", "table", id, "err", err)
		return "", refuse(http.StatusServiceUnavailable, "the table cannot be reached now; try again")
	}
	if err := c.adopt(ctx, l); err != nil {
		c.log.Warn("owning a table", "table", id, "err", err)
		return "", refuse(http.StatusServiceUnavailable, "the table cannot be reached now; try again")
	}
	return "", nil
}

// rememberOwner is how long a node trusts what it saw of another node's
// lease before it reads the lease again. An owner that changed meanwhile
// is found out on use: the old owner answers that it no longer owns the
// table (forget, then claim again), or nobody answers (takeover).
const rememberOwner = 30 * time.Second

// maxElsewhere bounds the remembered owners of other nodes' tables.
const maxElsewhere = 1 << 16

// adoptHanded takes up table id, which its owner handed to this node.
func (c *cluster) adoptHanded(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), c.ttl)
	defer cancel()
	if owner, err := c.claim(ctx, id); err != nil || owner != "" {
		c.log.Warn("taking up a table handed to this node", "table", id, "owner", owner, "err", err)
		return
	}
	if _, err := c.s.table(ctx, id); err != nil {
		c.log.Warn("taking up a table handed to this node", "table", id, "err", err)
	}
}

// forget drops what this node remembers of table id's owner elsewhere:
// it did not answer as the owner.
func (c *cluster) forget(id string) {
	c.mu.Lock()
	delete(c.elsewhere, id)
	c.mu.Unlock()
}

// adopt records lease l as held by this node and answers for its table
// on the bus.
func (c *cluster) adopt(ctx context.Context, l store.Lease) error {
	c.mu.Lock()
	if o, ok := c.owned[l.Table]; ok {
		stale := o.lease.Epoch != l.Epoch
		o.lease, o.renewed = l, time.Now()
		c.mu.Unlock()
		if stale {
			// The lease lapsed and was taken again: another node may
			// have moved meanwhile, so the table is rebuilt from its
			// record.
			c.s.drop(l.Table)
		}
		return nil
	}
	o := &owned{lease: l, taken: time.Now(), renewed: time.Now(), stop: make(chan struct{})}
	c.owned[l.Table] = o
	delete(c.elsewhere, l.Table)
	c.mu.Unlock()
	if err := c.b.Own(ctx, l.Table); err != nil {
		c.mu.Lock()
		delete(c.owned, l.Table)
		c.mu.Unlock()
		c.leases.ReleaseLease(context.WithoutCancel(ctx), l)
		return fmt.Errorf("owning table %s on the bus: %w", l.Table, err)
	}
	c.loops.Add(1)
	go c.publish(l.Table, o.stop)
	return nil
}

// create takes the lease of a table just stored.
func (c *cluster) create(ctx context.Context, id string) error {
	owner, err := c.claim(ctx, id)
	if err == nil && owner != "" {
		err = fmt.Errorf("table %s is new, yet leased to node %s", id, owner)
	}
	return err
}

// lose drops table id: its lease passed to another node (or expired and
// could not be renewed).
func (c *cluster) lose(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, ok := c.disown(ctx, id); !ok {
		return
	}
	c.fenced.Inc()
	c.log.Warn("lease lost: the table is another node's now", "table", id)
	c.s.drop(id)
}

// disown stops renewing table id's lease and answering for it on the bus,
// and returns what this node held of it, if anything.
func (c *cluster) disown(ctx context.Context, id string) (*owned, bool) {
	c.mu.Lock()
	o, ok := c.owned[id]
	delete(c.owned, id)
	c.mu.Unlock()
	if !ok {
		return nil, false
	}
	close(o.stop)
	c.b.Disown(ctx, id)
	return o, true
}

// lapsed drops table id if this node holds its lease but has not
// renewed it in the lease's time.
func (c *cluster) lapsed(id string) {
	c.mu.Lock()
	o, ok := c.owned[id]
	stale := ok && time.Since(o.renewed) >= c.ttl
	c.mu.Unlock()
	if stale {
		c.lose(id)
	}
}

// release gives up table id's lease at once (it left memory).
func (c *cluster) release(ctx context.Context, id string) {
	o, ok := c.disown(ctx, id)
	if !ok {
		return
	}
	if err := c.leases.ReleaseLease(ctx, o.lease); err != nil && !errors.Is(err, store.ErrFenced) {
		c.log.Warn("releasing a lease", "table", id, "err", err)
	}
}

// drop forgets table id: another node owns it now.
func (s *Service) drop(id string) {
	s.mu.Lock()
	t, ok := s.tables[id]
	delete(s.tables, id)
	s.mu.Unlock()
	if !ok {
		return
	}
	t.mu.Lock()
	if t.tc.timer != nil {
		t.tc.timer.Stop()
	}
	t.gone = true
	t.broadcast() // watchers here end, and their clients connect again
	t.mu.Unlock()
}

// renewals renews every lease this node holds every third of the
// lease's time, releases those of tables no longer in memory, and takes
// over live tables whose lease expired.
func (c *cluster) renewals() {
	defer c.loops.Done()
	tick := time.NewTicker(c.ttl / 3)
	defer tick.Stop()
	for {
		select {
		case <-c.halted:
			return
		case <-tick.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), c.ttl/3)
		c.renewAll(ctx)
		c.sweep(ctx)
		cancel()
	}
}

func (c *cluster) renewAll(ctx context.Context) {
	c.mu.Lock()
	held := make(map[string]*owned, len(c.owned))
	leases := make(map[string]store.Lease, len(c.owned))
	for id, o := range c.owned {
		held[id], leases[id] = o, o.lease
	}
	c.mu.Unlock()
	renew := make([]store.Lease, 0, len(held))
	for id, o := range held {
		c.s.mu.RLock()
		_, here := c.s.tables[id]
		c.s.mu.RUnlock()
		if !here && time.Since(o.taken) > c.ttl {
			c.release(ctx, id)
			delete(held, id)
			continue
		}
		renew = append(renew, leases[id])
	}
	if len(renew) == 0 {
		return
	}
	// One statement for them all: each alone would be a write a table
	// every third of the lease (see docs/scaling.md).
	renewed, err := c.leases.RenewLeases(ctx, renew, c.ttl)
	now := time.Now()
	c.mu.Lock()
	for _, l := range renewed {
		o := held[l.Table]
		if cur, ok := c.owned[l.Table]; ok && cur == o && o.lease.Epoch == l.Epoch {
			o.lease, o.renewed = l, now
		}
		delete(held, l.Table)
	}
	c.mu.Unlock()
	if err != nil {
		// Those not renewed may still be this node's: try again at the
		// next tick (a lease not renewed in its time is no longer
		// counted on: see owns).
		c.log.Warn("renewing leases", "leases", len(renew), "renewed", len(renewed), "err", err)
		return
	}
	for id, o := range held {
		// Not renewed: another node holds the table now, unless this
		// node took the lease again meanwhile (a new epoch).
		c.mu.Lock()
		cur, ok := c.owned[id]
		gone := ok && cur == o && o.lease.Epoch == leases[id].Epoch
		c.mu.Unlock()
		if gone {
			c.lose(id)
		}
	}
}

// sweep takes over a few live tables whose owner stopped renewing, so
// that their clocks and computer seats go on without waiting for a
// request.
func (c *cluster) sweep(ctx context.Context) {
	expired, err := c.leases.ExpiredLeases(ctx, 16)
	if err != nil {
		c.log.Warn("looking for expired leases", "err", err)
		return
	}
	for _, l := range expired {
		if l.Owner == c.node && c.owns(l.Table) {
			continue
		}
		start := time.Now()
		owner, err := c.claim(ctx, l.Table)
		if err != nil || owner != "" {
			continue
		}
		if _, err := c.s.table(ctx, l.Table); err != nil {
			c.log.Warn("taking over a table", "table", l.Table, "err", err)
			c.release(ctx, l.Table)
			continue
		}
		c.takeovers.Inc()
		c.log.Info("table taken over", "table", l.Table, "from", l.Owner, "took", time.Since(start))
	}
}

// publish tells the bus of every change of table id (its mark: a move, a
// change that is not one, a chat message) until stop closes. Marks a
// quick succession of changes skipped are not sent: the subscribers see
// the gap and read the table afresh. Nothing is published before the
// table's chat is loaded, so that a new owner's marks never fall below
// its predecessor's (a subscriber drops a mark not above the last).
func (c *cluster) publish(id string, stop chan struct{}) {
	defer c.loops.Done()
	last := 0
	for {
		c.s.mu.RLock()
		t, ok := c.s.tables[id]
		c.s.mu.RUnlock()
		again := 50 * time.Millisecond
		if ok {
			ctx, cancel := context.WithTimeout(context.Background(), c.ttl)
			err := c.s.loadChat(ctx, t)
			cancel()
			if err != nil {
				// The store is away: nothing can change meanwhile.
				c.log.Warn("reading a table's chat before publishing its changes", "table", id, "err", err)
				ok, again = false, storeRetry
			}
		}
		var ch <-chan struct{}
		if ok {
			t.mu.Lock()
			m := t.mark()
			ch = t.awaitChange()
			t.mu.Unlock()
			if m > last {
				if err := c.b.Publish(id, m, nil); err != nil {
					c.log.Debug("publishing a change", "table", id, "err", err)
				}
				last = m
			}
		} else {
			// Not loaded yet (taken just before its restore), evicted,
			// or its chat not readable yet: look again shortly.
			tm := make(chan struct{})
			time.AfterFunc(again, func() { close(tm) })
			ch = tm
		}
		select {
		case <-ch:
		case <-stop:
			return
		case <-c.halted:
			return
		}
	}
}

// restored is called when this node has rebuilt table t from its record
// as its owner: it resumes the computer seats and re-arms the clock.
func (c *cluster) restored(t *table) {
	t.mu.Lock()
	c.s.scheduleBots(t)
	c.s.armClock(t)
	t.mu.Unlock()
}

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
	// the game's end (see Watcher.next).
	Chat  int  `json:"chat,omitempty"`
	Sent  bool `json:"sent,omitempty"`
	Ended bool `json:"ended,omitempty"`
	// Identity, Event, Hashes, Status and Limit are a note's, about
	// players or the lobby rather than a table (cluster_nodes.go).
	Identity string       `json:"identity,omitempty"`
	Event    *StreamEvent `json:"event,omitempty"`
	Hashes   [][]byte     `json:"hashes,omitempty"`
	Status   store.Status `json:"status,omitempty"`
	Limit    int          `json:"limit,omitempty"`
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
func (c *cluster) handle(ctx context.Context, req bus.Request) ([]byte, error) {
	rq, err := decodeRelay(req.Data)
	if err != nil {
		return nil, err
	}
	if noteKind(rq.Kind) {
		return c.serveNote(rq)
	}
	if !c.owns(rq.Table) {
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
	if noteKind(rq.Kind) {
		return decodeNote(rq)
	}
	if len(rq.Identity) > 0 || rq.Event != nil || len(rq.Hashes) > 0 || rq.Status != "" || rq.Limit != 0 {
		return relayRequest{}, fmt.Errorf("a request about table %s with a note's fields", clip(rq.Table))
	}
	rq.Hashes = nil // empty: as it reads back
	if !validID(rq.Table) {
		return relayRequest{}, fmt.Errorf("a request about no table (%q)", clip(rq.Table))
	}
	switch rq.Kind {
	case "ping", "here":
	case "update":
		if rq.Since < -1 {
			return relayRequest{}, fmt.Errorf("an update since version %d", rq.Since)
		}
		if rq.Chat < -1 {
			return relayRequest{}, fmt.Errorf("an update since chat message %d", rq.Chat)
		}
	case "http":
		if id, _, ok := tablePath(rq.Path); !ok || id != rq.Table {
			return relayRequest{}, fmt.Errorf("a forwarded request for %q about table %s", clip(rq.Path), rq.Table)
		}
		switch rq.Method {
		case http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete:
		default:
			return relayRequest{}, fmt.Errorf("a forwarded request with method %q", clip(rq.Method))
		}
		if strings.ContainsAny(rq.Path, "?#") || strings.Contains(rq.Path, "..") {
			return relayRequest{}, fmt.Errorf("a forwarded request for %q", clip(rq.Path))
		}
	default:
		return relayRequest{}, fmt.Errorf("a request of unknown kind %q", clip(rq.Kind))
	}
	return rq, nil
}

type forwardedKey struct{}

// serveRelayed serves a forwarded HTTP request through this node's
// handler.
func (c *cluster) serveRelayed(ctx context.Context, rq relayRequest) (relayReply, error) {
	c.hmu.RLock()
	h := c.h
	c.hmu.RUnlock()
	if h == nil {
		return relayReply{}, errors.New("the node serves no HTTP yet")
	}
	u := &url.URL{Path: rq.Path, RawQuery: rq.Query}
	r, err := http.NewRequestWithContext(context.WithValue(ctx, forwardedKey{}, true), rq.Method, u.String(), bytes.NewReader(rq.Body))
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
	if rec.header.Get(movedHeader) != "" {
		// The table left this node while the request waited for it:
		// nothing was done; the asker finds the new owner.
		return relayReply{NotOwner: true}, nil
	}
	return relayReply{Status: rec.status, Header: rec.header, Body: rec.body.Bytes()}, nil
}

// movedHeader marks the answer to a forwarded request that found its
// table handed to another node meanwhile (errMoved): handle turns it into
// NotOwner, so that the asker finds the new owner. It never leaves the
// node.
const movedHeader = "Parlour-Table-Moved"

// errMoved says that the table was handed to another node while the
// request waited for it here: nothing was done.
var errMoved = refuse(http.StatusServiceUnavailable, "the table moved to another server just now; nothing was done: try again")

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
func (c *cluster) handOff(ctx context.Context, id, from string) bool {
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
	c.s.mu.RLock()
	t, ok := c.s.tables[id]
	c.s.mu.RUnlock()
	if !ok {
		return false
	}
	t.mu.Lock()
	if t.gone || t.watchers > 0 || t.status != store.Playing || t.tc.timer != nil || t.computerSeats() || t.doubt {
		t.mu.Unlock()
		c.mu.Lock()
		o.streak = 0 // look again after as many more
		c.mu.Unlock()
		return false
	}
	o, ok = c.disown(ctx, id)
	if !ok {
		t.mu.Unlock()
		return false
	}
	_, err := c.leases.TakeLease(ctx, o.lease, from, c.ttl)
	// Handed or not, this node no longer answers for the table: should
	// the lease not have passed (the store away), it runs out and
	// another node takes the table over.
	t.gone = true
	t.broadcast()
	t.mu.Unlock()
	c.s.mu.Lock()
	if c.s.tables[id] == t {
		delete(c.s.tables, id)
	}
	c.s.mu.Unlock()
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

// here notes a request for table id made on this node, its owner (see
// handOff).
func (c *cluster) here(id string) {
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
func (c *cluster) serveUpdate(ctx context.Context, rq relayRequest) ([]byte, error) {
	s := c.s
	var p *Principal
	identity := ""
	if rq.Token != "" {
		var err error
		if p, err = s.Authenticate(ctx, rq.Token); err != nil {
			return replyError(err)
		}
		identity = p.Identity
	}
	t, err := s.table(ctx, rq.Table)
	if err != nil {
		return replyError(err)
	}
	if err := s.dailyShut(ctx, p, t); err != nil {
		return replyError(err)
	}
	if err := s.loadChat(ctx, t); err != nil {
		return replyError(err)
	}
	t.mu.Lock()
	if rq.Since > t.version() {
		t.mu.Unlock()
		return replyError(badRequest("version %d is ahead of the table, which is at version %d", rq.Since, t.version()))
	}
	t.lastUse = time.Now()
	seat := t.seatOf(p)
	t.touch(seat, s.now())
	from := rq.Chat
	if t.status == store.Finished && !rq.Ended && rq.Sent {
		from = 0 // the end opens every channel: see Watcher.next
	}
	u, err := t.update(s.games, seat, rq.Since)
	var last int
	u.Chat, last = t.chatAfter(from, seat, identity)
	u.Muted = t.mutedBy(identity)
	mark := t.mark()
	t.mu.Unlock()
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(u)
	if err != nil {
		return nil, err
	}
	return json.Marshal(relayReply{Status: http.StatusOK, Body: b, Chat: last, Mark: mark})
}

// mark is what the owner publishes of t at each change: its version plus
// the number of its last chat message, one more at every move, change
// and chat message. It only grows, on any owner, once t's chat is
// loaded. t.mu must be held.
func (t *table) mark() int { return t.version() + t.ch.last }

// serveHere notes that the seat of a watcher on another node is still
// at the table (see remoteWatch.heartbeat).
func (c *cluster) serveHere(ctx context.Context, rq relayRequest) ([]byte, error) {
	p, err := c.s.Authenticate(ctx, rq.Token)
	if err != nil {
		return replyError(err)
	}
	t, err := c.s.table(ctx, rq.Table)
	if err != nil {
		return replyError(err)
	}
	t.mu.Lock()
	t.touch(t.seatOf(p), c.s.now())
	t.mu.Unlock()
	return json.Marshal(relayReply{Status: http.StatusOK})
}

// replyError answers a refusal as its status and message.
func replyError(err error) ([]byte, error) {
	st := StatusOf(err)
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
	return id, rest, validID(id)
}

// errNoBus says that this node cannot reach the bus (NATS is away, or
// this node is cut off from it): the request was not sent.
var errNoBus = refuse(http.StatusServiceUnavailable, "this server cannot reach the one that runs this table just now; nothing was done: try again in a moment")

// errGone says that the table's owner died mid-request.
var errGone = refuse(http.StatusServiceUnavailable, "the node that runs this table stopped answering; what you asked may or may not have been done: look at the table before asking again")

// serveHTTP serves r when it concerns a table another node owns, and
// reports whether it did; otherwise the caller serves it here.
func (c *cluster) serveHTTP(w http.ResponseWriter, r *http.Request) bool {
	if r.Context().Value(forwardedKey{}) != nil {
		return false
	}
	id, rest, ok := tablePath(r.URL.Path)
	if !ok {
		return false
	}
	ctx := r.Context()
	owner, err := c.claim(ctx, id)
	if err != nil {
		c.fail(w, r, err)
		return true
	}
	if owner == "" {
		c.here(id)
		return false // this node owns it: serve here, the body unread
	}
	var body []byte
	if r.Body != nil && r.Body != http.NoBody {
		b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, bus.MaxData/2))
		if err != nil {
			c.fail(w, r, refuse(http.StatusRequestEntityTooLarge, "the request's body is too large, or did not all come"))
			return true
		}
		body = b
	}
	// The request is read; the local handler reads the body again.
	r.Body = io.NopCloser(bytes.NewReader(body))
	conditional := false
	if r.Method == http.MethodPost && rest == "moves" {
		var mr struct {
			Version *int `json:"version"`
		}
		conditional = json.Unmarshal(body, &mr) == nil && mr.Version != nil
	}
	for try := 0; try < 4; try++ {
		if try > 0 {
			if owner, err = c.claim(ctx, id); err != nil {
				c.fail(w, r, err)
				return true
			}
			if owner == "" {
				return false // this node owns it now: serve here
			}
		}
		switch rest {
		case "socket":
			c.remoteSocket(w, r, id)
			return true
		case "events":
			c.remoteEvents(w, r, id)
			return true
		}
		rp, err := c.forward(ctx, owner, relayRequest{
			Kind: "http", Table: id, Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery,
			Header: pick(r.Header), Remote: r.RemoteAddr, Body: body,
		})
		if err != nil || rp.NotOwner {
			c.forget(id)
		}
		switch {
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
			time.Sleep(20 * time.Millisecond)
			continue
		}
		if rp.Handed {
			// The table is this node's now: take it up at once rather
			// than at the next request, which would first ask the old
			// owner.
			c.forget(id)
			go c.adoptHanded(id)
		}
		for k, v := range rp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(rp.Status)
		w.Write(rp.Body)
		return true
	}
	c.fail(w, r, refuse(http.StatusServiceUnavailable, "the table is changing hands; try again"))
	return true
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
// for it at most forwardTime. Nor is the answer awaited blindly: when
// owner (the node the lease names, if known) is given, it is asked every
// second whether it is still there, and a node gone from the bus (killed,
// cut off) fails the request at once with errOwnerGone.
func (c *cluster) forward(ctx context.Context, owner string, rq relayRequest) (relayReply, error) {
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
	go func() {
		a, err := c.b.Request(ctx, bus.ToOwner(rq.Table), b)
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
			// The request is with the table's owner by its lease, which
			// may not be the node this node last saw holding it
			// (rememberOwner): the table may have been handed on or
			// taken over since, and that node may live on while the
			// owner died with the request.
			if l, err := c.leases.Lease(ctx, rq.Table); err == nil {
				owner = l.Owner
			}
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
func (c *cluster) present(ctx context.Context, node, id string) bool {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	_, err := c.b.Request(ctx, bus.ToNode(node), []byte(`{"kind":"ping","table":"`+id+`"}`))
	return !errors.Is(err, bus.ErrNoResponder)
}

// minForward is the least time a forwarded request waits for the owner's
// answer by default.
const minForward = 10 * time.Second

// forwardTime is how long a forwarded request waits for the owner's
// answer: a move or setup that asked to wait for the asker's turn, or a
// game's analysis, as long as they may take and a little; anything else
// Cluster.Forward, so that a request the owner received just before it
// died is known lost, then made again or answered 503, within seconds
// rather than a minute.
func (c *cluster) forwardTime(rq relayRequest) time.Duration {
	base := c.fwd
	if rq.Kind != "http" {
		return base
	}
	_, rest, _ := tablePath(rq.Path)
	switch {
	case rest == "analysis":
		return analysisTimeout + base
	case rq.Method == http.MethodPost && (rest == "moves" || rest == "setup"):
		var w struct {
			Wait bool `json:"wait"`
		}
		if json.Unmarshal(rq.Body, &w) == nil && w.Wait {
			return c.s.cfg.MaxWait + base
		}
	}
	return base
}

// answers reports whether a node answers as table id's owner.
func (c *cluster) answers(ctx context.Context, id string) bool {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	ans, err := c.b.Request(ctx, bus.ToOwner(id), []byte(`{"kind":"ping","table":"`+id+`"}`))
	var rp relayReply
	return err == nil && json.Unmarshal(ans, &rp) == nil && !rp.NotOwner
}

// fail answers err through the node's handler.
func (c *cluster) fail(w http.ResponseWriter, r *http.Request, err error) {
	c.hmu.RLock()
	h := c.h
	c.hmu.RUnlock()
	if h != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, StatusOf(err), map[string]string{"error": err.Error()})
}

// takeover waits, bounded by the lease's time and a little, for the
// lease of table id to expire or pass, and takes it if it expired. It
// returns nil once this node or another live one owns the table.
func (c *cluster) takeover(ctx context.Context, id string) error {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, c.ttl+2*time.Second)
	defer cancel()
	gone := 0 // times in a row the lease's owner was not on the bus
	for {
		if c.owns(id) {
			return nil // taken over meanwhile (the sweep, another request)
		}
		l, err := c.leases.AcquireLease(ctx, id, c.node, c.ttl)
		if errors.Is(err, store.ErrLeased) && l.Owner != "" && l.Owner != c.node {
			// An owner gone from the bus (killed, or cut off) need not
			// be waited for: seen gone twice, a quarter second apart, its
			// lease is taken over at once. Should it run on after all,
			// the new epoch fences its writes.
			if c.present(ctx, l.Owner, id) {
				gone = 0
			} else if gone++; gone >= 2 {
				if taken, terr := c.leases.TakeLease(ctx, l, c.node, c.ttl); terr == nil {
					c.log.Info("lease taken from a node gone from the bus", "table", id, "node", l.Owner)
					l, err = taken, nil
				}
			}
		}
		switch {
		case err == nil:
			if err := c.adopt(ctx, l); err != nil {
				return refuse(http.StatusServiceUnavailable, "the table could not be taken over; try again")
			}
			if _, err := c.s.table(ctx, id); err != nil {
				c.release(context.WithoutCancel(ctx), id)
				return err
			}
			c.takeovers.Inc()
			c.log.Info("table taken over", "table", id, "took", time.Since(start))
			return nil
		case errors.Is(err, store.ErrLeased) && l.Owner != "" && l.Owner != c.node:
			// Another node may have taken it already: if it answers, the
			// caller forwards to it.
			if c.answers(ctx, id) {
				return nil
			}
		case !errors.Is(err, store.ErrLeased):
			return refuse(http.StatusServiceUnavailable, "the table's lease cannot be read now; try again")
		}
		wait := 100 * time.Millisecond
		if gone > 0 {
			wait = 250 * time.Millisecond
		}
		select {
		case <-ctx.Done():
			return refuse(http.StatusServiceUnavailable, "the table's node stopped answering and its lease has not run out yet; try again in a few seconds")
		case <-time.After(wait):
		}
	}
}

// readOnly returns table id rebuilt from its record for a read on a node
// that does not own it (the lobby, a profile's games): it is not kept,
// runs no computer seat nor clock, and cannot be written (its writes
// carry no lease's epoch, which the store refuses).
func (s *Service) readOnly(ctx context.Context, id string) (*table, error) {
	row, err := s.st.Table(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, refuse(http.StatusNotFound, "there is no table %q", id)
	}
	if err != nil {
		return nil, err
	}
	t, err := s.restore(row)
	if err != nil {
		return nil, err
	}
	// Another node runs it: a move that reaches it here (it was
	// forwarded to this node just as the table left) is refused as
	// moved, and found its way to the new owner.
	t.gone = true
	return t, nil
}
