package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"time"
)

// machineTimes is the CPU time all of the machine's processors have spent
// since boot, from the first line of /proc/stat (Linux).
type machineTimes struct {
	busy  time.Duration // running anything: user, nice, system, irq, softirq
	steal time.Duration // taken by the host of a virtual machine
}

// readMachineTimes reads /proc/stat; ok is false where it cannot be read
// (not Linux).
func readMachineTimes() (machineTimes, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return machineTimes{}, false
	}
	t, err := parseMachineTimes(b)
	return t, err == nil
}

// parseMachineTimes reads the machine's line ("cpu  user nice system
// idle iowait irq softirq steal ...", in USER_HZ ticks) of /proc/stat.
// The guest columns are not added: the kernel counts them in user and
// nice already.
func parseMachineTimes(b []byte) (machineTimes, error) {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	f := bytes.Fields(line)
	if len(f) < 9 || string(f[0]) != "cpu" {
		return machineTimes{}, errors.New("/proc/stat: no machine line (cpu, then 8 or more counts) first")
	}
	var n [8]int64
	for i := range n {
		v, err := strconv.ParseInt(string(f[i+1]), 10, 64)
		if err != nil || v < 0 {
			return machineTimes{}, fmt.Errorf("/proc/stat: count %d of the machine line is %q", i+1, f[i+1])
		}
		n[i] = v
	}
	user, nice, system, irq, softirq, steal := n[0], n[1], n[2], n[5], n[6], n[7]
	return machineTimes{busy: ticks(user + nice + system + irq + softirq), steal: ticks(steal)}, nil
}

// ticks converts a count of /proc's clock ticks (USER_HZ, 100 a second
// on Linux whatever the kernel's own tick rate) to a duration.
func ticks(n int64) time.Duration { return time.Duration(n) * time.Second / 100 }

// machineSample is the machine's CPU times and each process's at one
// moment.
type machineSample struct {
	at    time.Time
	times machineTimes
	procs map[int]time.Duration // by pid: user and system CPU time
}

// sampleMachine reads the machine's CPU times and those of every process
// it can see; ok is false where /proc/stat cannot be read (not Linux).
func sampleMachine() (machineSample, bool) {
	t, ok := readMachineTimes()
	if !ok {
		return machineSample{}, false
	}
	m := machineSample{at: time.Now(), times: t, procs: map[int]time.Duration{}}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return machineSample{}, false
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue // not a process
		}
		if d := cpuTime(pid); d >= 0 { // else gone meanwhile
			m.procs[pid] = d
		}
	}
	return m, true
}

// printMachine says how busy the machine's processors were from a to b,
// how much more the host of a virtual machine took from them (steal),
// and how much of it went to processes other than ours, whose pids are
// given (kernel threads count among them). A measurement taken beside
// other work is slower for both doors, but not by the same amount, and
// the CPU time a process is counted holds what the host took while it
// ran: each run says how quiet the machine was. A process that ended within the span is not counted.
func printMachine(w io.Writer, a, b machineSample, ours ...int) {
	wall := b.at.Sub(a.at)
	if wall <= 0 {
		return
	}
	procs := func(d time.Duration) float64 { return d.Seconds() / wall.Seconds() }
	var others time.Duration
	for pid, d := range b.procs {
		if !slices.Contains(ours, pid) {
			others += d - a.procs[pid] // a process started meanwhile: all of it
		}
	}
	fmt.Fprintf(w, "  machine: %.2f of %d processors busy, %.2f more taken by the host (steal); other processes %.2f\n",
		procs(b.times.busy-a.times.busy), runtime.NumCPU(), procs(b.times.steal-a.times.steal), procs(others))
}
