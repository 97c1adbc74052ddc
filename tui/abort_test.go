package tui

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAbortAndResignOutOfTurn: in a two-player Quizl game Ann calls a
// square; Ben has not moved, so ctrl+a once says what a second press
// does, and the second aborts the game: the end screen says so, with no
// result. In a second game, once both have called, ctrl+a is refused and
// :resign is taken while it is Ben's turn.
func TestAbortAndResignOutOfTurn(t *testing.T) {
	ts := newTestServer(t)
	tm, _ := twoPlayerQuizl(t, ts)
	tm.typeText("72")
	tm.key("enter")
	tm.waitFor("Ben to move", func(string) bool {
		return tm.table().upd != nil && len(tm.table().upd.Table.ToMove) == 1 && tm.table().upd.Table.ToMove[0] == 1
	})
	tm.key("ctrl+a")
	tm.waitFor("what a second press does", has("ctrl+a again aborts the game"))
	checkFits(t, tm)
	tm.key("ctrl+a")
	s := tm.waitFor("the aborted end", has("Game over: aborted, Ann aborted it before every player had moved", "no result"))
	checkFits(t, tm)
	if strings.Contains(s, "you won") || strings.Contains(s, "Ben won") {
		t.Errorf("an aborted game shows a winner:\n%s", s)
	}

	tm2, ben2 := twoPlayerQuizl(t, ts)
	tm2.typeText("72")
	tm2.key("enter")
	tm2.waitFor("Ben to move", func(string) bool { return tm2.table().upd != nil && tm2.table().upd.Table.ToMove[0] == 1 })
	ben2.call(t)
	tm2.waitFor("Ann to move", has("▶ your turn"))
	tm2.typeText("73")
	tm2.key("enter")
	tm2.waitFor("Ben to move", func(string) bool {
		return tm2.table().upd != nil && len(tm2.table().upd.Table.ToMove) == 1 && tm2.table().upd.Table.ToMove[0] == 1
	})
	tm2.key("ctrl+a")
	tm2.waitFor("the refusal", has("the game can no longer be aborted"))
	tm2.typeText(":resign")
	tm2.key("enter")
	tm2.waitFor("Ann resigned out of turn", func(string) bool {
		return tm2.table().upd != nil && strings.Contains(strings.Join(tm2.table().log, "\n"), "Ann resigned")
	})
	if tm2.m.err != "" {
		t.Errorf("resigning out of turn: %s", tm2.m.err)
	}
}

// TestAbortInARealTerminal runs `parlour play` under tmux against the
// computer and aborts the game before anybody has moved: ctrl+a says what
// a second press does, and the second ends the game without a result.
func TestAbortInARealTerminal(t *testing.T) {
	ts := newTestServer(t)
	dir, bin := buildParlour(t)
	x := tmux{t: t, socket: filepath.Join(dir, "tmux.sock")}
	cmd := fmt.Sprintf("NO_COLOR=1 TERM=xterm-256color %s play --server %s --name Ann --data %s nymphabet", bin, ts.URL, filepath.Join(dir, "data"))
	x.run("new-session", "-d", "-s", "play", "-x", "80", "-y", "24", cmd)
	t.Cleanup(func() { exec.Command("tmux", "-S", x.socket, "kill-server").Run() })
	x.waitFor("the new-table form", has("Nymphabet", "new table", "Play against"))
	x.run("send-keys", "-t", "play", "Enter")
	x.waitFor("the first turn", has("▶ your turn"))
	x.run("send-keys", "-t", "play", "C-a")
	x.waitFor("what a second press does", has("ctrl+a again aborts the game"))
	x.run("send-keys", "-t", "play", "C-a")
	s := x.waitFor("the aborted end", has("Game over: aborted, Ann aborted it before every player had", "no result"))
	if strings.Contains(s, "won") {
		t.Errorf("an aborted game shows a winner:\n%s", s)
	}
}
