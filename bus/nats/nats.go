// Package nats is the bus between the nodes of a Parlour cluster, on NATS
// (github.com/nats-io/nats.go): plain publish and subscribe for a
// table's changes, request and reply for what goes to a table's owner.
// It uses core NATS only, no JetStream: the store holds every record, so
// the bus need not keep anything, and a message a node misses is a gap
// its watchers see (bus.Change.Gap), never a wrong state.
//
// Subjects, under a prefix ("parlour" by default) that lets clusters
// share a NATS server:
//
//	<prefix>.change.<table>   a table's changes, to every subscribed node
//	<prefix>.owner.<table>    requests to the table's owner (a queue group,
//	                          so that one owner answers each)
//	<prefix>.node.<node>      requests to one node
//	<prefix>.alive            who is there (Nodes)
//
// A node holds one NATS subscription per table it follows, however many
// watchers it has for it, and hands each change to its watchers itself.
//
// The connection survives the NATS server's restarts and network cuts by
// itself: nats.go reconnects without end, resubscribes, and sends what
// was published meanwhile (up to its buffer). Requests made while the
// connection is down fail at once with bus.ErrUnavailable.
package nats

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	natsgo "github.com/nats-io/nats.go"

	"parlour/bus"
	"parlour/bus/internal/feed"
)

// Config is what Connect needs. URL and Node are required.
type Config struct {
	// URL is the NATS server's ("nats://127.0.0.1:4222"), or several
	// servers' of one NATS cluster, separated by commas. Credentials may
	// be given in it; messages show them as "xxxxx".
	URL string
	// Node is this node's name, unique in the cluster.
	Node string
	// Handler answers the requests to this node and to the tables it
	// owns; nil for a node that takes none.
	Handler bus.Handler
	// Prefix is the first part of every subject (default "parlour").
	Prefix string
	// Logger gets the connection's comings and goings.
	Logger *slog.Logger
	// ReconnectWait is how long the connection waits between attempts
	// to reconnect (default 250ms: a node without NATS cannot move a
	// remote table, so it tries often; NATS's own default is 2s).
	ReconnectWait time.Duration
	// DialTimeout bounds the first connection when ctx has no deadline
	// (default 5s).
	DialTimeout time.Duration
}

// Bus is a node's connection to a NATS server. Its methods are safe for
// concurrent use.
type Bus struct {
	cfg  Config
	url  string // cfg.URL with credentials hidden, for messages
	nc   *natsgo.Conn
	log  *slog.Logger
	busy sync.WaitGroup // handlers running

	closed atomic.Bool // Close was called

	// Three locks, so that a round trip to NATS made under one (Own's)
	// holds up neither the requests being answered nor the changes
	// being handed out.
	mu     sync.Mutex // guards tables
	tables map[string]*fanout

	ownMu   sync.Mutex // guards owned and serving; held while NATS confirms
	owned   map[string]*natsgo.Subscription
	serving []*natsgo.Subscription // the node's own and the alive subscriptions

	serveMu sync.Mutex // guards stopped, so that busy.Add never meets busy.Wait
	stopped bool       // no handler starts any more
}

var _ bus.Bus = (*Bus)(nil)

