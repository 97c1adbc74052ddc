package main

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
)

// TestLoadtestTargetFlags: --target and the flags that go with it are
// refused in a word when they do not fit together.
func TestLoadtestTargetFlags(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--target", "parlour"}, `--target must be reference, not "parlour"`},
		{[]string{"--serve-only"}, "go with --target reference"},
		{[]string{"--reference-data", "x"}, "go with --target reference"},
		{[]string{"--target", "reference", "--url", "http://127.0.0.1:1"}, "leave out --url and --server-pid"},
		{[]string{"--target", "reference", "--server-pid", "12"}, "leave out --url and --server-pid"},
		{[]string{"--target", "reference", "--gogc", "100"}, "--gogc goes with --serve-only"},
		{[]string{"--target", "reference", "--serve-only", "--reference-addr", "0.0.0.0:80"}, "must be a loopback address"},
	} {
		var out, errs bytes.Buffer
		if code := runLoadtest(context.Background(), c.args, nil, &out, &errs); code != 2 || !strings.Contains(errs.String(), c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, errs.String(), c.want)
		}
	}
}

// TestLoadtestTargetReference: parlour loadtest --target reference starts
// the reference server as a process of its own, drives it over both
// doors, and finds every acknowledged move in the records.
func TestLoadtestTargetReference(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the parlour binary")
	}
	t.Parallel()
	bin := buildParlour(t)
	for _, door := range []string{"http", "ws"} {
		out, err := exec.Command(bin, "loadtest", "--target", "reference", "--transport", door, "--tables", "4", "--conns", "4",
			"--identities", "8", "--rate", "100", "--duration", "1s").CombinedOutput()
		if err != nil && !strings.Contains(string(out), "FAIL (every move accepted, p99") {
			t.Fatalf("%s: %v\n%s", door, err, out)
		}
		for _, want := range []string{"reference server at http://127.0.0.1:", "refused 0, errors 0", "CPU per accepted move: server", "durability: all"} {
			if !strings.Contains(string(out), want) {
				t.Errorf("%s: no %q in\n%s", door, want, out)
			}
		}
	}
}
