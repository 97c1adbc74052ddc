package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
)

// idleMoves is how far into its game each table of --idle-tables is
// played, as BenchmarkIdleTableHeap (server/bench_test.go) plays its own.
const idleMoves = 10

// idleTables opens n more tables through the nodes, plays each idleMoves
// moves, and reports what the servers' heap and goroutines grew by per
// table once they are quiet: summed over the nodes, and each node's.
// HeapAlloc counts garbage not yet collected, so the servers should run
// with a low --gogc for the figure to be mostly the tables' live heap.
func (lt *loadtest) idleTables(ctx context.Context, n int) error {
	settle := func() []map[string]float64 {
		time.Sleep(3 * time.Second)
		ms := make([]map[string]float64, len(lt.nodes))
		for i := range lt.nodes {
			ms[i] = lt.metricsAt(ctx, i)
		}
		return ms
	}
	before := settle()
	tables := make([]*ltTable, n)
	work := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	for range 16 {
		wg.Go(func() {
			for i := range work {
				t, err := lt.newTable(ctx)
				if err == nil {
					err = lt.playIdle(t)
				}
				if err != nil {
					mu.Lock()
					first = cmp(first, err)
					mu.Unlock()
					continue
				}
				tables[i] = t
			}
		})
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	if first != nil {
		return fmt.Errorf("opening the idle tables: %w", first)
	}
	after := settle()
	var heap, gr float64
	each := make([]string, len(lt.nodes))
	for i := range lt.nodes {
		if before[i] == nil || after[i] == nil {
			return fmt.Errorf("%s did not answer GET /metrics", lt.nodes[i].base)
		}
		h := after[i]["parlour_heap_bytes"] - before[i]["parlour_heap_bytes"]
		g := after[i]["parlour_goroutines"] - before[i]["parlour_goroutines"]
		o := after[i]["parlour_cluster_owned_tables"] - before[i]["parlour_cluster_owned_tables"]
		heap, gr = heap+h, gr+g
		each[i] = fmt.Sprintf("%s: heap %+.0f MB, %+.0f goroutines, %+.0f tables owned", lt.nodes[i].base, h/1e6, g, o)
	}
	fmt.Fprintf(lt.out, "%d idle tables (%d moves in) over %d node(s): heap %+.0f bytes a table, %+.2f goroutines a table\n",
		n, idleMoves, len(lt.nodes), heap/float64(n), gr/float64(n))
	if len(lt.nodes) > 1 {
		fmt.Fprintf(lt.out, "  %s\n", strings.Join(each, "\n  "))
	}
	if l := loadAverage(); l != "" {
		fmt.Fprintf(lt.out, "  load average %s\n", l)
	}
	return nil
}

// playIdle plays idleMoves moves at t, each through its seat's node, on
// a connection of its own.
func (lt *loadtest) playIdle(t *ltTable) error {
	conns := make([]*moveConn, len(lt.nodes))
	defer func() {
		for _, c := range conns {
			if c != nil {
				c.close()
			}
		}
	}()
	for k := 0; k < idleMoves && !t.over; k++ {
		i := t.node[t.turn]
		if conns[i] == nil {
			conns[i] = &moveConn{addr: lt.nodes[i].addr, host: lt.nodes[i].host}
		}
		if lt.step(conns[i], t) != accepted {
			t.closeSeats()
			msg, _ := lt.firstRefusal.Load().(string)
			return fmt.Errorf("a move at %s was not accepted: %s", t.id, msg)
		}
	}
	if t.over {
		t.closeSeats()
	}
	return nil
}
