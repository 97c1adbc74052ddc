package sshdoor

import (
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	gossh "golang.org/x/crypto/ssh"
)

// dialSized is dial with a PTY of w x h.
func (f *fixture) dialSized(w, h int) *term {
	f.t.Helper()
	auth := []gossh.AuthMethod{gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })}
	c, err := gossh.Dial("tcp", f.sshAddr, &gossh.ClientConfig{User: "ann", Auth: auth, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second})
	if err != nil {
		f.t.Fatalf("ssh dial: %v", err)
	}
	f.t.Cleanup(func() { c.Close() })
	sess, err := c.NewSession()
	if err != nil {
		f.t.Fatal(err)
	}
	tm := &term{t: f.t, sess: sess}
	tm.in, _ = sess.StdinPipe()
	r, _ := sess.StdoutPipe()
	if err := sess.RequestPty("xterm-256color", h, w, gossh.TerminalModes{}); err != nil {
		f.t.Fatal(err)
	}
	go func() {
		b := make([]byte, 32<<10)
		for {
			n, err := r.Read(b)
			tm.mu.Lock()
			tm.out.Write(b[:n])
			tm.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	if err := sess.Shell(); err != nil {
		f.t.Fatal(err)
	}
	return tm
}

// heap is the live heap after a collection.
func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// exit waits for the session to end and returns its exit status (-1: it
// ended without one, or did not end in 10 s).
func (tm *term) exit() int {
	tm.t.Helper()
	done := make(chan error, 1)
	go func() { done <- tm.sess.Wait() }()
	select {
	case err := <-done:
		if err == nil {
			return 0
		}
		if ee, ok := err.(*gossh.ExitError); ok {
			return ee.ExitStatus()
		}
		return -1
	case <-time.After(10 * time.Second):
		tm.t.Fatal("the session did not end")
		return -1
	}
}

// TestTerminalSize: a terminal of no size, or one larger than any screen,
// is told why and closed, at the start or on a later resize; a large one
// is drawn at most MaxWidth x MaxHeight, however it is resized. Sessions
// of every size leave the server's live heap within a bound per session
// set by that clamp.
func TestTerminalSize(t *testing.T) {
	f := newFixture(t, Config{PerAddr: 50, Burst: 100, NewPerMinute: 1000})
	before := heap()

	refused := []struct {
		name string
		w, h int
		want string
	}{
		{"no columns", 0, 24, "Parlour: your terminal reports 0 columns and 24 rows"},
		{"no rows", 80, 0, "Parlour: your terminal reports 80 columns and 0 rows"},
		{"neither", 0, 0, "0 columns and 0 rows"},
		{"absurd", 100000, 100000, "100000 columns and 100000 rows, more than any screen"},
		{"too wide", RefuseWidth + 1, 24, "more than any screen"},
		{"too tall", 80, RefuseHeight + 1, "more than any screen"},
	}
	for _, c := range refused {
		tm := f.dialSized(c.w, c.h)
		if st := tm.exit(); st != 1 {
			t.Errorf("%s: exit status %d, want 1", c.name, st)
		}
		tm.waitFor(c.want)
	}

	// Large terminals, resized past the clamp, to nothing and past any
	// screen: the ones resized to nothing or past any screen are closed.
	type size struct{ w, h int }
	const open = 4
	var live []*term
	for i := range open + 2 {
		tm := f.dialSized(RefuseWidth, RefuseHeight)
		tm.waitFor("New table")
		for _, s := range []size{{2000, 1000}, {80, 24}, {RefuseWidth, RefuseHeight}, {MaxWidth + 1, MaxHeight + 1}} {
			tm.setMark()
			if err := tm.sess.WindowChange(s.h, s.w); err != nil {
				t.Fatal(err)
			}
			tm.waitFor("New table") // the resize repaints the screen
		}
		switch i {
		case open:
			tm.sess.WindowChange(0, 80)
		case open + 1:
			tm.sess.WindowChange(100000, 100000)
		default:
			live = append(live, tm)
			continue
		}
		if st := tm.exit(); st != 1 {
			t.Errorf("a session resized past what is allowed: exit status %d, want 1", st)
		}
		tm.waitFor("Parlour: your terminal reports")
	}
	// Every live session still answers, after a size report typed into
	// its input, which Bubble Tea would take for a resize.
	for _, tm := range live {
		tm.send("\x1b[8;1000;2000t")
		tm.setMark()
		tm.send("j") // down: the cursor moves
		tm.waitFor(">")
	}
	grown := int64(heap()) - int64(before)
	// A session drawn at 80 x 24 costs well under 2 MB; at the clamp,
	// about 7 MB. Unclamped, one of RefuseWidth x RefuseHeight
	// would cost gigabytes.
	const perSession = 12 << 20
	t.Logf("%d sessions open at %d x %d (clamped to %d x %d), %d refused: the heap grew %.1f MB",
		len(live), MaxWidth+1, MaxHeight+1, MaxWidth, MaxHeight, len(refused)+2, float64(grown)/(1<<20))
	if grown > open*perSession {
		t.Fatalf("the heap grew %.1f MB for %d sessions, more than %d MB each", float64(grown)/(1<<20), open, perSession>>20)
	}
}

func TestFitWindow(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		w, h, cw, ch int
		refusal      string
	}{
		{80, 24, 80, 24, ""},
		{1, 1, 1, 1, ""},
		{MaxWidth, MaxHeight, MaxWidth, MaxHeight, ""},
		{MaxWidth + 1, 50, MaxWidth, 50, ""},
		{120, MaxHeight + 1, 120, MaxHeight, ""},
		{RefuseWidth, RefuseHeight, MaxWidth, MaxHeight, ""},
		{0, 24, 0, 0, "Parlour: your terminal reports 0 columns and 24 rows; Parlour is drawn in a full-screen terminal: connect with ssh -t from one."},
		{1, 0, 0, 0, "Parlour: your terminal reports 1 column and 0 rows; Parlour is drawn in a full-screen terminal: connect with ssh -t from one."},
		{-1, 5, 0, 0, "Parlour: your terminal reports -1 columns and 5 rows; Parlour is drawn in a full-screen terminal: connect with ssh -t from one."},
		{RefuseWidth + 1, 1, 0, 0, "Parlour: your terminal reports 5001 columns and 1 row, more than any screen holds (at most 5000 columns and 2000 rows); the session is closed."},
		{80, RefuseHeight + 1, 0, 0, "Parlour: your terminal reports 80 columns and 2001 rows, more than any screen holds (at most 5000 columns and 2000 rows); the session is closed."},
	} {
		cw, ch, refusal := fitWindow(c.w, c.h)
		if cw != c.cw || ch != c.ch || refusal != c.refusal {
			t.Errorf("fitWindow(%d, %d) = %d, %d, %q; want %d, %d, %q", c.w, c.h, cw, ch, refusal, c.cw, c.ch, c.refusal)
		}
	}
	// The filter: sizes clamped or dropped, anything else untouched.
	if got := clampWindow(tea.WindowSizeMsg{Width: 100000, Height: 30}); got != nil {
		t.Errorf("a size past any screen is passed on as %v", got)
	}
	if got := clampWindow(tea.WindowSizeMsg{Width: 2000, Height: 1000}); got != (tea.WindowSizeMsg{Width: MaxWidth, Height: MaxHeight}) {
		t.Errorf("a large size is passed on as %v", got)
	}
	if got := clampWindow(tea.KeyPressMsg{Code: 'j'}); got != (tea.KeyPressMsg{Code: 'j'}) {
		t.Errorf("a key is passed on as %v", got)
	}
}

