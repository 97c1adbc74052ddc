package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"parlour/games/quizl"
	"parlour/lexicon"
)

// runLoadtest drives a running server over loopback with scripted Quizl
// players: an open-loop schedule of moves at a fixed aggregate rate over
// many live tables, measuring each move's acknowledgement from the time it
// was due, then checking that every acknowledged move is in its table's
// record.
func runLoadtest(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	base := fs.String("url", "http://localhost:8080", "the server to drive (loopback only)")
	tables := fs.Int("tables", 1000, "live tables to keep playing")
	rates := fs.String("rate", "5000", "aggregate moves per second; a comma-separated list runs each in turn")
	dur := fs.Duration("duration", 20*time.Second, "how long to run each rate")
	identities := fs.Int("identities", 200, "guest identities the scripted players share")
	conns := fs.Int("conns", 64, "HTTP connections to keep open")
	serverPID := fs.Int("server-pid", 0, "the server's process id, to report the CPU it spends per move (Linux)")
	verify := fs.Bool("verify", true, "check every acknowledged move against the records afterwards")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: parlour loadtest [--url URL] [--tables N] [--rate R[,R...]] [--duration D]")
		fmt.Fprintln(stderr, "\nDrives a running parlour serve with scripted players (see docs/performance.md).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	u, err := url.Parse(*base)
	if err != nil || !isLoopback(u.Hostname()) {
		fmt.Fprintf(stderr, "parlour loadtest: --url must name a loopback address (localhost, 127.x.x.x, [::1]), not %q\n", *base)
		return 2
	}
	var rs []float64
	for _, r := range strings.Split(*rates, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(r), 64)
		if err != nil || v <= 0 {
			fmt.Fprintf(stderr, "parlour loadtest: bad --rate %q\n", r)
			return 2
		}
		rs = append(rs, v)
	}
	if *tables < 1 || *identities < 2 || *dur <= 0 {
		fmt.Fprintln(stderr, "parlour loadtest: --tables must be 1 or more, --identities 2 or more, --duration positive")
		return 2
	}
	lt := &loadtest{
		base: strings.TrimRight(*base, "/"),
		hc: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
			MaxIdleConns: *conns, MaxIdleConnsPerHost: *conns, MaxConnsPerHost: *conns,
		}},
		out: stdout,
	}
	if err := lt.prepare(ctx, *identities, *tables); err != nil {
		fmt.Fprintf(stderr, "parlour loadtest: %v\n", err)
		return 1
	}
	failed := false
	for _, r := range rs {
		s0, l0 := cpuTime(*serverPID), cpuTime(os.Getpid())
		res, err := lt.run(ctx, r, *dur)
		if err != nil {
			fmt.Fprintf(stderr, "parlour loadtest: %v\n", err)
			return 1
		}
		s1, l1 := cpuTime(*serverPID), cpuTime(os.Getpid())
		res.print(stdout)
		if res.accepted > 0 && *serverPID > 0 && s0 >= 0 && s1 >= 0 {
			fmt.Fprintf(stdout, "  CPU per accepted move: server %v, load tool %v\n",
				(s1-s0)/time.Duration(res.accepted), (l1-l0)/time.Duration(res.accepted))
		}
		failed = failed || res.refused > 0 || res.errors > 0
	}
	if *verify {
		n, err := lt.verify(ctx)
		if err != nil {
			fmt.Fprintf(stderr, "parlour loadtest: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "durability: all %d acknowledged moves found in their tables' records\n", n)
	}
	if failed {
		return 1
	}
	return 0
}

// cpuTime returns the user and system CPU time process pid has used, read
// from /proc (Linux), or -1 when it cannot be read.
func cpuTime(pid int) time.Duration {
	if pid <= 0 {
		return -1
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return -1
	}
	// The command name, in parentheses, may hold spaces: count fields
	// after its closing parenthesis (utime and stime are fields 14 and 15).
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return -1
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return -1
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return -1
	}
	const ticksPerSecond = 100 // USER_HZ on Linux
	return time.Duration(ut+st) * time.Second / ticksPerSecond
}

func isLoopback(host string) bool {
	return host == "localhost" || strings.HasPrefix(host, "127.") || host == "::1"
}

type loadtest struct {
	base   string
	hc     *http.Client
	out    io.Writer
	tokens []string          // identity tokens
	grids  []json.RawMessage // setups the scripted players hide
	live   int               // tables played at once

	mu    sync.Mutex
	all   []*ltTable // every table played, for the durability check
	spare chan *ltTable
	made  atomic.Int64
}

// ltTable is one Quizl table of two scripted players, who call the
// squares of the grid in order.
type ltTable struct {
	id     string
	seats  [2]string // seat tokens
	turn   int
	calls  [2]int
	acked  []string // "seat:move" in order
	over   bool
	errors int
}

func (lt *loadtest) post(ctx context.Context, path, token string, body, out any) (int, error) {
	b, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, "POST", lt.base+path, bytes.NewReader(b))
	if err != nil {
		return 0, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return lt.do(req, out)
}

