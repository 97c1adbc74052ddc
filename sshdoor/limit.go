package sshdoor

import (
	"net"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// gate admits connections: at most max at once, perAddr at once from one
// address, and new ones from an address at most every 1/rate seconds
// after a burst. What it refuses is closed before the SSH handshake.
type gate struct {
	mu      sync.Mutex
	max     int
	perAddr int
	every   rate.Limit
	burst   int
	open    int
	addrs   map[string]*addrState
}

type addrState struct {
	lim  *rate.Limiter
	open int
	seen time.Time
}

// The reasons admit gives for a refusal.
const (
	whyFull    = "the server is full"
	whyPerAddr = "too many sessions from one address"
	whyRate    = "too many new sessions from one address"
)

func newGate(max, perAddr int, every rate.Limit, burst int) *gate {
	return &gate{max: max, perAddr: perAddr, every: every, burst: burst, addrs: map[string]*addrState{}}
}

// admit reports whether a connection from addr may start, and counts it;
// done, when admitted, must be called once it ends. why says what was
// exceeded.
func (g *gate) admit(addr net.Addr) (done func(), why string) {
	host := addr.String()
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	now := time.Now()
	if len(g.addrs) > 10000 {
		for h, a := range g.addrs {
			if a.open == 0 && now.Sub(a.seen) > 10*time.Minute {
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
	case !a.lim.AllowN(now, 1):
		return nil, whyRate
	}
	g.open++
	a.open++
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			g.open--
			a.open--
			g.mu.Unlock()
		})
	}, ""
}

// gatedConn calls done when closed.
type gatedConn struct {
	net.Conn
	done func()
}

func (c *gatedConn) Close() error {
	c.done()
	return c.Conn.Close()
}
