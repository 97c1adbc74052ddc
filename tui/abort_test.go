package tui

import (
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
		return tm.m.t.upd != nil && len(tm.m.t.upd.Table.ToMove) == 1 && tm.m.t.upd.Table.ToMove[0] == 1
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
	tm2.waitFor("Ben to move", func(string) bool { return tm2.m.t.upd != nil && tm2.m.t.upd.Table.ToMove[0] == 1 })
	ben2.call(t)
	tm2.waitFor("Ann to move", has("▶ your turn"))
	tm2.typeText("73")
	tm2.key("enter")
	tm2.waitFor("Ben to move", func(string) bool {
		return tm2.m.t.upd != nil && len(tm2.m.t.upd.Table.ToMove) == 1 && tm2.m.t.upd.Table.ToMove[0] == 1
	})
	tm2.key("ctrl+a")
	tm2.waitFor("the refusal", has("the game can no longer be aborted"))
	tm2.typeText(":resign")
	tm2.key("enter")
	tm2.waitFor("Ann resigned out of turn", func(string) bool {
		return tm2.m.t.upd != nil && strings.Contains(strings.Join(tm2.m.t.log, "\n"), "Ann resigned")
	})
	if tm2.m.err != "" {
		t.Errorf("resigning out of turn: %s", tm2.m.err)
	}
}
