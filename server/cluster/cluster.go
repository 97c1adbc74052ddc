package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"parlour/bus"
	"parlour/server/auth"
	"parlour/server/players"
	"parlour/server/refuse"
	"parlour/server/social"
	"parlour/server/table"
	"parlour/store"
)

// Config makes a server one node of a cluster.
type Config struct {
	// Bus is this node's connection to the others. Its handler must
	// pass requests to Relay.Handle.
	Bus bus.Bus
	// Relay answers the bus's requests for the node; give its Handle as
	// the bus's handler when connecting.
	Relay *Relay
	// Lease is how long a table's lease lasts unless renewed (default
	// DefaultLease): how long a dead owner's tables stall at most.
	Lease time.Duration
	// Forward is how long a request forwarded to a table's owner waits
	// for its answer (default twice the lease, at least 10 s; a move
	// that asked to wait, a setup the computer makes, a rematch and an
	// analysis wait that much more than they may take): past it, the
	// owner is taken for dead.
	Forward time.Duration
}

// DefaultLease is a table lease's default time.
const DefaultLease = 5 * time.Second

// CredentialAge is how long a node of a cluster trusts a credential from
// its cache before it asks the store again: a credential deleted on
// another node is dropped here when that node tells this one (a
// "forget" note), and at the latest then should it not (the bus was
// away).
const CredentialAge = time.Minute

// Relay passes the bus's requests to a Node, which does not exist yet
// when the bus is connected: make one, connect the bus with Handle as
// its handler, then give both in Config.
type Relay struct {
	mu sync.RWMutex
	c  *Node
}

// NewRelay returns a Relay that refuses requests until its node starts.
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

// Node is one node of a cluster: the leases it holds, the tables it
// forwards, the followers of other nodes' tables it keeps and the notes
// it exchanges with the other nodes.
type Node struct {
	b      bus.Bus
	relay  *Relay
	node   string
	st     store.Store
	leases store.Leases
	ttl    time.Duration
	fwd    time.Duration // see Config.Forward
	log    *slog.Logger
	auth   *auth.Auth

	// tables, social, maxWait, walkAway and botTime are given by Start: they are
	// made after the node, which the tables need as their Placement.
	tables   *table.Service
	social   *social.Service
	maxWait  time.Duration // the table service's MaxWait
	walkAway time.Duration // the table service's WalkAway
	botTime  time.Duration // the table service's BotTimeout

	mu    sync.Mutex
	owned map[string]*owned // the tables whose lease this node holds
	// elsewhere remembers, for a while, the tables another node was
	// found to hold, so that a forwarded request costs no write of the
	// lease row. A stale entry sends the request to a node that no
	// longer owns the table: it answers so, and the table's lease is
	// read again.
	elsewhere map[string]remoteOwner
	// handing holds the epoch of each lease this node is handing, or
	// handed, to another node (handOff): a request that comes meanwhile
	// may find the lease still this node's in the store, and taking it
	// "again" would renew it at that epoch, only to lose it to the
	// hand-over a moment later; adopt refuses a lease of that epoch or
	// before. Bounded as elsewhere is.
	handing map[string]int64
	events  *Events  // see Events
	book    seekBook // see seeks.go

	h   http.Handler // set by Serve
	hmu sync.RWMutex
	// eventGames hears of the end of an event's game told by another
	// node (EventGames); guarded by hmu.
	eventGames func(ctx context.Context, event, table string) bool
	// closedHere hears of an account closed on another node
	// (ClosedHere); guarded by hmu.
	closedHere func(ctx context.Context, identity, name string)
	// renamedHere hears of an account renamed on another node
	// (RenamedHere); guarded by hmu.
	renamedHere func(ctx context.Context, identity, name string)
	// seekHooks is the seek service's part (SeeksHere); guarded by hmu.
	seekHooks SeekBook
	halted    chan struct{}
	once      sync.Once
	loops     sync.WaitGroup
	// closing is closed as Close begins: what waits on another node for
	// a request through this one ends then (untilClose).
	closing     chan struct{}
	closingOnce sync.Once

	forwarded, takeovers, fenced prometheus.Counter
	handed                       prometheus.Counter // see handOff
	notesLost                    prometheus.Counter // see nodes.go
	// forwardTrip times forwarded requests, from this node's send to the
	// owner's answer; busTrip times the probes to the other nodes, the
	// bus's own round trip (see probes).
	forwardTrip, busTrip prometheus.Histogram

	notes nodeNotes // what the nodes tell each other of players (nodes.go)
}