// Connect connects node cfg.Node to NATS. It fails, with a message naming
// NATS and its address, if NATS cannot be reached, or if another node
// already runs under the name.
func Connect(ctx context.Context, cfg Config) (*Bus, error) {
	if err := bus.CheckName("node", cfg.Node); err != nil {
		return nil, err
	}
	if cfg.Prefix == "" {
		cfg.Prefix = "parlour"
	}
	if err := bus.CheckName("subject prefix", cfg.Prefix); err != nil {
		return nil, err
	}
	if strings.TrimSpace(cfg.URL) == "" {
		return nil, errors.New("bus: the NATS address is empty: give one, like nats://127.0.0.1:4222")
	}
	if _, err := hosts(cfg.URL); err != nil {
		return nil, err
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.ReconnectWait <= 0 {
		cfg.ReconnectWait = 250 * time.Millisecond
	}
	if cfg.DialTimeout <= 0 {
		cfg.DialTimeout = 5 * time.Second
	}
	dial := cfg.DialTimeout
	if d, ok := ctx.Deadline(); ok {
		dial = time.Until(d)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("bus: connecting to NATS: %w", err)
	}
	b := &Bus{cfg: cfg, url: redact(cfg.URL), owned: map[string]*natsgo.Subscription{}, tables: map[string]*fanout{}}
	b.log = cfg.Logger.With("nats", b.url, "node", cfg.Node)
	nc, err := natsgo.Connect(cfg.URL,
		natsgo.Name("parlour "+cfg.Node),
		natsgo.Timeout(dial),
		natsgo.MaxReconnects(-1),
		natsgo.ReconnectWait(cfg.ReconnectWait),
		natsgo.ReconnectJitter(cfg.ReconnectWait/5, cfg.ReconnectWait/5),
		// A NATS server that vanished without closing the connection
		// (a power cut) is noticed within 10 to 15 seconds, not the two
		// minutes of NATS's default.
		natsgo.PingInterval(5*time.Second),
		natsgo.MaxPingsOutstanding(2),
		natsgo.DisconnectErrHandler(b.disconnected),
		natsgo.ReconnectHandler(b.reconnected),
		natsgo.ErrorHandler(b.asyncError),
		natsgo.NoCallbacksAfterClientClose(),
	)
	if err != nil {
		if errors.Is(err, natsgo.ErrNoServers) {
			// nats.go says only that it found no server; the dial's own
			// error says why (refused, no route, a name not found).
			if cause := dialCause(cfg.URL, dial); cause != nil {
				err = cause
			}
		}
		return nil, fmt.Errorf("bus: cannot reach NATS at %s: %w", b.url, err)
	}
	b.nc = nc
	if err := b.start(ctx); err != nil {
		nc.Close()
		return nil, err
	}
	b.log.Info("bus connected", "server", nc.ConnectedUrlRedacted())
	return b, nil
}

// start checks that the node's name is free and subscribes to what the
// node answers.
func (b *Bus) start(ctx context.Context) error {
	ctx, cancel := bus.WithDeadline(ctx)
	defer cancel()
	to := bus.ToNode(b.cfg.Node)
	ping := encodeRequest(request{kind: reqPing, left: time.Second, from: b.cfg.Node})
	_, err := b.nc.RequestWithContext(ctx, b.subject(to), ping)
	switch {
	case errors.Is(err, natsgo.ErrNoResponders):
	case err == nil:
		return fmt.Errorf("bus: node name %q is taken on NATS at %s: another node runs under it", b.cfg.Node, b.url)
	default:
		return fmt.Errorf("bus: checking that node name %q is free on NATS at %s: %w", b.cfg.Node, b.url, err)
	}
	node, err := b.nc.Subscribe(b.subject(to), b.serve(to))
	if err != nil {
		return fmt.Errorf("bus: subscribing on NATS at %s: %w", b.url, err)
	}
	alive, err := b.nc.Subscribe(b.cfg.Prefix+".alive", func(m *natsgo.Msg) { m.Respond([]byte(b.cfg.Node)) })
	if err != nil {
		return fmt.Errorf("bus: subscribing on NATS at %s: %w", b.url, err)
	}
	b.serving = []*natsgo.Subscription{node, alive}
	if err := b.nc.FlushWithContext(ctx); err != nil {
		return fmt.Errorf("bus: subscribing on NATS at %s: %w", b.url, err)
	}
	return nil
}

// parseURL reads one NATS URL as nats.go does: the scheme may be left
// out.
func parseURL(s string) (*url.URL, error) {
	s = strings.TrimSpace(s)
	if !strings.Contains(s, "://") {
		s = "nats://" + s
	}
	u, err := url.Parse(s)
	if err == nil && u.Hostname() == "" {
		err = errors.New("no host")
	}
	return u, err
}

// CheckURL reports whether urls, a comma-separated list of NATS URLs
// as Config.URL takes it, is well formed, without connecting: a node
// checks its flags before it opens, let alone migrates, its database.
// The error never shows a URL that holds credentials.
func CheckURL(urls string) error {
	if strings.TrimSpace(urls) == "" {
		return errors.New("bus: the NATS address is empty: give one, like nats://127.0.0.1:4222")
	}
	_, err := hosts(urls)
	return err
}

// hosts returns the host:port of every URL in a list of NATS URLs.
func hosts(urls string) ([]string, error) {
	var out []string
	for _, p := range strings.Split(urls, ",") {
		u, err := parseURL(p)
		if err != nil {
			shown := fmt.Sprintf("%q", strings.TrimSpace(p))
			if strings.Contains(shown, "@") {
				shown = "(not shown: it holds credentials)"
			}
			return nil, fmt.Errorf("bus: the NATS address %s is not a URL like nats://127.0.0.1:4222", shown)
		}
		port := u.Port()
		if port == "" {
			port = "4222"
		}
		out = append(out, net.JoinHostPort(u.Hostname(), port))
	}
	return out, nil
}

// dialCause returns why no server in urls takes a TCP connection, or nil
// if one does.
func dialCause(urls string, timeout time.Duration) error {
	hs, err := hosts(urls)
	if err != nil {
		return err
	}
	var first error
	for _, h := range hs {
		c, err := net.DialTimeout("tcp", h, min(timeout, 2*time.Second))
		if err == nil {
			c.Close()
			return nil
		}
		if first == nil {
			first = err
		}
	}
	return first
}

// redact hides the credentials in a list of NATS URLs.
func redact(urls string) string {
	parts := strings.Split(urls, ",")
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if u, err := parseURL(p); err != nil {
			p = "(an address that is not a URL)"
		} else if u.User != nil {
			u.User = url.User("xxxxx")
			p = u.String()
		}
		parts[i] = p
	}
	return strings.Join(parts, ",")
}

