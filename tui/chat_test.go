package tui

import (
	"context"
	"slices"
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

// TestChatBetweenTwoPlayers: Ann (the terminal) and Ben (the API) write
// to each other in the players' chat; a line over 200 characters is
// refused in place and stays to be mended; mute hides Ben's lines.
func TestChatBetweenTwoPlayers(t *testing.T) {
	ts := newTestServer(t)
	tm, ben := twoPlayerQuizl(t, ts)
	ctx := context.Background()

	tm.key("ctrl+t")
	tm.typeText("good luck?") // "?" is typed, not the help
	tm.waitFor("the chat line", has("say (players): good luck?"))
	checkFits(t, tm)
	tm.key("enter")
	tm.waitFor("Ann's line in her panel, the chat line closed", func(s string) bool {
		return strings.Contains(s, "Ann (guest): good luck?") && !strings.Contains(s, "say (players)")
	})
	u, err := ben.c.Get(ctx, ben.token, ben.id)
	if err != nil {
		t.Fatal(err)
	}
	if len(u.Chat) != 1 || u.Chat[0].Text != "good luck?" || u.Chat[0].Name != "Ann" {
		t.Fatalf("Ben sees the chat %+v, want Ann's line", u.Chat)
	}

	if _, err := ben.c.Chat(ctx, ben.token, ben.id, "players", "thanks, you too"); err != nil {
		t.Fatal(err)
	}
	s := tm.waitFor("Ben's line on Ann's screen", has("Ben (guest): thanks, you too", "Ann (guest): good luck?"))
	checkFits(t, tm)
	if n := strings.Count(s, "Ann (guest): good luck?"); n != 1 {
		t.Errorf("Ann's line shows %d times, want once (kept by seq):\n%s", n, s)
	}

	tm.key("ctrl+t")
	long := strings.Repeat("a", 201)
	tm.typeText(long)
	tm.key("enter")
	tm.waitFor("the refusal in place", func(s string) bool { return strings.Contains(s, "! ") && tm.table().chat.err != "" })
	checkFits(t, tm)
	if tm.table().chat.line != long || !tm.table().chat.open {
		t.Errorf("the refused line was not kept to mend: %d characters, open %v", len(tm.table().chat.line), tm.table().chat.open)
	}
	if !strings.Contains(tm.table().chat.err, "200") {
		t.Errorf("the refusal %q does not say the limit", tm.table().chat.err)
	}
	u, _ = ben.c.Get(ctx, ben.token, ben.id)
	for _, l := range u.Chat {
		if strings.HasPrefix(l.Text, "aaa") {
			t.Errorf("the refused line reached Ben: %q", l.Text)
		}
	}
	tm.key("esc")
	tm.waitFor("the chat line closed", func(s string) bool { return !strings.Contains(s, "say (players)") })

	tm.key("ctrl+o")
	tm.waitFor("the mute said", has("chat is muted"))
}

// TestGuestsMarked: a guest's name says so wherever others see it in the
// terminal, the lobby's list, a table's seats and its chat, so that no
// guest passes for an account; an account's name carries no mark.
func TestGuestsMarked(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()
	ann, annS := signedUp(t, ts, "Ann")
	gus, err := client.New(ts.URL, "Gus")
	if err != nil {
		t.Fatal(err)
	}
	guestTable, err := gus.Create(ctx, "", "nymphabet", nil, []string{"me", "open"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	annTable, err := ann.Create(ctx, annS.Token, "nymphabet", nil, []string{"me", "open"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tm := newTerm(t, ts.URL, "Cy", 100, 30)
	tm.key("l")
	s := tm.waitFor("the lobby", has(guestTable.Table, annTable.Table))
	if l := lineWith(s, guestTable.Table); !strings.Contains(l, "Gus (guest)") {
		t.Errorf("the lobby's line of a guest's table: %q", l)
	}
	if l := lineWith(s, annTable.Table); !strings.Contains(l, "Ann") || strings.Contains(l, "guest") {
		t.Errorf("the lobby's line of an account's table: %q", l)
	}
	// At Gus's table: his seat and his chat line are marked.
	if _, err := gus.Chat(ctx, guestTable.Token, guestTable.Table, "players", "hello"); err != nil {
		t.Fatal(err)
	}
	tm.key("esc")
	tm.key("i")
	tm.typeText(guestTable.Table)
	tm.key("enter")
	tm.waitFor("Gus's table, before sitting down", has("Gus (guest)", "enter take a seat"))
	tm.key("enter")
	tm.waitFor("Gus's chat line, marked", has("Gus (guest): hello"))
}

// TestChatReport: on a table's chat line a signed-in player reports
// another to the moderators with /report NAME REASON and what happened,
// as the browser's Report button in the chat does: the report carries
// the table, nothing goes to the chat, and the news says so. A line
// without a reason says how to write one; a reason the server does not
// know is refused in its words; a guest is told reports are an
// account's.
func TestChatReport(t *testing.T) {
	t.Parallel()
	var st store.Store
	ts := newTestServerWith(t, func(cfg *server.Config) { st = cfg.Store })
	ctx := context.Background()
	_, as := signedUp(t, ts, "ann_r")
	bc, bs := signedUp(t, ts, "ben_r")
	tm := newTermWith(t, ts.URL, "ann_r", 80, 24, Config{DataDir: t.TempDir(), Session: as.Token, Account: "ann_r"})
	tm.open("quizl", 3) // a friend
	tm.key("enter")
	tm.waitFor("the invite", has("Invite a friend"))
	id := tm.table().id
	if _, err := bc.Join(ctx, bs.Token, id); err != nil {
		t.Fatal(err)
	}

	tm.key("ctrl+t")
	tm.waitFor("the chat line, with how to report", has("say (players), or /report NAME REASON: █"))
	checkFits(t, tm)
	tm.typeText("/report ben_r")
	tm.key("enter")
	tm.waitFor("how to write a report", has("write /report NAME REASON, then what happened", "/report ben_r█"))
	checkFits(t, tm)
	tm.typeText(" rude x")
	tm.key("enter")
	tm.waitFor("the server's refusal", has(`the reason must be "cheating"`, "/report ben_r rude x█"))
	for range len(" rude x") {
		tm.key("backspace")
	}
	tm.typeText(" chat called me names")
	tm.key("enter")
	tm.waitFor("the report sent", has("your report about ben_r went to the moderators, with this table"))
	checkFits(t, tm)
	if tm.table().chat.open || len(tm.table().chat.lines) != 0 {
		t.Errorf("the report stayed on the line or went to the chat: %+v", tm.table().chat)
	}
	rs, err := moderation.Queue(ctx, st, 10)
	if err != nil || len(rs) != 1 {
		t.Fatalf("the queue: %+v, %v", rs, err)
	}
	if r := rs[0]; r.Name != "ben_r" || r.Reporter != "ann_r" || r.Reason != "chat" || r.Text != "called me names" || r.Table != id {
		t.Errorf("the report reads %+v; want ben_r reported by ann_r for chat, about table %s", r, id)
	}

	// A guest at a table of their own: no hint, and told why not.
	gm := newTerm(t, ts.URL, "Gus", 80, 24)
	gm.open("quizl", 3)
	gm.key("enter")
	gm.waitFor("the invite", has("Invite a friend"))
	gm.key("ctrl+t")
	if s := gm.waitFor("the chat line", has("say (players): █")); strings.Contains(s, "/report") {
		t.Errorf("a guest's chat line offers /report:\n%s", s)
	}
	gm.typeText("/report ben_r chat hi")
	gm.key("enter")
	gm.waitFor("the refusal", has("sign in to report a player"))
}

// TestSpectatorsChat: a spectator has no seat, and so no seat's token;
// they write in the spectators' chat and mute it as themselves: an
// account by its session, a guest by the identity the client holds, or,
// holding none, by one made then (which the server lets write a minute
// after it was made).
func TestSpectatorsChat(t *testing.T) {
	t.Parallel()
	clk := tabletest.NewClock(time.Now())
	ts := newTestServerWith(t, func(c *server.Config) { c.Clock = clk })
	ctx := context.Background()
	ben, err := client.New(ts.URL, "Ben")
	if err != nil {
		t.Fatal(err)
	}
	seat, err := ben.Create(ctx, "", "nymphabet", nil, []string{"me", "open"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cy, err := client.New(ts.URL, "Cy")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cy.Join(ctx, "", seat.Table); err != nil {
		t.Fatal(err)
	}
	_, annS := signedUp(t, ts, "ann_w")
	_, gus := guestAt(t, ts, "Gus")
	dee, deeID := guestAt(t, ts, "Dee")
	clk.Advance(table.GuestSpectatorsDelay + time.Second)

	// watch opens the game in play from the join screen, as a spectator.
	watch := func(tm *term) {
		t.Helper()
		tm.key("i")
		tm.typeText(seat.Table)
		tm.key("enter")
		tm.waitFor("the game to watch", has("enter watch the game"))
		tm.key("enter")
		tm.waitFor("the game, watched", has("watching · ctrl+t chat with the spectators"))
	}
	// say writes text on the chat's line, and waits for it in the panel.
	say := func(tm *term, text, as string) {
		t.Helper()
		tm.key("ctrl+t")
		tm.typeText(text)
		tm.waitFor("the chat line", has("say (spectators): "+text))
		tm.key("enter")
		tm.waitFor("the line in the panel", func(s string) bool {
			return strings.Contains(s, as+": "+text) && !strings.Contains(s, "say (spectators)")
		})
		checkFits(t, tm)
		u, err := ben.Get(ctx, "", seat.Table) // anybody reads the spectators' chat
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(u.Chat, func(l client.ChatLine) bool {
			return l.Text == text && l.Channel == "spectators" && strings.HasPrefix(as, l.Name)
		}) {
			t.Errorf("the spectators' chat %+v lacks %s's %q", u.Chat, as, text)
		}
	}

	// An account: its session.
	tm := newTermWith(t, ts.URL, "ann_w", 80, 24, Config{DataDir: t.TempDir(), Session: annS.Token, Account: "ann_w"})
	watch(tm)
	say(tm, "who wins?", "ann_w")
	tm.key("ctrl+o")
	tm.waitFor("the mute said", has("the spectators' chat is muted"))
	if _, err := dee.Chat(ctx, deeID.Token, seat.Table, "spectators", "Ben, surely"); err != nil {
		t.Fatal(err)
	}
	tm.waitFor("Dee's line to reach the table", func(string) bool {
		return slices.ContainsFunc(tm.table().chat.lines, func(l client.ChatLine) bool { return l.Text == "Ben, surely" })
	})
	if s := tm.screen(); strings.Contains(s, "Ben, surely") || strings.Contains(s, "who wins?") {
		t.Errorf("the muted chat shows:\n%s", s)
	}
	tm.key("ctrl+o")
	tm.waitFor("the chat heard again", has("the spectators' chat is heard again", "Dee (guest): Ben, surely"))

	// A guest the client knows.
	tm = newTermWith(t, ts.URL, "Gus", 80, 24, Config{DataDir: t.TempDir(), Identity: gus.Token})
	watch(tm)
	say(tm, "Cy, surely", "Gus (guest)")

	// A guest new to the server: an identity is made to write as, and
	// kept for the seats to come.
	tm = newTerm(t, ts.URL, "Fay", 80, 24)
	watch(tm)
	tm.key("ctrl+t")
	tm.typeText("hello")
	tm.key("enter")
	tm.waitFor("the server's refusal in place", has("! a new guest may write in the spectators' chat"))
	checkFits(t, tm)
	if tm.m.idToken == "" {
		t.Fatal("the guest identity made to write as is not kept")
	}
	clk.Advance(table.GuestSpectatorsDelay)
	tm.key("enter")
	tm.waitFor("Fay's line", has("Fay (guest): hello"))
}

// TestChatRefusalWrapped: the server's refusal of a chat's line shows
// whole above it, on two lines if need be: cut at the screen's edge it
// lost its reason.
func TestChatRefusalWrapped(t *testing.T) {
	t.Parallel()
	refusal := "a new guest may write in the spectators' chat a minute after arriving, or once they have played a game: wait a moment"
	ts := &tableScreen{shared: &shared{w: 80, h: 24}, seat: -1, game: "nymphabet",
		upd: &client.Update{Table: client.Table{Status: "playing", Seats: []client.Seat{{Name: "Ben"}, {Name: "Cy"}}}}}
	ts.chat, ts.play, ts.setup, ts.end = &chatPanel{t: ts}, &playScreen{t: ts}, &setupScreen{t: ts}, &endScreen{t: ts}
	ts.chat.open, ts.chat.line, ts.chat.err = true, "hello", refusal
	s := ansi.Strip(ts.view())
	if !strings.Contains(strings.Join(strings.Fields(s), " "), "! "+refusal) {
		t.Errorf("the refusal is not whole:\n%s", s)
	}
	for _, p := range fitProblems(s, 80, 24) {
		t.Error(p)
	}
	if !strings.Contains(s, "say (spectators): hello█") {
		t.Errorf("the line being written is gone:\n%s", s)
	}
}

// TestChatReportGuestLine: a guest's name is nobody's own, so /report
// on a table's chat names a guest by their latest line shown there, as
// the browser's Report button offers the guests' lines: the report is
// about that line and its writer, and not about another guest of the
// same name; the news says which line went. On an event's chat a
// writer, guest or account, is reported by their line, so that the
// report is about the event.
func TestChatReportGuestLine(t *testing.T) {
	t.Parallel()
	var st store.Store
	clk := tabletest.NewClock(time.Now())
	ts := newTestServerWith(t, func(cfg *server.Config) { st, cfg.Clock = cfg.Store, clk })
	ctx := context.Background()
	_, as := signedUp(t, ts, "ann_g")
	bc, bs := signedUp(t, ts, "ben_g")
	seat, err := bc.Create(ctx, bs.Token, "nymphabet", nil, []string{"me", "open"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cy, err := client.New(ts.URL, "Cy")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cy.Join(ctx, "", seat.Table); err != nil {
		t.Fatal(err)
	}
	gus, gusID := guestAt(t, ts, "Gus")
	gus2, gus2ID := guestAt(t, ts, "Gus")
	clk.Advance(table.GuestSpectatorsDelay + time.Second)
	if _, err := gus2.Chat(ctx, gus2ID.Token, seat.Table, "spectators", "good game"); err != nil {
		t.Fatal(err)
	}
	bad, err := gus.Chat(ctx, gusID.Token, seat.Table, "spectators", "you all stink")
	if err != nil {
		t.Fatal(err)
	}

	tm := newTermWith(t, ts.URL, "ann_g", 80, 24, Config{DataDir: t.TempDir(), Session: as.Token, Account: "ann_g"})
	tm.key("i")
	tm.typeText(seat.Table)
	tm.key("enter")
	tm.waitFor("the table", has("enter watch the game"))
	tm.key("enter")
	tm.waitFor("the guests' lines", has("Gus (guest): good game", "Gus (guest): you all stink"))
	tm.key("ctrl+t")
	tm.typeText("/report gus chat insults")
	tm.key("enter")
	tm.waitFor("the report sent", has("your report about Gus (guest), by their line “you all stink”, went to the"))
	checkFits(t, tm)
	rs, err := moderation.Queue(ctx, st, 10)
	if err != nil || len(rs) != 1 {
		t.Fatalf("the queue: %+v, %v", rs, err)
	}
	if r := rs[0]; r.Name != "Gus" || r.Table != seat.Table || r.Seq != bad.Seq || r.Line == nil || r.Line.Text != "you all stink" || r.Text != "insults" {
		t.Errorf("the report reads %+v; want Gus's line %d of table %s", r, bad.Seq, seat.Table)
	}

	// An event's chat: its guest reported by their line, about the event.
	ev := newArenaAPI(t, ts, bs, "Report night", "")
	ida, idaID := guestAt(t, ts, "Ida")
	if _, err := ida.JoinTournament(ctx, idaID.Token, ev.ID, ""); err != nil {
		t.Fatal(err)
	}
	said, err := ida.EventSay(ctx, idaID.Token, ev.ID, "rigged night")
	if err != nil {
		t.Fatal(err)
	}
	tm.key("esc")
	tm.waitFor("home", has("e events"))
	tm.key("e")
	tm.waitFor("the list", has("> Report night"))
	tm.key("enter")
	tm.waitFor("the event's chat", has("Ida (guest): rigged night"))
	tm.key("ctrl+t")
	tm.waitFor("the line, with how to report", has("say, or /report NAME REASON: █"))
	tm.typeText("/report ida chat")
	tm.key("enter")
	tm.waitFor("the report sent", has("your report about Ida (guest), by their line “rigged night”, went to the"))
	checkFits(t, tm)
	rs, err = moderation.Queue(ctx, st, 10)
	if err != nil || len(rs) != 2 {
		t.Fatalf("the queue: %+v, %v", rs, err)
	}
	if rs[0].Tournament != "" {
		rs[0], rs[1] = rs[1], rs[0] // made at the same moment: in either order
	}
	if r := rs[1]; r.Name != "Ida" || r.Tournament != ev.ID || r.Seq != said.Seq || r.Line == nil || r.Line.Text != "rigged night" {
		t.Errorf("the report reads %+v; want Ida's line %d of event %s", r, said.Seq, ev.ID)
	}
}

// TestReportedLine: /report names the latest writer of the name given,
// in any case: a guest by their line, an account by name (by their line
// too where asked), and nobody the chat does not show.
func TestReportedLine(t *testing.T) {
	t.Parallel()
	lines := []client.ChatLine{
		{Seq: 1, Name: "Gus", Player: "guest", Text: "one"},
		{Seq: 2, Name: "Bob", Player: "account", Text: "two"},
		{Seq: 3, Name: "Gus", Player: "guest", Text: "three"},
		{Seq: 4, Name: "Bob", Player: "guest", Text: "four"},
		{Seq: 5, Name: "Ann", Player: "account", Text: "five"},
	}
	for _, c := range []struct {
		name      string
		anyWriter bool
		seq       int
		byLine    bool
	}{
		{"gus", false, 3, true},
		{"Bob", false, 4, true}, // a guest called Bob wrote last
		{"Ann", false, 5, false},
		{"Ann", true, 5, true},
		{"Zed", false, 0, false},
	} {
		l, byLine := reportedLine(lines, c.name, c.anyWriter)
		if l.Seq != c.seq || byLine != c.byLine {
			t.Errorf("reportedLine(%q, %v) = line %d, by line %v; want line %d, %v", c.name, c.anyWriter, l.Seq, byLine, c.seq, c.byLine)
		}
	}
}
