package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"
	"unicode/utf8"

	"parlour/account"
	"parlour/bus"
	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/server/social"
	"parlour/server/table"
	"parlour/store"
)

// What the nodes of a cluster tell each other about players rather than
// tables. Each is a request to every other node by name (bus.ToNode), the
// nodes found by bus.Nodes:
//
//   - "player": an event of a player's stream (a game's start or end, a
//     challenge), made on the node where it happened, for that player's
//     streams on the other nodes. Sent in the background, in order, by
//     one sender per node.
//   - "forget": the hashes of credentials deleted (a sign-out, a changed
//     password, a deleted account), which every node drops from its
//     cache before the request that deleted them is answered.
//   - "online": who is online on the node, for GET /api/v1/online.
//   - "seated": the tables under way the node owns where an identity
//     holds a seat (a player's "my games", their stream's opening, the
//     check before an account is deleted).
//   - "lobby": the public tables the node owns in a status (open, in
//     setup, playing), for the lobby.
//   - "closed": an account a moderator closed on the node, with its name,
//     or one its owner deleted there: each node takes the player out of
//     the games waiting to begin that it holds (Node.ClosedHere).
//   - "renamed": an account a moderator renamed on the node, with its new
//     name: each node renames it in what it holds (Node.RenamedHere).
//   - "holding", "waiting", "started", "book": what the seek book needs
//     of the other nodes, and its hand-over (seeks.go).
//   - "probe": nothing; answered at once, so that the round trip is the
//     bus's own (parlour_cluster_bus_seconds).

// Limits of the notes between nodes.
const (
	// peersFresh is how long a node trusts its list of the others
	// before asking the bus again; a note that must reach every node
	// ("forget") always asks.
	peersFresh = 2 * time.Second
	// peersKept is how long a node that answered a look for the nodes
	// is still told the notes after it missed one: a look waits
	// bus.GatherWait only, and a node busy for a moment must not miss
	// its players' news for the next peersFresh. A node that is gone
	// answers at once that nobody listens, and is dropped then.
	peersKept = 30 * time.Second
	// noteWait bounds how long a node waits for another's answer to a
	// note.
	noteWait = time.Second
	// noteQueue is how many stream events wait for the sender at most;
	// beyond it they are dropped (the player's client reads GET
	// /api/v1/challenges and its tables when its stream reconnects).
	noteQueue = 1024
	// maxClosedName is the longest name a "closed" or "renamed" note
	// gives, in bytes: more than any account's.
	maxClosedName = 64
	// maxForget is the most credentials one "forget" names.
	maxForget = 4096
	// maxLobby is the most tables a lobby lists (table.LobbyPeers).
	maxLobby = 500
	// probeEvery is how often a node probes each other node's round
	// trip over the bus; the first probes go probeFirst after it starts.
	probeEvery = 5 * time.Second
	probeFirst = time.Second
)

// busBuckets are the upper bounds of the bus's round trip histogram, in
// seconds: 50 us to 1 s.
var busBuckets = []float64{0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1, 1}

// nodeNotes is a cluster's side of the notes.
type nodeNotes struct {
	mu      sync.Mutex
	peers   []string // the other nodes, as last found
	peersAt time.Time
	// seen is when each other node last answered a look (peersKept).
	seen  map[string]time.Time
	queue chan relayRequest // stream events to send
}

// noteKind reports whether kind is one of the notes about players.
func noteKind(kind string) bool {
	switch kind {
	case "player", "forget", "online", "seated", "lobby", "closed", "renamed", "probe", "holding", "waiting", "started", "book":
		return true
	}
	return false
}

// streamEvent reports whether typ is a StreamEvent's type.
func streamEvent(typ string) bool {
	switch typ {
	case "challenge", "challengeDeclined", "challengeCanceled", "gameStart", "gameFinish":
		return true
	case "rematch": // a rematch offered on the node that runs the finished table
		return true
	case "followOnline", "followPlaying": // a followed player's news
		return true
	case "keyAdded", "seek", "seekGone": // the player's own, seen on every node's pages
		return true
	case "tournamentGame", "tournamentCancelled": // an event's news, from the node that runs the event
		return true
	case "refund": // a moderator's refund, made on any node
		return true
	}
	return false
}

