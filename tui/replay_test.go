package tui

import (
	"context"
	"strings"
	"testing"
)

// TestReplay: at the end of a two-player Quizl game, p steps through the
// game move by move as Ann saw it and, with tab, as Ben did; each seat's
// view shows its own password and not the other's until the end; esc
// comes back to the end screen.
func TestReplay(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm, ben := twoPlayerQuizl(t, ts)
	var own struct{ Password string }
	tm.view(&own)
	tm.typeText("72")
	tm.key("enter")
	tm.waitFor("Ann's call", has("called 72"))
	ben.call(t)
	tm.waitFor("Ann's turn again", has("▶ your turn"))
	tm.typeText(ben.password)
	tm.key("enter")
	tm.waitFor("Ann's announcement", has("for Ben: right, 24"))
	if _, err := ben.c.Move(context.Background(), ben.token, ben.id, "resign", 0, false); err != nil {
		t.Fatal(err)
	}
	tm.waitFor("the end", has("Game over", "p replay"))
	checkFits(t, tm)

	tm.key("p")
	s := tm.waitFor("the replay's start", has("replay, Ann's view", "the start, before its 4 moves", "Your grid", "esc back"))
	checkFits(t, tm)
	if !strings.Contains(s, "password "+own.Password) {
		t.Errorf("Ann's view at the start does not show her password %s:\n%s", own.Password, s)
	}
	if strings.Contains(s, ben.password) {
		t.Errorf("Ann's view at the start shows Ben's password %s:\n%s", ben.password, s)
	}
	if strings.Contains(s, "Call (digits)") {
		t.Errorf("the replay offers a line to type:\n%s", s)
	}
	tm.key("right")
	tm.waitFor("the first move", has("move 1 of 4, Ann: 72", "called 72"))
	checkFits(t, tm)
	tm.key("tab")
	s = tm.waitFor("Ben's view", has("replay, Ben's view", "move 1 of 4", "password "+ben.password))
	if strings.Contains(s, "password "+own.Password) {
		t.Errorf("Ben's view shows Ann's password %s:\n%s", own.Password, s)
	}
	tm.key("end")
	tm.waitFor("the last move", has("move 4 of 4, Ben: resign", "announced "+strings.ToUpper(ben.password)))
	checkFits(t, tm)
	tm.key("right") // past the last move: stays there
	tm.waitFor("still the last move", has("move 4 of 4"))
	tm.key("home")
	tm.waitFor("the start again", has("the start, before its 4 moves", "replay, Ben's view"))
	tm.key("esc")
	tm.waitFor("the end screen again", has("Game over", "p replay"))

}
