package sqlite

import (
	"sync"

	"parlour/store"
)

// maxCachedIdentities bounds the identities the store remembers: a few
// megabytes at most, far more players than a busy server sees in a
// minute.
const maxCachedIdentities = 1 << 14

// identityCache remembers what Identity read. Every table made or joined
// reads its player's identity, and on a busy store that read costs five
// times a quiet one (BenchmarkIdentity): SQLite drops a connection's whole
// page cache whenever another connection has committed since its last
// read, so the read fetches its pages again. The store is its database's
// only writer (parlour serve holds it alone; a cluster shares PostgreSQL,
// not SQLite), so it knows every change: the writes that change an
// identity already stored (an account made from it, renamed or deleted)
// call changed once committed. A new identity changes nothing remembered.
type identityCache struct {
	mu sync.Mutex
	// gen counts the changes. A read that began before a change may
	// have read what the change replaced, so put keeps an answer only
	// if no change came since its read began.
	gen uint64
	m   map[string]store.Identity
}

// get returns identity id as last read, if remembered.
func (c *identityCache) get(id string) (store.Identity, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	i, ok := c.m[id]
	return i, ok
}

// begin returns the generation a read that starts now puts with.
func (c *identityCache) begin() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// put remembers i, read from a read that began at generation gen, unless
// an identity changed since.
func (c *identityCache) put(i store.Identity, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if c.m == nil || len(c.m) >= maxCachedIdentities {
		c.m = make(map[string]store.Identity)
	}
	c.m[i.ID] = i
}

// changed forgets identity id, written (or perhaps written) just now.
func (c *identityCache) changed(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	delete(c.m, id)
}
