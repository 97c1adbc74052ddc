package main

// What the load test reads of the machine, the processes and the servers
// (CPU times, the load average, /metrics), and how it reports a run.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// cpuTimes returns the CPU time each of pids has used, or nil when one
// cannot be read.
func cpuTimes(pids []int) []time.Duration {
	out := make([]time.Duration, len(pids))
	for i, pid := range pids {
		if out[i] = cpuTime(pid); out[i] < 0 {
			return nil
		}
	}
	return out
}

// printCPU prints the servers' and the tool's CPU per accepted move: the
// servers' in all and, with several, each one's.
func printCPU(w io.Writer, pids []int, s0, s1 []time.Duration, tool time.Duration, accepted int64) {
	per := func(d time.Duration) time.Duration { return d / time.Duration(accepted) }
	var all time.Duration
	each := make([]string, len(pids))
	for i := range pids {
		all += s1[i] - s0[i]
		each[i] = fmt.Sprintf("pid %d %v", pids[i], per(s1[i]-s0[i]))
	}
	if len(pids) == 1 {
		fmt.Fprintf(w, "  CPU per accepted move: server %v, load tool %v\n", per(all), per(tool))
		return
	}
	fmt.Fprintf(w, "  CPU per accepted move: servers %v in all (%s), load tool %v\n", per(all), strings.Join(each, ", "), per(tool))
}

// printNodeCPU prints, for each node of a cluster, its CPU per move it
// accepted as its table's owner: what a node costs a move at the rate it
// runs at, to set beside one server's at that rate. The pids are taken
// to be given in the order of the nodes' URLs.
func printNodeCPU(w io.Writer, pids []int, s0, s1 []time.Duration, a0, a1 []float64) {
	each := make([]string, len(pids))
	for i := range pids {
		n := a1[i] - a0[i]
		if n <= 0 {
			return
		}
		each[i] = fmt.Sprintf("pid %d %v over %.0f moves", pids[i], (s1[i]-s0[i])/time.Duration(n), n)
	}
	fmt.Fprintf(w, "  CPU per move each node accepted as its table's owner: %s\n", strings.Join(each, ", "))
}

// acceptedEach returns the moves each node has accepted as its tables'
// owner, from each node's counters, or nil when one does not say.
func acceptedEach(each []map[string]float64) []float64 {
	out := make([]float64, len(each))
	for i, m := range each {
		v, ok := m["parlour_moves_accepted_total"]
		if !ok {
			return nil
		}
		out[i] = v
	}
	return out
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
	return ticks(ut + st)
}

// loadAverage returns the machine's one-minute load average from /proc
// (Linux), or "" when it cannot be read.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return ""
	}
	return f[0]
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
	chat      *chatResult
	latencies []time.Duration
	samples   []ltSample // each move's due time and latency, for --timeline
	start     time.Time
}

// ltSample is one move's due time and acknowledgement latency.
type ltSample struct {
	due time.Time
	lat time.Duration
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
	fmt.Fprintf(w, "  moves the tool itself sent more than 1ms after they were due: %d\n", r.late)
	if r.chat != nil {
		r.chat.print(w)
	}
	verdict := "PASS"
	if q(0.99) > 10*time.Millisecond || r.refused > 0 || r.errors > 0 || r.skipped > 0 {
		verdict = "FAIL"
	}
	fmt.Fprintf(w, "  %s (every move accepted, p99 <= 10ms)\n", verdict)
}

// printTimeline prints, for each slice of the run, how many moves were
// due in it and their latencies: a tail that comes in bursts shows here.
func (r *ltResult) printTimeline(w io.Writer, slice time.Duration) {
	buckets := make([][]time.Duration, int(r.dur/slice)+1)
	for _, s := range r.samples {
		i := int(s.due.Sub(r.start) / slice)
		if i >= 0 && i < len(buckets) {
			buckets[i] = append(buckets[i], s.lat)
		}
	}
	for i, b := range buckets {
		if len(b) == 0 {
			continue
		}
		slices.Sort(b)
		q := func(p float64) time.Duration {
			return b[max(0, min(int(math.Ceil(p*float64(len(b))))-1, len(b)-1))].Round(10 * time.Microsecond)
		}
		fmt.Fprintf(w, "  %8v  moves %6d  p50 %-9v p99 %-9v max %v\n", time.Duration(i)*slice, len(b), q(0.5), q(0.99), q(1))
	}
}

// metrics reads the servers' counters from GET /metrics, each the sum
// over the nodes that answered (nil when none did).
func (lt *loadtest) metrics(ctx context.Context) map[string]float64 {
	return sumMetrics(lt.metricsEach(ctx))
}

// metricsEach reads each node's counters, in the order of the nodes (nil
// for one that did not answer).
func (lt *loadtest) metricsEach(ctx context.Context) []map[string]float64 {
	out := make([]map[string]float64, len(lt.nodes))
	for i := range lt.nodes {
		out[i] = lt.metricsAt(ctx, i)
	}
	return out
}

// sumMetrics sums the counters of the nodes that answered (nil when none
// did).
func sumMetrics(each []map[string]float64) map[string]float64 {
	var sum map[string]float64
	for _, m := range each {
		if m == nil {
			continue
		}
		if sum == nil {
			sum = map[string]float64{}
		}
		for k, v := range m {
			sum[k] += v
		}
	}
	return sum
}

// metricsAt reads node i's counters from GET /metrics (nil when it
// cannot).
func (lt *loadtest) metricsAt(ctx context.Context, i int) map[string]float64 {
	req, err := http.NewRequestWithContext(ctx, "GET", lt.nodes[i].base+"/metrics", nil)
	if err != nil {
		return nil
	}
	res, err := lt.hc.Do(req)
	if err != nil {
		return nil
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		return nil
	}
	out := map[string]float64{}
	for _, line := range strings.Split(string(b), "\n") {
		name, val, ok := strings.Cut(line, " ")
		if !ok || strings.HasPrefix(name, "#") {
			continue
		}
		if v, err := strconv.ParseFloat(val, 64); err == nil {
			out[name] = v
		}
	}
	return out
}