// The parts of the server a Node stands in for on this node.
var (
	_ table.Placement  = (*Node)(nil)
	_ table.LobbyPeers = (*Node)(nil)
	_ players.Peers    = (*Node)(nil)
	_ social.Peers     = (*Node)(nil)
)

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

// New returns the node cfg makes of a server on st, whose credentials a
// checks, logging to log and registering its metrics on reg. st must
// keep leases (store.Leases). The node answers nothing and runs nothing
// until Start hands it the parts of the server made after it.
func New(cfg Config, st store.Store, a *auth.Auth, log *slog.Logger, reg prometheus.Registerer) (*Node, error) {
	if cfg.Bus == nil {
		return nil, errors.New("cluster: a node needs a bus")
	}
	if cfg.Relay == nil {
		return nil, errors.New("cluster: a node needs the Relay its bus hands requests to")
	}
	ls, ok := st.(store.Leases)
	if !ok {
		return nil, errors.New("cluster: a node needs a store that keeps leases (PostgreSQL), not this one")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if reg == nil {
		reg = prometheus.NewRegistry()
	}
	ttl := cfg.Lease
	if ttl <= 0 {
		ttl = DefaultLease
	}
	fwd := cfg.Forward
	if fwd <= 0 {
		fwd = max(2*ttl, minForward)
	}
	c := &Node{
		b: cfg.Bus, relay: cfg.Relay, node: cfg.Bus.Node(), st: st, leases: ls, ttl: ttl, fwd: fwd, auth: a,
		log: log.With("node", cfg.Bus.Node()), owned: map[string]*owned{}, elsewhere: map[string]remoteOwner{}, handing: map[string]int64{}, halted: make(chan struct{}), closing: make(chan struct{}),
		notes: nodeNotes{queue: make(chan relayRequest, noteQueue)},
	}
	c.forwarded = prometheus.NewCounter(prometheus.CounterOpts{Name: "parlour_cluster_forwarded_total", Help: "Requests this node forwarded to the owner of their table."})
	c.takeovers = prometheus.NewCounter(prometheus.CounterOpts{Name: "parlour_cluster_takeovers_total", Help: "Tables this node took over from an owner that stopped renewing its lease."})
	c.handed = prometheus.NewCounter(prometheus.CounterOpts{Name: "parlour_cluster_handed_total", Help: "Tables this node handed to the node their requests came from."})
	c.fenced = prometheus.NewCounter(prometheus.CounterOpts{Name: "parlour_cluster_leases_lost_total", Help: "Leases this node lost to another node."})
	c.notesLost = prometheus.NewCounter(prometheus.CounterOpts{Name: "parlour_cluster_notes_unanswered_total", Help: "Notes to another node (a player stream's event, credentials to forget, who is online, a player's tables, the lobby) that it did not answer."})
	c.forwardTrip = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "parlour_cluster_forward_seconds", Help: "Time from forwarding a request to its table's owner to the owner's answer, the owner's work included.", Buckets: table.LatencyBuckets()})
	c.busTrip = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "parlour_cluster_bus_seconds", Help: "Round trip over the bus of a probe to another node, answered at once (every few seconds, to each other node).", Buckets: busBuckets})
	for _, m := range []prometheus.Collector{c.forwarded, c.takeovers, c.handed, c.fenced, c.notesLost, c.forwardTrip, c.busTrip,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "parlour_cluster_owned_tables", Help: "Tables whose lease this node holds."}, func() float64 {
			c.mu.Lock()
			defer c.mu.Unlock()
			return float64(len(c.owned))
		}),
	} {
		if err := reg.Register(m); err != nil {
			return nil, fmt.Errorf("cluster: registering metrics: %w", err)
		}
	}
	return c, nil
}

// Start hands the node the table service and the social part, made
// after it (the table service needs the node as its Placement), lets its
// Relay pass it the bus's requests, and starts its background work: the
// lease renewals and the sweep for expired leases, the sender of stream
// events to the other nodes, and the probes of the bus. Call it once,
// before the server serves anything.
func (c *Node) Start(tables *table.Service, sc *social.Service) {
	c.tables, c.social = tables, sc
	d := tables.Config()
	c.maxWait, c.walkAway, c.botTime = d.MaxWait, d.WalkAway, d.BotTimeout
	c.relay.mu.Lock()
	c.relay.c = c
	c.relay.mu.Unlock()
	c.loops.Add(3)
	go c.renewals()
	go c.sendNotes()
	go c.probes()
}

