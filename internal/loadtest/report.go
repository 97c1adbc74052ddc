package loadtest

// What a load test reports, and how it prints.

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"
)

// Report is what a load test found: its preparation, then either each
// rate's run with the durability check and the ratings, or the idle
// sockets', idle tables' or idle CPU's figures.
type Report struct {
	Prepared    *Prepared
	Runs        []*RunReport
	IdleSockets *IdleSockets
	IdleTables  *IdleTables
	IdleCPU     *IdleCPU
	Durable     *Durability // nil: not checked
	Ratings     *Ratings    // nil: the tables were not rated
}

// Print writes the report as the command prints it.
func (r *Report) Print(w io.Writer) {
	for _, p := range r.parts() {
		p.print(w)
	}
}

// parts returns the parts of the report there are, in order.
func (r *Report) parts() []part {
	var ps []part
	if r.Prepared != nil {
		ps = append(ps, r.Prepared)
	}
	if r.IdleSockets != nil {
		ps = append(ps, r.IdleSockets)
	}
	if r.IdleTables != nil {
		ps = append(ps, r.IdleTables)
	}
	if r.IdleCPU != nil {
		ps = append(ps, r.IdleCPU)
	}
	for _, run := range r.Runs {
		ps = append(ps, run)
	}
	if r.Durable != nil {
		ps = append(ps, r.Durable)
	}
	if r.Ratings != nil {
		ps = append(ps, r.Ratings)
	}
	return ps
}

// Failed reports whether a move of any run was refused or failed.
func (r *Report) Failed() bool {
	for _, run := range r.Runs {
		if run.Refused > 0 || run.Errors > 0 {
			return true
		}
	}
	return false
}

// Prepared is what was made before the runs.
type Prepared struct {
	Identities int
	Tables     int // live and spare
	Took       time.Duration
}

func (p *Prepared) print(w io.Writer) {
	fmt.Fprintf(w, "prepared %d identities and %d tables in %v\n", p.Identities, p.Tables, p.Took.Round(time.Millisecond))
}

// Durability is the check of the records after the runs.
type Durability struct {
	Moves int // acknowledged moves, all found in their tables' records
}

func (d *Durability) print(w io.Writer) {
	fmt.Fprintf(w, "durability: all %d acknowledged moves found in their tables' records\n", d.Moves)
}

// RunReport is one rate's run.
type RunReport struct {
	Rate     float64
	Duration time.Duration
	Sent     int64
	Accepted int64
	Refused  int64
	Errors   int64
	Late     int64 // moves sent more than a millisecond after they were due
	Skipped  int64 // slots with no table ready to move
	// Latencies are the moves' acknowledgement latencies from when they
	// were due, in increasing order.
	Latencies []time.Duration
	Chat      *ChatReport // nil: no chat
	// Timeline, if positive, is the slice of the run that the report
	// gives the latencies of, each in turn.
	Timeline time.Duration
	// LoadBefore and LoadAfter are the machine's load averages ("":
	// unknown).
	LoadBefore, LoadAfter string
	Machine               *MachineUse // nil where unknown (not Linux)
	Store                 *StoreUse   // nil: no commits counted
	Sockets               *SocketUse  // over TransportWS
	Cluster               *ClusterUse // nil: not a cluster
	CPU                   *CPUUse     // nil: no server pids given
	// FirstRefusal is the first answer to a move that was not an
	// acceptance, in this run or one before ("": none).
	FirstRefusal string

	samples []sample // each move's due time and latency, for the timeline
	start   time.Time
}

// sample is one move's due time and acknowledgement latency.
type sample struct {
	due time.Time
	lat time.Duration
}

// Quantile returns the latency below which fraction p of the moves were
// acknowledged (0 with none).
func (r *RunReport) Quantile(p float64) time.Duration {
	return quantile(r.Latencies, p)
}

// quantile returns the p quantile of sorted.
func quantile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// Pass reports whether every move was accepted with a p99 of 10ms or
// less, every slot having had a table to move.
func (r *RunReport) Pass() bool {
	return r.Quantile(0.99) <= 10*time.Millisecond && r.Refused == 0 && r.Errors == 0 && r.Skipped == 0
}

func (r *RunReport) print(w io.Writer) {
	q := func(p float64) time.Duration { return r.Quantile(p).Round(time.Microsecond) }
	fmt.Fprintf(w, "rate %.0f/s for %v: sent %d, accepted %d (%.0f/s), refused %d, errors %d, slots skipped for want of a table %d\n",
		r.Rate, r.Duration, r.Sent, r.Accepted, float64(r.Accepted)/r.Duration.Seconds(), r.Refused, r.Errors, r.Skipped)
	fmt.Fprintf(w, "  ack latency from schedule: p50 %v  p90 %v  p99 %v  p99.9 %v  max %v\n", q(0.50), q(0.90), q(0.99), q(0.999), q(1))
	fmt.Fprintf(w, "  moves the tool itself sent more than 1ms after they were due: %d\n", r.Late)
	if r.Chat != nil {
		r.Chat.print(w)
	}
	verdict := "PASS"
	if !r.Pass() {
		verdict = "FAIL"
	}
	fmt.Fprintf(w, "  %s (every move accepted, p99 <= 10ms)\n", verdict)
	if r.Timeline > 0 {
		r.printTimeline(w, r.Timeline)
	}
	if r.LoadBefore != "" {
		fmt.Fprintf(w, "  load average before %s, after %s\n", r.LoadBefore, r.LoadAfter)
	}
	r.printUse(w)
	if r.FirstRefusal != "" {
		fmt.Fprintf(w, "  first answer that was not an acceptance: %s\n", r.FirstRefusal)
	}
}

