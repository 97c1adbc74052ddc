package server_test

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"parlour/server/table"
)

// lateClock is a clock whose timers never fire by themselves, as one
// late to fire on a busy server: only the time moves.
type lateClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *lateClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *lateClock) AfterFunc(time.Duration, func()) table.Timer { return lateTimer{} }

func (c *lateClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

type lateTimer struct{}

func (lateTimer) Stop() bool { return true }

// TestLateAnswer: in Word Fight, when every player's time to answer a
// word has run out and one of them answers late, the answer is refused
// with what the server played for that player (cannot), though the
// server played for the others too.
func TestLateAnswer(t *testing.T) {
	t.Parallel()
	late := &lateClock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	e := &clockEnv{t: t, path: filepath.Join(t.TempDir(), "p.db"), clock: newFakeClock(), late: late}
	e.start()
	t.Cleanup(e.stop)
	id, toks := e.table("wordfight", 2, map[string]any{"clock": 30})
	e.play(id, toks, "0:declare cart", "0:place B2 across", "1:place B2 across", "1:declare dart")
	late.advance(31 * time.Second)
	st, b := e.call("POST", "/api/v1/tables/"+id+"/moves", toks[0], map[string]any{"move": "place D4 down"})
	if want := "your time ran out (30 seconds a turn) before this move came: the server played cannot for you"; st != 409 || !strings.Contains(string(b), want) {
		t.Fatalf("Ann's late answer: %d %s, want 409 %q", st, b, want)
	}
	rec := e.record(id, toks[0])
	var cannot []string
	for _, mv := range rec.Moves[4:] {
		cannot = append(cannot, mv.By+" "+mv.Move)
	}
	// Ben's own answer is his alone until the end: Ann's record hides it.
	if strings.Join(cannot, ", ") != "Ann cannot, Ben answer" {
		t.Errorf("the moves after the deadline: %v, want the server's answer for each", cannot)
	}
}
