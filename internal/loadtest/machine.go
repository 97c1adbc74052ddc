package loadtest

// What the load test reads of the machine and the processes, from /proc
// (Linux): CPU times, the load average, resident sets.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
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

// MachineUse is how busy the machine's processors were over a run.
type MachineUse struct {
	CPUs   int     // the machine's processors
	Busy   float64 // processors busy running anything, on average
	Steal  float64 // processors more taken by the host of a virtual machine
	Others float64 // processors busy with processes other than ours
}

// machineUse says how busy the machine's processors were from a to b,
// how much more the host of a virtual machine took from them (steal),
// and how much of it went to processes other than ours, whose pids are
// given (kernel threads count among them). A measurement taken beside
// other work is slower for both doors, but not by the same amount, and
// the CPU time a process is counted holds what the host took while it
// ran: each run says how quiet the machine was. A process that ended
// within the span is not counted. ok is false for a span of no time.
func machineUse(a, b machineSample, ours ...int) (_ MachineUse, ok bool) {
	wall := b.at.Sub(a.at)
	if wall <= 0 {
		return MachineUse{}, false
	}
	procs := func(d time.Duration) float64 { return d.Seconds() / wall.Seconds() }
	var others time.Duration
	for pid, d := range b.procs {
		if !slices.Contains(ours, pid) {
			others += d - a.procs[pid] // a process started meanwhile: all of it
		}
	}
	return MachineUse{
		CPUs:   runtime.NumCPU(),
		Busy:   procs(b.times.busy - a.times.busy),
		Steal:  procs(b.times.steal - a.times.steal),
		Others: procs(others),
	}, true
}

func (m *MachineUse) print(w io.Writer) {
	fmt.Fprintf(w, "  machine: %.2f of %d processors busy, %.2f more taken by the host (steal); other processes %.2f\n",
		m.Busy, m.CPUs, m.Steal, m.Others)
}

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

// residentSets returns the sum of the resident sets of pids, or -1 when
// there are none or one cannot be read.
func residentSets(pids []int) float64 {
	if len(pids) == 0 {
		return -1
	}
	sum := 0.0
	for _, pid := range pids {
		r := residentSet(pid)
		if r < 0 {
			return -1
		}
		sum += r
	}
	return sum
}

// residentSet returns process pid's resident set in bytes, from /proc
// (Linux), or -1.
func residentSet(pid int) float64 {
	if pid <= 0 {
		return -1
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			if err != nil {
				return -1
			}
			return kb * 1024
		}
	}
	return -1
}
