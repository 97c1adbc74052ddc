package auth

import (
	"crypto/sha256"
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
// holds only what was used, about 210 bytes a credential
// (BenchmarkCredCacheMemory), 27 MB at the most.
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
	cur, old map[credKey]cachedCred
	// maxAge, when not 0, is how long a credential is trusted from the
	// cache before the store is asked again. A cluster sets it: a
	// sign-out on another node is forgotten here when that node tells
	// this one, and at the latest after maxAge should the telling fail.
	maxAge time.Duration
	// sessionAge, when not 0, is how long an identity's own token (an
	// account's session, a guest's token) is trusted from the cache,
	// whatever maxAge: one ended in the store by another process
	// (parlour admin password) is refused here within it. A seat's
	// token, asked for at every move and ended only with its table,
	// stays under maxAge.
	sessionAge time.Duration
}

// cachedCred is what a request needs of a credential, and when the
// store was last asked for it (with maxAge), in Unix nanoseconds.
type cachedCred struct {
	identity, table string
	at              int64
	// seat is a seat's number (a table's seats are few); used is the
	// day (Unix days) of the last use of an identity's own token known
	// to be noted in the store, or on its way there. Both fit in the
	// word a seat's int took.
	seat, used int32
}

// credKey is a token's hash (account.HashToken) as the cache's key: held
// in the map's slot, where a string key took an allocation of its own
// for every credential.
type credKey [sha256.Size]byte

// keyOf returns h as a key, or false when h is no token's hash: such a
// credential is neither found nor kept, and the store answers for it.
func keyOf(h []byte) (credKey, bool) {
	var k credKey
	if len(h) != len(k) {
		return k, false
	}
	copy(k[:], h)
	return k, true
}

func newCredCache(size int) *credCache {
	return &credCache{size: size, cur: make(map[credKey]cachedCred)}
}

// get returns the credential whose token hashes to h.
func (c *credCache) get(h []byte) (cachedCred, bool) {
	k, ok := keyOf(h)
	if !ok {
		return cachedCred{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	cr, ok := c.cur[k]
	if !ok {
		if cr, ok = c.old[k]; ok {
			delete(c.old, k)
			c.putLocked(k, cr)
		}
	}
	if age := c.ageOf(cr); ok && age > 0 && time.Duration(time.Now().UnixNano()-cr.at) > age {
		delete(c.cur, k)
		return cachedCred{}, false
	}
	return cr, ok
}

// ageOf is how long cr is trusted from the cache: 0, for ever.
func (c *credCache) ageOf(cr cachedCred) time.Duration {
	if cr.table == "" && c.sessionAge > 0 && (c.maxAge == 0 || c.sessionAge < c.maxAge) {
		return c.sessionAge
	}
	return c.maxAge
}

// put remembers the credential whose token hashes to h.
func (c *credCache) put(h []byte, cr cachedCred) {
	k, ok := keyOf(h)
	if !ok {
		return
	}
	if c.ageOf(cr) > 0 {
		cr.at = time.Now().UnixNano()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putLocked(k, cr)
}

func (c *credCache) putLocked(k credKey, cr cachedCred) {
	if _, ok := c.cur[k]; !ok && len(c.cur) >= c.size {
		c.old, c.cur = c.cur, make(map[credKey]cachedCred, c.size)
	}
	c.cur[k] = cr
}

// due reports whether the use on day of the credential whose token
// hashes to h is yet to be noted in the store, and takes it as noted:
// the first use of a day is written, the others not. A credential not
// held (dropped meanwhile) is not due.
func (c *credCache) due(h []byte, day int32) bool {
	k, ok := keyOf(h)
	if !ok {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.cur
	cr, ok := m[k]
	if !ok {
		if m = c.old; m == nil {
			return false
		}
		if cr, ok = m[k]; !ok {
			return false
		}
	}
	if cr.used >= day {
		return false
	}
	cr.used = day
	m[k] = cr
	return true
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
	k, ok := keyOf(h)
	if !ok {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.cur, k)
	delete(c.old, k)
}