func (b *Bus) subject(to bus.Address) string {
	if to.Table != "" {
		return b.cfg.Prefix + ".owner." + to.Table
	}
	return b.cfg.Prefix + ".node." + to.Node
}

func (b *Bus) changes(table string) string { return b.cfg.Prefix + ".change." + table }

// Node returns the node's name.
func (b *Bus) Node() string { return b.cfg.Node }

// unavailable wraps bus.ErrUnavailable with what was asked and why.
func (b *Bus) unavailable(what string, err error) error {
	if err == nil {
		err = fmt.Errorf("the connection is %s", strings.ToLower(b.nc.Status().String()))
	}
	return fmt.Errorf("bus: %s: %w: NATS at %s: %v", what, bus.ErrUnavailable, b.url, err)
}

// failed turns a NATS error into the bus's.
func (b *Bus) failed(what string, err error) error {
	switch {
	case errors.Is(err, natsgo.ErrConnectionClosed):
		return fmt.Errorf("bus: %s: %w", what, bus.ErrClosed)
	case errors.Is(err, natsgo.ErrReconnectBufExceeded), errors.Is(err, natsgo.ErrDisconnected),
		errors.Is(err, natsgo.ErrConnectionReconnecting), errors.Is(err, natsgo.ErrConnectionDraining):
		return b.unavailable(what, err)
	case errors.Is(err, natsgo.ErrMaxPayload):
		return fmt.Errorf("bus: %s: %w", what, bus.ErrTooLarge)
	}
	return fmt.Errorf("bus: %s: NATS at %s: %w", what, b.url, err)
}