// decodeNote checks a note read by decodeRelay.
func decodeNote(rq relayRequest) (relayRequest, error) {
	if rq.Kind == "started" {
		if !auth.ValidID(rq.Table) {
			return relayRequest{}, fmt.Errorf("a note of a game begun at no table (%q)", refuse.Clip(rq.Table))
		}
	} else if rq.Table != "" {
		return relayRequest{}, fmt.Errorf("a %q note about table %q", rq.Kind, refuse.Clip(rq.Table))
	}
	if rq.Tournament != "" {
		return relayRequest{}, fmt.Errorf("a %q note about event %q", rq.Kind, refuse.Clip(rq.Tournament))
	}
	if (rq.Kind == "book") != (rq.Epoch > 0) || rq.Epoch < 0 {
		return relayRequest{}, fmt.Errorf("a %q note with epoch %d", rq.Kind, rq.Epoch)
	}
	if rq.Kind == "book" && (len(rq.Body) == 0 || !json.Valid(rq.Body)) {
		return relayRequest{}, errors.New("a seek book handed on without its seeks")
	}
	if rq.Kind != "holding" && len(rq.Identities) > 0 {
		return relayRequest{}, fmt.Errorf("a %q note with identities", rq.Kind)
	}
	if rq.Kind != "forget" && len(rq.Hashes) > 0 {
		return relayRequest{}, fmt.Errorf("a %q note with credentials", rq.Kind)
	}
	if rq.Kind != "player" && rq.Event != nil {
		return relayRequest{}, fmt.Errorf("a %q note with a stream event", rq.Kind)
	}
	if rq.Kind != "lobby" && (rq.Status != "" || rq.Limit != 0) {
		return relayRequest{}, fmt.Errorf("a %q note with a lobby's status or limit", rq.Kind)
	}
	if rq.Kind != "closed" && rq.Kind != "renamed" && rq.Name != "" {
		return relayRequest{}, fmt.Errorf("a %q note with a name", rq.Kind)
	}
	switch rq.Kind {
	case "player", "seated", "closed", "renamed", "waiting", "started":
		if !auth.ValidID(rq.Identity) {
			return relayRequest{}, fmt.Errorf("a %q note about no identity (%q)", rq.Kind, refuse.Clip(rq.Identity))
		}
	default:
		if rq.Identity != "" {
			return relayRequest{}, fmt.Errorf("a %q note about identity %q", rq.Kind, refuse.Clip(rq.Identity))
		}
	}
	switch rq.Kind {
	case "player":
		if rq.Event == nil || !streamEvent(rq.Event.Type) {
			return relayRequest{}, errors.New("a player's note without a stream event")
		}
	case "lobby":
		if rq.Status != store.Open && rq.Status != store.Setup && rq.Status != store.Playing {
			return relayRequest{}, fmt.Errorf("a lobby's note about tables %q", refuse.Clip(string(rq.Status)))
		}
		if rq.Limit < 1 || rq.Limit > maxLobby {
			return relayRequest{}, fmt.Errorf("a lobby's note for %d tables", rq.Limit)
		}
	case "closed", "renamed":
		if rq.Name == "" || len(rq.Name) > maxClosedName || !utf8.ValidString(rq.Name) {
			return relayRequest{}, fmt.Errorf("a note of an account %s called %q", rq.Kind, refuse.Clip(rq.Name))
		}
	case "holding":
		if len(rq.Identities) == 0 || len(rq.Identities) > maxHolding {
			return relayRequest{}, fmt.Errorf("a note asking who holds a stream of %d identities", len(rq.Identities))
		}
		for _, id := range rq.Identities {
			if !auth.ValidID(id) {
				return relayRequest{}, fmt.Errorf("a note asking whether %q holds a stream", refuse.Clip(id))
			}
		}
	case "forget":
		if len(rq.Hashes) == 0 || len(rq.Hashes) > maxForget {
			return relayRequest{}, fmt.Errorf("a note to forget %d credentials", len(rq.Hashes))
		}
		for _, h := range rq.Hashes {
			if len(h) != len(account.HashToken("")) {
				return relayRequest{}, fmt.Errorf("a note to forget a credential of %d bytes", len(h))
			}
		}
	}
	rq.Hashes, rq.Identities = slices.Clip(rq.Hashes), slices.Clip(rq.Identities)
	if len(rq.Hashes) == 0 {
		rq.Hashes = nil
	}
	if len(rq.Identities) == 0 {
		rq.Identities = nil
	}
	return rq, nil
}