// Halt stops the node's background work without releasing anything, as
// the node's death would (a Close after it releases nothing either); the
// node still answers on the bus and forwards requests. Tests of a
// cluster play a node's death or pause with it. It is safe to call
// twice.
func (c *Node) Halt() {
	c.once.Do(func() { close(c.halted) })
	c.loops.Wait()
}

// Ping says whether the node can reach the others: the bus makes a round
// trip, when it can say (bus.Pinger). A node cut off from the bus would
// serve its own tables alone, its players seeing nothing of the rest; its
// readiness check (GET /readyz) answers no, so that a balancer sends the
// players elsewhere.
func (c *Node) Ping(ctx context.Context) error {
	p, ok := c.b.(bus.Pinger)
	if !ok {
		return nil
	}
	return p.Ping(ctx)
}

// Close halts the node and releases every lease it holds, its tables'
// and its events', so that other nodes take them up at once rather than
// after the lease's time.
func (c *Node) Close() {
	c.closingOnce.Do(func() { close(c.closing) })
	select {
	case <-c.halted:
		return // halted as if dead: release nothing
	default:
	}
	c.Halt()
	// The seeks first: they live in this node's memory alone.
	hctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	c.handBook(hctx)
	cancel()
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
	// The events' leases too: a write the events service makes after
	// them is fenced off, and the node that takes an event up reads it
	// from the store.
	c.mu.Lock()
	ev := c.events
	c.mu.Unlock()
	if ev != nil {
		ev.releaseAll(ctx)
	}
	c.releaseBook(ctx)
}

// Holds reports whether the node counts table id's lease as its own,
// renewed in time or not (owns asks for a lease renewed in time).
func (c *Node) Holds(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.owned[id]
	return ok
}

// Epoch returns the epoch that fences writes of table id: its lease's if
// this node holds it, and otherwise -1, which the store refuses (a node
// that does not own a table must not write it). 0 when not clustered.
func (c *Node) Epoch(id string) int64 {
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
func (c *Node) owns(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	o, ok := c.owned[id]
	return ok && time.Since(o.renewed) < c.ttl
}

// claim takes table id's lease for this node, or returns the node that
// holds it ("" when this node does now).
func (c *Node) claim(ctx context.Context, id string) (string, error) {
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
			if _, err := c.st.Table(ctx, id); errors.Is(err, store.ErrNotFound) {
				return "", refuse.NotFound("there is no table %q", id)
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
		return "", refuse.Unavailable("the table cannot be reached now; try again")
	}
	if err := c.adopt(ctx, l); err != nil {
		c.log.Warn("owning a table", "table", id, "err", err)
		return "", refuse.Unavailable("the table cannot be reached now; try again")
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
func (c *Node) adoptHanded(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), c.ttl)
	defer cancel()
	if owner, err := c.claim(ctx, id); err != nil || owner != "" {
		c.log.Warn("taking up a table handed to this node", "table", id, "owner", owner, "err", err)
		return
	}
	if err := c.tables.Load(ctx, id); err != nil {
		c.log.Warn("taking up a table handed to this node", "table", id, "err", err)
	}
}

// forget drops what this node remembers of table id's owner elsewhere:
// it did not answer as the owner.
func (c *Node) forget(id string) {
	c.mu.Lock()
	delete(c.elsewhere, id)
	c.mu.Unlock()
}

// adopt records lease l as held by this node and answers for its table
// on the bus.
func (c *Node) adopt(ctx context.Context, l store.Lease) error {
	c.mu.Lock()
	if e, ok := c.handing[l.Table]; ok && l.Epoch <= e {
		c.mu.Unlock()
		return fmt.Errorf("table %s is being handed to another node", l.Table)
	}
	if o, ok := c.owned[l.Table]; ok {
		stale := o.lease.Epoch != l.Epoch
		o.lease, o.renewed = l, time.Now()
		c.mu.Unlock()
		if stale {
			// The lease lapsed and was taken again: another node may
			// have moved meanwhile, so the table is rebuilt from its
			// record.
			c.tables.Drop(l.Table)
		}
		return nil
	}
	o := &owned{lease: l, taken: time.Now(), renewed: time.Now(), stop: make(chan struct{})}
	c.owned[l.Table] = o
	delete(c.elsewhere, l.Table)
	c.mu.Unlock()
	// A copy in memory from an earlier lease of this node's is behind
	// whatever the owners between did: it goes, and the table is read
	// again from its record.
	c.tables.DropStale(l.Table, l.Epoch)
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

// create takes the lease of a new table, not yet stored, and answers for
// it on the bus, and returns the lease's epoch. A table this node cannot
// own (the store or the bus is out of reach) must not be made: nobody
// else could serve it, and a copy kept here without its lease would
// come back stale once the node took the lease again.
func (c *Node) create(ctx context.Context, id string) (int64, error) {
	l, err := c.leases.AcquireLease(ctx, id, c.node, c.ttl)
	if err == nil {
		err = c.adopt(ctx, l)
	}
	if err != nil {
		c.log.Warn("a new table's lease", "table", id, "err", err)
		return 0, refuse.Unavailable("the table cannot be made just now (the servers cannot reach each other); nothing was done: try again in a moment")
	}
	return l.Epoch, nil
}

// lose drops table id: its lease passed to another node (or expired and
// could not be renewed).
func (c *Node) lose(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, ok := c.disown(ctx, id); !ok {
		return
	}
	c.fenced.Inc()
	c.log.Warn("lease lost: the table is another node's now", "table", id)
	c.tables.Drop(id)
}

// disown stops renewing table id's lease and answering for it on the bus,
// and returns what this node held of it, if anything.
func (c *Node) disown(ctx context.Context, id string) (*owned, bool) {
	c.mu.Lock()
	o, ok := c.owned[id]
	delete(c.owned, id)
	c.mu.Unlock()
	if !ok {
		return nil, false
	}
	close(o.stop)
	c.b.Disown(ctx, id)
	// Taken again while the bus let it go (Disown waits for NATS): the
	// new lease's Own found the old subscription and did nothing, and
	// Disown just ended it. Without this the node would renew a lease
	// of a table nobody can reach it for.
	c.mu.Lock()
	_, again := c.owned[id]
	c.mu.Unlock()
	if again {
		if err := c.b.Own(context.WithoutCancel(ctx), id); err != nil {
			c.log.Warn("answering again for a table taken back", "table", id, "err", err)
			go c.giveUp(id)
		}
	}
	return o, true
}

// giveUp lets table id go at once, lease and all: this node holds its
// lease but cannot answer for it on the bus, so another node must take
// it, and need not wait for the lease to run out.
func (c *Node) giveUp(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), c.ttl)
	defer cancel()
	c.release(ctx, id)
	c.tables.Drop(id)
}