// printUse prints what the machine, the store, the sockets, the cluster
// and the processes spent on the run, as far as each is known.
func (r *RunReport) printUse(w io.Writer) {
	if r.Machine != nil {
		r.Machine.print(w)
	}
	if s := r.Store; s != nil {
		fmt.Fprintf(w, "  store: %.0f commits holding %.0f writes (%.1f a commit)\n", s.Commits, s.Writes, s.Writes/s.Commits)
	}
	if s := r.Sockets; s != nil && r.Accepted > 0 {
		fmt.Fprintf(w, "  updates pushed to the seats' sockets: %d (%.2f a move)\n", s.Pushed, float64(s.Pushed)/float64(r.Accepted))
		fmt.Fprintf(w, "  sockets opened: %d; moved on to the next table: %d\n", s.Opened, s.MovedOn)
	}
	if c := r.Cluster; c != nil && r.Accepted > 0 {
		fmt.Fprintf(w, "  cluster: %.0f requests forwarded to their table's owner (%.2f a move), %.0f tables taken over, %.0f handed to the node their requests came from\n",
			c.Forwarded, c.Forwarded/float64(r.Accepted), c.Takeovers, c.Handed)
	}
	if c := r.CPU; c != nil && r.Accepted > 0 {
		c.print(w, r.Accepted)
		if len(c.NodeAccepted) > 0 {
			printNodeCPU(w, c.PIDs, c.Servers, c.NodeAccepted)
		}
	}
}

// printTimeline prints, for each slice of the run, how many moves were
// due in it and their latencies: a tail that comes in bursts shows here.
func (r *RunReport) printTimeline(w io.Writer, slice time.Duration) {
	buckets := make([][]time.Duration, int(r.Duration/slice)+1)
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
		q := func(p float64) time.Duration { return quantile(b, p).Round(10 * time.Microsecond) }
		fmt.Fprintf(w, "  %8v  moves %6d  p50 %-9v p99 %-9v max %v\n", time.Duration(i)*slice, len(b), q(0.5), q(0.99), q(1))
	}
}

// StoreUse is what the servers' stores committed in a run.
type StoreUse struct {
	Commits, Writes float64
}

// SocketUse is what the seats' sockets carried in a run.
type SocketUse struct {
	Pushed  int64 // updates pushed to the seats
	Opened  int64 // sockets opened
	MovedOn int64 // sockets moved on to the next table
}

// ClusterUse is what the nodes of a cluster did among themselves in a
// run.
type ClusterUse struct {
	Forwarded float64 // requests forwarded to their table's owner
	Takeovers float64 // tables taken over from an owner that stopped
	Handed    float64 // tables handed to the node their requests came from
}

// CPUUse is the CPU the servers and the tool spent in a run.
type CPUUse struct {
	PIDs    []int
	Servers []time.Duration // each server's, in the order of PIDs
	Tool    time.Duration
	// NodeAccepted, with several servers, is the moves each accepted as
	// its table's owner (nil when one did not say).
	NodeAccepted []float64
}

// print prints the servers' and the tool's CPU per accepted move: the
// servers' in all and, with several, each one's.
func (c *CPUUse) print(w io.Writer, accepted int64) {
	per := func(d time.Duration) time.Duration { return d / time.Duration(accepted) }
	var all time.Duration
	each := make([]string, len(c.PIDs))
	for i := range c.PIDs {
		all += c.Servers[i]
		each[i] = fmt.Sprintf("pid %d %v", c.PIDs[i], per(c.Servers[i]))
	}
	if len(c.PIDs) == 1 {
		fmt.Fprintf(w, "  CPU per accepted move: server %v, load tool %v\n", per(all), per(c.Tool))
		return
	}
	fmt.Fprintf(w, "  CPU per accepted move: servers %v in all (%s), load tool %v\n", per(all), strings.Join(each, ", "), per(c.Tool))
}

// printNodeCPU prints, for each node of a cluster, its CPU per move it
// accepted as its table's owner: what a node costs a move at the rate it
// runs at, to set beside one server's at that rate. The pids are taken
// to be given in the order of the nodes' URLs. Nothing is printed when a
// node accepted none.
func printNodeCPU(w io.Writer, pids []int, cpu []time.Duration, accepted []float64) {
	each := make([]string, len(pids))
	for i := range pids {
		n := accepted[i]
		if n <= 0 {
			return
		}
		each[i] = fmt.Sprintf("pid %d %v over %.0f moves", pids[i], cpu[i]/time.Duration(n), n)
	}
	fmt.Fprintf(w, "  CPU per move each node accepted as its table's owner: %s\n", strings.Join(each, ", "))
}

// Ratings is what the rated games did to the scripted accounts.
type Ratings struct {
	Games    int // rated games finished
	Accounts int
}

func (r *Ratings) print(w io.Writer) {
	fmt.Fprintf(w, "ratings: %d rated games finished, across %d accounts\n", r.Games, r.Accounts)
}
