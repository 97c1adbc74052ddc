package server

import (
	"sync"
	"time"
)

// Limits caps what one client may send. The zero value of a field takes
// its default from DefaultLimits.
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
}

// DefaultLimits returns limits generous for people and for programs that
// play many tables, that still stop a flood.
func DefaultLimits() Limits {
	return Limits{
		MaxBody: 64 << 10, MaxMessage: 64 << 10,
		PerConn: 1000, PerConnBurst: 2000,
		PerIdentity: 100, PerIdentityBurst: 200,
		NewGuests: 20, NewGuestsBurst: 100,
	}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
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
	return d
}

// bucket is a token bucket: rate tokens a second, up to burst.
type bucket struct {
	mu     sync.Mutex
	rate   float64
	burst  float64
	tokens float64
	last   time.Time
}

func newBucket(rate, burst float64) *bucket {
	return &bucket{rate: rate, burst: burst, tokens: burst, last: time.Now()}
}

// allow takes a token if there is one.
func (b *bucket) allow(now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// keyedLimiter keeps a bucket per key (an identity, an address), dropping
// the buckets that have refilled.
type keyedLimiter struct {
	mu      sync.Mutex
	rate    float64
	burst   float64
	buckets map[string]*bucket
	swept   time.Time
}

func newKeyedLimiter(rate, burst float64) *keyedLimiter {
	return &keyedLimiter{rate: rate, burst: burst, buckets: map[string]*bucket{}, swept: time.Now()}
}

func (k *keyedLimiter) allow(key string) bool {
	now := time.Now()
	k.mu.Lock()
	b, ok := k.buckets[key]
	if !ok {
		b = newBucket(k.rate, k.burst)
		k.buckets[key] = b
	}
	if now.Sub(k.swept) > time.Minute {
		k.swept = now
		full := time.Duration(k.burst / k.rate * float64(time.Second))
		for other, ob := range k.buckets {
			ob.mu.Lock()
			idle := now.Sub(ob.last) > full
			ob.mu.Unlock()
			if idle && other != key {
				delete(k.buckets, other)
			}
		}
	}
	k.mu.Unlock()
	return b.allow(now)
}