// serveNote answers a note from another node, from.
func (c *Node) serveNote(ctx context.Context, rq relayRequest, from string) ([]byte, error) {
	var body any
	switch rq.Kind {
	case "book":
		return c.takeBook(ctx, from, rq)
	case "player":
		c.social.TellHere(rq.Identity, *rq.Event)
	case "forget":
		for _, h := range rq.Hashes {
			c.auth.Forget(h)
		}
	case "closed", "renamed":
		c.hmu.RLock()
		f := c.closedHere
		if rq.Kind == "renamed" {
			f = c.renamedHere
		}
		c.hmu.RUnlock()
		if f != nil {
			ctx, cancel := context.WithTimeout(context.Background(), closedWait)
			f(ctx, rq.Identity, rq.Name)
			cancel()
		}
	case "online":
		body = c.social.OnlineHere()
	case "holding":
		body = c.social.HoldingOf(rq.Identities)
	case "waiting":
		if f := c.seekBookHooks().Waiting; f != nil {
			body = f(rq.Identity)
		}
	case "started":
		if f := c.seekBookHooks().Started; f != nil {
			f(rq.Identity, rq.Table)
		}
	case "seated":
		body = c.tables.SeatedAt(rq.Identity)
	case "lobby":
		body = c.tables.LobbyHere(rq.Status, rq.Limit)
	}
	var b []byte
	if body != nil {
		var err error
		if b, err = json.Marshal(body); err != nil {
			return nil, err
		}
	}
	return json.Marshal(relayReply{Status: http.StatusOK, Body: b})
}

// others returns the other nodes: as last found, unless fresh is set or
// that is older than peersFresh. They are those that answered the last
// look, and those that answered one in the peersKept before it.
func (c *Node) others(ctx context.Context, fresh bool) ([]string, error) {
	c.notes.mu.Lock()
	if !fresh && time.Since(c.notes.peersAt) < peersFresh {
		p := c.notes.peers
		c.notes.mu.Unlock()
		return p, nil
	}
	c.notes.mu.Unlock()
	names, err := c.b.Nodes(ctx)
	if err != nil {
		return nil, fmt.Errorf("finding the other nodes: %w", err)
	}
	now := time.Now()
	c.notes.mu.Lock()
	defer c.notes.mu.Unlock()
	if c.notes.seen == nil {
		c.notes.seen = make(map[string]time.Time)
	}
	for _, n := range names {
		if n != c.node {
			c.notes.seen[n] = now
		}
	}
	peers := make([]string, 0, len(c.notes.seen))
	for n, at := range c.notes.seen {
		if now.Sub(at) > peersKept {
			delete(c.notes.seen, n)
			continue
		}
		peers = append(peers, n)
	}
	slices.Sort(peers)
	c.notes.peers, c.notes.peersAt = peers, now
	return peers, nil
}

// gone drops node n, which answered that nobody listens at its address,
// from the other nodes until it answers a look again.
func (c *Node) gone(n string) {
	c.notes.mu.Lock()
	defer c.notes.mu.Unlock()
	delete(c.notes.seen, n)
	c.notes.peers = slices.DeleteFunc(slices.Clone(c.notes.peers), func(p string) bool { return p == n })
}