// Publish sends a change of table to its subscribers. While the
// connection is down, nats.go keeps what is published (up to 8 MB) and
// sends it once it is back.
func (b *Bus) Publish(table string, version int, data []byte) error {
	if err := bus.CheckPublish(table, version, data); err != nil {
		return err
	}
	what := "publishing table " + table
	if b.closed.Load() {
		return fmt.Errorf("bus: %s: %w", what, bus.ErrClosed)
	}
	msg := encodeChange(version, data)
	if int64(len(msg)) > b.nc.MaxPayload() {
		return fmt.Errorf("bus: %s: %w (NATS at %s takes %d bytes)", what, bus.ErrTooLarge, b.url, b.nc.MaxPayload())
	}
	if err := b.nc.Publish(b.changes(table), msg); err != nil {
		return b.failed(what, err)
	}
	return nil
}

// fanout is a node's one NATS subscription to a table's changes, and the
// node's subscribers it hands them to.
type fanout struct {
	table string
	sub   *natsgo.Subscription
	// ready is closed once NATS has confirmed the subscription, or err
	// says why it could not.
	ready chan struct{}
	err   error

	mu    sync.Mutex
	feeds map[*subscription]struct{}
}

// deliver hands one change to every subscriber on the node.
func (f *fanout) deliver(log *slog.Logger) natsgo.MsgHandler {
	return func(m *natsgo.Msg) {
		version, data, err := decodeChange(m.Data)
		if err != nil {
			log.Warn("bus: dropping a change", "table", f.table, "err", err)
			return
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		for s := range f.feeds {
			s.f.Push(version, data)
		}
	}
}

// each calls fn on every subscriber's feed.
func (f *fanout) each(fn func(*feed.Feed)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for s := range f.feeds {
		fn(s.f)
	}
}

// Subscribe follows table's changes. The node's first subscriber of a
// table makes the NATS subscription; it and any that come meanwhile wait
// for NATS to confirm it.
func (b *Bus) Subscribe(ctx context.Context, table string) (bus.Subscription, error) {
	if err := bus.CheckName("table", table); err != nil {
		return nil, err
	}
	what := "subscribing to table " + table
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("bus: %s: %w", what, err)
	}
	b.mu.Lock()
	if b.closed.Load() {
		b.mu.Unlock()
		return nil, fmt.Errorf("bus: %s: %w", what, bus.ErrClosed)
	}
	f, ok := b.tables[table]
	if !ok {
		if !b.nc.IsConnected() {
			b.mu.Unlock()
			return nil, b.unavailable(what, nil)
		}
		f = &fanout{table: table, ready: make(chan struct{}), feeds: map[*subscription]struct{}{}}
		sub, err := b.nc.Subscribe(b.changes(table), f.deliver(b.log))
		if err != nil {
			b.mu.Unlock()
			return nil, b.failed(what, err)
		}
		f.sub = sub
		b.tables[table] = f
	}
	s := &subscription{b: b, fan: f, f: feed.New(bus.Buffer)}
	f.mu.Lock()
	f.feeds[s] = struct{}{}
	f.mu.Unlock()
	b.mu.Unlock()

	if !ok {
		// The confirmation is waited for apart from this caller, whose
		// context must not fail the others who wait for it too.
		go b.confirm(f)
	}
	select {
	case <-f.ready:
	case <-ctx.Done():
		s.Close()
		return nil, fmt.Errorf("bus: %s: %w", what, ctx.Err())
	}
	if f.err != nil {
		s.Close()
		return nil, b.failed(what, f.err)
	}
	return s, nil
}

// confirm waits for NATS to confirm f's subscription, and takes f out if
// it cannot.
func (b *Bus) confirm(f *fanout) {
	ctx, cancel := context.WithTimeout(context.Background(), bus.DefaultTimeout)
	defer cancel()
	f.err = b.flush(ctx)
	if f.err != nil {
		b.mu.Lock()
		if b.tables[f.table] == f {
			delete(b.tables, f.table)
		}
		b.mu.Unlock()
		f.sub.Unsubscribe()
	}
	close(f.ready)
}

