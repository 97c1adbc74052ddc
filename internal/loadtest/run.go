package loadtest

// One run: the scripted players move on a fixed schedule for a while, and
// what the servers, the tool and the machine spent meanwhile is measured.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// snapshot is what measure reads before and after a run.
type snapshot struct {
	servers   []time.Duration // each server's CPU time (nil: unknown)
	tool      time.Duration   // the tool's CPU time
	machine   machineSample
	machineOK bool
	metrics   map[string]float64 // the nodes' counters, summed
	accepted  []float64          // the moves each node accepted as owner
	pushes    int64
	opened    int64
	movedOn   int64
}

// snapshot reads the CPU times, the machine's and the servers' counters.
func (t *tester) snapshot(ctx context.Context) snapshot {
	s := snapshot{servers: cpuTimes(t.cfg.ServerPIDs), tool: cpuTime(os.Getpid())}
	s.machine, s.machineOK = sampleMachine()
	each := t.metricsEach(ctx)
	s.metrics, s.accepted = sumMetrics(each), acceptedEach(each)
	s.pushes, s.opened, s.movedOn = t.pushes.Load(), t.opened.Load(), t.movedOn.Load()
	return s
}

// measure runs rate for the configured duration and reports the run with
// what was spent on it, counted from after the warm-up.
func (t *tester) measure(ctx context.Context, rate float64) (*RunReport, error) {
	load0 := loadAverage()
	var before snapshot
	r, err := t.run(ctx, rate, t.cfg.Duration, func() { before = t.snapshot(ctx) })
	if err != nil {
		return nil, err
	}
	after := t.snapshot(ctx)
	if load0 != "" {
		// Other work on the machine takes CPU from both the server and
		// the tool: say how much there was.
		r.LoadBefore, r.LoadAfter = load0, loadAverage()
	}
	t.spent(r, before, after)
	r.FirstRefusal = t.refusal()
	return r, nil
}

// spent adds to r what the machine, the servers and the tool spent from
// a to b, as far as each is known.
func (t *tester) spent(r *RunReport, a, b snapshot) {
	pids := t.cfg.ServerPIDs
	if a.machineOK && b.machineOK {
		if m, ok := machineUse(a.machine, b.machine, append(slices.Clone(pids), os.Getpid())...); ok {
			r.Machine = &m
		}
	}
	m0, m1 := a.metrics, b.metrics
	if c, w := m1["parlour_store_commits_total"]-m0["parlour_store_commits_total"], m1["parlour_store_writes_total"]-m0["parlour_store_writes_total"]; c > 0 {
		r.Store = &StoreUse{Commits: c, Writes: w}
	}
	if t.ws && r.Accepted > 0 {
		r.Sockets = &SocketUse{Pushed: b.pushes - a.pushes, Opened: b.opened - a.opened, MovedOn: b.movedOn - a.movedOn}
	}
	if f, ok := m1["parlour_cluster_forwarded_total"]; ok && r.Accepted > 0 {
		r.Cluster = &ClusterUse{
			Forwarded: f - m0["parlour_cluster_forwarded_total"],
			Takeovers: m1["parlour_cluster_takeovers_total"] - m0["parlour_cluster_takeovers_total"],
			Handed:    m1["parlour_cluster_handed_total"] - m0["parlour_cluster_handed_total"],
		}
	}
	if r.Accepted > 0 && len(pids) > 0 && a.servers != nil && b.servers != nil {
		c := &CPUUse{PIDs: pids, Tool: b.tool - a.tool}
		for i := range pids {
			c.Servers = append(c.Servers, b.servers[i]-a.servers[i])
		}
		if len(pids) > 1 && len(pids) == len(a.accepted) && len(b.accepted) == len(a.accepted) {
			for i := range pids {
				c.NodeAccepted = append(c.NodeAccepted, b.accepted[i]-a.accepted[i])
			}
		}
		r.CPU = c
	}
}

