package tui

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/lexicon"
	"parlour/tui/client"
)

// tmux runs a tmux command on the test's own server socket.
type tmux struct {
	t      *testing.T
	socket string
}

func (x tmux) run(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", x.socket}, args...)...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (x tmux) capture(escapes bool) string {
	args := []string{"capture-pane", "-p", "-t", "play"}
	if escapes {
		args = append(args, "-e")
	}
	return x.run(args...)
}

func (x tmux) waitFor(what string, ok func(string) bool) string {
	x.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		s := x.capture(false)
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("waited 30 s for %s; the terminal:\n%s", what, s)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

var colourCode = regexp.MustCompile(`\x1b\[[0-9;]*(3[0-8]|4[0-8]|9[0-7]|10[0-7])(;[0-9]+)*m`)

// buildParlour builds the binary into a temporary directory, when tmux is
// there to run it.
func buildParlour(t *testing.T) (dir, bin string) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is missing: .ci/run installs it (apt-get install -y tmux)")
		}
		t.Skip("tmux is not installed")
	}
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir = t.TempDir()
	bin = filepath.Join(dir, "parlour")
	if out, err := exec.Command("go", "build", "-o", bin, "parlour/cmd/parlour").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir, bin
}

// TestPlayEmbedded runs parlour play without --server: it starts its own
// server on a loopback port, with its database in the data directory, and
// stops it on ctrl+c.
func TestPlayEmbedded(t *testing.T) {
	dir, bin := buildParlour(t)
	x := tmux{t: t, socket: filepath.Join(dir, "tmux.sock")}
	data := filepath.Join(dir, "data")
	x.run("new-session", "-d", "-s", "play", "-x", "80", "-y", "24", fmt.Sprintf("%s play --name Ann --data %s quizl", bin, data))
	t.Cleanup(func() { exec.Command("tmux", "-S", x.socket, "kill-server").Run() })
	x.waitFor("the new-table form", has("Quizl", "new table"))
	x.run("send-keys", "-t", "play", "Escape")
	x.waitFor("home", has("Parlour", "guest Ann", "http://127.0.0.1:"))
	x.run("send-keys", "-t", "play", "C-c")
	deadline := time.Now().Add(20 * time.Second)
	for exec.Command("tmux", "-S", x.socket, "has-session", "-t", "play").Run() == nil {
		if time.Now().After(deadline) {
			t.Fatal("ctrl+c did not quit")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := os.Stat(filepath.Join(data, "parlour.db")); err != nil {
		t.Errorf("no database in the data directory: %v", err)
	}
}

// TestPlayInARealTerminal runs parlour play in a real pseudo-terminal
// under tmux, 80 by 24 with NO_COLOR set, and plays a whole Nymphabet
// game against the computer by keys, reading the screen as a person would.
func TestPlayInARealTerminal(t *testing.T) {
	ts := newTestServer(t)
	dir, bin := buildParlour(t)
	x := tmux{t: t, socket: filepath.Join(dir, "tmux.sock")}
	cmd := fmt.Sprintf("NO_COLOR=1 TERM=xterm-256color %s play --server %s --name Ann --data %s nymphabet", bin, ts.URL, filepath.Join(dir, "data"))
	x.run("new-session", "-d", "-s", "play", "-x", "80", "-y", "24", cmd)
	t.Cleanup(func() { exec.Command("tmux", "-S", x.socket, "kill-server").Run() })

	x.waitFor("the new-table form", has("Nymphabet", "new table", "Play against"))
	x.run("send-keys", "-t", "play", "Enter")
	x.waitFor("the first turn", has("▶ your turn", "current letter A"))
	if s := x.capture(true); colourCode.MatchString(s) {
		t.Errorf("colours under NO_COLOR: %q", colourCode.FindString(s))
	}

	words := map[byte][]string{}
	for _, w := range lexicon.Default().OfLength(7) {
		words[w[0]] = append(words[w[0]], w)
	}
	// A keystroke's effect on the real screen: type a letter, read the
	// terminal until it shows. (Each read runs tmux, a few milliseconds,
	// so this is an upper bound.)
	var keys []time.Duration
	for i, r := range "abcdefghij" {
		start := time.Now()
		x.run("send-keys", "-t", "play", "-l", string(r))
		want := "A word starting with A: " + "abcdefghij"[:i+1]
		for !strings.Contains(x.capture(false), want) {
			if time.Since(start) > 5*time.Second {
				t.Fatalf("the key %c did not show", r)
			}
		}
		keys = append(keys, time.Since(start))
	}
	slices.Sort(keys)
	// A figure for docs/terminal.md, not a bound: the machine running the
	// tests may be shared.
	t.Logf("a key reaches the real screen: median %v, worst %v of %d", keys[len(keys)/2], keys[len(keys)-1], len(keys))
	x.run("send-keys", "-t", "play", "C-u")
	x.waitFor("the cleared line", has("A word starting with A: █"))

	cur := regexp.MustCompile(`current letter ([A-Z])`)
	for turn := 0; turn < 40; turn++ {
		s := x.capture(false)
		if over(s) {
			break
		}
		m := cur.FindStringSubmatch(s)
		if m == nil {
			t.Fatalf("no current letter:\n%s", s)
		}
		list := words[strings.ToLower(m[1])[0]]
		w := list[turn%len(list)]
		x.run("send-keys", "-t", "play", "-l", w)
		x.waitFor("the typed word", has(": "+w))
		x.run("send-keys", "-t", "play", "Enter")
		played := regexp.MustCompile(`(?i)ann:\s+` + w)
		s = x.waitFor("the answer", func(s string) bool {
			return over(s) || strings.Contains(s, "! ") || played.MatchString(s) && strings.Contains(s, "▶ your turn")
		})
		if strings.Contains(s, "! ") {
			t.Fatalf("refused:\n%s", s)
		}
	}
	s := x.waitFor("the end", over)
	if !regexp.MustCompile(`letters deleted: Ann \d+ · Computer \(easy\) \d+`).MatchString(s) {
		t.Errorf("the end shows no letters deleted:\n%s", s)
	}
	// Resizing: too small, then back.
	x.run("resize-window", "-t", "play", "-x", "60", "-y", "20")
	x.waitFor("the size needed", has("at least 80x24", "this one is 60x20"))
	x.run("resize-window", "-t", "play", "-x", "80", "-y", "24")
	x.waitFor("the end again", over)
	x.run("send-keys", "-t", "play", "C-c")
	deadline := time.Now().Add(10 * time.Second)
	for exec.Command("tmux", "-S", x.socket, "has-session", "-t", "play").Run() == nil {
		if time.Now().After(deadline) {
			t.Fatal("ctrl+c did not quit")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestProgramOnAPipe runs the whole Bubble Tea program on a plain reader
// and writer of a given size, as an SSH session would: no terminal of the
// process's own is touched.
func TestProgramOnAPipe(t *testing.T) {
	ts := newTestServer(t)
	c, _ := client.New(ts.URL, "Ann")
	m := New(Config{Client: c})
	defer m.Close()
	in, keys := io.Pipe()
	out := &syncBuffer{}
	p := NewProgram(m, in, out, []string{"TERM=xterm-256color", "NO_COLOR=1"}, 80, 24, tea.WithoutSignalHandler())
	done := make(chan error, 1)
	go func() {
		_, err := p.Run()
		done <- err
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(ansi.Strip(out.String()), "Join a table by invite code") {
		if time.Now().After(deadline) {
			t.Fatalf("no home screen on the writer:\n%q", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	keys.Write([]byte("q"))
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("q did not quit")
	}
	keys.Close()
}

// TestEscAndAKeyInOneRead: esc and the key typed right after it that
// reach the program in one read (over SSH, or any slow link, keys typed
// quickly come together) are the two keys the player pressed, not an
// alt key Parlour has no use for: esc then q on the join form goes home,
// then quits.
func TestEscAndAKeyInOneRead(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	c, _ := client.New(ts.URL, "Ann")
	m := New(Config{Client: c, NoDisk: true})
	defer m.Close()
	in, keys := io.Pipe()
	defer keys.Close()
	out := &syncBuffer{}
	p := NewProgram(m, in, out, []string{"TERM=xterm-256color", "NO_COLOR=1"}, 80, 24, tea.WithoutSignalHandler())
	done := make(chan error, 1)
	go func() {
		_, err := p.Run()
		done <- err
	}()
	waitOut := func(what string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !strings.Contains(ansi.Strip(out.String()), what) {
			if time.Now().After(deadline) {
				t.Fatalf("no %q on the writer:\n%q", what, out.String())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitOut("Join a table by invite code")
	keys.Write([]byte("i"))
	waitOut("Type the invite code")
	keys.Write([]byte("\x1bq"))
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		p.Kill()
		t.Fatalf("esc and q in one read did not go home and quit:\n%s", ansi.Strip(out.String()))
	}
}
