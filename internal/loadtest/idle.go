package loadtest

// What idle sockets and idle tables cost the servers' memory.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// idleMoves is how far into its game each table of IdleTables is played,
// as BenchmarkIdleTableHeap (server/bench_test.go) plays its own.
const idleMoves = 10

// IdleSockets is what idle spectator sockets cost the servers: summed
// over the nodes.
type IdleSockets struct {
	Sockets int
	Tables  int     // the tables they watch
	Heap    float64 // heap bytes a socket
	// Resident is the resident set's bytes a socket, when ResidentKnown
	// (the servers' pids were given, on Linux).
	Resident      float64
	ResidentKnown bool
}

func (r *IdleSockets) print(w io.Writer) {
	fmt.Fprintf(w, "%d idle sockets (spectators, %d tables): server heap %+.0f bytes a socket", r.Sockets, r.Tables, r.Heap)
	if r.ResidentKnown {
		fmt.Fprintf(w, ", resident set %+.0f bytes a socket", r.Resident)
	}
	fmt.Fprintln(w)
}

// idleSockets opens n spectator sockets onto the tables at hand, n/len
// each, and reports what the server's memory grew by per socket: its
// resident set from /proc (with the servers' pids) and its heap from
// /metrics, each read once the sockets are open and quiet. With several
// nodes, the sockets are spread over them and the figures are their sums.
func (t *tester) idleSockets(ctx context.Context, n int, pids []int) (*IdleSockets, error) {
	var ids []string
	for len(ids) < t.live {
		select {
		case tb := <-t.spare:
			ids = append(ids, tb.id)
			defer func() { t.spare <- tb }()
		default:
			if err := t.fill(ctx, t.live-len(ids)); err != nil {
				return nil, err
			}
		}
	}
	settle := func() (rss, heap float64, err error) {
		if err := sleep(ctx, 2*time.Second); err != nil {
			return 0, 0, err
		}
		return residentSets(pids), t.metrics(ctx)["parlour_heap_bytes"], nil
	}
	rss0, heap0, err := settle()
	if err != nil {
		return nil, err
	}
	socks := make([]*wsSeat, 0, n)
	defer func() {
		for _, s := range socks {
			s.close()
		}
	}()
	for i := range n {
		s, err := t.openSeat(ctx, i%len(t.nodes), ids[i%len(ids)], "")
		if err != nil {
			return nil, fmt.Errorf("after %d sockets: %w", i, err)
		}
		socks = append(socks, s)
	}
	rss1, heap1, err := settle()
	if err != nil {
		return nil, err
	}
	r := &IdleSockets{Sockets: n, Tables: len(ids), Heap: (heap1 - heap0) / float64(n), Resident: (rss1 - rss0) / float64(n)}
	r.ResidentKnown = rss0 > 0 && rss1 > 0
	return r, nil
}

// IdleTables is what idle tables cost the servers.
type IdleTables struct {
	Tables     int
	Heap       float64 // heap bytes a table, over the nodes
	Goroutines float64 // goroutines a table, over the nodes
	// Resident is the resident set's bytes a table, summed over the
	// nodes, when ResidentKnown (the servers' pids were given, on Linux).
	Resident      float64
	ResidentKnown bool
	// Spans and Stacks are the bytes a table that the heap's spans in
	// use and the goroutines' stacks grew by (go_memstats_heap_inuse_bytes
	// and go_memstats_stack_inuse_bytes, summed over the nodes): with
	// Resident they say where a table's resident set goes. The spans
	// count the room among a span's live objects that garbage left, which
	// Heap does not; what the resident set grew by beyond both is the
	// store's caches and the runtime's own memory. SpansKnown says every
	// node reported them.
	Spans, Stacks float64
	SpansKnown    bool
	// Parked is how many of the tables had left memory when the growth
	// was read (the servers' parlour_tables_parked), Settle how long the
	// servers were left quiet before.
	Parked float64
	Settle time.Duration
	// Nodes is each node's growth, in the order of the servers.
	Nodes       []IdleNode
	LoadAverage string // the machine's, afterwards ("": unknown)
}

// IdleNode is what one node's heap, goroutines, owned tables and parked
// tables grew by.
type IdleNode struct {
	Base                             string
	Heap, Goroutines, Tables, Parked float64
}

