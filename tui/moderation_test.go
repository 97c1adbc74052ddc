package tui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"parlour/server"
	"parlour/server/moderation"
	"parlour/server/table"
	"parlour/server/table/tabletest"
	"parlour/store"
	"parlour/tui/client"
)

// TestModeration: a moderator's account screen offers the moderators'
// screen (nobody else's does), which lists the queue with the chosen
// report's words and works it as the browser's page does: a report
// closed, a player's chat muted, a rename refused for a name taken and
// then done, an account closed after enter twice, each with what was
// missing said first, each in the log below, and each checked through
// the API.
func TestModeration(t *testing.T) {
	t.Parallel()
	var st store.Store
	ts := newTestServerWith(t, func(cfg *server.Config) { st = cfg.Store })
	ctx := context.Background()
	ac, as := signedUp(t, ts, "ann_m")
	bc, bs := signedUp(t, ts, "ben_m")
	cc, _ := signedUp(t, ts, "cy_m")
	if _, err := moderation.Grant(ctx, st, "ann_m", true, "the test", time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := bc.Report(ctx, bs.Token, "cy_m", "chat", "called me names", ""); err != nil {
		t.Fatal(err)
	}

	// Ben, no moderator, is offered no such screen.
	bt := newTermWith(t, ts.URL, "ben_m", 80, 24, Config{DataDir: t.TempDir(), Session: bs.Token, Account: "ben_m"})
	bt.key("a")
	if s := bt.waitFor("Ben's account", has("Your account: ben_m", "none: enter adds one")); strings.Contains(s, "Moderation") {
		t.Errorf("Ben's account offers the moderators' screen:\n%s", s)
	}

	tm := newTermWith(t, ts.URL, "ann_m", 80, 24, Config{DataDir: t.TempDir(), Session: as.Token, Account: "ann_m"})
	tm.key("a")
	tm.waitFor("Ann's account", has("Your account: ann_m", "Moderation", "enter opens them"))
	tm.keyUntil("down", "> Moderation")
	tm.key("enter")
	tm.waitFor("the queue", has("Moderation  ·  1 open report", "> cy_m", "abuse in chat", "by ben_m", "open",
		"ben_m reported cy_m (abuse in chat): called me names", "What moderators did", "made ann_m a moderator"))
	checkFits(t, tm)

	// The report closed, with a reason.
	tm.key("c")
	tm.waitFor("the close form", has("Close the report", "Close ben_m's report about cy_m"))
	checkFits(t, tm)
	tm.typeText("spoke to them?") // "?" typed, not the help
	tm.waitFor("the reason typed", has("‹ spoke to them?█ ›"))
	tm.key("enter")
	tm.waitFor("the report closed", has("the report about cy_m is closed", "0 open reports", "closed by ann_m", "closed a report about cy_m (report", "spoke to them?"))
	if rs, err := ac.Reports(ctx, as.Token); err != nil || len(rs) != 1 || rs[0].Status != "closed" {
		t.Errorf("the queue after closing: %+v, %v", rs, err)
	}
	tm.key("c")
	tm.waitFor("a closed report not closed again", has("choose an open report to close"))

	// Cy's chat muted for a day: the reason is asked for first.
	tm.key("m")
	tm.waitFor("the mute form", has("Keep a player out of every chat", "Player", "‹ cy_m ›", "> How long", "1 hour"))
	checkFits(t, tm)
	tm.key("right")
	tm.waitFor("a day", has("‹ 1 day ›"))
	tm.key("enter")
	tm.waitFor("the reason asked for", has("give a reason: it goes in the moderators' log", "> Why"))
	tm.typeText("name-calling")
	tm.key("enter")
	tm.waitFor("the mute", has("cy_m is kept out of every chat until", "muted cy_m's chat (for 1 day): name-calling"))
	if ls, err := ac.ModLog(ctx, as.Token); err != nil || len(ls) == 0 || ls[0].Action != "mute" || ls[0].Name != "cy_m" {
		t.Errorf("the log after the mute: %+v, %v", ls, err)
	}

	// A rename: the new name asked for, a name taken refused in the
	// server's words, then done.
	tm.key("n")
	tm.waitFor("the rename form", has("Give an account a new name", "‹ cy_m ›", "> New name"))
	tm.key("enter")
	tm.waitFor("the new name asked for", has("type the new name"))
	tm.typeText("ben_m")
	tm.key("enter")
	tm.waitFor("a name taken", has("ben_m", "taken"))
	for range 5 {
		tm.key("backspace")
	}
	tm.typeText("cy_renamed")
	tm.key("enter")
	tm.waitFor("the rename", has("cy_m is now cy_renamed, in 0 finished games", "renamed cy_m (cy_m → cy_renamed)"))

	// The account closed, after enter twice.
	tm.key("x")
	tm.waitFor("the close-account form", has("Close an account", "‹ cy_renamed ›", "> Why"))
	tm.key("up")
	for range len("cy_renamed") {
		tm.key("backspace")
	}
	tm.key("enter")
	tm.waitFor("the player asked for", has("name the player", "> Player"))
	tm.typeText("cy_renamed")
	tm.key("down")
	tm.typeText("a test")
	tm.key("down")
	tm.waitFor("the refund's choice", has("> Give back", "‹ nothing ›"))
	tm.key("right")
	tm.waitFor("the refund chosen", has("‹ their opponents' points ›"))
	tm.key("enter")
	tm.waitFor("asked once more", has("Enter again closes cy_renamed's account and gives back the points."))
	checkFits(t, tm)
	tm.key("enter")
	// Cy played no rated game: the refund finds nothing to give back.
	tm.waitFor("the account closed", has("cy_renamed's account is closed: 1 session ended; no points to give back",
		"closed cy_renamed's account: a test", "gave back the points cy_renamed's opponents lost (no rating"))
	if _, err := cc.SignIn(ctx, "cy_renamed", "correct horse battery"); err == nil {
		t.Error("the closed account signs in")
	}
	// Reopened, on an appeal: it signs in again.
	tm.key("o")
	tm.waitFor("the reopen form", has("Reopen a closed account", "‹ cy_renamed ›", "> Why"))
	checkFits(t, tm)
	tm.key("enter")
	tm.waitFor("the reason asked for", has("give a reason: it goes in the moderators' log"))
	tm.typeText("appeal heard")
	tm.key("enter")
	tm.waitFor("the account reopened", has("cy_renamed's account is open again: they sign in with their password",
		"reopened cy_renamed's account: appeal heard"))
	cs, err := cc.SignIn(ctx, "cy_renamed", "correct horse battery")
	if err != nil {
		t.Fatalf("the reopened account signs in: %v", err)
	}
	// A report about a table: w watches it, and esc comes back to the
	// queue; a report without one says so. Ben reports Cy about a table
	// Cy plays at, which Ben may watch (a report names a table where its
	// reporter could see the player).
	tm.key("w")
	tm.waitFor("no table", has("the report chosen names no table or event"))
	vs, err := cc.Create(ctx, cs.Token, "nymphabet", nil, []string{"me", "computer:easy"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bc.Report(ctx, bs.Token, "cy_renamed", "cheating", "", vs.Table); err != nil {
		t.Fatal(err)
	}
	// Cy is muted still: Ben, watching, writes.
	if _, err := bc.Chat(ctx, bs.Token, vs.Table, "spectators", "gg computer"); err != nil {
		t.Fatal(err)
	}
	tm.key("r")
	tm.waitFor("the new report first", has("1 open report", "> cy_renamed", "about table "+vs.Table))
	// t reads the table's whole chat, its game still on; the reading
	// is logged.
	tm.key("t")
	tm.waitFor("the table's chat", has("The chat of table "+vs.Table, "spectators: ben_m: “gg computer”", "esc back to the queue"))
	checkFits(t, tm)
	tm.key("esc")
	tm.waitFor("the reading in the log", has("1 open report", "read the chat of a table where cy_renamed was reported"))
	tm.key("w")
	tm.waitFor("the table, watched", func(s string) bool {
		return tm.table() != nil && tm.table().id == vs.Table && strings.Contains(s, "watching")
	})
	tm.key("esc")
	tm.waitFor("the queue again", has("Moderation  ·  1 open report", "> cy_renamed"))
	tm.key("esc")
	tm.waitFor("the account again", has("Your account: ann_m", "Moderation"))
}

// TestModerationLongQueue: a queue longer than the screen keeps the
// report chosen in view, and the screen, its log and its keys keep to
// 80 x 24, whichever report is chosen, however long its chat line.
func TestModerationLongQueue(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	ms := &modScreen{shared: &shared{w: 80, h: 24}, loaded: true}
	for i := range 30 {
		ms.reports = append(ms.reports, client.QueuedReport{ID: fmt.Sprint(i), Name: fmt.Sprintf("player%02d", i), Reporter: "ann", Reason: "other",
			Text: strings.Repeat("a long account of what happened ", 4), Status: "open", Created: at,
			Table: "abcdefghijkmnpqr", Seq: 7, Line: &client.ChatLine{Seq: 7, Name: "Gus", Player: "guest", Text: strings.Repeat("a long rude line ", 20)}})
	}
	for i := range 12 {
		ms.lines = append(ms.lines, client.ModLine{Moderator: "moe", Action: "close-report", Name: fmt.Sprintf("player%02d", i), Detail: "report " + fmt.Sprint(i) + " (other)", Reason: "dealt with at some length", At: at})
	}
	for _, chosen := range []int{0, 7, 15, 29} {
		ms.at = chosen
		s := ansi.Strip(ms.view())
		for _, p := range fitProblems(s, 80, 24) {
			t.Errorf("report %d chosen: %s", chosen, p)
		}
		if want := fmt.Sprintf("> player%02d", chosen); !strings.Contains(s, want) {
			t.Errorf("report %d chosen is not in view:\n%s", chosen, s)
		}
		if !strings.Contains(s, "What moderators did") || !strings.Contains(s, "esc back") {
			t.Errorf("report %d chosen: the log's head or the keys are cut:\n%s", chosen, s)
		}
	}
}

// TestRefundNote: a player whom a moderator gives back the points lost
// to a cheat is told so on the terminal, whatever screen is open.
func TestRefundNote(t *testing.T) {
	t.Parallel()
	var st store.Store
	ts := newTestServerWith(t, func(cfg *server.Config) { st = cfg.Store })
	ctx := context.Background()
	ac, as := signedUp(t, ts, "ann_r")
	bc, bs := signedUp(t, ts, "ben_r")
	cc, cs := signedUp(t, ts, "cy_r")
	if _, err := moderation.Grant(ctx, st, "ann_r", true, "the test", time.Now()); err != nil {
		t.Fatal(err)
	}
	tm := newTermWith(t, ts.URL, "ben_r", 80, 24, Config{DataDir: t.TempDir(), Session: bs.Token, Account: "ben_r"})
	tm.waitFor("the home screen", has("ben_r"))
	// Cy beats Ben in a rated game.
	nym, err := bc.Create(ctx, bs.Token, "nymphabet", nil, []string{"me", "open"}, map[string]any{"rated": true})
	if err != nil {
		t.Fatal(err)
	}
	cySeat, err := cc.Join(ctx, cs.Token, nym.Table)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct {
		c         *client.Client
		tok, move string
	}{{bc, nym.Token, "apple"}, {cc, cySeat.Token, "bed"}, {bc, nym.Token, "resign"}} {
		if _, err := m.c.Move(ctx, m.tok, nym.Table, m.move, 0, false); err != nil {
			t.Fatalf("%s: %v", m.move, err)
		}
	}
	cl, err := ac.CloseAccount(ctx, as.Token, "cy_r", "cheating", true)
	if err != nil || len(cl.Refunds) != 1 {
		t.Fatalf("cy closed with a refund: %+v, %v", cl, err)
	}
	tm.waitFor("the refund told", has(fmt.Sprintf("you got back %.0f rating points in Nymphabet", cl.Refunds[0].Points)))
}

// TestModerationChatLine: a report of a chat line shows the line under
// the report, its writer marked a guest when one, and the mute form
// mutes the line's writer by the line, a table's or an event's, as the
// browser's page does: the guest who wrote it is kept out of chat, and
// another guest of the same name is not. A guest has no account to
// rename or close, and the forms say so rather than name one.
func TestModerationChatLine(t *testing.T) {
	t.Parallel()
	var st store.Store
	clk := tabletest.NewClock(time.Now())
	ts := newTestServerWith(t, func(cfg *server.Config) { st, cfg.Clock = cfg.Store, clk })
	ctx := context.Background()
	_, as := signedUp(t, ts, "ann_l")
	bc, bs := signedUp(t, ts, "ben_l")
	cc, cs := signedUp(t, ts, "cy_l")
	if _, err := moderation.Grant(ctx, st, "ann_l", true, "the test", time.Now()); err != nil {
		t.Fatal(err)
	}
	seat, err := bc.Create(ctx, bs.Token, "nymphabet", nil, []string{"me", "open"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	gus, gusID := guestAt(t, ts, "Gus")
	gus2, gus2ID := guestAt(t, ts, "Gus")
	clk.Advance(table.GuestSpectatorsDelay + time.Second)
	l, err := gus.Chat(ctx, gusID.Token, seat.Table, "spectators", "you all stink")
	if err != nil {
		t.Fatal(err)
	}
	// Cy watches, and reports it (a seat does not read the spectators).
	if _, err := cc.ReportLine(ctx, cs.Token, seat.Table, "", l.Seq, "", "chat", "rude"); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Minute) // the queue's order: the guest's report first
	ev := newArenaAPI(t, ts, bs, "Line night", "")
	said, err := cc.EventSay(ctx, cs.Token, ev.ID, "rigged night")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bc.ReportLine(ctx, bs.Token, "", ev.ID, said.Seq, "", "chat", ""); err != nil {
		t.Fatal(err)
	}

	tm := newTermWith(t, ts.URL, "ann_l", 80, 24, Config{DataDir: t.TempDir(), Session: as.Token, Account: "ann_l"})
	tm.key("a")
	tm.waitFor("Ann's account", has("Moderation"))
	tm.keyUntil("down", "> Moderation")
	tm.key("enter")
	tm.waitFor("the queue", has("Moderation  ·  2 open reports", "> Gus (guest)", "cy_l reported Gus (guest) (abuse in chat) · about line 1 of table", seat.Table+": rude",
		"the line: Gus (guest): “you all stink” (m mutes its writer)"))
	checkFits(t, tm)

	// A guest has no account: the forms name none.
	tm.key("x")
	tm.waitFor("the close-account form", has("Close an account", "a guest has no account: m mutes them by their line", "> Player    ‹ █ ›"))
	tm.key("esc")

	// The guest muted by the line.
	tm.key("m")
	tm.waitFor("the mute form", has("Keep a player out of every chat", "The writer of the reported line",
		"‹ Gus (guest), the writer of line 1 of table "+seat.Table+" ›", "> How long"))
	checkFits(t, tm)
	tm.key("down")
	tm.typeText("slurs")
	tm.key("enter")
	tm.waitFor("the mute", has("the guest Gus is kept out of every chat until", "muted Gus's chat (for 1 hour, the writer of line 1 of table", "): slurs"))
	if _, err := gus.Chat(ctx, gusID.Token, seat.Table, "spectators", "hello?"); err == nil || !strings.Contains(err.Error(), "a moderator muted your chat") {
		t.Errorf("the guest muted writes: %v", err)
	}
	if _, err := gus2.Chat(ctx, gus2ID.Token, seat.Table, "spectators", "not me"); err != nil {
		t.Errorf("the other guest called Gus: %v", err)
	}

	// An event's line: its account writer muted by it.
	tm.key("down")
	tm.waitFor("the event's report", has("> cy_l", "about line 1 of event "+ev.ID, "the line: cy_l: “rigged night”"))
	checkFits(t, tm)
	tm.key("m")
	tm.waitFor("the mute form", has("‹ cy_l, the writer of line 1 of event "+ev.ID+" ›"))
	tm.key("down")
	tm.typeText("spam")
	tm.key("enter")
	tm.waitFor("the mute", has("cy_l is kept out of every chat until"))
	if _, err := cc.EventSay(ctx, cs.Token, ev.ID, "hello?"); err == nil || !strings.Contains(err.Error(), "a moderator muted your chat") {
		t.Errorf("cy_l muted writes: %v", err)
	}

	// w on the event's line opens the event, its chat with the line
	// shown, and esc comes back to the queue.
	tm.waitFor("the event's report chosen", has("> cy_l", "about line 1 of event "+ev.ID))
	tm.key("w")
	tm.waitFor("the event", func(s string) bool {
		e, ok := tm.m.cur.(*eventScreen)
		return ok && e.id == ev.ID && strings.Contains(s, "Line night") && strings.Contains(s, "cy_l: rigged night")
	})
	checkFits(t, tm)
	tm.key("esc")
	tm.waitFor("the queue again", has("Moderation  ·  ", "> cy_l", "about line 1 of event "+ev.ID))
}

// TestLogWords: each line of the moderators' log reads as who did what to
// whom, when and why, the operator's acts on the server's machine among
// them; an action this client does not know is said by its name.
func TestLogWords(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 6, 20, 15, 0, 0, time.UTC)
	for _, c := range []struct {
		line client.ModLine
		want string
	}{
		{client.ModLine{Moderator: "the operator", Action: "password", Name: "robin", Reason: "forgot it", At: at}, "Dec 6 20:15 the operator gave robin's account a new password: forgot it"},
		{client.ModLine{Moderator: "cat", Action: "reopen", Name: "robin", At: at}, "Dec 6 20:15 cat reopened robin's account"},
		{client.ModLine{Moderator: "cat", Action: "rename", Name: "robin", Detail: "was r0bin", At: at}, "Dec 6 20:15 cat renamed robin (was r0bin)"},
		{client.ModLine{Moderator: "the operator", Action: "cancel-event", At: at}, "Dec 6 20:15 the operator cancelled one of the server's own events"},
		{client.ModLine{Moderator: "cat", Action: "unheard-of", Name: "robin", At: at}, "Dec 6 20:15 cat unheard-of robin"},
	} {
		if got := logWords(c.line, time.UTC); got != c.want {
			t.Errorf("%s: %q, want %q", c.line.Action, got, c.want)
		}
	}
}