// heal makes this node answer on the bus for table id, whose lease it
// holds, because another node found nobody answering for it: the bus
// lost the subscription (or this node let it go as it took the table
// back). Should that fail, the node gives the table up.
func (c *Node) heal(ctx context.Context, id string) {
	if err := c.b.Own(ctx, id); err != nil {
		c.log.Warn("answering again for a table nobody could reach", "table", id, "err", err)
		go c.giveUp(id)
		return
	}
	c.log.Info("answering again for a table nobody could reach", "table", id)
}

// lapsed drops table id if this node holds its lease but has not
// renewed it in the lease's time.
func (c *Node) lapsed(id string) {
	c.mu.Lock()
	o, ok := c.owned[id]
	stale := ok && time.Since(o.renewed) >= c.ttl
	c.mu.Unlock()
	if stale {
		c.lose(id)
	}
}

// release gives up table id's lease at once (it left memory).
func (c *Node) release(ctx context.Context, id string) {
	o, ok := c.disown(ctx, id)
	if !ok {
		return
	}
	if err := c.leases.ReleaseLease(ctx, o.lease); err != nil && !errors.Is(err, store.ErrFenced) {
		c.log.Warn("releasing a lease", "table", id, "err", err)
	}
}

// renewals renews every lease this node holds every third of the
// lease's time, releases those of tables no longer in memory, and takes
// over live tables whose lease expired.
func (c *Node) renewals() {
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
		c.renewBook(ctx)
		c.sweep(ctx)
		cancel()
	}
}