func (r *IdleTables) print(w io.Writer) {
	fmt.Fprintf(w, "%d idle tables (%d moves in) over %d node(s): heap %+.0f bytes a table, %+.2f goroutines a table",
		r.Tables, idleMoves, len(r.Nodes), r.Heap, r.Goroutines)
	if r.ResidentKnown {
		fmt.Fprintf(w, ", resident set %+.0f bytes a table", r.Resident)
	}
	fmt.Fprintf(w, "; %.0f of them out of memory (parked) after %v quiet\n", r.Parked, r.Settle)
	if r.ResidentKnown && r.SpansKnown {
		fmt.Fprintf(w, "  of the resident set, a table: the heap's spans %+.0f bytes, stacks %+.0f, the rest (the store's caches, the runtime) %+.0f\n",
			r.Spans, r.Stacks, r.Resident-r.Spans-r.Stacks)
	}
	if len(r.Nodes) > 1 {
		each := make([]string, len(r.Nodes))
		for i, n := range r.Nodes {
			each[i] = fmt.Sprintf("%s: heap %+.0f MB, %+.0f goroutines, %+.0f tables owned", n.Base, n.Heap/1e6, n.Goroutines, n.Tables)
		}
		fmt.Fprintf(w, "  %s\n", strings.Join(each, "\n  "))
	}
	if r.LoadAverage != "" {
		fmt.Fprintf(w, "  load average %s\n", r.LoadAverage)
	}
}

// idleTables opens n more tables through the nodes, plays each idleMoves
// moves, and reports what the servers' heap and goroutines grew by per
// table once they are quiet: summed over the nodes, and each node's,
// and with the servers' pids their resident sets from /proc. HeapAlloc
// counts garbage not yet collected, so the servers should run with a
// low GOGC for the heap's figure to be mostly the tables' live heap; the
// resident set is taken as the servers run, at whatever GOGC they have.
func (t *tester) idleTables(ctx context.Context, n int, settle time.Duration, pids []int) (*IdleTables, error) {
	if settle == 0 {
		settle = 3 * time.Second
	}
	before, err := t.settledMetrics(ctx, settle)
	if err != nil {
		return nil, err
	}
	rss0 := residentSets(pids)
	if _, err := t.openIdle(ctx, n); err != nil {
		return nil, fmt.Errorf("opening the idle tables: %w", err)
	}
	after, err := t.settledMetrics(ctx, settle)
	if err != nil {
		return nil, err
	}
	rss1 := residentSets(pids)
	r := &IdleTables{Tables: n, Settle: settle, LoadAverage: loadAverage(), SpansKnown: true}
	if rss0 > 0 && rss1 > 0 {
		r.Resident, r.ResidentKnown = (rss1-rss0)/float64(n), true
	}
	for i := range t.nodes {
		b, a := before[i], after[i]
		d := IdleNode{
			Base:       t.nodes[i].base,
			Heap:       a["parlour_heap_bytes"] - b["parlour_heap_bytes"],
			Goroutines: a["parlour_goroutines"] - b["parlour_goroutines"],
			Tables:     a["parlour_cluster_owned_tables"] - b["parlour_cluster_owned_tables"],
			Parked:     a["parlour_tables_parked"] - b["parlour_tables_parked"],
		}
		r.Heap, r.Goroutines, r.Parked = r.Heap+d.Heap, r.Goroutines+d.Goroutines, r.Parked+d.Parked
		for _, m := range []struct {
			name string
			sum  *float64
		}{
			{"go_memstats_heap_inuse_bytes", &r.Spans},
			{"go_memstats_stack_inuse_bytes", &r.Stacks},
		} {
			av, aok := a[m.name]
			bv, bok := b[m.name]
			r.SpansKnown = r.SpansKnown && aok && bok
			*m.sum += av - bv
		}
		r.Nodes = append(r.Nodes, d)
	}
	r.Heap, r.Goroutines = r.Heap/float64(n), r.Goroutines/float64(n)
	r.Spans, r.Stacks = r.Spans/float64(n), r.Stacks/float64(n)
	return r, nil
}

// settledMetrics waits for the servers to be quiet, then reads each
// node's counters.
func (t *tester) settledMetrics(ctx context.Context, settle time.Duration) ([]map[string]float64, error) {
	if err := sleep(ctx, settle); err != nil {
		return nil, err
	}
	ms := make([]map[string]float64, len(t.nodes))
	for i := range t.nodes {
		m, err := t.metricsAt(ctx, i)
		if err != nil {
			return nil, fmt.Errorf("%s did not answer GET /metrics: %w", t.nodes[i].base, err)
		}
		ms[i] = m
	}
	return ms, nil
}

