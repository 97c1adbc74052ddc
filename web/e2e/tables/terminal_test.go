package tables

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"parlour/web/e2e"
)

// terminal is parlour play running under tmux, 80 by 24: a real
// terminal, driven by its keys and read from its screen.
type terminal struct {
	t      *testing.T
	socket string
}

// startTerminal builds the binary and runs parlour play against base as
// name, with its own data directory. Without tmux the test is skipped,
// and fails under CI (.ci/run installs it).
func startTerminal(t *testing.T, base, name string) *terminal {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is missing: .ci/run installs it (apt-get install -y tmux)")
		}
		t.Skip("tmux is not installed")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "parlour")
	if out, err := exec.Command("go", "build", "-o", bin, "parlour/cmd/parlour").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	x := &terminal{t: t, socket: filepath.Join(dir, "tmux.sock")}
	cmd := fmt.Sprintf("NO_COLOR=1 %s play --server %s --name %s --data %s", bin, base, name, filepath.Join(dir, "data"))
	x.tmux("new-session", "-d", "-s", "play", "-x", "80", "-y", "24", cmd)
	t.Cleanup(func() { exec.Command("tmux", "-S", x.socket, "kill-server").Run() })
	return x
}

func (x *terminal) tmux(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", x.socket}, args...)...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// screen is what the terminal shows.
func (x *terminal) screen() string { return x.tmux("capture-pane", "-p", "-t", "play") }

// keys presses keys, as tmux names them ("g", "Enter", "Right").
func (x *terminal) keys(keys ...string) {
	x.t.Helper()
	x.tmux(append([]string{"send-keys", "-t", "play"}, keys...)...)
}

// waitFor waits until the screen holds every one of want.
func (x *terminal) waitFor(what string, want ...string) string {
	x.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		s := x.screen()
		ok := true
		for _, w := range want {
			ok = ok && strings.Contains(s, w)
		}
		if ok {
			return s
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("waited 30 s for %s; the terminal:\n%s", what, s)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// TestTerminalPairsWithBrowser: a guest in the browser presses Salvo's
// quick-game button and waits; a player in the terminal asks for a quick
// Salvo game on the same terms, and the two are paired at one table,
// which both screens open.
func TestTerminalPairsWithBrowser(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	term := startTerminal(t, base, "Ann")
	b := e2e.NewBrowser(t)
	gus := e2e.NewPlayer(t, b, "Gus", base)
	gus.Open("/")
	gus.Wait("the quick buttons", `!!document.querySelector(".quick-seek[data-game=salvo][data-rated=false]")`)
	gus.Click(".quick-seek[data-game=salvo][data-rated=false]")
	gus.Wait("Gus's waiting banner", `!!document.querySelector(".banner.seek .seek-cancel")`)

	term.waitFor("the home screen", "Parlour", "g Quick game")
	term.keys("g")
	term.waitFor("the quick-game form", "Quick game", "2 minutes a turn")
	// One game at a time: each press is drawn before the next.
	for i := 0; i < 8 && !strings.Contains(term.screen(), "‹ Salvo ›"); i++ {
		before := term.screen()
		term.keys("Right")
		for deadline := time.Now().Add(5 * time.Second); term.screen() == before && time.Now().Before(deadline); {
			time.Sleep(30 * time.Millisecond)
		}
	}
	term.waitFor("Salvo chosen", "‹ Salvo ›")
	term.keys("Enter")
	s := term.waitFor("the table the seeks made", "Salvo · ", "you: Ann", "Place your fleet")
	gus.Wait("the table", `location.pathname.startsWith("/t/")`)
	id := strings.TrimPrefix(e2e.Eval[string](gus, `location.pathname`), "/t/")
	if !strings.Contains(s, id) {
		t.Errorf("the terminal is not at Gus's table %s:\n%s", id, s)
	}
	if n := e2e.Eval[int](gus, `document.querySelectorAll(".banner.seek").length`); n != 0 {
		t.Errorf("Gus's seek banner stays after the pairing (%d)", n)
	}
}
