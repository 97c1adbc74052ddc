package sshdoor

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestShutdownTellsSessions: when the server stops, each session's client
// quits as it does on ctrl+c, giving the player's terminal back as it
// found it (out of the alternate screen, the cursor shown), says in a
// line why the session ends, and ends with status 0; the player is not
// left in a dead full-screen client with a hidden cursor.
func TestShutdownTellsSessions(t *testing.T) {
	f := newFixture(t, Config{})
	tm := f.dial("ann", nil, "")
	tm.waitFor("New table")
	tm.setMark()
	done := make(chan error, 1)
	go func() { done <- tm.sess.Wait() }()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := f.door.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the session ended with %v, want status 0", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the session stayed open after the shutdown")
	}
	tm.mu.Lock()
	raw := tm.out.String()[tm.mark:]
	tm.mu.Unlock()
	for _, seq := range []struct{ what, seq string }{
		{"leaves the alternate screen", "\x1b[?1049l"},
		{"shows the cursor", "\x1b[?25h"},
	} {
		if !strings.Contains(raw, seq.seq) {
			t.Errorf("the client never %s (%q) before the session closed; it received %q", seq.what, seq.seq, raw)
		}
	}
	tm.waitFor("The server is shutting down")
}

// TestIdlePasswordPrompt: a session left at the password prompt is
// closed after the idle time without a key, as one left anywhere else
// is, and says so; it is not held until the transport gives up on it.
func TestIdlePasswordPrompt(t *testing.T) {
	f := newFixture(t, Config{Idle: 600 * time.Millisecond})
	f.signUp("Ann", "correct horse battery")
	tm := f.dial("ann", nil, "")
	tm.waitFor("Password to sign in")
	done := make(chan error, 1)
	go func() { done <- tm.sess.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("a session idle at the password prompt stayed open")
	}
	tm.waitFor("No key pressed for 600ms: the session is closed")
}

// TestShutdownAtThePasswordPrompt: a session at the password prompt when
// the server stops is told why and closed, not cut off without a word
// once Shutdown has waited for it.
func TestShutdownAtThePasswordPrompt(t *testing.T) {
	f := newFixture(t, Config{})
	f.signUp("Ann", "correct horse battery")
	tm := f.dial("ann", nil, "")
	tm.waitFor("Password to sign in")
	if err := f.door.Shutdown(context.Background()); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	tm.waitFor("The server is shutting down")
}