func (lt *loadtest) get(ctx context.Context, path, token string, out any) (int, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", lt.base+path, nil)
	if err != nil {
		return 0, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return lt.do(req, out)
}

func (lt *loadtest) do(req *http.Request, out any) (int, error) {
	res, err := lt.hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return res.StatusCode, err
	}
	if res.StatusCode >= 300 {
		return res.StatusCode, fmt.Errorf("%s %s: %d %s", req.Method, req.URL.Path, res.StatusCode, bytes.TrimSpace(b))
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return res.StatusCode, err
		}
	}
	return res.StatusCode, nil
}

// newTable opens a Quizl table for two of the identities, seated with
// random grids, ready for its first call.
func (lt *loadtest) newTable(ctx context.Context) (*ltTable, error) {
	n := lt.made.Add(1)
	a := lt.tokens[(2*n)%int64(len(lt.tokens))]
	b := lt.tokens[(2*n+1)%int64(len(lt.tokens))]
	var c, j struct {
		Table string `json:"table"`
		Token string `json:"token"`
	}
	if _, err := lt.post(ctx, "/api/v1/tables", a, map[string]any{"game": "quizl", "seats": []string{"me", "open"}, "private": true}, &c); err != nil {
		return nil, err
	}
	if _, err := lt.post(ctx, "/api/v1/tables/"+c.Table+"/join", b, map[string]any{}, &j); err != nil {
		return nil, err
	}
	t := &ltTable{id: c.Table, seats: [2]string{c.Token, j.Token}}
	for i, tok := range t.seats {
		g := lt.grids[(2*int(n)+i)%len(lt.grids)]
		if _, err := lt.post(ctx, "/api/v1/tables/"+t.id+"/setup", tok, map[string]any{"setup": g}, nil); err != nil {
			return nil, err
		}
	}
	lt.mu.Lock()
	lt.all = append(lt.all, t)
	lt.mu.Unlock()
	return t, nil
}

// prepare makes the identities, the live tables, and a pool of spares
// that replace tables whose games end.
func (lt *loadtest) prepare(ctx context.Context, identities, tables int) error {
	start := time.Now()
	// The scripted players bring their own grids, made once here, so that
	// the server's time goes to moves rather than to making grids.
	lex, err := lexicon.Load(lexicon.DefaultName)
	if err != nil {
		return err
	}
	for i := uint64(1); i <= 32; i++ {
		g, err := quizl.RandomSetup(lex, i)
		if err != nil {
			return fmt.Errorf("making grids: %w", err)
		}
		lt.grids = append(lt.grids, g.Setup())
	}
	for i := 0; i < identities; i++ {
		var id struct {
			Token string `json:"token"`
		}
		for {
			st, err := lt.post(ctx, "/api/v1/identity", "", map[string]any{"name": fmt.Sprintf("Load %d", i)}, &id)
			if st == http.StatusTooManyRequests {
				time.Sleep(50 * time.Millisecond)
				continue
			}
			if err != nil {
				return fmt.Errorf("making identities: %w", err)
			}
			break
		}
		lt.tokens = append(lt.tokens, id.Token)
	}
	lt.live = tables
	lt.spare = make(chan *ltTable, 2*tables)
	if err := lt.fill(ctx, tables+tables/2); err != nil {
		return err
	}
	fmt.Fprintf(lt.out, "prepared %d identities and %d tables in %v\n", identities, len(lt.spare), time.Since(start).Round(time.Millisecond))
	return nil
}

