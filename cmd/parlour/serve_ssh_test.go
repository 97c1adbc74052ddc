package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"parlour/sshdoor"
)

// syncBuffer is a log the test reads while serve writes it.
type syncBuffer struct {
	ch chan string
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	for _, l := range strings.Split(strings.TrimSpace(string(p)), "\n") {
		b.ch <- l
	}
	return len(p), nil
}

// TestServeSSHLogsHostKey: parlour serve --ssh logs the host key's
// SHA256 fingerprint at start and prints it beside the ssh command; it is
// the key the door presents and the one kept in the data directory.
func TestServeSSHLogsHostKey(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	data := t.TempDir()
	out, outW := io.Pipe()
	logs := &syncBuffer{ch: make(chan string, 100)}
	done := make(chan int, 1)
	go func() {
		// Port 0: the door takes a free port and prints it, where a port
		// found free beforehand may be taken by then.
		code := run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--data", data, "--ssh", "127.0.0.1:0", "--ssh-per-addr", "1", "--log", "json", "--public-url", "https://parlour.example/"}, strings.NewReader(""), outW, logs)
		outW.Close()
		done <- code
	}()
	r := bufio.NewReader(out)
	var lines []string
	for len(lines) < 2 {
		line, err := r.ReadString('\n')
		if err != nil {
			var logged []string
			for len(logs.ch) > 0 {
				logged = append(logged, <-logs.ch)
			}
			t.Fatalf("serve printed %q, then %v; it logged %q", lines, err, logged)
		}
		lines = append(lines, line)
	}
	go io.Copy(io.Discard, out)
	_, port, ok := strings.Cut(lines[1], "ssh -p ")
	port, _, _ = strings.Cut(port, " ")
	if !ok || port == "0" || port == "" {
		t.Fatalf("serve printed %q: no port for the door", lines[1])
	}
	sshAddr := net.JoinHostPort("127.0.0.1", port)

	var logged string
	deadline := time.After(10 * time.Second)
	for logged == "" {
		select {
		case l := <-logs.ch:
			var rec struct {
				Msg     string `json:"msg"`
				HostKey string `json:"host_key"`
			}
			if json.Unmarshal([]byte(l), &rec) == nil && rec.Msg == "serving ssh" {
				logged = rec.HostKey
			}
		case <-deadline:
			t.Fatal("no \"serving ssh\" log line with the host key")
		}
	}

	pem, err := os.ReadFile(filepath.Join(data, sshdoor.HostKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	key, err := gossh.ParsePrivateKey(pem)
	if err != nil {
		t.Fatal(err)
	}
	want := gossh.FingerprintSHA256(key.PublicKey())
	if logged != want {
		t.Errorf("logged host key %q, the key file's is %q", logged, want)
	}
	if !strings.Contains(lines[1], "ssh -p ") || !strings.Contains(lines[1], "(host key ED25519 "+want+")") {
		t.Errorf("serve printed %q", lines[1])
	}
	var presented string
	c, err := gossh.Dial("tcp", sshAddr, &gossh.ClientConfig{User: "x", Auth: []gossh.AuthMethod{gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })},
		HostKeyCallback: func(_ string, _ net.Addr, k gossh.PublicKey) error {
			presented = gossh.FingerprintSHA256(k)
			return nil
		}, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if presented != want {
		t.Errorf("the door presents %s, the log says %s", presented, want)
	}
	// The door's sessions show the server's public address, not the
	// loopback one they play through: a guest without a key, once at a
	// table, is told how to come back by it.
	screen := keylessTable(t, c)
	if !strings.Contains(screen, "ssh-t-p"+port+"parlour.exampleresume") {
		t.Errorf("the table screen does not say how to come back at parlour.example:\n%s", screen)
	}
	if !strings.Contains(screen, "https://parlour.example") || strings.Contains(screen, "127.0.0.1") {
		t.Errorf("the session shows an address other than the public one:\n%s", screen)
	}
	// --ssh-per-addr 1: a second connection from the address, while the
	// first holds its session, is refused in a line that says the limit.
	second, err := net.DialTimeout("tcp", sshAddr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	second.SetDeadline(time.Now().Add(5 * time.Second))
	refused, _ := bufio.NewReader(second).ReadString('\n')
	second.Close()
	if !strings.Contains(refused, "too many sessions at once from your address (at most 1)") {
		t.Errorf("a second session from one address, with --ssh-per-addr 1, reads %q", refused)
	}
	c.Close()
	stop()
	go func() {
		for range logs.ch {
		}
	}()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("serve returned %d", code)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop")
	}
}

// TestServeSSHBadStartChangesNothing: a door that cannot open (its
// address taken, its host key damaged) stops serve before it says it
// serves, puts up events or makes a database: the operator is not told
// "serving" by a server that then exits.
func TestServeSSHBadStartChangesNothing(t *testing.T) {
	t.Parallel()
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// Closed after the subtests, which run once this function returns.
	t.Cleanup(func() { taken.Close() })
	for _, tc := range []struct {
		name, ssh string
		key       string // the host key file's contents; empty: none
		want      string
	}{
		{"address taken", taken.Addr().String(), "", "--ssh " + taken.Addr().String()},
		{"address nonsense", "nonsense", "", "--ssh nonsense"},
		{"damaged host key", "127.0.0.1:0", "not a key\n", "is damaged"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			data := t.TempDir()
			if tc.key != "" {
				if err := os.WriteFile(filepath.Join(data, sshdoor.HostKeyFile), []byte(tc.key), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			var stdout, stderr strings.Builder
			code := run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--data", data, "--ssh", tc.ssh}, strings.NewReader(""), &stdout, &stderr)
			if code != 1 {
				t.Fatalf("exit %d, want 1 (%s)", code, stderr.String())
			}
			if stdout.Len() > 0 {
				t.Errorf("serve printed %q before it stopped", stdout.String())
			}
			if !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("serve said %q, want it to name %q", stderr.String(), tc.want)
			}
			if strings.Contains(stderr.String(), "msg=serving") || strings.Contains(stderr.String(), "event created") {
				t.Errorf("serve logged that it served before it stopped: %s", stderr.String())
			}
			if _, err := os.Stat(filepath.Join(data, "parlour.db")); err == nil {
				t.Error("serve made a database before it stopped")
			}
		})
	}
}

// keylessTable opens a session on c, starts a Nymphabet table against
// the computer and returns what the screen showed by the player's first
// turn, escape sequences and spaces left out, in lower case.
func keylessTable(t *testing.T, c *gossh.Client) string {
	t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	in, _ := sess.StdinPipe()
	var mu sync.Mutex
	var out bytes.Buffer
	sess.Stdout = writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return out.Write(p)
	})
	if err := sess.RequestPty("xterm-256color", 24, 80, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	screen := func() string {
		mu.Lock()
		defer mu.Unlock()
		return strings.ToLower(strings.Join(strings.Fields(ansi.Strip(out.String())), ""))
	}
	wait := func(want string) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if strings.Contains(screen(), want) {
				return
			}
		}
		t.Fatalf("%q never shown; the screen:\n%s", want, screen())
	}
	wait("newtable")
	io.WriteString(in, "1")
	wait("nymphabet·newtable")
	io.WriteString(in, "\r")
	wait("yourturn")
	return screen()
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