// run plays for dur at rate moves a second across the live tables. Each
// table's moves are due on a fixed schedule (open loop): a move's latency
// counts from when it was due, so time spent queueing in the tool counts
// too. warm is called once everything is ready, just before the clock
// starts.
func (t *tester) run(ctx context.Context, rate float64, dur time.Duration, warm func()) (*RunReport, error) {
	n := t.live
	tables, err := t.take(ctx, n)
	if err != nil {
		return nil, err
	}
	// Warm up: open every connection the players will move on, and make
	// one request on it, before the clock starts.
	pools, err := t.dialPools(ctx)
	defer closePools(pools)
	if err != nil {
		return nil, err
	}
	if t.ws {
		if err := t.openAll(ctx, tables); err != nil {
			return nil, err
		}
	}
	taken := 0 // spares taken by the stagger
	if t.cfg.Stagger {
		if taken, err = t.stagger(ctx, tables, pools, uint64(rate)); err != nil {
			return nil, err
		}
	}
	warm()
	start := time.Now().Add(100 * time.Millisecond)
	res := &RunReport{Rate: rate, Duration: dur, Timeline: t.cfg.Timeline, start: start}
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	refill := t.refiller(rctx, n)
	defer close(refill)
	for range min(taken, n) {
		refill <- struct{}{}
	}
	p := &players{t: t, res: res, pools: pools, refill: refill, start: start, end: start.Add(dur),
		interval: time.Duration(float64(n) / rate * float64(time.Second))}
	var wg sync.WaitGroup
	if t.cfg.Chat > 0 {
		res.Chat = &ChatReport{}
		wg.Go(func() { t.chat(rctx, tables, p.start, p.end, res.Chat) })
	}
	for i, tb := range tables {
		wg.Go(func() { p.play(rctx, i, n, tb) })
	}
	wg.Wait()
	slices.Sort(res.Latencies)
	return res, nil
}

// players is what the players of one run share.
type players struct {
	t        *tester
	res      *RunReport
	mu       sync.Mutex // guards res's latencies and samples
	pools    []chan *moveConn
	refill   chan<- struct{}
	start    time.Time
	end      time.Time
	interval time.Duration // between two moves at one table's slot
}

// play makes the moves of slot i of n, starting at table tb, each when it
// is due, until the run ends; a table whose game ends is replaced by a
// spare.
func (p *players) play(ctx context.Context, i, n int, tb *table) {
	var lat []time.Duration
	var samples []sample
	// asked is set while a spare asked for this slot, none being ready
	// when its game ended, has not come yet.
	asked := false
	due := p.start.Add(time.Duration(i) * p.interval / time.Duration(n))
	for ; due.Before(p.end); due = due.Add(p.interval) {
		if d := time.Until(due); d > 0 {
			if sleep(ctx, d) != nil {
				break
			}
		} else if -d > time.Millisecond {
			atomic.AddInt64(&p.res.Late, 1)
		}
		if tb.over {
			var ok bool
			if tb, ok = p.replace(ctx, tb, &asked); !ok {
				continue
			}
		}
		atomic.AddInt64(&p.res.Sent, 1)
		pool := p.pools[tb.node[tb.turn]]
		c := <-pool
		outcome := p.t.step(ctx, c, tb)
		l := time.Since(due)
		lat, samples = append(lat, l), append(samples, sample{due, l})
		pool <- c
		if tb.over {
			tb = p.t.moveOn(ctx, tb, p.refill)
		}
		p.count(outcome)
	}
	p.mu.Lock()
	p.res.Latencies = append(p.res.Latencies, lat...)
	p.res.samples = append(p.res.samples, samples...)
	p.mu.Unlock()
	if !tb.over {
		p.t.spare <- tb
	}
}

// replace takes a spare for tb, whose game is over, asking for another
// to be made; ok is false when the slot is skipped: no spare was ready,
// or its sockets could not be opened.
func (p *players) replace(ctx context.Context, tb *table, asked *bool) (_ *table, ok bool) {
	select {
	case nt := <-p.t.spare:
		if !*asked {
			p.refill <- struct{}{}
		}
		*asked = false
		tb = nt
	default:
		// No spare ready: this slot is skipped, and one is asked for
		// (once), or none might ever come.
		if !*asked {
			p.refill <- struct{}{}
			*asked = true
		}
		atomic.AddInt64(&p.res.Skipped, 1)
		return tb, false
	}
	// No spare was ready when the last game ended (moveOn): the sockets
	// are opened in this slot.
	if p.t.ws && p.t.seatSockets(ctx, nil, tb) != nil {
		tb.over = true
		atomic.AddInt64(&p.res.Errors, 1)
		return tb, false
	}
	return tb, true
}

// count counts one move's outcome.
func (p *players) count(o moveOutcome) {
	switch o {
	case accepted:
		atomic.AddInt64(&p.res.Accepted, 1)
	case refused:
		atomic.AddInt64(&p.res.Refused, 1)
	default:
		atomic.AddInt64(&p.res.Errors, 1)
	}
}