// fill adds n spare tables, 16 at a time.
func (lt *loadtest) fill(ctx context.Context, n int) error {
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
				t, err := lt.newTable(ctx)
				if err != nil {
					mu.Lock()
					first = cmp(first, err)
					mu.Unlock()
					return
				}
				select {
				case lt.spare <- t:
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

type ltResult struct {
	rate      float64
	dur       time.Duration
	sent      int64
	accepted  int64
	refused   int64
	errors    int64
	late      int64 // moves sent more than a millisecond after they were due
	skipped   int64 // slots with no table ready to move
	latencies []time.Duration
}

func (r *ltResult) print(w io.Writer) {
	slices.Sort(r.latencies)
	q := func(p float64) time.Duration {
		if len(r.latencies) == 0 {
			return 0
		}
		i := int(math.Ceil(p*float64(len(r.latencies)))) - 1
		return r.latencies[max(0, min(i, len(r.latencies)-1))]
	}
	fmt.Fprintf(w, "rate %.0f/s for %v: sent %d, accepted %d (%.0f/s), refused %d, errors %d, slots skipped for want of a table %d\n",
		r.rate, r.dur, r.sent, r.accepted, float64(r.accepted)/r.dur.Seconds(), r.refused, r.errors, r.skipped)
	fmt.Fprintf(w, "  ack latency from schedule: p50 %v  p90 %v  p99 %v  p99.9 %v  max %v\n",
		q(0.50).Round(time.Microsecond), q(0.90).Round(time.Microsecond), q(0.99).Round(time.Microsecond), q(0.999).Round(time.Microsecond), q(1).Round(time.Microsecond))
	verdict := "PASS"
	if q(0.99) > 10*time.Millisecond || r.refused > 0 || r.errors > 0 || r.skipped > 0 {
		verdict = "FAIL"
	}
	fmt.Fprintf(w, "  %s (every move accepted, p99 <= 10ms)\n", verdict)
}

// run plays for dur at rate moves a second across the live tables. Each
// table's moves are due on a fixed schedule (open loop): a move's latency
// counts from when it was due, so time spent queueing in the tool counts
// too.
func (lt *loadtest) run(ctx context.Context, rate float64, dur time.Duration) (*ltResult, error) {
	n := lt.live
	tables := make([]*ltTable, 0, n)
	for len(tables) < n {
		select {
		case t := <-lt.spare:
			tables = append(tables, t)
		default:
			if err := lt.fill(ctx, n-len(tables)); err != nil {
				return nil, err
			}
		}
	}
	// Warm up: every table's player opens its connection before the clock
	// starts.
	var warm sync.WaitGroup
	for _, t := range tables {
		warm.Add(1)
		go func() {
			defer warm.Done()
			lt.get(ctx, "/api/v1/tables/"+t.id, t.seats[t.turn], nil)
		}()
	}
	warm.Wait()
	res := &ltResult{rate: rate, dur: dur}
	interval := time.Duration(float64(n) / rate * float64(time.Second))
	start := time.Now().Add(100 * time.Millisecond)
	end := start.Add(dur)
	var mu sync.Mutex
	var wg sync.WaitGroup
	refill := make(chan struct{}, n)
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for w := 0; w < 16; w++ {
		go func() { // replace finished tables in the background
			for range refill {
				if t, err := lt.newTable(rctx); err == nil {
					select {
					case lt.spare <- t:
					default:
					}
				}
			}
		}()
	}
	for i, t := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var lat []time.Duration
			due := start.Add(time.Duration(i) * interval / time.Duration(n))
			for ; due.Before(end); due = due.Add(interval) {
				if d := time.Until(due); d > 0 {
					time.Sleep(d)
				} else if -d > time.Millisecond {
					atomic.AddInt64(&res.late, 1)
				}
				if t.over {
					select {
					case t = <-lt.spare:
						refill <- struct{}{}
					default:
						atomic.AddInt64(&res.skipped, 1)
						continue // no spare ready: this slot is skipped
					}
				}
				seat := t.turn
				sq := t.calls[seat]
				mv := fmt.Sprintf("%d%d", 5+sq/5, sq%5)
				var mr struct {
					Status string `json:"status"`
					ToMove []int  `json:"to_move"`
				}
				atomic.AddInt64(&res.sent, 1)
				st, err := lt.post(rctx, "/api/v1/tables/"+t.id+"/moves", t.seats[seat], map[string]any{"move": mv}, &mr)
				lat = append(lat, time.Since(due))
				switch {
				case err == nil:
					atomic.AddInt64(&res.accepted, 1)
					t.acked = append(t.acked, fmt.Sprintf("%d:%s", seat, mv))
					t.calls[seat]++
					if mr.Status == "finished" || len(mr.ToMove) == 0 {
						t.over = true
					} else {
						t.turn = mr.ToMove[0]
					}
				case st >= 400 && st < 500:
					atomic.AddInt64(&res.refused, 1)
					t.over = true
				default:
					atomic.AddInt64(&res.errors, 1)
					t.errors++
				}
			}
			mu.Lock()
			res.latencies = append(res.latencies, lat...)
			mu.Unlock()
			if !t.over {
				lt.spare <- t
			}
		}()
	}
	wg.Wait()
	close(refill)
	return res, nil
}

// verify reads back every table that was played and checks that its
// record holds every acknowledged move, in order.
func (lt *loadtest) verify(ctx context.Context) (int, error) {
	lt.mu.Lock()
	all := slices.Clone(lt.all)
	lt.mu.Unlock()
	total := 0
	for _, t := range all {
		if len(t.acked) == 0 {
			continue
		}
		var rec struct {
			Players []string `json:"players"`
			Moves   []struct {
				By   string `json:"by"`
				Move string `json:"move"`
			} `json:"moves"`
		}
		if _, err := lt.get(ctx, "/api/v1/tables/"+t.id+"/record", t.seats[0], &rec); err != nil {
			return total, fmt.Errorf("reading the record of %s: %w", t.id, err)
		}
		if len(rec.Moves) < len(t.acked) {
			return total, fmt.Errorf("table %s: %d moves acknowledged, %d in the record", t.id, len(t.acked), len(rec.Moves))
		}
		for i, a := range t.acked {
			seat, mv, _ := strings.Cut(a, ":")
			s, _ := strconv.Atoi(seat)
			if rec.Moves[i].Move != mv || rec.Moves[i].By != rec.Players[s] {
				return total, fmt.Errorf("table %s move %d: acknowledged %s, record has %+v", t.id, i+1, a, rec.Moves[i])
			}
		}
		total += len(t.acked)
	}
	return total, nil
}
