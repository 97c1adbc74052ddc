package sshdoor

import (
	"net"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// gate admits connections. A connection counts against the sessions'
// limits (at most max at once, perAddr at once from one address) only
// once it is in: authenticated, with its session opened. Before that it
// is pending, within limits of its own (maxPending, pendingPerAddr), so
// that connections which never authenticate neither keep players out nor
// hold descriptors without bound. New connections from an address come
// at most every 1/rate seconds after a burst. What it refuses on arrival
// is closed before the SSH handshake.
type gate struct {
	mu             sync.Mutex
	max            int
	perAddr        int
	maxPending     int
	pendingPerAddr int
	every          rate.Limit
	burst          int
	open           int // connections in
	pending        int // connections not in yet
	addrs          map[string]*addrState
}

type addrState struct {
	lim     *rate.Limiter
	open    int
	pending int
	seen    time.Time
}

// The reasons the gate gives for a refusal.
const (
	whyFull        = "the server is full"
	whyPerAddr     = "too many sessions from one address"
	whyRate        = "too many new sessions from one address"
	whyPending     = "too many connections starting at once"
	whyPendingAddr = "too many connections starting from one address"
)

// pendingPer is how many connections may be pending at once for each
// session allowed: an honest client is pending for the moment of its
// handshake, so these are mostly connections that never sign in; from one
// address, as many may be pending as may be in. Connections that do the
// handshake's first steps and then wait may be held for the whole grace:
// filling the pending limit takes pendingPer*max/perAddr addresses (100
// with the defaults).
const pendingPer = 2

func newGate(max, perAddr int, every rate.Limit, burst int) *gate {
	return &gate{max: max, perAddr: perAddr, maxPending: pendingPer * max, pendingPerAddr: perAddr,
		every: every, burst: burst, addrs: map[string]*addrState{}}
}

// pass is one admitted connection's place at the gate.
type pass struct {
	g    *gate
	a    *addrState
	in   bool
	done bool
}

// admit reports whether a connection from addr may start, and counts it
// as pending; why says what was exceeded. A connection is refused at once
// when the sessions' limits are reached already, so that it costs no key
// exchange.
func (g *gate) admit(addr net.Addr) (p *pass, why string) {
	host := addr.String()
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	now := time.Now()
	if len(g.addrs) > 10000 {
		for h, a := range g.addrs {
			if a.open == 0 && a.pending == 0 && now.Sub(a.seen) > 10*time.Minute {
				delete(g.addrs, h)
			}
		}
	}
	a := g.addrs[host]
	if a == nil {
		a = &addrState{lim: rate.NewLimiter(g.every, g.burst)}
		g.addrs[host] = a
	}
	a.seen = now
	switch {
	case g.open >= g.max:
		return nil, whyFull
	case a.open >= g.perAddr:
		return nil, whyPerAddr
	case g.pending >= g.maxPending:
		return nil, whyPending
	case a.pending >= g.pendingPerAddr:
		return nil, whyPendingAddr
	case !a.lim.AllowN(now, 1):
		return nil, whyRate
	}
	g.pending++
	a.pending++
	return &pass{g: g, a: a}, ""
}

// enter moves a pending connection into the sessions' limits, once it
// has authenticated, or says which of them it would exceed; once in, it
// stays in.
func (p *pass) enter() (why string) {
	g, a := p.g, p.a
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case p.in || p.done:
		return ""
	case g.open >= g.max:
		return whyFull
	case a.open >= g.perAddr:
		return whyPerAddr
	}
	p.in = true
	g.pending--
	a.pending--
	g.open++
	a.open++
	return ""
}

// end gives the connection's place back; later calls do nothing.
func (p *pass) end() {
	g, a := p.g, p.a
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case p.done:
	case p.in:
		g.open--
		a.open--
	default:
		g.pending--
		a.pending--
	}
	p.done = true
}

// counts returns how many connections are in and pending.
func (g *gate) counts() (open, pending int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.open, g.pending
}