// Ping makes a round trip to the NATS server (bus.Pinger).
func (b *Bus) Ping(ctx context.Context) error {
	switch {
	case b.closed.Load():
		return fmt.Errorf("bus: ping: %w", bus.ErrClosed)
	case !b.nc.IsConnected():
		return b.unavailable("ping", nil)
	}
	if err := b.flush(ctx); err != nil {
		return b.failed("ping", err)
	}
	return nil
}

// flush waits until NATS has taken in everything sent before it, so that
// a subscription made is in force when the call that made it returns.
func (b *Bus) flush(ctx context.Context) error {
	ctx, cancel := bus.WithDeadline(ctx)
	defer cancel()
	return b.nc.FlushWithContext(ctx)
}

// subscription is one subscriber of a table on the node.
type subscription struct {
	b   *Bus
	fan *fanout
	f   *feed.Feed
}

func (s *subscription) Next(ctx context.Context) (bus.Change, error) {
	it, ok, err := s.f.Next(ctx)
	if !ok {
		return bus.Change{}, fmt.Errorf("bus: following table %s: %w", s.fan.table, bus.ErrClosed)
	}
	if err != nil {
		return bus.Change{}, fmt.Errorf("bus: following table %s: %w", s.fan.table, err)
	}
	return bus.Change{Table: s.fan.table, Version: it.Version, Data: it.Data, Gap: it.Gap}, nil
}

// Close ends the subscription; the node's last subscriber of a table
// ends the NATS subscription too.
func (s *subscription) Close() error {
	if !s.f.Close() {
		return nil
	}
	b, f := s.b, s.fan
	b.mu.Lock()
	defer b.mu.Unlock()
	f.mu.Lock()
	delete(f.feeds, s)
	empty := len(f.feeds) == 0
	f.mu.Unlock()
	if !empty || b.tables[f.table] != f {
		return nil
	}
	delete(b.tables, f.table)
	if err := f.sub.Unsubscribe(); err != nil && !errors.Is(err, natsgo.ErrConnectionClosed) && !errors.Is(err, natsgo.ErrBadSubscription) {
		return b.failed("unsubscribing from table "+f.table, err)
	}
	return nil
}

// Own makes the node answer for table, once NATS confirms it.
func (b *Bus) Own(ctx context.Context, table string) error {
	if err := bus.CheckName("table", table); err != nil {
		return err
	}
	what := "owning table " + table
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("bus: %s: %w", what, err)
	}
	b.ownMu.Lock()
	defer b.ownMu.Unlock()
	switch {
	case b.closed.Load():
		return fmt.Errorf("bus: %s: %w", what, bus.ErrClosed)
	case b.cfg.Handler == nil:
		return fmt.Errorf("bus: node %s takes no requests, so cannot own table %s", b.cfg.Node, table)
	case b.owned[table] != nil:
		return nil
	case !b.nc.IsConnected():
		return b.unavailable(what, nil)
	}
	to := bus.ToOwner(table)
	sub, err := b.nc.QueueSubscribe(b.subject(to), "owner", b.serve(to))
	if err != nil {
		return b.failed(what, err)
	}
	if err := b.flush(ctx); err != nil {
		sub.Unsubscribe()
		return b.failed(what, err)
	}
	b.owned[table] = sub
	return nil
}

// Disown stops answering for table. Requests NATS had already handed to
// the node are still answered.
func (b *Bus) Disown(ctx context.Context, table string) error {
	if err := bus.CheckName("table", table); err != nil {
		return err
	}
	b.ownMu.Lock()
	sub := b.owned[table]
	delete(b.owned, table)
	b.ownMu.Unlock()
	if sub == nil {
		return nil
	}
	what := "disowning table " + table
	if err := sub.Drain(); err != nil {
		return b.failed(what, err)
	}
	if err := b.flush(ctx); err != nil {
		return b.failed(what, err)
	}
	return nil
}

