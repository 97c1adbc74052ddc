package procs

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// cpus holds a process's threads to one CPU and lets them go again.
type cpus struct {
	all unix.CPUSet // the CPUs the process was allowed when it started
}

// newCPUs returns what holds the process to one CPU, or nil if it may
// run on one CPU only already or its CPUs cannot be read.
func newCPUs() *cpus {
	var c cpus
	if err := unix.SchedGetaffinity(0, &c.all); err != nil || c.all.Count() < 2 {
		return nil
	}
	return &c
}

// hold holds every thread of the process to the CPU the calling thread
// runs on (one: true), or lets them onto every CPU the process was
// allowed (one: false).
func (c *cpus) hold(one bool) error {
	set := c.all
	if one {
		cpu, err := current()
		if err != nil {
			return err
		}
		if !c.all.IsSet(cpu) {
			return fmt.Errorf("running on CPU %d, which the process was not allowed", cpu)
		}
		set.Zero()
		set.Set(cpu)
	}
	return setThreads(&set)
}

// current returns the CPU the calling thread runs on.
func current() (int, error) {
	var cpu uint32
	if _, _, errno := unix.RawSyscall(unix.SYS_GETCPU, uintptr(unsafe.Pointer(&cpu)), 0, 0); errno != 0 {
		return 0, fmt.Errorf("getcpu: %w", errno)
	}
	return int(cpu), nil
}

// setThreads sets the CPUs of every thread of the process. Linux sets
// them a thread at a time, and a thread started meanwhile takes those
// of the thread that started it, so it goes over the list of threads
// until a pass finds none it has not set.
func setThreads(set *unix.CPUSet) error {
	done := make(map[int]bool)
	for range 10 {
		tids, err := threads()
		if err != nil {
			return err
		}
		fresh := false
		for _, tid := range tids {
			if done[tid] {
				continue
			}
			done[tid] = true
			fresh = true
			// A thread that has ended meanwhile needs nothing.
			if err := unix.SchedSetaffinity(tid, set); err != nil && !errors.Is(err, unix.ESRCH) {
				return fmt.Errorf("setting the CPUs of thread %d: %w", tid, err)
			}
		}
		if !fresh {
			return nil
		}
	}
	return errors.New("setting the CPUs of the threads: new threads kept starting")
}

// threads returns the ids of the process's threads.
func threads() ([]int, error) {
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil, fmt.Errorf("listing the threads: %w", err)
	}
	tids := make([]int, 0, len(ents))
	for _, e := range ents {
		if tid, err := strconv.Atoi(e.Name()); err == nil {
			tids = append(tids, tid)
		}
	}
	return tids, nil
}

// waited returns how long the process's threads have waited, all
// together, for a CPU while they could have run (the second figure of
// each thread's /proc schedstat), or false where Linux does not keep it.
// A thread that has ended takes its part with it.
func waited() (time.Duration, bool) {
	tids, err := threads()
	if err != nil {
		return 0, false
	}
	var sum int64
	read := false
	for _, tid := range tids {
		b, err := os.ReadFile("/proc/self/task/" + strconv.Itoa(tid) + "/schedstat")
		if err != nil {
			continue
		}
		f := strings.Fields(string(b))
		if len(f) < 2 {
			continue
		}
		if n, err := strconv.ParseInt(f[1], 10, 64); err == nil {
			sum += n
			read = true
		}
	}
	return time.Duration(sum), read
}
