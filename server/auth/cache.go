package auth

import (
	"sync"
	"time"
)

// credCacheSize is how many credentials one generation of the cache holds.
// Every seat of a live table has a token of its own, so a server holding
// 10,000 tables in play uses 20,000 seat tokens and its players' own, each
// once every few seconds: a working set of credCacheSize or fewer never
// misses (each credential is used again before two generations have
// filled), and a larger one sends a share of its moves to the store, on a
// busy store some 50 µs each. 65,536 covers 30,000 live tables; the cache
// holds only what was used, about 240 bytes a credential
// (BenchmarkCredCacheMemory), 31 MB at the most.
const credCacheSize = 1 << 16

// credCache remembers the credentials used or issued lately, so that most
// requests are authenticated without the store. It keeps two generations
// of at most credCacheSize each: when the newer fills up, the older is
// dropped and a new one begins, and a credential found in the older moves
// to the newer. Memory stays bounded however many tables a long-running
// server has seen, while the seats in play stay cached.
type credCache struct {
	mu       sync.Mutex
	size     int
	cur, old map[string]cachedCred
	// maxAge, when not 0, is how long a credential is trusted from the
	// cache before the store is asked again. A cluster sets it: a
	// sign-out on another node is forgotten here when that node tells
	// this one, and at the latest after maxAge should the telling fail.
	maxAge time.Duration
}

// cachedCred is what a request needs of a credential, and when the
// store was last asked for it (with maxAge).
type cachedCred struct {
	identity, table string
	seat            int
	at              time.Time
}

func newCredCache(size int) *credCache {
	return &credCache{size: size, cur: make(map[string]cachedCred)}
}

// get returns the credential whose token hashes to h.
func (c *credCache) get(h []byte) (cachedCred, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cr, ok := c.cur[string(h)]
	if !ok {
		if cr, ok = c.old[string(h)]; ok {
			delete(c.old, string(h))
			c.putLocked(string(h), cr)
		}
	}
	if ok && c.maxAge > 0 && time.Since(cr.at) > c.maxAge {
		delete(c.cur, string(h))
		return cachedCred{}, false
	}
	return cr, ok
}

// put remembers the credential whose token hashes to h.
func (c *credCache) put(h []byte, cr cachedCred) {
	if c.maxAge > 0 {
		cr.at = time.Now()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putLocked(string(h), cr)
}

func (c *credCache) putLocked(h string, cr cachedCred) {
	if _, ok := c.cur[h]; !ok && len(c.cur) >= c.size {
		c.old, c.cur = c.cur, make(map[string]cachedCred, c.size)
	}
	c.cur[h] = cr
}

// len returns how many credentials the cache holds.
func (c *credCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.cur) + len(c.old)
}

// drop forgets the credential whose token hashes to h (deleted: signed
// out, or its account gone).
func (c *credCache) drop(h []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.cur, string(h))
	delete(c.old, string(h))
}