// serve answers the requests to to.
func (b *Bus) serve(to bus.Address) natsgo.MsgHandler {
	return func(m *natsgo.Msg) {
		if m.Reply == "" {
			return // nobody to answer
		}
		r, err := decodeRequest(m.Data)
		if err != nil {
			b.log.Warn("bus: a request it cannot read", "to", to.String(), "err", err)
			b.respond(m, reply{kind: replyError, data: []byte(err.Error())})
			return
		}
		if r.kind == reqPing {
			b.respond(m, reply{kind: replyOK})
			return
		}
		b.serveMu.Lock()
		if b.stopped {
			b.serveMu.Unlock()
			b.respond(m, reply{kind: replyGone})
			return
		}
		b.busy.Add(1)
		b.serveMu.Unlock()
		go func() {
			defer b.busy.Done()
			b.respond(m, b.call(bus.Request{From: r.from, To: to, Data: r.data}, r.left))
		}()
	}
}

// call runs the handler on req with left until its deadline.
func (b *Bus) call(req bus.Request, left time.Duration) reply {
	if b.cfg.Handler == nil {
		return reply{kind: replyError, data: fmt.Appendf(nil, "node %s takes no requests", b.cfg.Node)}
	}
	ctx, cancel := context.WithTimeout(context.Background(), left)
	defer cancel()
	data, err := b.cfg.Handler(ctx, req)
	switch {
	case err != nil:
		return reply{kind: replyError, data: []byte(err.Error())}
	case len(data) > bus.MaxData:
		return reply{kind: replyError, data: fmt.Appendf(nil, "the answer is %d bytes, over the bus's %d", len(data), bus.MaxData)}
	}
	return reply{kind: replyOK, data: data}
}

func (b *Bus) respond(m *natsgo.Msg, r reply) {
	r.node = b.cfg.Node
	if len(r.data) > bus.MaxData { // an error's text
		r.data = r.data[:bus.MaxData]
	}
	if err := m.Respond(encodeReply(r)); err != nil {
		b.log.Warn("bus: cannot answer a request", "err", err)
	}
}

// Request asks the node at to. It fails at once with bus.ErrUnavailable
// while the connection to NATS is down, rather than wait for it.
func (b *Bus) Request(ctx context.Context, to bus.Address, data []byte) ([]byte, error) {
	if err := to.Check(); err != nil {
		return nil, err
	}
	what := "request to " + to.String()
	if len(data) > bus.MaxData {
		return nil, fmt.Errorf("bus: %s: %w", what, bus.ErrTooLarge)
	}
	ctx, cancel := bus.WithDeadline(ctx)
	defer cancel()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("bus: %s: %w", what, err)
	}
	if b.closed.Load() {
		return nil, fmt.Errorf("bus: %s: %w", what, bus.ErrClosed)
	}
	if !b.nc.IsConnected() {
		return nil, b.unavailable(what, nil)
	}
	deadline, _ := ctx.Deadline()
	msg := encodeRequest(request{kind: reqCall, left: time.Until(deadline), from: b.cfg.Node, data: data})
	m, err := b.nc.RequestWithContext(ctx, b.subject(to), msg)
	switch {
	case err == nil:
	case errors.Is(err, natsgo.ErrNoResponders):
		return nil, fmt.Errorf("bus: %s: %w", what, bus.ErrNoResponder)
	case ctx.Err() != nil:
		return nil, fmt.Errorf("bus: %s: no answer in time: %w", what, ctx.Err())
	default:
		return nil, b.failed(what, err)
	}
	r, err := decodeReply(m.Data)
	if err != nil {
		return nil, fmt.Errorf("bus: %s: %w", what, err)
	}
	switch r.kind {
	case replyError:
		return nil, fmt.Errorf("bus: %s: %w", what, &bus.RemoteError{Node: r.node, Msg: string(r.data)})
	case replyGone:
		return nil, fmt.Errorf("bus: %s: %w (node %s is closing)", what, bus.ErrNoResponder, r.node)
	}
	return r.data, nil
}

