// Who is around: the players online, less those whose setting hides
// them from the list (server/players keeps the setting).

package social

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"parlour/account"
	"parlour/server/refuse"
	"parlour/store"
)

// OnlineWindow is how recently a player must have made a request to count
// as online when no stream of theirs is open. A browser on a table keeps
// its WebSocket open, and the home page polls the lobby more often than
// this, so five minutes passes over a player who reads a record without
// counting someone who closed the tab long ago.
const OnlineWindow = 5 * time.Minute

// onlineSet keeps, for each identity, when it last made a request and how
// many of its streams (WebSockets, table event streams, player streams)
// are open. It lives in memory: after a restart everybody is offline
// until their next request, which is how it looks from outside anyway.
// Every authenticated request touches it, moves included, so a touch
// takes no lock: an identity seen before has its time stored atomically.
type onlineSet struct {
	seen sync.Map // identity -> *atomic.Int64, Unix nanoseconds

	mu   sync.Mutex
	open map[string]int
}

func newOnlineSet() *onlineSet {
	return &onlineSet{open: map[string]int{}}
}

// touch notes a request of identity at now, and reports whether it came
// online by it: it was not online just before.
func (p *onlineSet) touch(identity string, now time.Time) (came bool) {
	return p.stamp(identity, now) && !p.isOpen(identity)
}

// stamp notes a request of identity at now, and reports whether its
// last one was too long ago to count (or it had none).
func (p *onlineSet) stamp(identity string, now time.Time) (stale bool) {
	at := now.UnixNano()
	if v, ok := p.seen.Load(identity); ok {
		return now.Sub(time.Unix(0, v.(*atomic.Int64).Swap(at))) > OnlineWindow
	}
	n := new(atomic.Int64)
	n.Store(at)
	if v, loaded := p.seen.LoadOrStore(identity, n); loaded {
		return now.Sub(time.Unix(0, v.(*atomic.Int64).Swap(at))) > OnlineWindow
	}
	return true
}

// isOpen reports whether identity holds a stream open.
func (p *onlineSet) isOpen(identity string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.open[identity] > 0
}

// hold notes an open stream of identity; the function it returns notes
// its end (and counts as a request then). came reports whether identity
// came online by it.
func (p *onlineSet) hold(identity string, now func() time.Time) (release func(), came bool) {
	p.mu.Lock()
	held := p.open[identity] > 0
	p.open[identity]++
	p.mu.Unlock()
	came = p.stamp(identity, now()) && !held
	var once sync.Once
	return func() {
		once.Do(func() {
			p.stamp(identity, now())
			p.mu.Lock()
			if p.open[identity]--; p.open[identity] <= 0 {
				delete(p.open, identity)
			}
			p.mu.Unlock()
		})
	}, came
}

// online returns the identities online at now, in no order, and forgets
// those long gone.
func (p *onlineSet) online(now time.Time) []string {
	p.mu.Lock()
	open := make(map[string]bool, len(p.open))
	for id := range p.open {
		open[id] = true
	}
	p.mu.Unlock()
	var out []string
	p.seen.Range(func(k, v any) bool {
		id, at := k.(string), time.Unix(0, v.(*atomic.Int64).Load())
		switch {
		case open[id] || now.Sub(at) <= OnlineWindow:
			out = append(out, id)
		case now.Sub(at) > 2*OnlineWindow:
			p.seen.CompareAndDelete(id, v)
		}
		return true
	})
	for id := range open {
		if _, ok := p.seen.Load(id); !ok {
			out = append(out, id)
		}
	}
	return out
}

// isOnline reports whether identity is online at now.
func (p *onlineSet) isOnline(identity string, now time.Time) bool {
	p.mu.Lock()
	open := p.open[identity] > 0
	p.mu.Unlock()
	v, ok := p.seen.Load(identity)
	return open || ok && now.Sub(time.Unix(0, v.(*atomic.Int64).Load())) <= OnlineWindow
}

// Online is who is around: how many identities, guests included, and
// the signed-in players among them who do not hide.
type Online struct {
	Count   int            `json:"count"`
	Players []OnlinePlayer `json:"players"`
	// WindowSeconds is OnlineWindow: a request this recent counts.
	WindowSeconds int `json:"window_seconds"`
}

// OnlinePlayer is one signed-in player online.
type OnlinePlayer struct {
	Name string `json:"name"`
}

// maxListed caps the names Online lists; Count still counts everybody.
const maxListed = 200

// challenges returns the store's challenge side, or a refusal when the
// store keeps none.
func (s *Service) challenges() (store.Challenges, error) {
	cs, ok := s.st.(store.Challenges)
	if !ok {
		return nil, refuse.With(http.StatusNotImplemented, "this server keeps no challenges")
	}
	return cs, nil
}

// Online returns who is around now, as anybody sees it.
func (s *Service) Online(ctx context.Context) (Online, error) { return s.OnlineTo(ctx, "") }

// OnlineTo returns who is around now, as viewer (an identity, "" for
// anybody) sees it: the players who block viewer are not listed.
func (s *Service) OnlineTo(ctx context.Context, viewer string) (_ Online, err error) {
	defer s.reading("who is online", &err)
	ids := s.presence.online(s.now())
	if s.peers != nil {
		ids = append(ids, s.peers.OnlineElsewhere(ctx)...)
		slices.Sort(ids)
		ids = slices.Compact(ids)
	}
	out := Online{Count: len(ids), Players: []OnlinePlayer{}, WindowSeconds: int(OnlineWindow / time.Second)}
	ps, ok := s.st.(store.Players)
	cs, ok2 := s.st.(store.Challenges)
	if !ok || !ok2 || len(ids) == 0 {
		return out, nil
	}
	names, err := ps.AccountNames(ctx, ids)
	if err != nil {
		return Online{}, err
	}
	accounts := make([]string, 0, len(names))
	for id := range names {
		accounts = append(accounts, id)
	}
	hidden, err := cs.Hidden(ctx, accounts)
	if err != nil {
		return Online{}, err
	}
	blockers, err := s.blockersOf(ctx, viewer)
	if err != nil {
		return Online{}, err
	}
	closed, err := closedAmong(ctx, ps, names)
	if err != nil {
		return Online{}, err
	}
	for id, name := range names {
		if !hidden[id] && !blockers[id] && !closed[id] {
			out.Players = append(out.Players, OnlinePlayer{Name: name})
		}
	}
	slices.SortFunc(out.Players, func(a, b OnlinePlayer) int {
		return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
	})
	if len(out.Players) > maxListed {
		out.Players = out.Players[:maxListed]
	}
	return out, nil
}

// closedAmong returns those of the accounts names (identity -> name)
// that a moderator closed: their players play no more, so nobody is
// shown them as about (until their last request is OnlineWindow old, a
// closed account would be listed online, to be challenged in vain).
func closedAmong(ctx context.Context, ps store.Players, names map[string]string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(names) == 0 {
		return out, nil
	}
	keys := make([]string, 0, len(names))
	for _, n := range names {
		keys = append(keys, account.Key(n))
	}
	as, err := ps.AccountsByKeys(ctx, keys)
	if err != nil {
		return nil, err
	}
	for _, a := range as {
		if a.Hash == store.ClosedHash {
			out[a.Identity] = true
		}
	}
	return out, nil
}

// holding reports whether identity has a stream open.
func (p *onlineSet) holding(identity string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.open[identity] > 0
}

// holders returns those of identities that have a stream open.
func (p *onlineSet) holders(identities []string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := []string{}
	for _, id := range identities {
		if p.open[id] > 0 {
			out = append(out, id)
		}
	}
	return out
}
