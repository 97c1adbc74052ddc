package main

import (
	"math"
	"strconv"
	"strings"
)

// steadyTrace is the GODEBUG schedtrace period, in milliseconds, that
// keeps Go's monitor thread (sysmon) out of its deep sleep. It is the
// longest the runtime takes, about 24.8 days: the runtime prints a line
// of its scheduler's state to standard error each period, and the first
// only once the machine has been up that long.
const steadyTrace = math.MaxInt32

// steadyMonitorEnv returns the environment to start the process again
// with so that Go's monitor thread stays out of its deep sleep, and
// whether to: for parlour serve (args are the command line after the
// program's name), unless --steady-monitor is off, help is asked for, or
// GODEBUG already sets schedtrace (the operator's own setting, or the
// process started again).
//
// The runtime reads schedtrace only when the process starts, and no
// //go:debug line can set it. While every processor is idle the monitor
// sleeps until a goroutine makes a system call; woken so, it looks every
// 20 µs for a millisecond or more before it backs off. A quiet server's
// move comes after such a sleep and makes its system calls at once, so
// each move set the monitor napping some eight times, and a log sync of
// a millisecond or more was handed to another thread. With schedtrace set
// the monitor never sleeps deeply: it looks every 10 ms, however quiet.
func steadyMonitorEnv(args, environ []string) ([]string, bool) {
	if len(args) > 0 {
		if args[0] != "serve" {
			return nil, false
		}
		args = args[1:]
	}
	for _, a := range args {
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch name {
		case "h", "help":
			return nil, false
		case "steady-monitor":
			if on, err := strconv.ParseBool(value); hasValue && (err != nil || !on) {
				// Off, or a value serve will refuse with its own
				// message: either way, no second start.
				return nil, false
			}
		}
	}
	env := make([]string, 0, len(environ)+1)
	godebug := ""
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "GODEBUG="); ok {
			godebug = v
			continue
		}
		env = append(env, kv)
	}
	for _, s := range strings.Split(godebug, ",") {
		if k, _, _ := strings.Cut(s, "="); strings.TrimSpace(k) == "schedtrace" {
			return nil, false
		}
	}
	setting := "schedtrace=" + strconv.Itoa(steadyTrace)
	if godebug != "" {
		setting = godebug + "," + setting
	}
	return append(env, "GODEBUG="+setting), true
}