// Nodes asks every node to say its name, and gathers the answers for
// bus.GatherWait.
func (b *Bus) Nodes(ctx context.Context) ([]string, error) {
	what := "listing nodes"
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("bus: %s: %w", what, err)
	}
	if b.closed.Load() {
		return nil, fmt.Errorf("bus: %s: %w", what, bus.ErrClosed)
	}
	if !b.nc.IsConnected() {
		return nil, b.unavailable(what, nil)
	}
	inbox := b.nc.NewInbox()
	sub, err := b.nc.SubscribeSync(inbox)
	if err != nil {
		return nil, b.failed(what, err)
	}
	defer sub.Unsubscribe()
	if err := b.nc.PublishRequest(b.cfg.Prefix+".alive", inbox, nil); err != nil {
		return nil, b.failed(what, err)
	}
	ctx, cancel := context.WithTimeout(ctx, bus.GatherWait)
	defer cancel()
	var names []string
	for {
		m, err := sub.NextMsgWithContext(ctx)
		if err != nil {
			break
		}
		if n := string(m.Data); bus.CheckName("node", n) == nil && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names, nil
}

// drainWait bounds how long Close waits for NATS to confirm that it
// routes no more requests to the node.
const drainWait = 2 * time.Second

// Close stops answering requests, lets the handlers under way finish,
// ends every subscription, sends what is left to send and disconnects.
func (b *Bus) Close() error {
	if b.closed.Swap(true) {
		return nil
	}
	// Own and Subscribe look at closed under these locks: whatever they
	// made before it was set is in what Close takes here.
	b.ownMu.Lock()
	serving := b.serving
	for _, sub := range b.owned {
		serving = append(serving, sub)
	}
	b.owned = nil
	b.ownMu.Unlock()
	b.mu.Lock()
	tables := b.tables
	b.tables = nil
	b.mu.Unlock()

	// Draining lets NATS stop routing requests here, and the node answer
	// those already on their way; then no handler starts any more.
	// Without a connection nothing can come: there is nothing to drain.
	var drained []<-chan natsgo.SubStatus
	for _, sub := range serving {
		ch := sub.StatusChanged(natsgo.SubscriptionClosed)
		if b.nc.IsConnected() && sub.Drain() == nil {
			drained = append(drained, ch)
		} else {
			sub.Unsubscribe()
		}
	}
	wait, cancel := context.WithTimeout(context.Background(), drainWait)
	for _, ch := range drained {
		select {
		case <-ch:
		case <-wait.Done():
		}
	}
	cancel()
	b.serveMu.Lock()
	b.stopped = true
	b.serveMu.Unlock()
	b.busy.Wait()

	for _, f := range tables {
		f.sub.Unsubscribe()
		f.each(func(fd *feed.Feed) { fd.Close() })
	}
	if b.nc.IsConnected() {
		b.nc.FlushTimeout(time.Second)
	}
	b.nc.Close()
	b.log.Info("bus closed")
	return nil
}

// disconnected marks every subscriber: changes may be lost from now on.
func (b *Bus) disconnected(_ *natsgo.Conn, err error) {
	b.log.Warn("bus: lost NATS, reconnecting", "err", err)
	b.eachFeed((*feed.Feed).MarkGap)
}

// reconnected gives every subscriber that has had nothing since the
// connection went down a bare gap mark.
func (b *Bus) reconnected(nc *natsgo.Conn) {
	b.log.Info("bus: NATS is back", "server", nc.ConnectedUrlRedacted())
	b.eachFeed((*feed.Feed).Mark)
}

func (b *Bus) eachFeed(fn func(*feed.Feed)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, f := range b.tables {
		f.each(fn)
	}
}

func (b *Bus) asyncError(_ *natsgo.Conn, sub *natsgo.Subscription, err error) {
	subject := ""
	if sub != nil {
		subject = sub.Subject
	}
	b.log.Error("bus: NATS", "subject", subject, "err", err)
}
