// Package limit caps and paces what clients send, at the doors: the sizes
// and timeouts a request may take, rates per connection, identity and
// address, and the long-lived answers held open. It knows nothing of
// tables or players; the doors decide what a key is and how a refusal
// reads.
package limit

import (
	"hash/maphash"
	"net/netip"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Limits caps what one client may send. The zero value of a field takes
// its default from Defaults.
type Limits struct {
	// MaxBody caps a request body, and MaxMessage a WebSocket message, in
	// bytes.
	MaxBody    int64
	MaxMessage int64
	// PerConn and PerIdentity are sustained rates in requests (or socket
	// messages) per second; the bursts are how many may come at once.
	PerConn          float64
	PerConnBurst     float64
	PerIdentity      float64
	PerIdentityBurst float64
	// NewGuests caps guest identities made per second for one remote
	// address.
	NewGuests      float64
	NewGuestsBurst float64
	// SignIns caps sign-in attempts (and password checks) per second
	// from one remote address, and SignInsPerName those for one account
	// name, whether it exists or not.
	SignIns             float64
	SignInsBurst        float64
	SignInsPerName      float64
	SignInsPerNameBurst float64

	// ConnsPerAddr caps the connections one remote address holds open at
	// once (keep-alive, event streams and WebSockets alike); the next is
	// answered 429 and closed. Behind a proxy every client shares the
	// proxy's address: raise it there. A load test from one machine opens
	// about twice its --conns.
	ConnsPerAddr int
	// BodyTimeout bounds how long a request's body may take to arrive,
	// from the end of its headers; HeaderTimeout bounds the headers, and
	// IdleTimeout how long a keep-alive connection may wait for its next
	// request.
	BodyTimeout   time.Duration
	HeaderTimeout time.Duration
	IdleTimeout   time.Duration

	// ChatPerAddr caps the chat messages one address writes per second,
	// across its identities, with bursts of ChatPerAddrBurst
	// (ChatPerAddrRate and ChatPerAddrBurst unless set).
	ChatPerAddr      float64
	ChatPerAddrBurst float64

	// NewRatedPerAddr caps the rated games accounts younger than a week
	// start from one address: that many at once, then as many again over
	// a day (the table service's NewRatedPerAddr unless set).
	NewRatedPerAddr int

	// Streams caps the long-lived answers held open at once, event
	// streams, player streams and WebSockets alike, each a file
	// descriptor for as long as its game; StreamsPerAddr caps those of
	// one address (ConnsPerAddr/4 unless set). Past either the next is
	// refused (503 for the total, 429 for the address), so that a few
	// addresses cannot take every descriptor the process has.
	Streams        int
	StreamsPerAddr int

	// TrustedProxies are the load balancers and proxies in front of the
	// server. A request whose connection comes from one of them is
	// counted against the address its X-Forwarded-For (or Forwarded)
	// names, and its X-Forwarded-Proto says whether the client used TLS;
	// their connections are not capped by ConnsPerAddr. Anyone else's
	// forwarding headers are ignored, since a client can write them.
	TrustedProxies []netip.Prefix
	// SecureCookies marks the session cookie Secure on every answer and
	// sends Strict-Transport-Security, for a server only reached over
	// HTTPS (through a TLS proxy).
	SecureCookies bool
}

// Defaults returns limits generous for people and for programs that
// play many tables, that still stop a flood.
func Defaults() Limits {
	return Limits{
		MaxBody: 64 << 10, MaxMessage: 64 << 10,
		PerConn: 1000, PerConnBurst: 2000,
		PerIdentity: 100, PerIdentityBurst: 200,
		NewGuests: 20, NewGuestsBurst: 100,
		SignIns: 1, SignInsBurst: 20, SignInsPerName: 1.0 / 12, SignInsPerNameBurst: 5,
		ConnsPerAddr: 256, Streams: DefaultStreams,
		ChatPerAddr: ChatPerAddrRate, ChatPerAddrBurst: ChatPerAddrBurst,
		BodyTimeout: 10 * time.Second, HeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
	}
}

// WithDefaults returns l with each unset field at its default.
func (l Limits) WithDefaults() Limits {
	d := Defaults()
	if l.MaxBody > 0 {
		d.MaxBody = l.MaxBody
	}
	if l.MaxMessage > 0 {
		d.MaxMessage = l.MaxMessage
	}
	if l.PerConn > 0 {
		d.PerConn, d.PerConnBurst = l.PerConn, max(l.PerConnBurst, 1)
	}
	if l.PerIdentity > 0 {
		d.PerIdentity, d.PerIdentityBurst = l.PerIdentity, max(l.PerIdentityBurst, 1)
	}
	if l.NewGuests > 0 {
		d.NewGuests, d.NewGuestsBurst = l.NewGuests, max(l.NewGuestsBurst, 1)
	}
	if l.SignIns > 0 {
		d.SignIns, d.SignInsBurst = l.SignIns, max(l.SignInsBurst, 1)
	}
	if l.SignInsPerName > 0 {
		d.SignInsPerName, d.SignInsPerNameBurst = l.SignInsPerName, max(l.SignInsPerNameBurst, 1)
	}
	if l.ConnsPerAddr > 0 {
		d.ConnsPerAddr = l.ConnsPerAddr
	}
	if l.ChatPerAddr > 0 {
		d.ChatPerAddr, d.ChatPerAddrBurst = l.ChatPerAddr, max(l.ChatPerAddrBurst, 1)
	}
	if l.NewRatedPerAddr > 0 {
		d.NewRatedPerAddr = l.NewRatedPerAddr
	}
	if l.Streams > 0 {
		d.Streams = l.Streams
	}
	d.StreamsPerAddr = max(1, d.ConnsPerAddr/4)
	if l.StreamsPerAddr > 0 {
		d.StreamsPerAddr = l.StreamsPerAddr
	}
	d.TrustedProxies, d.SecureCookies = l.TrustedProxies, l.SecureCookies
	for _, t := range []struct{ set, def *time.Duration }{
		{&l.BodyTimeout, &d.BodyTimeout}, {&l.HeaderTimeout, &d.HeaderTimeout}, {&l.IdleTimeout, &d.IdleTimeout},
	} {
		if *t.set > 0 {
			*t.def = *t.set
		}
	}
	return d
}

// Bucket is one rate limit: a token bucket, as golang.org/x/time/rate
// keeps it, rate tokens a second up to burst.
type Bucket struct {
	l *rate.Limiter
}

// NewBucket returns a full bucket of burst tokens refilled at r a second.
func NewBucket(r, burst float64) *Bucket {
	return &Bucket{l: rate.NewLimiter(rate.Limit(r), max(1, int(burst)))}
}

// Allow takes a token if there is one at now.
func (b *Bucket) Allow(now time.Time) bool { return b.l.AllowN(now, 1) }

// Keyed keeps a bucket per key (an identity, an address), dropping
// the buckets that have refilled: a full bucket is the same as a new one.
type Keyed struct {
	mu      sync.Mutex
	rate    float64
	burst   float64
	buckets map[string]*rate.Limiter
	swept   time.Time
}

// NewKeyed returns a Keyed whose buckets hold burst tokens refilled at r a
// second.
func NewKeyed(r, burst float64) *Keyed {
	return &Keyed{rate: r, burst: max(1, burst), buckets: map[string]*rate.Limiter{}, swept: time.Now()}
}

// OK reports whether key has a token left, without taking it: for limits
// that count only the requests that fail.
func (k *Keyed) OK(key string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	l, found := k.buckets[key]
	return !found || l.TokensAt(time.Now()) >= 1
}

// Allow takes a token from key's bucket if there is one. Now and then it
// drops the buckets that have refilled, so that the map holds only the
// keys heard from lately.
func (k *Keyed) Allow(key string) bool {
	now := time.Now()
	k.mu.Lock()
	l, ok := k.buckets[key]
	if !ok {
		l = rate.NewLimiter(rate.Limit(k.rate), int(k.burst))
		k.buckets[key] = l
	}
	if now.Sub(k.swept) > time.Minute {
		k.swept = now
		for other, ol := range k.buckets {
			if other != key && ol.TokensAt(now) >= float64(ol.Burst()) {
				delete(k.buckets, other)
			}
		}
	}
	k.mu.Unlock()
	return l.AllowN(now, 1)
}

// Turns has the attempts under one key (an address) go one at a time, for
// a limit that counts only what succeeds: its check (Keyed.OK), the
// attempt and its count (Keyed.Allow) made in one turn, so that attempts
// side by side cannot all pass the check before any is counted. Keys
// share a fixed number of locks, so that it holds no memory per key; two
// keys that share one wait for each other, which costs only time.
type Turns struct {
	locks [64]sync.Mutex
	seed  maphash.Seed
}

// NewTurns returns a Turns.
func NewTurns() *Turns { return &Turns{seed: maphash.MakeSeed()} }

// Take waits for key's turn, and returns the function that ends it.
func (t *Turns) Take(key string) (done func()) {
	l := &t.locks[maphash.String(t.seed, key)%uint64(len(t.locks))]
	l.Lock()
	return l.Unlock
}

// DefaultStreams is Limits.Streams unless set: a node of the size
// docs/scaling.md plans carries a few thousand games, each followed by two
// or three streams, well under it; the process's open-file limit must be
// above it, with room for the store and the listeners (parlour serve
// lowers it to fit).
const DefaultStreams = 100_000

// ChatPerAddrRate and ChatPerAddrBurst are Limits.ChatPerAddr and its
// burst unless set: an address writes three messages a second across its
// identities, fifteen at once, so that a flood of new guests from one
// place cannot drown a table's chat.
const (
	ChatPerAddrRate  = 3.0
	ChatPerAddrBurst = 15
)

// Held counts the long-lived answers held open (event streams, player
// streams, WebSockets), per address and in all, against caps.
type Held struct {
	mu      sync.Mutex
	perAddr map[string]int
	total   int
}

// Full says which cap a Take met.
type Full int

const (
	NotFull  Full = iota
	AllFull       // the total
	AddrFull      // the address's own
)

// Take takes a place for one long-lived answer to addr, unless total or
// perAddr places are taken already; release gives the place back, once
// however often it is called.
func (h *Held) Take(addr string, total, perAddr int) (release func(), full Full) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.total >= total {
		return nil, AllFull
	}
	if h.perAddr[addr] >= perAddr {
		return nil, AddrFull
	}
	if h.perAddr == nil {
		h.perAddr = map[string]int{}
	}
	h.perAddr[addr]++
	h.total++
	var once sync.Once
	return func() {
		once.Do(func() {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.total--
			if h.perAddr[addr]--; h.perAddr[addr] <= 0 {
				delete(h.perAddr, addr)
			}
		})
	}, NotFull
}
