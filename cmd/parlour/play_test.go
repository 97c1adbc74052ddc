package main

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestPlayWithoutATerminal: parlour play run with its input or output not
// a terminal (a pipe, /dev/null, a file) says in a line that it needs
// one and exits with status 2 at once, starting no server, rather than
// failing in the terminal library's words or drawing into the pipe until
// it is killed.
func TestPlayWithoutATerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	pw.Close() // the pipe's end: what `echo | parlour play` reads
	defer pr.Close()
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	file, err := os.Create(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for _, c := range []struct {
		name string
		in   *os.File
	}{{"a pipe", pr}, {"/dev/null", null}} {
		data := filepath.Join(dir, strings.ReplaceAll(c.name, "/", "_"))
		var errs strings.Builder
		done := make(chan int, 1)
		go func() {
			done <- runPlay(context.Background(), []string{"--data", data}, c.in, file, &errs)
		}()
		select {
		case code := <-done:
			if code != 2 {
				t.Errorf("input %s: exit %d, want 2", c.name, code)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("input %s: parlour play never returned", c.name)
		}
		if got := errs.String(); !strings.Contains(got, "needs a terminal") || strings.Contains(got, "bubbletea") {
			t.Errorf("input %s: said %q, want a line that it needs a terminal", c.name, got)
		}
		if _, err := os.Stat(data); err == nil {
			t.Errorf("input %s: a server was started in %s", c.name, data)
		}
	}
	if b, _ := os.ReadFile(file.Name()); len(b) > 0 {
		t.Errorf("drew %d bytes into a file", len(b))
	}
}

// TestPlayEmbeddedServerRefused: when the embedded server cannot start,
// here because a parlour serve holds the data directory's database, play
// says why, and the log it points to holds the reason too; the log was
// left empty, a dead end.
func TestPlayEmbeddedServerRefused(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no lock on the database to hold")
	}
	t.Parallel()
	dir := t.TempDir()
	lock, err := lockStore(filepath.Join(dir, "parlour.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Release()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	_, err = startEmbedded(ctx, dir, served)
	if err == nil || !strings.Contains(err.Error(), "is already serving") || !strings.Contains(err.Error(), "play-server.log") {
		t.Fatalf("startEmbedded: %v; want the reason and the log", err)
	}
	<-served
	b, err := os.ReadFile(filepath.Join(dir, "play-server.log"))
	if err != nil || !strings.Contains(string(b), "is already serving") {
		t.Fatalf("the log holds %q (%v); want the reason", b, err)
	}
}