func (c *Node) renewAll(ctx context.Context) {
	c.mu.Lock()
	held := make(map[string]*owned, len(c.owned))
	leases := make(map[string]store.Lease, len(c.owned))
	for id, o := range c.owned {
		held[id], leases[id] = o, o.lease
	}
	c.mu.Unlock()
	renew := make([]store.Lease, 0, len(held))
	for id, o := range held {
		if !c.tables.Loaded(id) && time.Since(o.taken) > c.ttl {
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
func (c *Node) sweep(ctx context.Context) {
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
		if err := c.tables.Load(ctx, l.Table); err != nil {
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
func (c *Node) publish(id string, stop chan struct{}) {
	defer c.loops.Done()
	last := 0
	for {
		ctx, cancel := context.WithTimeout(context.Background(), c.ttl)
		m, ch, ok, err := c.tables.Mark(ctx, id)
		cancel()
		again := 50 * time.Millisecond
		if err != nil {
			// The store is away: nothing can change meanwhile.
			c.log.Warn("reading a table's chat before publishing its changes", "table", id, "err", err)
			again = table.StoreRetry
		}
		if ok {
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

// published tells the other nodes of a change of table id, at mark, that
// publish does not see: the table left memory with it (Leave).
func (c *Node) published(id string, mark int) {
	if err := c.b.Publish(id, mark, nil); err != nil {
		c.log.Debug("publishing a change", "table", id, "err", err)
	}
}

// Restored is told when this node has rebuilt table id from its record
// as its owner; the lease was taken by Claim, so there is nothing to do.
func (c *Node) Restored(id string) {}

// Claim is claim, for the table service (Placement).
func (c *Node) Claim(ctx context.Context, id string) (string, error) { return c.claim(ctx, id) }

// Created is create, for the table service (Placement).
func (c *Node) Created(ctx context.Context, id string) error {
	_, err := c.create(ctx, id)
	return err
}

// Abandoned is release, for the table service (Placement).
func (c *Node) Abandoned(ctx context.Context, id string) { c.release(ctx, id) }

// Fenced counts a lease lost: the store refused a write of table id
// under its passed epoch (Placement).
func (c *Node) Fenced(id string) { c.fenced.Inc() }

// Changed is published, for the table service (Placement).
func (c *Node) Changed(id string, mark int) { c.published(id, mark) }

// takeover waits, bounded by the lease's time and a little, for the
// lease of table id to expire or pass, and takes it if it expired. It
// returns nil once this node or another live one owns the table.
func (c *Node) takeover(ctx context.Context, id string) error {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, c.ttl+2*time.Second)
	defer cancel()
	gone := 0 // times in a row the lease's owner was not on the bus
	// deaf is when the lease's owner was first seen on the bus yet not
	// answering for the table: it is asked to answer again (heal), and
	// still deaf a lease's time later, its lease is taken.
	var deaf time.Time
	for {
		if c.owns(id) {
			return nil // taken over meanwhile (the sweep, another request)
		}
		l, err := c.leases.AcquireLease(ctx, id, c.node, c.ttl)
		if errors.Is(err, store.ErrLeased) && l.Owner != "" && l.Owner != c.node {
			// Another node may have taken it already: if it answers, the
			// caller forwards to it.
			if c.answers(ctx, id) {
				return nil
			}
			var take bool
			if c.present(ctx, l.Owner, id) {
				// The owner is on the bus and renews the lease, yet
				// nobody answers for the table.
				gone = 0
				switch {
				case deaf.IsZero():
					deaf = time.Now()
					c.askHeal(ctx, l.Owner, id)
				case time.Since(deaf) >= c.ttl:
					take = true
				}
			} else if gone++; gone >= 2 {
				// An owner gone from the bus (killed, or cut off) need
				// not be waited for: seen gone twice, a quarter second
				// apart, its lease is taken over at once.
				take = true
			}
			// Should the old owner run on after all, the new epoch
			// fences its writes.
			if take {
				if taken, terr := c.leases.TakeLease(ctx, l, c.node, c.ttl); terr == nil {
					c.log.Info("lease taken from a node that does not answer for the table", "table", id, "from", l.Owner, "on_bus", gone == 0)
					l, err = taken, nil
				}
			}
		}
		switch {
		case err == nil:
			if err := c.adopt(ctx, l); err != nil {
				return refuse.Unavailable("the table could not be taken over; try again")
			}
			if err := c.tables.Load(ctx, id); err != nil {
				c.release(context.WithoutCancel(ctx), id)
				return err
			}
			c.takeovers.Inc()
			c.log.Info("table taken over", "table", id, "took", time.Since(start))
			return nil
		case !errors.Is(err, store.ErrLeased):
			return refuse.Unavailable("the table's lease cannot be read now; try again")
		}
		wait := 100 * time.Millisecond
		if gone > 0 {
			wait = 250 * time.Millisecond
		}
		select {
		case <-ctx.Done():
			return refuse.Unavailable("the table's node stopped answering and its lease has not run out yet; try again in a few seconds")
		case <-time.After(wait):
		}
	}
}

// askHeal tells node, which holds table id's lease, that nobody answers
// for the table on the bus (see heal).
func (c *Node) askHeal(ctx context.Context, node, id string) {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if _, err := c.b.Request(ctx, bus.ToNode(node), []byte(`{"kind":"heal","table":"`+id+`"}`)); err != nil {
		c.log.Debug("asking a table's owner to answer for it", "table", id, "owner", node, "err", err)
	}
}
