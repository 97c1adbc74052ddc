package loadtest

// The scripted players' identities and tables: made before the clock
// starts, and replaced as their games end.

import (
	"context"
	crand "crypto/rand"
	"fmt"
	"hash/fnv"
	"net/http"
	"sync"
	"time"

	"parlour/games/quizl"
	"parlour/lexicon"
)

// table is one Quizl table of two scripted players, who call the squares
// of the grid in order.
type table struct {
	id     string
	seats  [2]string // seat tokens
	node   [2]int    // the node each seat plays through (an index of nodes)
	turn   int
	calls  [2]int
	acked  []string // "seat:move" in order
	over   bool
	errors int
	// ws, over TransportWS, is each seat's socket: a spare table has
	// none until it is played, unless NewSockets.
	ws [2]*wsSeat
}

// nodeOf returns the node of n that a balancer hashing a table's path
// would send table id's requests to.
func nodeOf(id string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(id))
	return int(h.Sum32() % uint32(n))
}

// newTable opens a Quizl table for two of the identities, seated with
// random grids, ready for its first call. With several nodes, the table is
// made through one (its owner) and joined through the next, and each seat
// plays through the node it was seated through.
func (t *tester) newTable(ctx context.Context) (*table, error) {
	n := t.made.Add(1)
	home := int(n % int64(len(t.nodes)))
	away := (home + 1) % len(t.nodes)
	a := t.tokens[(2*n)%int64(len(t.tokens))]
	b := t.tokens[(2*n+1)%int64(len(t.tokens))]
	var c, j struct {
		Table string `json:"table"`
		Token string `json:"token"`
	}
	create := map[string]any{"game": "quizl", "seats": []string{"me", "open"}, "private": true}
	if t.cfg.Rated {
		create["rated"] = true // only then: a server from before ratings refuses the field
	}
	if _, err := t.postAt(ctx, home, "/api/v1/tables", a, create, &c); err != nil {
		return nil, err
	}
	if t.byTable {
		home = nodeOf(c.Table, len(t.nodes))
		away = home
	}
	if _, err := t.postAt(ctx, away, "/api/v1/tables/"+c.Table+"/join", b, map[string]any{}, &j); err != nil {
		return nil, err
	}
	tb := &table{id: c.Table, seats: [2]string{c.Token, j.Token}, node: [2]int{home, away}}
	for i, tok := range tb.seats {
		g := t.grids[(2*int(n)+i)%len(t.grids)]
		if _, err := t.postAt(ctx, tb.node[i], "/api/v1/tables/"+tb.id+"/setup", tok, map[string]any{"setup": g}, nil); err != nil {
			return nil, err
		}
	}
	if t.ws && t.cfg.NewSockets {
		if err := t.openSeats(ctx, tb); err != nil {
			return nil, err
		}
	}
	t.mu.Lock()
	t.all = append(t.all, tb)
	t.mu.Unlock()
	return tb, nil
}

// prepare makes the grids, the identities, the live tables, and a pool of
// spares that replace tables whose games end.
func (t *tester) prepare(ctx context.Context, identities, tables int) (*Prepared, error) {
	start := time.Now()
	if err := t.makeGrids(); err != nil {
		return nil, err
	}
	if err := t.makeIdentities(ctx, identities); err != nil {
		return nil, err
	}
	t.live = tables
	t.spare = make(chan *table, 2*tables+t.spares())
	if tables == 0 {
		return &Prepared{Identities: identities, Took: time.Since(start)}, nil // none to play
	}
	if err := t.fill(ctx, tables+t.spares()); err != nil {
		return nil, err
	}
	return &Prepared{Identities: identities, Tables: len(t.spare), Took: time.Since(start)}, nil
}

// makeGrids makes the grids the scripted players bring: made once here,
// so that the server's time goes to moves rather than to making grids.
func (t *tester) makeGrids() error {
	lex, err := lexicon.Load(lexicon.DefaultName)
	if err != nil {
		return err
	}
	for i := uint64(1); i <= 32; i++ {
		g, err := quizl.RandomSetup(lex, i)
		if err != nil {
			return fmt.Errorf("making grids: %w", err)
		}
		t.grids = append(t.grids, g.Setup())
	}
	return nil
}

// makeIdentities makes n guest identities, or n accounts with Rated,
// waiting out the server's rate limits.
func (t *tester) makeIdentities(ctx context.Context, n int) error {
	// Accounts' names must be new on a server that kept earlier runs'.
	var tag [3]byte
	crand.Read(tag[:])
	for i := 0; i < n; i++ {
		var id struct {
			Token string `json:"token"`
		}
		path, body := "/api/v1/identity", map[string]any{"name": fmt.Sprintf("Load %d", i)}
		if t.cfg.Rated {
			name := fmt.Sprintf("load_%x_%d", tag, i)
			t.accounts = append(t.accounts, name)
			path, body = "/api/v1/accounts", map[string]any{"name": name, "password": fmt.Sprintf("load test %x %d", tag, i)}
		}
		for {
			st, err := t.post(ctx, path, "", body, &id)
			if st == http.StatusTooManyRequests {
				if err := sleep(ctx, 50*time.Millisecond); err != nil {
					return err
				}
				continue
			}
			if err != nil {
				return fmt.Errorf("making identities: %w", err)
			}
			break
		}
		t.tokens = append(t.tokens, id.Token)
	}
	return nil
}

// spares is how many tables beyond the live ones are kept ready to
// replace those whose games end: half as many, and at least 8, so that
// a few games ending together find a table each while the next are made.
func (t *tester) spares() int { return max(t.live/2, 8) }

// fill adds n spare tables, 16 at a time.
func (t *tester) fill(ctx context.Context, n int) error {
	var wg sync.WaitGroup
	var first error
	var mu sync.Mutex
	work := make(chan struct{}, n)
	for i := 0; i < n; i++ {
		work <- struct{}{}
	}
	close(work)
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range work {
				tb, err := t.newTable(ctx)
				if err != nil {
					mu.Lock()
					first = cmp(first, err)
					mu.Unlock()
					return
				}
				select {
				case t.spare <- tb:
				default:
				}
			}
		}()
	}
	wg.Wait()
	return first
}

func cmp(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// take returns n live tables from the spares, making more if there are
// too few, and makes the spares up again to as many as prepare made: a
// run before this one may have used them up.
func (t *tester) take(ctx context.Context, n int) ([]*table, error) {
	tables := make([]*table, 0, n)
	for len(tables) < n {
		select {
		case tb := <-t.spare:
			tables = append(tables, tb)
		default:
			if err := t.fill(ctx, n-len(tables)); err != nil {
				return nil, err
			}
		}
	}
	if short := t.spares() - len(t.spare); short > 0 {
		if err := t.fill(ctx, short); err != nil {
			return nil, err
		}
	}
	return tables, nil
}

// refiller makes spare tables in the background, one for each signal on
// its channel, until the run's context ends.
func (t *tester) refiller(ctx context.Context, n int) chan struct{} {
	refill := make(chan struct{}, n)
	for range 16 {
		go func() {
			for range refill {
				// A table asked for and not made would leave a slot
				// without a table for the rest of the run: try again.
				for ctx.Err() == nil {
					tb, err := t.newTable(ctx)
					if err == nil {
						select {
						case t.spare <- tb:
						default:
						}
						break
					}
					sleep(ctx, 50*time.Millisecond)
				}
			}
		}()
	}
	return refill
}