// tellAll sends rq to every other node at once and returns the bodies of
// their answers, by node. A node that does not answer in noteWait, or
// answers an error, is left out, and err says so (the answers of the
// others come all the same); one that is gone (nobody listens at its
// address) is left out without an error.
func (c *Node) tellAll(ctx context.Context, rq relayRequest, fresh bool) (map[string][]byte, error) {
	peers, err := c.others(ctx, fresh)
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(rq)
	if err != nil {
		return nil, err
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	out := make(map[string][]byte, len(peers))
	var errs []error
	for _, n := range peers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(ctx, noteWait)
			defer cancel()
			ans, err := c.b.Request(ctx, bus.ToNode(n), data)
			if errors.Is(err, bus.ErrNoResponder) {
				c.gone(n)
				return
			}
			var rp relayReply
			if err == nil {
				err = json.Unmarshal(ans, &rp)
			}
			if err == nil && rp.Status != http.StatusOK {
				err = fmt.Errorf("node %s answered %d", n, rp.Status)
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				c.notesLost.Inc()
				errs = append(errs, err)
				return
			}
			out[n] = rp.Body
		}()
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// probes times a probe to every other node, every probeEvery, until the
// node halts: the bus's latency, for /metrics, apart from the work any
// request does. A probe nobody answers is not timed (notesLost counts
// it).
func (c *Node) probes() {
	defer c.loops.Done()
	wait := time.NewTimer(probeFirst)
	defer wait.Stop()
	data, _ := json.Marshal(relayRequest{Kind: "probe"})
	for {
		select {
		case <-c.halted:
			return
		case <-wait.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), probeEvery)
		peers, err := c.others(ctx, false)
		for _, n := range peers {
			pctx, pcancel := context.WithTimeout(ctx, noteWait)
			start := time.Now()
			_, err := c.b.Request(pctx, bus.ToNode(n), data)
			took := time.Since(start)
			pcancel()
			var remote *bus.RemoteError
			if err == nil || errors.As(err, &remote) {
				// A node answers even one that refuses the probe (an
				// older node): the round trip is the bus's all the same.
				c.busTrip.Observe(took.Seconds())
				continue
			}
			if errors.Is(err, bus.ErrNoResponder) {
				c.gone(n)
				continue
			}
			c.notesLost.Inc()
		}
		if err != nil {
			c.log.Debug("probing the other nodes", "err", err)
		}
		cancel()
		wait.Reset(probeEvery)
	}
}

// sendNotes sends the queued stream events to the other nodes, one after
// another so that a player's events keep their order, until the node
// halts.
func (c *Node) sendNotes() {
	defer c.loops.Done()
	for {
		select {
		case <-c.halted:
			return
		case rq := <-c.notes.queue:
			ctx, cancel := context.WithTimeout(context.Background(), 2*noteWait)
			if _, err := c.tellAll(ctx, rq, false); err != nil {
				c.log.Warn("telling the other nodes of a stream event", "identity", rq.Identity, "event", rq.Event.Type, "err", err)
			}
			cancel()
		}
	}
}

// StreamElsewhere hands ev to identity's player streams on the other
// nodes, through the sender (social.Peers).
func (c *Node) StreamElsewhere(identity string, ev social.StreamEvent) {
	select {
	case c.notes.queue <- relayRequest{Kind: "player", Identity: identity, Event: &ev}:
	default:
		c.log.Warn("too many stream events for the other nodes: one dropped", "identity", identity, "event", ev.Type)
	}
}

// ForgetEverywhere tells every other node to drop the credentials that
// hash to hashes from its cache, and waits for their answers (bounded):
// a token signed out on one node must not go on working on another
// (players.Peers).
func (c *Node) ForgetEverywhere(ctx context.Context, hashes [][]byte) {
	for len(hashes) > 0 {
		n := min(len(hashes), maxForget)
		if _, err := c.tellAll(ctx, relayRequest{Kind: "forget", Hashes: hashes[:n]}, true); err != nil {
			c.log.Warn("telling the other nodes to forget credentials", "err", err)
		}
		hashes = hashes[n:]
	}
}

