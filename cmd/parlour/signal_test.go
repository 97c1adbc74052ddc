package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// signalChildEnv makes the test binary, run again by
// TestSecondSignalStopsAtOnce, a process whose shutdown hangs.
const signalChildEnv = "PARLOUR_SIGNAL_CHILD"

// TestSecondSignalStopsAtOnce stops a process whose graceful stop hangs:
// the first signal cancels its context, as it does for parlour serve,
// and the second ends it rather than being swallowed too.
func TestSecondSignalStopsAtOnce(t *testing.T) {
	if os.Getenv(signalChildEnv) == "1" {
		ctx, stop := signalContext()
		defer stop()
		fmt.Println("ready")
		<-ctx.Done()
		fmt.Println("stopping")
		select {} // a shutdown that never ends
	}
	t.Parallel()
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestSecondSignalStopsAtOnce$")
			cmd.Env = append(os.Environ(), signalChildEnv+"=1")
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			lines := bufio.NewScanner(out)
			next := func(want string) {
				t.Helper()
				for lines.Scan() {
					if strings.TrimSpace(lines.Text()) == want {
						return
					}
				}
				t.Fatalf("the process never said %q", want)
			}
			next("ready")
			cmd.Process.Signal(sig)
			next("stopping")
			cmd.Process.Signal(sig)
			err = cmd.Wait()
			if ctx.Err() != nil {
				t.Fatalf("a second %v left the hung shutdown going", sig)
			}
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != sig {
				t.Fatalf("after a second %v the process ended with %v, want the signal's own end", sig, err)
			}
		})
	}
}