// moveOn replaces tb, whose game just ended, by a spare table, and
// returns it: tb's sockets, over TransportWS, move on to it
// (seatSockets), once the last move was timed. With no spare ready it
// closes tb's sockets and returns tb, to be replaced in its next slot.
// The spare taken is made again in the background through refill (nil:
// the caller sees to it).
func (t *tester) moveOn(ctx context.Context, tb *table, refill chan<- struct{}) *table {
	if !t.ws {
		return tb // replaced in its next slot, as ever
	}
	select {
	case nt := <-t.spare:
		if refill != nil {
			refill <- struct{}{}
		}
		if err := t.seatSockets(ctx, tb, nt); err != nil {
			tb.closeSeats()
			return tb // the next slot takes another spare
		}
		return nt
	default:
		tb.closeSeats()
		return tb
	}
}

// openAll opens the sockets of the tables that have none, 16 at a time.
func (t *tester) openAll(ctx context.Context, tables []*table) error {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	work := make(chan *table)
	for range 16 {
		wg.Go(func() {
			for tb := range work {
				if err := t.openSeats(ctx, tb); err != nil {
					mu.Lock()
					first = cmp(first, err)
					mu.Unlock()
				}
			}
		})
	}
	for _, tb := range tables {
		work <- tb
	}
	close(work)
	wg.Wait()
	return first
}

// moveOutcome is how the server answered one move.
type moveOutcome int

const (
	accepted moveOutcome = iota
	refused              // a 4xx: the table is given up
	failed               // no answer, or a 5xx
)

// step makes tb's next move on c: the seat to move calls the next square
// of its opponent's grid. A table it leaves over keeps its sockets: the
// caller closes them (table.closeSeats) once it has timed the move,
// which ends at the answer, not at the close handshakes after it.
func (t *tester) step(ctx context.Context, c *moveConn, tb *table) moveOutcome {
	seat := tb.turn
	sq := tb.calls[seat]
	mv := string([]byte{byte('0' + 5 + sq/5), byte('0' + sq%5)})
	var st int
	var body []byte
	var err error
	if tb.ws[seat] != nil {
		st, body, err = tb.ws[seat].move(ctx, mv)
	} else if st, body, err = c.move(ctx, tb.id, tb.seats[seat], mv); err != nil {
		c.close() // the next move dials again
	}
	var mr moveAnswer
	if err == nil && st == http.StatusOK {
		err = mr.parse(body)
	}
	switch {
	case err == nil && st == http.StatusOK:
		tb.acked = append(tb.acked, fmt.Sprintf("%d:%s", seat, mv))
		tb.calls[seat]++
		if mr.Status == "finished" || len(mr.ToMove) == 0 {
			tb.over = true
		} else {
			tb.turn = mr.ToMove[0]
		}
		return accepted
	case err == nil && st >= 400 && st < 500:
		t.noteRefusal(st, body)
		tb.over = true
		return refused
	default:
		t.noteRefusal(st, body)
		tb.errors++
		return failed
	}
}

// stagger plays each table a random number of moves, from none to most of
// a game, before the clock starts. Tables that all started together would
// all finish within the same second, and a thousand games ending at once,
// with a thousand new tables opened to replace them, is a burst no steady
// server sees; staggered, the games end and begin at a steady rate, as
// they do on a server whose tables came and went over time. Over
// sockets, a table whose game ends in the stagger is replaced by a spare
// at once (moveOn), as in the run; stagger returns how many spares it
// took, for the caller to have made again.
func (t *tester) stagger(ctx context.Context, tables []*table, pools []chan *moveConn, seed uint64) (taken int, err error) {
	rng := rand.New(rand.NewPCG(seed, 0))
	todo := make([]int, len(tables))
	for i := range todo {
		todo[i] = rng.IntN(staggerMoves)
	}
	var wg sync.WaitGroup
	var bad, spares atomic.Int64
	work := make(chan int)
	for range min(t.conns, 64) {
		wg.Go(func() {
			for i := range work {
				tb := tables[i]
				for k := 0; k < todo[i] && !tb.over && ctx.Err() == nil; k++ {
					pool := pools[tb.node[tb.turn]]
					c := <-pool
					if t.step(ctx, c, tb) != accepted {
						bad.Add(1)
					}
					pool <- c
					if tb.over {
						if nt := t.moveOn(ctx, tb, nil); nt != tb {
							spares.Add(1)
							tb, tables[i] = nt, nt
						}
					}
				}
			}
		})
	}
	for i := range tables {
		work <- i
	}
	close(work)
	wg.Wait()
	if n := bad.Load(); n > 0 {
		return int(spares.Load()), fmt.Errorf("%d moves of the stagger were not accepted", n)
	}
	return int(spares.Load()), ctx.Err()
}

// staggerMoves bounds the moves stagger plays at one table: most of a
// game of the scripted players, who call squares in order and so finish
// in about 40 to 50 moves.
const staggerMoves = 40