// TestWindowChangesAfterTheEnd: window changes that come after the door
// stopped reading them (after a size it refused) hold no goroutine of the
// SSH server once the session is over.
func TestWindowChangesAfterTheEnd(t *testing.T) {
	f := newFixture(t, Config{})
	tm := f.dialSized(80, 24)
	tm.waitFor("New table")
	for _, w := range []int{0, 81, 82, 83} {
		tm.sess.WindowChange(24, w)
	}
	if st := tm.exit(); st != 1 {
		t.Fatalf("exit status %d, want 1", st)
	}
	tm.sess.Close()
	stuck := 0
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		buf := make([]byte, 1<<20)
		if stuck = strings.Count(string(buf[:runtime.Stack(buf, true)]), "(*session).handleRequests"); stuck == 0 {
			return
		}
	}
	t.Fatalf("%d goroutines still read an ended session's requests", stuck)
}

// TestWindowChangesBeforeTheShell: window changes sent before the shell
// request neither hold the session up nor outlive it: they are dropped,
// and the client is drawn at the terminal's first size until the next.
func TestWindowChangesBeforeTheShell(t *testing.T) {
	f := newFixture(t, Config{})
	c, err := gossh.Dial("tcp", f.sshAddr, &gossh.ClientConfig{User: "ann", Auth: []gossh.AuthMethod{gossh.PublicKeys(newSigner(t))}, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	tm := &term{t: t, sess: sess}
	tm.in, _ = sess.StdinPipe()
	r, _ := sess.StdoutPipe()
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := r.Read(b)
			tm.mu.Lock()
			tm.out.Write(b[:n])
			tm.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	if err := sess.RequestPty("xterm", 24, 80, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{90, 100, 70} {
		sess.WindowChange(24, w)
	}
	started := make(chan error, 1)
	go func() { started <- sess.Shell() }()
	select {
	case err := <-started:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the shell request was never answered")
	}
	tm.waitFor("New table")
	tm.setMark()
	sess.WindowChange(24, 70) // under the 80 the client needs, which it says
	tm.waitFor("this one is 70x24")
	c.Close()
	stuck := 0
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		buf := make([]byte, 1<<20)
		if stuck = strings.Count(string(buf[:runtime.Stack(buf, true)]), "(*session).handleRequests"); stuck == 0 {
			return
		}
	}
	t.Fatalf("%d goroutines still read an ended session's requests", stuck)
}