// closedWait bounds a node's work for an account closed on another.
const closedWait = 30 * time.Second

// ClosedHere sets what hears of an account a moderator closed on another
// node: the root takes the player out of the games waiting to begin that
// this node holds (its seeks, tables and events).
func (c *Node) ClosedHere(f func(ctx context.Context, identity, name string)) {
	c.hmu.Lock()
	c.closedHere = f
	c.hmu.Unlock()
}

// ClosedEverywhere tells every other node that the account of identity,
// called name, was closed, and waits for their answers (bounded), so
// that none of them goes on pairing or seating its player.
func (c *Node) ClosedEverywhere(ctx context.Context, identity, name string) {
	if _, err := c.tellAll(ctx, relayRequest{Kind: "closed", Identity: identity, Name: name}, true); err != nil {
		c.log.Warn("telling the other nodes of an account closed", "identity", identity, "err", err)
	}
}

// RenamedHere sets what hears of an account a moderator renamed on
// another node: the root renames the player in what this node holds
// (its events, its tables' chat, its finished tables in memory).
func (c *Node) RenamedHere(f func(ctx context.Context, identity, name string)) {
	c.hmu.Lock()
	c.renamedHere = f
	c.hmu.Unlock()
}

// RenamedEverywhere tells every other node that the account of identity
// is now called name, and waits for their answers (bounded), so that
// none of them goes on showing the old name.
func (c *Node) RenamedEverywhere(ctx context.Context, identity, name string) {
	if _, err := c.tellAll(ctx, relayRequest{Kind: "renamed", Identity: identity, Name: name}, true); err != nil {
		c.log.Warn("telling the other nodes of an account renamed", "identity", identity, "err", err)
	}
}

// OnlineElsewhere returns the identities online on the other nodes
// (social.Peers).
func (c *Node) OnlineElsewhere(ctx context.Context) []string {
	ans, err := c.tellAll(ctx, relayRequest{Kind: "online"}, false)
	if err != nil {
		c.log.Warn("asking the other nodes who is online", "err", err)
	}
	var out []string
	for _, b := range ans {
		var ids []string
		if json.Unmarshal(b, &ids) == nil {
			out = append(out, ids...)
		}
	}
	return out
}

// SeatedElsewhere returns the tables under way that the other nodes own
// where identity holds a seat. When a node did not answer, it returns
// what the others answered and a refusal saying the list is incomplete:
// the caller decides whether that will do (players.Peers).
func (c *Node) SeatedElsewhere(ctx context.Context, identity string) ([]table.SeatedTable, error) {
	ans, err := c.tellAll(ctx, relayRequest{Kind: "seated", Identity: identity}, false)
	if err != nil {
		c.log.Warn("asking the other nodes for a player's tables", "err", err)
		err = refuse.Unavailable("your tables on the other servers could not all be listed just now; try again")
	}
	var out []table.SeatedTable
	for _, b := range ans {
		var ts []table.SeatedTable
		if json.Unmarshal(b, &ts) == nil {
			out = append(out, ts...)
		}
	}
	return out, err
}

// LobbyElsewhere returns at most limit public tables in status that the
// other nodes own. A node that does not answer is left out (LobbyPeers).
func (c *Node) LobbyElsewhere(ctx context.Context, status store.Status, limit int) []table.Info {
	ans, err := c.tellAll(ctx, relayRequest{Kind: "lobby", Status: status, Limit: min(max(limit, 1), maxLobby)}, false)
	if err != nil {
		c.log.Warn("asking the other nodes for their tables", "err", err)
	}
	var out []table.Info
	for _, b := range ans {
		var ts []table.Info
		if json.Unmarshal(b, &ts) == nil {
			out = append(out, ts...)
		}
	}
	return out
}
