package nats

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestServerStaysOut: the NATS server, which the tests run in-process,
// adds some 15 MB; the parlour binary must not link it, now or once the
// server uses this package.
func TestServerStaysOut(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the go command is needed to list the binary's packages: %v", err)
		}
		t.Skip("no go command to list the binary's packages")
	}
	out, err := exec.Command(goTool, "list", "-deps", "parlour/cmd/parlour").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps parlour/cmd/parlour: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "parlour/server\n") {
		t.Fatalf("go list -deps parlour/cmd/parlour does not list parlour/server: is it the binary?\n%s", out)
	}
	for _, p := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(p, "github.com/nats-io/nats-server") {
			t.Errorf("parlour links %s", p)
		}
	}
}
