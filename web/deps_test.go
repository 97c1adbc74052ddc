package web

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestImportsNoGame: web is the client's files and the rules pages; what
// only a referee knows the pages ask the API for (/api/v1/tools/), so web
// imports neither the server nor any game.
func TestImportsNoGame(t *testing.T) {
	t.Parallel()
	goTool, err := exec.LookPath("go")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the go command is needed to list web's packages: %v", err)
		}
		t.Skip("no go command to list web's packages")
	}
	out, err := exec.Command(goTool, "list", "-deps", "parlour/web").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps parlour/web: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "parlour/docs\n") {
		t.Fatalf("go list -deps parlour/web does not list parlour/docs, which it embeds:\n%s", out)
	}
	for _, p := range strings.Split(string(out), "\n") {
		if p == "parlour/server" || p == "parlour/games" || p == "parlour/game" ||
			strings.HasPrefix(p, "parlour/server/") || strings.HasPrefix(p, "parlour/games/") {
			t.Errorf("web imports %s", p)
		}
	}
}
