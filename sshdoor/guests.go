package sshdoor

import (
	"sync"
	"time"
)

// Bounds of the guests a door remembers.
const (
	maxGuests = 10000
	guestTTL  = 30 * 24 * time.Hour
)

// guests remembers the guest identity each public key last played under,
// and the name it played as, so that a guest who comes back with the same
// key (after a dropped connection, say) plays as the same guest and finds
// their tables. Only a key the client proved it holds is remembered. The
// list is the door's, in memory: at most maxGuests keys, the longest
// unused dropped first, each forgotten guestTTL after its last use.
type guests struct {
	mu    sync.Mutex
	byKey map[string]guest // by the key's SHA256 fingerprint
}

type guest struct {
	name, token string
	used        time.Time
}

// get returns the identity key fp last played under as name, if any.
func (g *guests) get(fp, name string, now time.Time) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	e, ok := g.byKey[fp]
	if !ok || e.name != name || now.Sub(e.used) > guestTTL {
		return ""
	}
	e.used = now
	g.byKey[fp] = e
	return e.token
}

// put remembers that key fp plays as name under identity token.
func (g *guests) put(fp, name, token string, now time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.byKey == nil {
		g.byKey = make(map[string]guest)
	}
	if _, ok := g.byKey[fp]; !ok && len(g.byKey) >= maxGuests {
		oldest, at := "", now
		for k, e := range g.byKey {
			if now.Sub(e.used) > guestTTL {
				delete(g.byKey, k)
				continue
			}
			if !e.used.After(at) {
				oldest, at = k, e.used
			}
		}
		if len(g.byKey) >= maxGuests {
			delete(g.byKey, oldest)
		}
	}
	g.byKey[fp] = guest{name: name, token: token, used: now}
}
