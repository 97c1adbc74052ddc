package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// TestTurnBell: the bell is off until ctrl+b turns it on (it rings once
// then, to be heard); on, it rings when the turn comes back to a player
// whose terminal lost the focus, and not to one at the keys; the choice
// is kept for the next run. The window's title says whose turn it is.
func TestTurnBell(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm, ben := twoPlayerQuizl(t, ts)
	if got := tm.m.View().WindowTitle; got != "● Your turn · Quizl · Parlour" {
		t.Errorf("the title at Ann's turn is %q", got)
	}
	// turn plays Ann's call and Ben's, and waits for Ann's turn again.
	calls := 0
	turn := func(before func()) {
		t.Helper()
		calls++
		tm.typeText([]string{"72", "73", "74", "75", "76"}[calls-1])
		tm.key("enter")
		tm.waitFor("Ben's turn", has("waiting for Ben"))
		if got := tm.m.View().WindowTitle; got != "Quizl · Parlour" {
			t.Errorf("the title at Ben's turn is %q", got)
		}
		before()
		ben.call(t)
		tm.waitFor("Ann's turn", has("▶ your turn"))
	}
	blur := func() { tm.update(tea.BlurMsg{}) }
	// rung waits for the bell to have rung n times in all, and a moment
	// more for a ring too many.
	rung := func(what string, n int) {
		t.Helper()
		tm.waitFor(what, func(string) bool { return tm.rings >= n })
		time.Sleep(50 * time.Millisecond)
		tm.pump()
		if tm.rings != n {
			t.Errorf("%s: the bell rang %d times in all, want %d", what, tm.rings, n)
		}
	}

	turn(blur)
	rung("the turn, the bell off", 0)
	tm.key("ctrl+b")
	tm.waitFor("the bell on", has("the bell rings when it becomes your turn"))
	checkFits(t, tm)
	rung("the bell turned on", 1)
	turn(blur)
	rung("the turn of a player away", 2)
	turn(func() { tm.update(tea.FocusMsg{}) })
	rung("the turn of a player at the keys", 2)
	raw, err := os.ReadFile(filepath.Join(tm.m.cfg.DataDir, settingsFile))
	if err != nil || !strings.Contains(string(raw), `"bell": true`) {
		t.Errorf("the settings kept: %s, %v", raw, err)
	}
	if s := loadSettings(tm.m.cfg.DataDir); !s.Bell {
		t.Error("the next run does not find the bell on")
	}
	tm.key("ctrl+b")
	tm.waitFor("the bell off", has("the bell is off"))
	if s := loadSettings(tm.m.cfg.DataDir); s.Bell {
		t.Error("the bell turned off is kept on")
	}
}

// TestAway: a player seems away once the terminal lost the focus, or
// after bellIdle without a key.
func TestAway(t *testing.T) {
	t.Parallel()
	now := time.Now()
	for _, tc := range []struct {
		name    string
		blurred bool
		lastKey time.Time
		want    bool
	}{
		{"a key just now", false, now, false},
		{"a key a moment ago", false, now.Add(-bellIdle + time.Second), false},
		{"no key for a while", false, now.Add(-bellIdle), true},
		{"never a key", false, time.Time{}, true},
		{"the focus lost", true, now, true},
	} {
		sh := &shared{blurred: tc.blurred, lastKey: tc.lastKey}
		if got := sh.away(now); got != tc.want {
			t.Errorf("%s: away = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestLoadSettings: settings kept are read back; a missing or damaged
// file, or no data directory, gives the defaults.
func TestLoadSettings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if s := loadSettings(dir); s.Bell {
		t.Error("no file: the bell is on")
	}
	if s := loadSettings(""); s.Bell {
		t.Error("no data directory: the bell is on")
	}
	os.WriteFile(filepath.Join(dir, settingsFile), []byte(`{"bell": tru`), 0o600)
	if s := loadSettings(dir); s.Bell {
		t.Error("a damaged file: the bell is on")
	}
	os.WriteFile(filepath.Join(dir, settingsFile), []byte(`{"bell": true}`), 0o600)
	if s := loadSettings(dir); !s.Bell {
		t.Error("the bell kept on is read back off")
	}
}