// openIdle opens n tables and plays each idleMoves moves, 16 at a time,
// and returns them.
func (t *tester) openIdle(ctx context.Context, n int) ([]*table, error) {
	work := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	var tables []*table
	for range 16 {
		wg.Go(func() {
			for range work {
				tb, err := t.newTable(ctx)
				if err == nil {
					err = t.playIdle(ctx, tb)
				}
				mu.Lock()
				if err != nil {
					first = cmp(first, err)
				} else {
					tables = append(tables, tb)
				}
				mu.Unlock()
			}
		})
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	return tables, first
}

// playIdle plays idleMoves moves at tb, each through its seat's node, on
// a connection of its own.
func (t *tester) playIdle(ctx context.Context, tb *table) error {
	conns := make([]*moveConn, len(t.nodes))
	defer func() {
		for _, c := range conns {
			if c != nil {
				c.close()
			}
		}
	}()
	for k := 0; k < idleMoves && !tb.over; k++ {
		i := tb.node[tb.turn]
		if conns[i] == nil {
			conns[i] = t.newConn(i)
		}
		if t.step(ctx, conns[i], tb) != accepted {
			tb.closeSeats()
			return fmt.Errorf("a move at %s was not accepted: %s", tb.id, t.refusal())
		}
	}
	if tb.over {
		tb.closeSeats()
	}
	return nil
}

// IdleCPU is what the servers spend while nothing happens: their CPU
// time read each second from /proc, with tables and sockets open and no
// moves.
type IdleCPU struct {
	Tables, Sockets int
	// Seconds is the CPU time the servers took in each second of the
	// window, in the order they came, as a fraction of one processor.
	// /proc counts in hundredths of a second, so each is a multiple of
	// 0.01 (give or take the second's own length).
	Seconds []float64
	// Mean is the servers' CPU over the whole window, a fraction of one
	// processor: finer than any one second.
	Mean        float64
	LoadAverage string      // the machine's, before the window ("": unknown)
	Machine     *MachineUse // nil where unknown
}

// Quantile returns the CPU a second below which fraction p of the
// window's seconds fell.
func (r *IdleCPU) Quantile(p float64) float64 {
	s := slices.Sorted(slices.Values(r.Seconds))
	if len(s) == 0 {
		return 0
	}
	return s[max(0, min(len(s)-1, int(math.Ceil(p*float64(len(s))))-1))] // nearest rank
}

func (r *IdleCPU) print(w io.Writer) {
	pct := func(f float64) string { return fmt.Sprintf("%.2f%%", 100*f) }
	fmt.Fprintf(w, "idle CPU over %d s, %d tables, %d sockets, no moves: median %s of a processor, p90 %s, p99 %s, max %s; mean %s",
		len(r.Seconds), r.Tables, r.Sockets, pct(r.Quantile(0.5)), pct(r.Quantile(0.9)), pct(r.Quantile(0.99)), pct(r.Quantile(1)), pct(r.Mean))
	if r.LoadAverage != "" {
		fmt.Fprintf(w, "; load average before %s", r.LoadAverage)
	}
	fmt.Fprintln(w)
	if r.Machine != nil {
		r.Machine.print(w)
	}
}

// idleCPU opens tables tables (each played idleMoves moves; none: the
// live tables prepared) and sockets spectator sockets spread over them,
// lets the servers settle, and reads the servers' CPU time each second
// for window.
func (t *tester) idleCPU(ctx context.Context, tables, sockets int, window time.Duration, pids []int) (*IdleCPU, error) {
	var ids []string
	if tables > 0 {
		tbs, err := t.openIdle(ctx, tables)
		if err != nil {
			return nil, fmt.Errorf("opening the idle tables: %w", err)
		}
		for _, tb := range tbs {
			ids = append(ids, tb.id)
		}
	} else {
		for len(ids) < t.live {
			tb := <-t.spare
			ids = append(ids, tb.id)
			defer func() { t.spare <- tb }()
		}
	}
	if sockets > 0 && len(ids) == 0 {
		return nil, errors.New("no tables to open the idle sockets onto")
	}
	socks := make([]*wsSeat, 0, sockets)
	defer func() {
		for _, s := range socks {
			s.close()
		}
	}()
	for i := range sockets {
		s, err := t.openSeat(ctx, i%len(t.nodes), ids[i%len(ids)], "")
		if err != nil {
			return nil, fmt.Errorf("after %d sockets: %w", i, err)
		}
		socks = append(socks, s)
	}
	// The connections that made the tables close, and the servers' last
	// writes and collections end, before the window opens.
	t.hc.CloseIdleConnections()
	if err := sleep(ctx, 5*time.Second); err != nil {
		return nil, err
	}
	r := &IdleCPU{Tables: len(ids), Sockets: sockets, LoadAverage: loadAverage()}
	m0, machineOK := sampleMachine()
	sum := func() (time.Duration, error) {
		each := cpuTimes(pids)
		if each == nil {
			return 0, fmt.Errorf("cannot read the CPU time of processes %v from /proc", pids)
		}
		var d time.Duration
		for _, c := range each {
			d += c
		}
		return d, nil
	}
	start := time.Now()
	last, err := sum()
	if err != nil {
		return nil, err
	}
	first, lastAt := last, start
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for n := int(window / time.Second); len(r.Seconds) < n; {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case now := <-tick.C:
			c, err := sum()
			if err != nil {
				return nil, err
			}
			r.Seconds = append(r.Seconds, (c-last).Seconds()/now.Sub(lastAt).Seconds())
			last, lastAt = c, now
		}
	}
	r.Mean = (last - first).Seconds() / lastAt.Sub(start).Seconds()
	if m1, ok := sampleMachine(); ok && machineOK {
		if u, ok := machineUse(m0, m1, append([]int{os.Getpid()}, pids...)...); ok {
			r.Machine = &u
		}
	}
	return r, nil
}
