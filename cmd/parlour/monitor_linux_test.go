package main

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestServeSteadyMonitor starts the built parlour serve and reads the
// environment of the process that answers: started again with
// schedtrace set, in the same process, unless turned off or set by the
// operator.
func TestServeSteadyMonitor(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts parlour serve")
	}
	t.Parallel()
	bin := buildParlour(t)
	trace := "GODEBUG=schedtrace=" + strconv.Itoa(steadyTrace)
	tests := []struct {
		name    string
		flags   []string
		godebug string
		want    string // the GODEBUG the server runs with
	}{
		{"on", nil, "", trace},
		{"on, with other settings", nil, "madvdontneed=1", "GODEBUG=madvdontneed=1,schedtrace=" + strconv.Itoa(steadyTrace)},
		{"off", []string{"--steady-monitor=false"}, "", "GODEBUG="},
		{"the operator's", nil, "schedtrace=0", "GODEBUG=schedtrace=0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			addr := ln.Addr().String()
			ln.Close()
			dir := t.TempDir()
			n := &nodeProc{name: tc.name, addr: addr, bin: bin, log: filepath.Join(dir, "serve.log"),
				args: append([]string{"serve", "--addr", addr, "--data", filepath.Join(dir, "data"), "--log-level", "warn"}, tc.flags...)}
			n.env = []string{"GODEBUG=" + tc.godebug}
			if err := n.start(); err != nil {
				t.Fatal(err)
			}
			defer n.stop()
			environ, err := os.ReadFile("/proc/" + strconv.Itoa(n.cmd.Process.Pid) + "/environ")
			if err != nil {
				t.Fatal(err)
			}
			var got string
			for _, kv := range bytes.Split(environ, []byte{0}) {
				if strings.HasPrefix(string(kv), "GODEBUG=") {
					got = string(kv)
				}
			}
			if got != tc.want {
				t.Errorf("the server runs with %q; want %q", got, tc.want)
			}
			if log := n.logTail(); strings.Contains(log, "going on") {
				t.Errorf("the server's log: %s", log)
			}
		})
	}
}
