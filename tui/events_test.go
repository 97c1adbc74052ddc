package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/tui/client"
)

// TestEventsInTheTerminal: e lists the events to come and under way; a
// guest opens one, is refused with a wrong password (the server's words
// under the screen), joins with the right one and is in the standings;
// when the arena starts and pairs them, the game's table opens by itself
// (a guest has no player stream: the standings name the table); the game
// played to its end, esc comes back to the event, whose standings score
// the win.
func TestEventsInTheTerminal(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()
	ben, benS := signedUp(t, ts, "Ben")
	cat, catS := signedUp(t, ts, "Cat")
	finishedSwiss(t, ts, ben, benS, cat, catS)
	ev := newArenaAPI(t, ts, benS, "Club night", "owl")
	if _, err := ben.JoinTournament(ctx, benS.Token, ev.ID, "owl"); err != nil {
		t.Fatal(err)
	}

	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.key("e")
	s := tm.waitFor("the list", has("Events", "To come", "> Club night ⚿", "Nymphabet", "arena", "1+0", "1 player", "Under way", "Finished"))
	checkFits(t, tm)
	if !regexp.MustCompile(`in (\d+s|1m 00s)`).MatchString(s) {
		t.Errorf("the list does not count down to the start:\n%s", s)
	}
	if _, done, _ := strings.Cut(s, "Finished"); !regexp.MustCompile(`Sunday Swiss\s+Nymphabet\s+Swiss\s+1\+0\s+(won by Ben|over)\s+2 players`).MatchString(done) {
		t.Errorf("the finished Swiss is not listed with its winner:\n%s", s)
	}
	tm.key("enter")
	tm.waitFor("the event", has("Club night", "Arena of 30 minutes", "Nymphabet · 1+0 · casual\n⚿ password\n", "starts in", "Standings", "Ben"))
	checkFits(t, tm)

	// A wrong password: the server's refusal, and nothing joined.
	tm.key("j")
	tm.waitFor("the password's prompt", has("The password of Club night"))
	tm.typeText("lark")
	if s := tm.screen(); strings.Contains(s, "lark") || !strings.Contains(s, "••••") {
		t.Errorf("the password shows as typed:\n%s", s)
	}
	tm.key("enter")
	tm.waitFor("the refusal", has("Club night", "that is not the password of Club night"))
	checkFits(t, tm)
	if got, err := ben.Tournament(ctx, "", ev.ID); err != nil || len(got.Standings) != 1 {
		t.Fatalf("after a wrong password the standings are %+v, %v", got.Standings, err)
	}

	// The right one.
	tm.key("j")
	tm.waitFor("the password's prompt", has("The password of Club night"))
	tm.typeText("owl")
	tm.key("enter")
	tm.waitFor("joined", has("you joined Club night", "you are in it", "Ann", "2 players"))
	checkFits(t, tm)

	// Ben starts it: the arena pairs them, and Ann's table opens.
	if err := startEvent(ben, benS, ev.ID); err != nil {
		t.Fatal(err)
	}
	s = tm.waitFor("the event's game", has("Nymphabet · ", "you: Ann"))
	checkFits(t, tm)
	// The first line names the event where it has room (whose turn it
	// is first): at 100 columns.
	tm.update(tea.WindowSizeMsg{Width: 100, Height: 24})
	if first, _, _ := strings.Cut(tm.screen(), "\n"); !strings.HasPrefix(first, "Nymphabet · Club night · ") {
		t.Errorf("the table's first line does not name its event: %q", first)
	}
	checkFits(t, tm)
	tm.update(tea.WindowSizeMsg{Width: 80, Height: 24})
	tb := tm.table()
	if tb.event == nil || tb.event.id != ev.ID {
		t.Fatalf("the table opened is not the event's: %+v", tb.event)
	}
	// Ben leaves the event (he is paired no more) and resigns his game.
	if _, err := ben.LeaveTournament(ctx, benS.Token, ev.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := ben.Move(ctx, benS.Token, tb.id, "resign", 0, false); err != nil {
		t.Fatal(err)
	}
	s = tm.waitFor("the game's end", over)
	// The event pairs its players again: the end screen offers no
	// rematch, and r says why.
	if strings.Contains(s, "r rematch") {
		t.Errorf("an event's game offers a rematch:\n%s", s)
	}
	tm.key("r")
	tm.waitFor("no rematch", has("Club night pairs its own games: they have no rematch"))
	tm.key("esc")
	s = tm.waitFor("the event again, the win scored", func(s string) bool {
		return strings.Contains(s, "under way:") && regexp.MustCompile(`1\s+Ann\s+2\s+1`).MatchString(s)
	})
	checkFits(t, tm)
	if !strings.Contains(s, "left") {
		t.Errorf("Ben, who left, is not marked so:\n%s", s)
	}

	// Back to the list: the event is under way.
	tm.key("esc")
	tm.waitFor("the list, the event under way", func(s string) bool {
		_, under, _ := strings.Cut(s, "Under way")
		return strings.Contains(under, "Club night") && strings.Contains(under, "left")
	})
	checkFits(t, tm)

	// Home: the guest's recent game, kept by the client, names its event,
	// which counted it (Ben resigned before every player had moved).
	tm.key("esc")
	s = tm.waitFor("the recent game", func(s string) bool { return strings.Contains(lineWith(s, tb.id), " aborted ") })
	lines := strings.Split(s, "\n")
	if i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, tb.id) }); i+1 >= len(lines) || strings.TrimSpace(lines[i+1]) != "in Club night" {
		t.Errorf("the recent game does not name its event:\n%s", s)
	}
}

// TestEventPairingOnTheStream: a signed-in player who joined an event
// elsewhere (the browser, say) and sits on the home screen is brought to
// the game's table by the player stream's tournamentGame line; esc there
// opens the event.
func TestEventPairingOnTheStream(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()
	ben, benS := signedUp(t, ts, "Ben")
	ann, annS := signedUp(t, ts, "Ann")
	ev := newArenaAPI(t, ts, benS, "Stream night", "")
	tm := newTermWith(t, ts.URL, "Ann", 80, 24, Config{DataDir: t.TempDir(), Session: annS.Token, Account: "Ann"})
	for _, p := range []struct {
		c *client.Client
		s client.Session
	}{{ben, benS}, {ann, annS}} {
		if _, err := p.c.JoinTournament(ctx, p.s.Token, ev.ID, ""); err != nil {
			t.Fatal(err)
		}
	}
	waitOnline(t, ben, "Ann")
	if err := startEvent(ben, benS, ev.ID); err != nil {
		t.Fatal(err)
	}
	tm.waitFor("the event's game", has("Nymphabet · ", "you: Ann", "Stream night paired you"))
	checkFits(t, tm)
	tm.key("esc")
	s := tm.waitFor("the event", has("Stream night", "Arena of 30 minutes", "you are in it (playing)", "Games under way"))
	if !strings.Contains(s, "Ann v Ben") && !strings.Contains(s, "Ben v Ann") {
		t.Errorf("the game under way is not listed:\n%s", s)
	}
	checkFits(t, tm)
	// enter on her own game takes her back to her seat.
	tm.key("enter")
	tm.waitFor("her seat again", has("Nymphabet · ", "you: Ann"))
	first := tm.table().id

	// A word each, then Ben resigns (a resignation before both moved
	// would abort the game, as the next one is): the game is over, and
	// after the arena's pause the next pairing brings Ann's next game to
	// her screen by itself.
	u, err := ben.Get(ctx, benS.Token, first)
	if err != nil {
		t.Fatal(err)
	}
	words := []string{"abdicated", "egg"} // a, b, c, d; then e
	benFirst := u.Table.ToMove[0] == u.Seat
	if benFirst {
		if _, err := ben.Move(ctx, benS.Token, first, words[0], 0, false); err != nil {
			t.Fatal(err)
		}
		words = words[1:]
	}
	tm.waitFor("Ann's turn", has("▶ your turn"))
	tm.typeText(words[0])
	tm.key("enter")
	tm.waitFor("Ann's word played", has("waiting for Ben"))
	if !benFirst {
		if _, err := ben.Move(ctx, benS.Token, first, words[1], 0, false); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ben.Move(ctx, benS.Token, first, "resign", 0, false); err != nil {
		t.Fatal(err)
	}
	tm.waitFor("the game's end", over)
	s = tm.waitFor("the next game", func(s string) bool {
		return tm.table() != nil && tm.table().id != first && strings.Contains(s, "you: Ann")
	})
	checkFits(t, tm)
	// The next game took the place of the end screen: the news says how
	// the last one ended.
	if !strings.Contains(s, "Your last game: you won (Ben resigned). Stream night paired you") {
		t.Errorf("the next game does not say how the last ended:\n%s", s)
	}
	if e := tm.table().event; e == nil || e.id != ev.ID {
		t.Errorf("the next game is not the event's: %+v", e)
	}
	// Ben resigns the next game before anyone has moved: the table
	// aborts it, without a result, but the arena counts it as Ann's win,
	// and the news that replaces its end screen says so rather than a
	// bare "aborted".
	next := tm.table().id
	if _, err := ben.Move(ctx, benS.Token, next, "resign", 0, false); err != nil {
		t.Fatal(err)
	}
	s = tm.waitFor("the game after", func(s string) bool {
		return tm.table() != nil && tm.table().id != next && strings.Contains(s, "you: Ann")
	})
	checkFits(t, tm)
	if !strings.Contains(strings.Join(strings.Fields(s), " "), "Your last game: aborted: Ben resigned before every player had moved, which Stream night counts as your win. Stream night paired you") {
		t.Errorf("the news of an aborted game does not say how the event counts it:\n%s", s)
	}
	// Home, the games name the event: those under way as the table
	// has them, those over as the account's history does.
	tm.key("esc")
	tm.waitFor("the event", has("Stream night", "Arena of 30 minutes"))
	tm.key("esc")
	tm.waitFor("home", has("Your recent games", first, next))
	checkFits(t, tm)
	tm.update(tea.WindowSizeMsg{Width: 100, Height: 24})
	s = tm.screen()
	for _, id := range []string{first, next} {
		if l := lineWith(s, id); !strings.HasSuffix(strings.TrimSpace(l), " · in Stream night") {
			t.Errorf("the recent game %s does not name its event:\n%s", id, s)
		}
	}
}

// TestEventLeftNotReopened: a player who left an arena while its game
// with them goes on is not taken back to that game when the client
// starts again (the player stream names it among their tables under
// way); one still in the arena is.
func TestEventLeftNotReopened(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()
	ben, benS := signedUp(t, ts, "Ben")
	ann, annS := signedUp(t, ts, "Ann")
	ev := newArenaAPI(t, ts, benS, "Hourly Salvo Arena", "")
	for _, p := range []struct {
		c *client.Client
		s client.Session
	}{{ben, benS}, {ann, annS}} {
		if _, err := p.c.JoinTournament(ctx, p.s.Token, ev.ID, ""); err != nil {
			t.Fatal(err)
		}
	}
	if err := startEvent(ben, benS, ev.ID); err != nil {
		t.Fatal(err)
	}
	var game string
	for end := time.Now().Add(30 * time.Second); game == ""; time.Sleep(20 * time.Millisecond) {
		got, err := ann.Tournament(ctx, "", ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Playing) == 1 {
			game = got.Playing[0].Table
		}
		if time.Now().After(end) {
			t.Fatalf("the arena paired nobody: %+v", got)
		}
	}
	if _, err := ann.LeaveTournament(ctx, annS.Token, ev.ID); err != nil {
		t.Fatal(err)
	}

	tm := newTermWith(t, ts.URL, "Ann", 80, 24, Config{DataDir: t.TempDir(), Session: annS.Token, Account: "Ann"})
	// The stream's opening lines name the game (its recent games list
	// it), and the event is read.
	tm.waitFor("the game among Ann's recent games", has("Your recent games", game))
	time.Sleep(500 * time.Millisecond)
	s := tm.screen()
	if tm.table() != nil || strings.Contains(s, "paired you") {
		t.Fatalf("the game of an event Ann left opens:\n%s", s)
	}

	bm := startTerm(t, ts.URL, "Ben", 80, 24, Config{DataDir: t.TempDir(), Session: benS.Token, Account: "Ben"})
	bm.waitFor("Ben's game", has("you: Ben", "Hourly Salvo Arena paired you"))
	checkFits(t, bm)
	if id := bm.table().id; id != game {
		t.Errorf("Ben's client opened table %s, not his game %s", id, game)
	}
}

// finishedSwiss has Ben make a Swiss of one round, which he and Cat
// join and play (Cat resigns): a finished event, won by Ben.
func finishedSwiss(t *testing.T, ts *testServer, ben *client.Client, benS client.Session, cat *client.Client, catS client.Session) {
	t.Helper()
	ctx := context.Background()
	var sw client.Tournament
	if err := postAs(ts.URL, benS.Token, "/api/v1/tournaments", map[string]any{"kind": "swiss", "name": "Sunday Swiss", "game": "nymphabet",
		"rounds": 1, "clock": map[string]any{"kind": "fischer", "initial": 60, "increment": 0}}, &sw); err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct {
		c *client.Client
		s client.Session
	}{{ben, benS}, {cat, catS}} {
		if _, err := p.c.JoinTournament(ctx, p.s.Token, sw.ID, ""); err != nil {
			t.Fatal(err)
		}
	}
	if err := startEvent(ben, benS, sw.ID); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, err := ben.Tournament(ctx, "", sw.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status == "finished" {
			return
		}
		if len(got.Playing) == 1 {
			cat.Move(ctx, catS.Token, got.Playing[0].Table, "resign", 0, false)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the Swiss did not finish: %+v", got)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// newArenaAPI makes the arena through the API as the account of s.
func newArenaAPI(t *testing.T, ts *testServer, s client.Session, name, password string) client.Tournament {
	t.Helper()
	body := map[string]any{"kind": "arena", "name": name, "game": "nymphabet", "minutes": 30,
		"clock": map[string]any{"kind": "fischer", "initial": 60, "increment": 0}}
	if password != "" {
		body["password"] = password
	}
	var ev client.Tournament
	if err := postAs(ts.URL, s.Token, "/api/v1/tournaments", body, &ev); err != nil {
		t.Fatalf("making the arena: %v", err)
	}
	return ev
}

// startEvent has its creator start event id at once.
func startEvent(c *client.Client, s client.Session, id string) error {
	return postAs(c.Base(), s.Token, "/api/v1/tournaments/"+id+"/start", struct{}{}, nil)
}

// postAs POSTs body to path at the server base as the bearer of token,
// and decodes the answer into out (when not nil): the requests the
// terminal never makes (an event made or started).
func postAs(base, token, path string, body, out any) error {
	j, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequest(http.MethodPost, base+path, bytes.NewReader(j))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode >= 300 {
		return fmt.Errorf("POST %s: %s: %s", path, res.Status, raw)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(raw, out)
}

// TestEventChat: the event screen shows its chat's latest messages, read
// with the event; ctrl+t opens a line whose message (a "?" in it typed,
// not the help) goes to the chat; a guest who is not in the event cannot
// write, in words, and the line stays; another player's message arrives
// without a key.
func TestEventChat(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()
	ben, benS := signedUp(t, ts, "Ben")
	ev := newArenaAPI(t, ts, benS, "Chat night", "")
	if _, err := ben.EventSay(ctx, benS.Token, ev.ID, "welcome all"); err != nil {
		t.Fatal(err)
	}

	ac, as := signedUp(t, ts, "ann_c")
	tm := newTermWith(t, ts.URL, "ann_c", 80, 24, Config{DataDir: t.TempDir(), Session: as.Token, Account: "ann_c"})
	tm.key("e")
	tm.waitFor("the list", has("> Chat night"))
	tm.key("enter")
	tm.waitFor("the event and its chat", has("Chat night", "Chat", "Ben: welcome all", "ctrl+t chat"))
	checkFits(t, tm)
	tm.key("ctrl+t")
	tm.typeText("who plays first?")
	tm.waitFor("the line, ? typed", has("say: who plays first?█"))
	tm.key("enter")
	tm.waitFor("the message sent", has("ann_c: who plays first?"))
	checkFits(t, tm)
	if got, _, err := ac.EventChat(ctx, "", ev.ID, 0); err != nil || len(got) != 2 || got[1].Text != "who plays first?" {
		t.Errorf("the event's chat holds %+v, %v", got, err)
	}
	if _, err := ben.EventSay(ctx, benS.Token, ev.ID, "Ben does"); err != nil {
		t.Fatal(err)
	}
	tm.waitFor("Ben's answer, read with the event", has("Ben: Ben does"))

	// A guest who is not in the event is told, before typing a line the
	// server would refuse, what would let them write; joined, they write.
	gm := newTerm(t, ts.URL, "Gus", 80, 24)
	gm.key("e")
	gm.waitFor("the list", has("> Chat night"))
	gm.key("enter")
	gm.waitFor("the event", has("Ben: Ben does", "j join · ctrl+t chat"))
	gm.key("ctrl+t")
	s := gm.waitFor("the refusal", has("join the event (j), or sign in on the home screen, to write in its chat"))
	checkFits(t, gm)
	if strings.Contains(s, "say:") {
		t.Errorf("a guest not in the event is given the chat's line:\n%s", s)
	}
	gm.key("j")
	gm.waitFor("Gus in", has("you are in it"))
	gm.key("ctrl+t")
	gm.typeText("hello")
	gm.key("enter")
	gm.waitFor("Gus's message sent", has("Gus (guest): hello"))
}

// TestEventRecordsSaved: d on a finished event saves every game's record,
// one a line as the export has them, into the client's records folder; a
// client whose player is elsewhere (the SSH door's) gives the address and
// the curl line instead; an event not over says when it can.
func TestEventRecordsSaved(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ben, benS := signedUp(t, ts, "Ben")
	cat, catS := signedUp(t, ts, "Cat")
	finishedSwiss(t, ts, ben, benS, cat, catS)

	dir := t.TempDir()
	tm := newTermWith(t, ts.URL, "Ann", 80, 24, Config{DataDir: dir})
	tm.key("e")
	tm.waitFor("the list", has("> Sunday Swiss"))
	tm.key("enter")
	tm.waitFor("the finished event, won by its first place alone", has("Sunday Swiss", "finished: won by Ben · second Cat · 2 players", "d save every game's record"))
	checkFits(t, tm)
	tm.key("d")
	path := filepath.Join(dir, "records", "event-")
	tm.waitFor("the records saved", has("saved 1 game's record, one a line, to", "records/event-"))
	checkFits(t, tm)
	files, _ := filepath.Glob(path + "*.ndjson")
	if len(files) != 1 {
		t.Fatalf("the records folder holds %q", files)
	}
	raw, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Game    string            `json:"game"`
		Players []json.RawMessage `json:"players"`
	}
	if lines := strings.Split(strings.TrimSpace(string(raw)), "\n"); len(lines) != 1 || json.Unmarshal([]byte(lines[0]), &rec) != nil || rec.Game != "nymphabet" || len(rec.Players) != 2 {
		t.Errorf("the file holds %d lines, the first read as %+v:\n%s", len(lines), rec, raw)
	}

	// Over SSH: the address, and nothing written.
	door := newTermWith(t, ts.URL, "Dan", 80, 24, Config{DataDir: t.TempDir(), NoDisk: true, PublicURL: "https://parlour.example"})
	door.key("e")
	door.waitFor("the list", has("> Sunday Swiss"))
	door.key("enter")
	door.waitFor("the finished event", has("Sunday Swiss", "d save every game's record"))
	door.key("d")
	door.waitFor("the address", has("curl -o", "https://parlour.example/api/v1/tournaments/"))
	checkFits(t, door)

	// An event to come has no records yet.
	newArenaAPI(t, ts, benS, "Later", "")
	tm.key("esc")
	tm.key("r")
	if s := tm.waitFor("the list", has("Later")); !strings.Contains(s, "> Later") {
		tm.key("up")
	}
	tm.waitFor("the event to come chosen", has("> Later"))
	tm.key("enter")
	tm.waitFor("the event to come", has("Later", "starts in"))
	tm.key("d")
	tm.waitFor("not yet", has("the records can be saved once the event is over"))
}

// TestEventChatMute: the event's maker keeps a writer out of its chat by
// typing /mute NAME on the chat's line (and lets them back with /unmute),
// as the browser's Mute button does; a line that names nobody is refused
// in place, and anybody else's /mute in the server's words.
func TestEventChatMute(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()
	_, benS := signedUp(t, ts, "ben_e")
	ev := newArenaAPI(t, ts, benS, "Quiet night", "")
	ac, as := signedUp(t, ts, "ann_e")
	if _, err := ac.EventSay(ctx, as.Token, ev.ID, "buy my stuff"); err != nil {
		t.Fatal(err)
	}

	tm := newTermWith(t, ts.URL, "ben_e", 80, 24, Config{DataDir: t.TempDir(), Session: benS.Token, Account: "ben_e"})
	tm.key("e")
	tm.waitFor("the list", has("> Quiet night"))
	tm.key("enter")
	tm.waitFor("the event and its chat", has("Quiet night", "ann_e: buy my stuff"))
	tm.key("ctrl+t")
	tm.waitFor("the maker's chat keys", has("/mute NAME keeps a player out of it"))
	checkFits(t, tm)
	tm.typeText("/mute")
	tm.key("enter")
	tm.waitFor("a mute of nobody", has("name the player: /mute NAME"))
	tm.typeText(" ann_e")
	tm.key("enter")
	tm.waitFor("the mute", has("ann_e can no longer write in this chat"))
	checkFits(t, tm)
	if _, err := ac.EventSay(ctx, as.Token, ev.ID, "more stuff"); err == nil {
		t.Error("a muted player wrote in the chat")
	}
	tm.key("ctrl+t")
	tm.typeText("/UNMUTE ann_e")
	tm.key("enter")
	tm.waitFor("the mute lifted", has("ann_e may write in this chat again"))
	if _, err := ac.EventSay(ctx, as.Token, ev.ID, "sorry"); err != nil {
		t.Errorf("Ann, her mute lifted: %v", err)
	}
	if got, _, err := ac.EventChat(ctx, "", ev.ID, 0); err != nil || slices.ContainsFunc(got, func(l client.ChatLine) bool { return strings.Contains(l.Text, "mute") }) {
		t.Errorf("a mute went to the chat as a message: %+v, %v", got, err)
	}

	// Ann, who did not make the event, is refused in the server's words.
	am := newTermWith(t, ts.URL, "ann_e", 80, 24, Config{DataDir: t.TempDir(), Session: as.Token, Account: "ann_e"})
	am.key("e")
	am.waitFor("the list", has("> Quiet night"))
	am.key("enter")
	am.waitFor("the event", has("ann_e: sorry"))
	am.key("ctrl+t")
	if s := am.screen(); strings.Contains(s, "/mute") {
		t.Errorf("the chat's keys offer /mute to a player who did not make the event:\n%s", s)
	}
	am.typeText("/mute ben_e")
	am.key("enter")
	am.waitFor("the refusal", has("only the event's creator mutes players in its chat", "say: /mute ben_e█"))
}

// TestNewEventRatedKeepsDefaults: the new-event form, Rated chosen,
// holds the game's options a rated game may not change at their defaults
// and refuses keys that would change them; the rated event made plays the
// default rules.
func TestNewEventRatedKeepsDefaults(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	_, as := signedUp(t, ts, "ann_e")
	tm := newTermWith(t, ts.URL, "ann_e", 80, 24, Config{DataDir: t.TempDir(), Session: as.Token, Account: "ann_e"})
	tm.key("e")
	tm.waitFor("the list", has("Events", "n make one"))
	tm.key("n")
	tm.waitFor("the form", has("New event", "Kind"))
	tm.keyUntil("down", "> Game")
	tm.keyUntil("right", "‹ Salvo ›")
	tm.keyUntil("down", "> Ship placement")
	tm.key("right")
	tm.waitFor("free placement", func(s string) bool { return strings.Contains(lineWith(s, "Ship placement"), "‹ free ›") })
	tm.keyUntil("down", "> Rated")
	tm.key("right")
	s := tm.waitFor("rated", func(s string) bool { return strings.Contains(lineWith(s, "Rated"), "‹ yes ›") })
	checkFits(t, tm)
	if l := lineWith(s, "Ship placement"); !strings.Contains(l, "‹ strict ›") || !strings.Contains(l, "rated: the default") {
		t.Fatalf("a rated event's placement is not held at its default: %q\n%s", l, s)
	}
	tm.keyUntil("up", "> Ship placement")
	tm.key("right")
	tm.waitFor("the refusal", has("! a rated game keeps ship placement at its default"))
	tm.key("enter")
	tm.waitFor("the event made", has("is made", "Arena of 30 minutes · Salvo", "rated"))
	var made struct {
		Tournaments []struct {
			Creator string         `json:"creator"`
			Rated   bool           `json:"rated"`
			Rules   map[string]any `json:"rules"`
		} `json:"tournaments"`
	}
	if err := getJSON(ts.URL+"/api/v1/tournaments?status=created", "", &made); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range made.Tournaments {
		if e.Creator == "ann_e" {
			found = true
			if !e.Rated || e.Rules["placement"] == "free" {
				t.Errorf("the event made is not rated at the default placement: %+v", e)
			}
		}
	}
	if !found {
		t.Errorf("ann_e's event is not among those to come: %+v", made.Tournaments)
	}
}

// TestMakeEvent: n on the events list opens the form of a new event (a
// guest, not offered the key, is told events are an account's); a clock slower than the arena
// is long is refused in the server's words, the form kept; a clock typed
// is the event's; the event
// made opens, says its maker's words, and its maker starts it with s.
func TestMakeEvent(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()
	gm := newTerm(t, ts.URL, "Gus", 80, 24)
	gm.key("e")
	gm.waitFor("the list", has("Events", "enter open an event · r refresh"))
	if strings.Contains(gm.screen(), "n make one") {
		t.Errorf("a guest is offered a key it cannot use:\n%s", gm.screen())
	}
	gm.key("n")
	gm.waitFor("refused", has("events are made by players with accounts"))

	ac, as := signedUp(t, ts, "ann_m")
	tm := newTermWith(t, ts.URL, "ann_m", 80, 24, Config{DataDir: t.TempDir(), Session: as.Token, Account: "ann_m"})
	tm.key("e")
	tm.waitFor("the list", has("Events", "n make one"))
	tm.key("n")
	tm.waitFor("the form", has("New event", "Kind", "‹ arena ›", "‹ 3+2 ›", "‹ 30 minutes ›", "‹ in a minute ›"))
	checkFits(t, tm)
	tm.key("down")
	tm.typeText("Tuesday club?")
	tm.key("down")
	tm.typeText("bring a friend")
	// The game's options follow the game: Nymphabet's mode, cyclic.
	tm.keyUntil("down", "> Mode")
	tm.key("right")
	tm.waitFor("the cyclic mode", has("‹ cyclic ›"))
	tm.keyUntil("down", "> Clock")
	for range 3 {
		tm.key("right") // 15+10
	}
	tm.key("down")
	tm.key("backspace")
	tm.key("backspace")
	tm.typeText("1")
	tm.waitFor("a minute's arena of 15+10", has("‹ 15+10 ›", "‹ 1 minute ›", "Tuesday club?"))
	tm.key("enter")
	tm.waitFor("the refusal, the form kept", has("may run 37 minutes, longer than the arena's 1", "Tuesday club?", "‹ cyclic ›"))
	checkFits(t, tm)
	tm.key("backspace")
	tm.typeText("40") // 40 minutes
	// A clock of one's own is typed on the clock field.
	tm.keyUntil("up", "> Clock")
	tm.typeText("7+3")
	tm.waitFor("the clock typed", has("‹ 7+3 ›"))
	// An arena seats two: the form asks nothing of players a table.
	if s := tm.screen(); strings.Contains(s, "Seats") {
		t.Errorf("an arena's form asks how many a table:\n%s", s)
	}
	// Three rated games asked of whoever joins.
	tm.keyUntil("down", "> Entry")
	tm.typeText("3")
	tm.waitFor("the entry", has("‹ at least 3 rated games ›"))
	// A cap on players: from no cap, ← stays there, → goes to two, and
	// digits type it.
	tm.key("down")
	tm.waitFor("the cap", has("> At most", "‹ no cap ›", "2-5000 players"))
	tm.key("left")
	tm.key("right")
	tm.waitFor("a cap of two", has("‹ 2 players ›"))
	tm.key("backspace")
	tm.typeText("16")
	tm.waitFor("a cap of 16", has("‹ 16 players ›"))
	tm.keyUntil("down", "> Starts")
	tm.key("right") // in 5 minutes
	tm.key("down")
	tm.typeText("owl")
	s := tm.waitFor("the password as dots", has("Password", "•••█"))
	if strings.Contains(s, "owl") {
		t.Errorf("the password shows as typed:\n%s", s)
	}
	tm.key("enter")
	s = tm.waitFor("the event made", has("Tuesday club?", "Arena of 40 minutes · Nymphabet (cyclic) · 7+3", "⚿ password · at least 3 rated games to join · at most 16 players\n", "bring a friend", "is made", "s start it now"))
	checkFits(t, tm)
	// Its maker has no rated game: the terms say so on a line of their
	// own, and nothing offers the join the event would refuse.
	if !strings.Contains(s, "\nyou have played 0\n") || strings.Contains(s, "j join") || !strings.Contains(s, "nobody yet\n") {
		t.Errorf("the maker, short of the rated games asked, is offered the join:\n%s", s)
	}
	evs, err := ac.Tournaments(ctx, "created")
	if err != nil || len(evs) != 1 || evs[0].Name != "Tuesday club?" || evs[0].Creator != "ann_m" || evs[0].MinRatedGames != 3 || evs[0].Seats != 2 || evs[0].Mode != "cyclic" || evs[0].MaxPlayers != 16 {
		t.Fatalf("the events to come: %+v, %v", evs, err)
	}
	tm.key("s")
	tm.waitFor("started", has("you started Tuesday club?", "under way"))
	if ev, err := ac.Tournament(ctx, "", evs[0].ID); err != nil || ev.Status != "started" {
		t.Errorf("the event after s: %+v, %v", ev, err)
	}
}

// TestNewEventSeats: the form offers more than two players a table only
// for a casual Swiss, up to four and no more than the game takes: an
// arena pairs two, a rated game is between two, Nymphabet is for two.
func TestNewEventSeats(t *testing.T) {
	t.Parallel()
	games := []client.Game{{Name: "nymphabet", Title: "Nymphabet", MinPlayers: 2, MaxPlayers: 2}, {Name: "quizl", Title: "Quizl", MinPlayers: 1, MaxPlayers: 8},
		{Name: "tri", Title: "Tri", MinPlayers: 2, MaxPlayers: 3}}
	for _, c := range []struct {
		name         string
		game         int
		swiss, rated bool
		want         int
	}{
		{"an arena of Quizl", 1, false, false, 2},
		{"a Swiss of Nymphabet", 0, true, false, 2},
		{"a rated Swiss of Quizl", 1, true, true, 2},
		{"a casual Swiss of Quizl", 1, true, false, 4},
		{"a casual Swiss of a game of three", 2, true, false, 3},
	} {
		ne := &newEventScreen{shared: &shared{w: 80, h: 24, games: games}, game: c.game, swiss: c.swiss, rated: c.rated, seats: 2, clock: 1, length: 5}
		if got := ne.maxSeats(); got != c.want {
			t.Errorf("%s: at most %d a table, want %d", c.name, got, c.want)
		}
		if asks := slices.Contains(ne.fields(), evSeats); asks != (c.want > 2) {
			t.Errorf("%s: the form asks how many a table: %v", c.name, asks)
		}
		if c.want > 2 {
			// ←→ go round 2 to the most, and back.
			var seen []int
			for range c.want - 1 {
				ne.at = slices.Index(ne.fields(), evSeats)
				ne.key("right", keyMsg("right"))
				seen = append(seen, ne.seats)
			}
			var want []int
			for n := 3; n <= c.want; n++ {
				want = append(want, n)
			}
			if want = append(want, 2); !slices.Equal(seen, want) {
				t.Errorf("%s: → goes through %v, want %v", c.name, seen, want)
			}
		}
	}
}

// TestEventLineWidth: an event's line fits its width, and a terminal
// wider than 80 columns shows the house's long names whole.
func TestEventLineWidth(t *testing.T) {
	t.Parallel()
	sh := &shared{games: []client.Game{{Name: "wordfight", Title: "Sightless Word Fight"}}}
	now := time.Date(2026, 12, 2, 13, 0, 0, 0, time.UTC)
	ev := client.Tournament{Kind: "arena", Name: "Hourly Word Fight Arena", Game: "wordfight", ClockText: "5+3",
		Status: "created", Starts: now.Add(4 * time.Minute), Players: 12}
	for _, tc := range []struct {
		w     int
		whole bool
	}{{40, false}, {78, false}, {98, true}, {200, true}} {
		line := sh.eventLine(ev, now, tc.w)
		if tc.w >= 78 && ansi.StringWidth(line) > tc.w {
			t.Errorf("at %d columns the line is %d wide: %q", tc.w, ansi.StringWidth(line), line)
		}
		whole := strings.Contains(line, "Hourly Word Fight Arena ") && strings.Contains(line, "Sightless Word Fight ")
		if whole != tc.whole {
			t.Errorf("at %d columns the names are whole: %v, want %v: %q", tc.w, whole, tc.whole, line)
		}
		// An 80-column terminal's list (78 after the mark) has room for
		// the event's name whole.
		if tc.w >= 78 && !strings.Contains(line, "Hourly Word Fight Arena ") {
			t.Errorf("at %d columns the event's name is cut: %q", tc.w, line)
		}
		if !strings.Contains(line, "in 4m 00s") || !strings.Contains(line, "12 players") {
			t.Errorf("at %d columns the line lacks its start or players: %q", tc.w, line)
		}
	}
}

// TestEventLineCapped: the list says how many a capped event takes, and
// when it is full, within an 80-column line; an event at its kind's most
// is not capped, and a finished one is not full.
func TestEventLineCapped(t *testing.T) {
	t.Parallel()
	sh := &shared{games: []client.Game{{Name: "wordfight", Title: "Sightless Word Fight"}}}
	now := time.Date(2026, 12, 2, 13, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		kind, status  string
		players, most int
		want, notWant string
	}{
		{"arena", "created", 12, 16, " 12 of 16", "players"},
		{"arena", "started", 16, 16, " 16, full", "of"},
		{"swiss", "created", 500, 500, " 500 players", "full"},
		{"arena", "created", 12, 5000, " 12 players", "of"},
		{"swiss", "finished", 16, 16, " 16 of 16", "full"},
	} {
		ev := client.Tournament{Kind: c.kind, Name: "Hourly Word Fight Arena", Game: "wordfight", ClockText: "5+3", Status: c.status,
			Starts: now.Add(4 * time.Minute), Minutes: 30, Rounds: 3, Players: c.players, MaxPlayers: c.most}
		line := sh.eventLine(ev, now, 78)
		if ansi.StringWidth(line) > 78 || !strings.HasSuffix(line, c.want) || strings.Contains(line[len(line)-len(c.want)-1:], c.notWant) {
			t.Errorf("%s %s, %d of %d: %q, want it to end %q within 78 columns", c.status, c.kind, c.players, c.most, line, c.want)
		}
	}
}

// offline is the screens' shared state of a guest, Ann (identity
// "ann"), whose client names a server it never asks: for the tests that
// draw an event's screens from events they make up.
func offline(t *testing.T, w, h int) *shared {
	t.Helper()
	c, err := client.New("http://parlour.example", "Ann")
	if err != nil {
		t.Fatal(err)
	}
	return &shared{w: w, h: h, c: c, idToken: "ann", games: []client.Game{{Name: "wordfight", Title: "Sightless Word Fight"}, {Name: "nymphabet", Title: "Nymphabet"}}}
}

// TestEventAbout: the list of events says, under it, what its line has
// no room for about the chosen event: rated or casual, the game's whole
// title and mode, the length and the terms of entry.
func TestEventAbout(t *testing.T) {
	t.Parallel()
	sh := offline(t, 80, 24)
	for _, c := range []struct {
		name string
		ev   client.Tournament
		want string
	}{
		{"a house arena", client.Tournament{Kind: "arena", Name: "Hourly Word Fight Arena", Game: "wordfight", Minutes: 55, Rated: true},
			"Hourly Word Fight Arena: rated · Sightless Word Fight · 55 minutes"},
		{"a club's Swiss", client.Tournament{Kind: "swiss", Name: "Club night", Game: "nymphabet", Mode: "cyclic", Rounds: 1, Password: true, MinRatedGames: 3, MaxPlayers: 16},
			"Club night: casual · Nymphabet (cyclic) · 1 round · ⚿ password · at least 3 rated games to join · at most 16 players"},
	} {
		if got := sh.eventAbout(c.ev); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	es := &eventsScreen{shared: sh, loaded: true, at: 1}
	es.lists[0] = []client.Tournament{
		{Kind: "arena", Name: "Hourly Nymphabet Arena", Game: "nymphabet", Minutes: 55, Rated: true, Status: "created", ClockText: "3+2", Starts: time.Now().Add(time.Hour)},
		{Kind: "arena", Name: "Hourly Word Fight Arena", Game: "wordfight", Minutes: 55, Rated: true, Status: "created", ClockText: "5+3", Starts: time.Now().Add(time.Hour)},
	}
	got := ansi.Strip(es.view())
	if !strings.Contains(got, "\nHourly Word Fight Arena: rated · Sightless Word Fight · 55 minutes\n") || strings.Contains(got, "Nymphabet Arena: rated") {
		t.Errorf("the list does not say what the chosen event is:\n%s", got)
	}
	es.err = "the server is away"
	if got := ansi.Strip(es.view()); strings.Contains(got, ": rated") || !strings.Contains(got, "the server is away") {
		t.Errorf("a message and the chosen event's terms share the line:\n%s", got)
	}
}

// TestEventHead: an event's name and terms share its first line when
// they fit; a long name and game title put the terms on a line of their
// own rather than cut "rated" off its end, and the screen still fits.
func TestEventHead(t *testing.T) {
	t.Parallel()
	sh := offline(t, 80, 24)
	for _, c := range []struct {
		name, game string
		lines      int
	}{
		{"Club night", "nymphabet", 1},
		{"Hourly Word Fight Arena", "wordfight", 2},
	} {
		ev := &client.Tournament{Kind: "arena", Name: c.name, Game: c.game, Minutes: 55, ClockText: "5+3", Rated: true, Status: "created",
			Starts: time.Now().Add(time.Hour)}
		for i := range 30 {
			ev.Standings = append(ev.Standings, client.Standing{Rank: i + 1, Name: fmt.Sprintf("player%02d", i)})
		}
		e := &eventScreen{shared: sh, ev: ev, opened: map[string]bool{}}
		head := e.head()
		if len(head) != c.lines || !strings.Contains(ansi.Strip(strings.Join(head, "\n")), "5+3 · rated") {
			t.Errorf("%s: the head is %q; want %d lines ending in its clock and rated", c.name, head, c.lines)
		}
		for _, p := range fitProblems(ansi.Strip(e.view()), 80, 24) {
			t.Errorf("%s: %s", c.name, p)
		}
	}
}

// TestEventCancel: on an event to come its maker's c asks again, another
// key keeps the event, and c twice cancels it: the screen says so, and
// the server has it cancelled.
func TestEventCancel(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()
	bc, benS := signedUp(t, ts, "ben_c")
	ev := newArenaAPI(t, ts, benS, "Mistaken night", "")
	tm := newTermWith(t, ts.URL, "ben_c", 80, 24, Config{DataDir: t.TempDir(), Session: benS.Token, Account: "ben_c"})
	tm.key("e")
	tm.waitFor("the list", has("> Mistaken night"))
	tm.key("enter")
	tm.waitFor("the maker's keys", has("Mistaken night", "c cancel it"))
	tm.key("c")
	tm.waitFor("asked again", has("c again cancels Mistaken night for good"))
	checkFits(t, tm)
	tm.key("r")
	tm.waitFor("kept", func(s string) bool { return !strings.Contains(s, "c again cancels") })
	if got, err := bc.Tournament(ctx, "", ev.ID); err != nil || got.Status != "created" {
		t.Fatalf("after c and another key the event is %+v, %v", got.Status, err)
	}
	tm.key("c")
	tm.key("c")
	tm.waitFor("cancelled", has("you cancelled Mistaken night", "cancelled: it will not be played"))
	checkFits(t, tm)
	if got, err := bc.Tournament(ctx, "", ev.ID); err != nil || got.Status != "cancelled" {
		t.Errorf("after c twice the event is %+v, %v", got.Status, err)
	}
}

// TestEventSetupDue: at an event's Salvo table the fleet editor says by
// when the fleet is due, or the game is forfeit; once it is handed in
// the line goes.
func TestEventSetupDue(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()
	ben, benS := signedUp(t, ts, "Ben")
	ann, annS := signedUp(t, ts, "Ann")
	var ev client.Tournament
	if err := postAs(ts.URL, benS.Token, "/api/v1/tournaments", map[string]any{"kind": "swiss", "name": "Fleet night", "game": "salvo", "rounds": 1,
		"clock": map[string]any{"kind": "fischer", "initial": 60, "increment": 0}}, &ev); err != nil {
		t.Fatalf("making the Swiss: %v", err)
	}
	tm := newTermWith(t, ts.URL, "Ann", 80, 24, Config{DataDir: t.TempDir(), Session: annS.Token, Account: "Ann"})
	for _, p := range []struct {
		c *client.Client
		s client.Session
	}{{ben, benS}, {ann, annS}} {
		if _, err := p.c.JoinTournament(ctx, p.s.Token, ev.ID, ""); err != nil {
			t.Fatal(err)
		}
	}
	waitOnline(t, ben, "Ann")
	if err := startEvent(ben, benS, ev.ID); err != nil {
		t.Fatal(err)
	}
	// A minute to set up: the clock's first move takes no longer.
	due := regexp.MustCompile(`Set up by \d\d:\d\d \(in (1 minute|\d+ seconds)\), or forfeit this game`)
	tm.waitFor("the fleet editor with its deadline", func(s string) bool {
		return strings.Contains(s, "Place your fleet") && due.MatchString(s)
	})
	checkFits(t, tm)
	tm.waitFor("a random fleet, checked", has("✓"))
	tm.key("enter")
	s := tm.waitFor("the fleet handed in", has("making their setup"))
	if strings.Contains(s, "Set up by") {
		t.Errorf("the deadline stays once the fleet is handed in:\n%s", s)
	}
}

// TestEventSameNameGuest: two guests called Ann in one arena; the
// terminal's Ann, who joined second, leaves, and her screen says she is
// out of it though the other Ann is in: a guest's name is no way to find
// their line of the standings (the terminal found the other Ann's).
func TestEventSameNameGuest(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()
	ben, benS := signedUp(t, ts, "Ben")
	ev := newArenaAPI(t, ts, benS, "Name night", "")
	if _, err := ben.JoinTournament(ctx, benS.Token, ev.ID, ""); err != nil {
		t.Fatal(err)
	}
	other, otherID := guestAt(t, ts, "Ann")
	if _, err := other.JoinTournament(ctx, otherID.Token, ev.ID, ""); err != nil {
		t.Fatal(err)
	}
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.key("e")
	tm.waitFor("the list", has("> Name night"))
	tm.key("enter")
	s := tm.waitFor("the event", has("Name night", "Standings", "Ben", "Ann", "2 players"))
	if strings.Contains(s, "you are in it") {
		t.Errorf("before joining, the terminal's Ann is told she is in the event (the other Ann is):\n%s", s)
	}
	tm.key("j")
	tm.waitFor("joined", has("you joined Name night", "you are in it", "Ann 2", "3 players"))
	tm.key("x")
	tm.waitFor("left", has("you left Name night"))
	tm.key("r")
	s = tm.waitFor("the standings again", has("2 players"))
	if strings.Contains(s, "you are in it") {
		t.Errorf("after leaving, the terminal's Ann is told she is in the event (the other Ann is):\n%s", s)
	}
	got, err := other.Tournament(ctx, otherID.Token, ev.ID)
	if err != nil || !slices.ContainsFunc(got.Standings, func(s client.Standing) bool { return s.You && !s.Left }) {
		t.Errorf("the other Ann's read of the event marks no line hers: %+v, %v", got.Standings, err)
	}
}

// TestEventRoundState: in a Swiss round under way, the event's screen
// tells a player without a table why: a bye, or their game of the round
// over while others play on; a player back after the round was paired
// is told neither.
func TestEventRoundState(t *testing.T) {
	t.Parallel()
	sh := offline(t, 100, 24)
	for _, c := range []struct {
		name string
		me   client.Standing
		want string
	}{
		{"playing", client.Standing{Games: 1, Playing: "t2"}, "you are in it (playing)"},
		{"a bye", client.Standing{Games: 1, Byes: 1, Bye: true}, "you are in it (a bye this round: it scores as a win)"},
		{"game over", client.Standing{Games: 2}, "you are in it (your game of this round is over)"},
		{"back after the pairing", client.Standing{Games: 1}, "you are in it\n"},
	} {
		me := c.me
		me.Rank, me.Name, me.You = 1, "Ann", true
		ev := &client.Tournament{Kind: "swiss", Name: "Club Swiss", Game: "nymphabet", Rounds: 3, Round: 2, ClockText: "1+0", Status: "started",
			Starts: time.Now().Add(-time.Hour), Standings: []client.Standing{me, {Rank: 2, Name: "Ben", Playing: "t1"}, {Rank: 3, Name: "Cat", Playing: "t1"}},
			Playing: []client.TournamentGame{{Table: "t1", Players: []string{"Ben", "Cat"}}}}
		e := &eventScreen{shared: sh, ev: ev, opened: map[string]bool{}}
		if got := ansi.Strip(e.view()); !strings.Contains(got, c.want) {
			t.Errorf("%s: the screen does not say %q:\n%s", c.name, c.want, got)
		}
	}
}

// TestEventKeys: the event's screen offers the join and leave keys that
// apply to the player, as the browser offers its buttons: none once it is
// over, x while they are in it (a Swiss under way withdraws them), j when
// it would take them, and j again for a Swiss player who withdrew and may
// come back, but not for one it withdrew for not showing up.
func TestEventKeys(t *testing.T) {
	t.Parallel()
	sh := offline(t, 100, 24)
	me := func(s client.Standing) *client.Standing {
		s.Rank, s.Name, s.You = 1, "Ann", true
		return &s
	}
	for _, c := range []struct {
		name, kind, status string
		me                 *client.Standing
		keys               string // "" for neither j nor x
		state              string
	}{
		{"to come", "swiss", "created", nil, "j join · ctrl+t", ""},
		{"to come, in it", "swiss", "created", me(client.Standing{}), "x leave · ctrl+t", "you are in it"},
		{"an arena under way", "arena", "started", nil, "j join · ctrl+t", ""},
		{"an arena left", "arena", "started", me(client.Standing{Games: 2, Left: true}), "j join · ctrl+t", ""},
		{"in an arena", "arena", "started", me(client.Standing{Games: 1}), "x leave · ctrl+t", "you are in it"},
		{"in a Swiss", "swiss", "started", me(client.Standing{Games: 1}), "x withdraw · ctrl+t", "you are in it"},
		{"not in a Swiss under way", "swiss", "started", nil, "", ""},
		{"withdrawn from a Swiss", "swiss", "started", me(client.Standing{Games: 1, Left: true, Forfeits: 1}), "j join again · ctrl+t", ""},
		{"withdrawn for no-shows", "swiss", "started", me(client.Standing{Games: 2, Left: true, Forfeits: 2}), "", ""},
		{"finished", "swiss", "finished", me(client.Standing{Games: 3}), "", "you played in it"},
		{"cancelled", "arena", "cancelled", me(client.Standing{}), "", ""},
	} {
		ev := &client.Tournament{Kind: c.kind, Name: "Club night", Game: "nymphabet", Rounds: 3, Minutes: 30, ClockText: "1+0", Status: c.status,
			Starts: time.Now().Add(time.Hour), Standings: []client.Standing{{Rank: 2, Name: "Ben", Games: 1}}}
		if c.me != nil {
			ev.Standings = append([]client.Standing{*c.me}, ev.Standings...)
		}
		e := &eventScreen{shared: sh, ev: ev, opened: map[string]bool{}}
		got := ansi.Strip(e.view())
		if c.keys != "" && !strings.Contains(got, c.keys) {
			t.Errorf("%s: the keys do not say %q:\n%s", c.name, c.keys, got)
		}
		for _, k := range []string{"j join", "x leave", "x withdraw"} {
			if strings.Contains(got, k) && !strings.HasPrefix(c.keys, k) {
				t.Errorf("%s: the keys offer %q:\n%s", c.name, k, got)
			}
		}
		if c.state != "" && !strings.Contains(got, c.state) {
			t.Errorf("%s: the screen does not say %q:\n%s", c.name, c.state, got)
		}
		if c.state == "" && strings.Contains(got, "you are in it") {
			t.Errorf("%s: the screen says the player is in it:\n%s", c.name, got)
		}
	}
	// A full event takes nobody new: no join, and it says so; its players
	// may still leave.
	for _, f := range []struct {
		name string
		me   *client.Standing
		keys string
	}{{"full, not in it", nil, ""}, {"full, in it", me(client.Standing{}), "x leave"}} {
		ev := &client.Tournament{Kind: "arena", Name: "Club night", Game: "nymphabet", Minutes: 30, ClockText: "1+0", Status: "created", MaxPlayers: 2, Players: 2,
			Starts: time.Now().Add(time.Hour), Standings: []client.Standing{{Rank: 2, Name: "Ben"}, {Rank: 3, Name: "Cat"}}}
		if f.me != nil {
			ev.Standings = []client.Standing{*f.me, {Rank: 2, Name: "Ben"}}
		}
		got := ansi.Strip((&eventScreen{shared: sh, ev: ev, opened: map[string]bool{}}).view())
		if strings.Contains(got, "j join") || f.keys != "" && !strings.Contains(got, f.keys) || (f.me == nil) != strings.Contains(got, "2 players (full)") {
			t.Errorf("%s: want the keys %q, full said to a newcomer only:\n%s", f.name, f.keys, got)
		}
	}
	// A rated event takes accounts only: a guest is told so rather than
	// offered a join the server refuses; an account is offered it.
	// An event that asks for rated games takes accounts only too, and of
	// them those with the games: the server tells an account its count.
	signed := &shared{w: 100, h: 24, c: sh.c, idToken: "ann", cfg: Config{Session: "a session", Account: "Ann"}, games: sh.games}
	played := func(n int) *int { return &n }
	for _, r := range []struct {
		name, kind, status string
		sh                 *shared
		rated              bool
		least              int
		games              *int
		join               bool
		told               string // what the screen says in place of the join
	}{
		{"a guest, a rated Swiss to come", "swiss", "created", sh, true, 0, nil, false, "rated: players with accounts only (sign in or up on the home screen)"},
		{"a guest, a rated arena under way", "arena", "started", sh, true, 0, nil, false, "rated: players with accounts only (sign in or up on the home screen)"},
		{"an account, a rated Swiss to come", "swiss", "created", signed, true, 0, nil, true, ""},
		{"an account, a rated arena under way", "arena", "started", signed, true, 0, nil, true, ""},
		{"a guest, a casual arena asking for games", "arena", "created", sh, false, 10, nil, false, "for players with accounts only (sign in or up on the home screen)"},
		{"an account short of the games", "arena", "created", signed, false, 10, played(3), false, "at least 10 rated games to join · you have played 3"},
		{"an account short of the games, under way", "arena", "started", signed, true, 10, played(0), false, "you have played 0"},
		{"an account with the games", "arena", "created", signed, true, 10, played(10), true, ""},
	} {
		ev := &client.Tournament{Kind: r.kind, Name: "Club night", Game: "nymphabet", Rounds: 3, Minutes: 30, ClockText: "1+0", Status: r.status, Rated: r.rated,
			MinRatedGames: r.least, RatedGames: r.games, Starts: time.Now().Add(time.Hour), Standings: []client.Standing{{Rank: 1, Name: "Ben", Games: 1}}}
		got := ansi.Strip((&eventScreen{shared: r.sh, ev: ev, opened: map[string]bool{}}).view())
		if strings.Contains(got, "j join") != r.join || r.told != "" && !strings.Contains(got, r.told) {
			t.Errorf("%s: j join offered %v; want the join %v, and %q said:\n%s", r.name, strings.Contains(got, "j join"), r.join, r.told, got)
		}
		if r.join && (strings.Contains(got, "accounts only") || strings.Contains(got, "you have played")) {
			t.Errorf("%s: the join is offered with a refusal's words:\n%s", r.name, got)
		}
	}
	// Its maker may start an event early, but not a Swiss the server
	// says its field cannot play yet: s says why, without asking.
	for _, cannot := range []string{"", "Club night needs at least 2 players to start; it has 1"} {
		ev := &client.Tournament{Kind: "swiss", Name: "Club night", Game: "nymphabet", Rounds: 3, ClockText: "1+0", Status: "created", Creator: "Ann",
			CannotStart: cannot, Starts: time.Now().Add(time.Hour), Standings: []client.Standing{{Rank: 1, Name: "Ann", You: true}}}
		e := &eventScreen{shared: signed, ev: ev, opened: map[string]bool{}}
		got := ansi.Strip(e.view())
		if strings.Contains(got, "s start it now") != (cannot == "") || !strings.Contains(got, "c cancel it") {
			t.Errorf("the maker of a Swiss that %q: the keys read\n%s", cannot, got)
		}
		if cannot == "" {
			continue
		}
		if cmd := e.update(keyMsg("s")); cmd != nil || e.err != cannot {
			t.Errorf("s on a Swiss that cannot start: the screen says %q, and asked the server %v", e.err, cmd != nil)
		}
	}
}

// TestEventGamesPlayed: a finished event lists its games played, each
// with its round and its players' points, and enter opens one's end (its
// replay and analysis a key away) as a spectator; esc there comes back to
// the event.
func TestEventGamesPlayed(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ben, benS := signedUp(t, ts, "Ben")
	cat, catS := signedUp(t, ts, "Cat")
	finishedSwiss(t, ts, ben, benS, cat, catS)

	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.key("e")
	tm.waitFor("the list", has("Finished", "Sunday Swiss"))
	tm.keyUntil("down", "> Sunday Swiss")
	tm.key("enter")
	s := tm.waitFor("the event", has("Sunday Swiss", "finished: won by Ben", "Games played"))
	checkFits(t, tm)
	if !regexp.MustCompile(`> round 1: (Ben v Cat\s+Ben 2, Cat 0|Cat v Ben\s+Cat 0, Ben 2)`).MatchString(s) {
		t.Errorf("the game played is not listed with its round and points:\n%s", s)
	}
	if !strings.Contains(s, "enter see how it ended") || strings.Contains(s, "enter watch") {
		t.Errorf("the keys do not say what enter does:\n%s", s)
	}
	tm.key("enter")
	// Cat resigned before every player had moved: no result at the
	// table, but the event counts it, and the end says so.
	s = tm.waitFor("the game's end", has("watching · game over", "Cat resigned", "p replay"))
	if !strings.Contains(strings.Join(strings.Fields(s), " "), "no result at the table, and no rating changes; Sunday Swiss counts it as a loss for Cat and a win for Ben") {
		t.Errorf("the end does not say how the event counts the game:\n%s", s)
	}
	tm.key("esc")
	tm.waitFor("the event again", has("Sunday Swiss", "Games played"))
	// One player's games: a name nobody has is refused, Cat's are listed.
	tm.key("/")
	tm.waitFor("the prompt", has("A player's games in Sunday Swiss"))
	tm.typeText("zed")
	tm.key("enter")
	tm.waitFor("the refusal", has("Games played", "nobody in Sunday Swiss is called zed"))
	tm.key("/")
	tm.typeText("cat")
	tm.key("enter")
	tm.waitFor("Cat's games", has("Cat's games", "esc every game"))
	checkFits(t, tm)
	tm.key("esc")
	tm.waitFor("every game", has("Games played", "esc back"))
}

// TestEventGameLines: the games of an event's screen are those under way,
// then those played; a game nobody showed up for is not played, and enter
// on it says so rather than open a table there is not.
func TestEventGameLines(t *testing.T) {
	t.Parallel()
	sh := offline(t, 100, 30)
	ended := time.Now().Add(-time.Minute)
	live := client.TournamentGame{Table: "t3", Round: 2, Players: []string{"Ann", "Ben"}}
	ev := &client.Tournament{Kind: "swiss", Name: "Club Swiss", Game: "nymphabet", Rounds: 3, Round: 2, ClockText: "1+0", Status: "started",
		Starts: time.Now().Add(-time.Hour), Standings: []client.Standing{{Rank: 1, Name: "Ann"}, {Rank: 2, Name: "Ben"}, {Rank: 3, Name: "Cat"}, {Rank: 4, Name: "Dan"}},
		Playing: []client.TournamentGame{live},
		Games: []client.TournamentGame{live,
			{Table: "t2", Round: 1, Players: []string{"Cat", "Ann"}, Points: []int{0, 2}, Ended: ended},
			{Table: "unplayed-1-2", Round: 1, Players: []string{"Ben", "Dan"}, Points: []int{0, 0}, Ended: ended}}}
	e := &eventScreen{shared: sh, ev: ev, opened: map[string]bool{}}
	got := ansi.Strip(e.view())
	for _, want := range []string{"\nGames\n", "> round 2: Ann v Ben", "t3", "round 1: Cat v Ann", "Cat 0, Ann 2", "round 1: Ben v Dan", "not played",
		"↑↓ game · enter watch (yours: play)"} {
		if !strings.Contains(got, want) {
			t.Errorf("the screen does not say %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "unplayed-") {
		t.Errorf("the screen shows the name of a table there is not:\n%s", got)
	}
	e.update(keyMsg("down"))
	e.update(keyMsg("down"))
	if cmd := e.update(keyMsg("enter")); cmd != nil || !strings.Contains(e.err, "that game was not played") {
		t.Errorf("enter on a game not played: %q, a command %v", e.err, cmd != nil)
	}

	// The choice follows its game as the list moves: t3 ends, two start.
	e.update(keyMsg("up"))
	if e.chosen != "t2" || e.err != "" {
		t.Fatalf("up chose %q, not t2, the refusal about the game left standing: %q", e.chosen, e.err)
	}
	next := *ev
	t4 := client.TournamentGame{Table: "t4", Round: 3, Players: []string{"Ann", "Cat"}}
	t5 := client.TournamentGame{Table: "t5", Round: 3, Players: []string{"Ben", "Dan"}}
	t3 := live
	t3.Points, t3.Ended = []int{2, 0}, ended
	next.Playing = []client.TournamentGame{t4, t5}
	next.Games = append([]client.TournamentGame{t5, t4, t3}, ev.Games[1:]...)
	e.got(eventMsg{ev: next})
	if got := ansi.Strip(e.view()); !strings.Contains(got, "> round 1: Cat v Ann") {
		t.Errorf("the choice did not follow its game:\n%s", got)
	}

	ev.Playing, ev.Games, ev.Status = nil, ev.Games[1:], "finished"
	e.ev = ev
	got = ansi.Strip(e.view())
	if !strings.Contains(got, "\nGames played\n") || !strings.Contains(got, "enter see how it ended") {
		t.Errorf("a finished event's games are not those played:\n%s", got)
	}
}

// TestEventStandingMarks: each line of an event's standings says what the
// player is doing, as the browser's does: playing, waiting for a game
// while the event is under way, left (an arena's) or withdrawn (a
// Swiss's), with a Swiss's byes and no-shows counted.
func TestEventStandingMarks(t *testing.T) {
	t.Parallel()
	sh := &shared{w: 100, h: 30, games: []client.Game{{Name: "nymphabet", Title: "Nymphabet"}}}
	for _, c := range []struct {
		kind, status string
		s            client.Standing
		want, not    string
	}{
		{"swiss", "started", client.Standing{Playing: "t1"}, "playing", "waiting"},
		{"swiss", "started", client.Standing{}, "waiting", "playing"},
		{"swiss", "started", client.Standing{Left: true, Forfeits: 2}, "(2 no-shows) withdrawn", "waiting"},
		{"swiss", "started", client.Standing{Byes: 1, Forfeits: 1}, "(1 bye, 1 no-show) waiting", ""},
		{"arena", "started", client.Standing{Left: true}, "left", "waiting"},
		{"arena", "created", client.Standing{}, "", "waiting"},
		{"swiss", "finished", client.Standing{Byes: 1}, "(1 bye)", "waiting"},
	} {
		st := c.s
		st.Rank, st.Name, st.Games = 1, "Dan", 2
		ev := &client.Tournament{Kind: c.kind, Name: "Club", Game: "nymphabet", Rounds: 3, Round: 2, Minutes: 30, ClockText: "1+0", Status: c.status,
			Starts: time.Now(), Standings: []client.Standing{st}}
		e := &eventScreen{shared: sh, ev: ev, opened: map[string]bool{}}
		line := lineWith(ansi.Strip(e.view()), " Dan ")
		if !strings.Contains(line, c.want) || c.not != "" && strings.Contains(line, c.not) {
			t.Errorf("%s %s, %+v: the line reads %q, want %q and not %q", c.status, c.kind, c.s, line, c.want, c.not)
		}
	}
}

// TestEventNoteOnStart: the note a join left ("it starts in 45s") goes
// when the event starts, rather than stand under the event under way.
func TestEventNoteOnStart(t *testing.T) {
	t.Parallel()
	sh := &shared{w: 100, h: 30, games: []client.Game{{Name: "nymphabet", Title: "Nymphabet"}}}
	ev := client.Tournament{Kind: "arena", Name: "Club", Game: "nymphabet", Minutes: 30, ClockText: "1+0", Status: "created", Starts: time.Now()}
	e := &eventScreen{shared: sh, ev: &ev, opened: map[string]bool{}}
	e.note = "you joined Club: it starts in 45s; stay about, and your games open here"
	again := ev
	e.got(eventMsg{ev: again})
	if e.note == "" {
		t.Errorf("a read of the event as it was took the note away")
	}
	again.Status = "started"
	e.got(eventMsg{ev: again})
	if e.note != "" {
		t.Errorf("under way, the event's note still reads %q", e.note)
	}
}

// TestEventWhen: an event's moment as the lists say it, an arena's end
// as the server moved it on after time it was down.
func TestEventWhen(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 2, 13, 0, 0, 0, time.UTC)
	sh := &shared{}
	for _, c := range []struct {
		ev   client.Tournament
		want string
	}{
		{client.Tournament{Status: "created", Starts: now.Add(5 * time.Minute)}, "in 5m 00s"},
		{client.Tournament{Status: "created", Starts: now.Add(-time.Second)}, "starting now"},
		{client.Tournament{Kind: "arena", Status: "started", Minutes: 30, Starts: now.Add(-10 * time.Minute)}, "20m 00s left"},
		{client.Tournament{Kind: "arena", Status: "started", Minutes: 30, Starts: now.Add(-25 * time.Minute), Ends: now.Add(15 * time.Minute)}, "15m 00s left"},
		{client.Tournament{Kind: "arena", Status: "started", Minutes: 30, Starts: now.Add(-40 * time.Minute), Ends: now.Add(-time.Minute)}, "ending"},
		{client.Tournament{Kind: "swiss", Status: "started", Round: 2, Rounds: 5}, "round 2 of 5"},
		{client.Tournament{Status: "finished", Winners: []string{"Ann", "Ben"}}, "won by Ann"},
		{client.Tournament{Status: "finished"}, "over"},
	} {
		if got := sh.eventWhen(c.ev, now, false); got != c.want {
			t.Errorf("%+v: %q, want %q", c.ev, got, c.want)
		}
	}
}

// TestEventsShareTheScreen: the hourly events to come fill the lines the
// empty lists leave rather than stop at a third of the screen; a list
// longer than the screen says how many more it has, and the screen fits.
func TestEventsShareTheScreen(t *testing.T) {
	t.Parallel()
	now := time.Now()
	events := func(n int) []client.Tournament {
		var l []client.Tournament
		for i := range n {
			l = append(l, client.Tournament{ID: fmt.Sprint(i), Kind: "arena", Name: fmt.Sprintf("Arena %d", i+1), Game: "quizl",
				ClockText: "3+2", Status: "created", Starts: now.Add(time.Duration(i+1) * time.Hour)})
		}
		return l
	}
	for _, tc := range []struct {
		name          string
		toCome, over  int
		shown, hidden int
	}{
		{"five to come", 5, 0, 5, 0},
		{"thirty to come", 30, 0, 10, 20},
		{"thirty to come and thirty over", 30, 30, 5, 25},
	} {
		sh := &shared{w: 80, h: 24}
		es := &eventsScreen{shared: sh, loaded: true}
		es.lists[0], es.lists[2] = events(tc.toCome), events(tc.over)
		s := ansi.Strip(es.view())
		for _, p := range fitProblems(s, 80, 24) {
			t.Errorf("%s: %s", tc.name, p)
		}
		head, _, _ := strings.Cut(s, "Under way")
		if got := strings.Count(head, "Arena "); got != tc.shown {
			t.Errorf("%s: %d events to come shown, want %d:\n%s", tc.name, got, tc.shown, s)
		}
		if more := fmt.Sprintf("… and %d more", tc.hidden); strings.Contains(head, more) != (tc.hidden > 0) {
			t.Errorf("%s: %q shown: %v, want %v:\n%s", tc.name, more, !(tc.hidden > 0), tc.hidden > 0, s)
		}
	}
}

// TestEventLongLists: in an event longer than the screen a player ranked
// below the lines there are still sees their own line, between the
// leaders and those below them, and the game chosen among those under
// way stays in view; the screen fits.
func TestEventLongLists(t *testing.T) {
	t.Parallel()
	ev := &client.Tournament{ID: "ev1", Kind: "arena", Name: "Club night", Game: "quizl", ClockText: "3+2",
		Status: "started", Starts: time.Now().Add(-10 * time.Minute), Minutes: 60}
	for i := range 40 {
		ev.Standings = append(ev.Standings, client.Standing{Rank: i + 1, Name: fmt.Sprintf("Player%02d", i+1), Score: 40 - i, Games: 3, You: i == 30})
	}
	for i := range 10 {
		ev.Playing = append(ev.Playing, client.TournamentGame{Table: fmt.Sprintf("table%02d", i), Players: []string{fmt.Sprintf("P%da", i), fmt.Sprintf("P%db", i)}})
	}
	for _, at := range []int{0, 3, 4, 9} {
		e := &eventScreen{shared: &shared{w: 80, h: 24}, id: ev.ID, ev: ev, at: at}
		s := ansi.Strip(e.view())
		for _, p := range fitProblems(s, 80, 24) {
			t.Errorf("game %d chosen: %s", at, p)
		}
		standings, games, _ := strings.Cut(s, "Games under way")
		if !strings.Contains(standings, "Player01") || !regexp.MustCompile(`\n\s+31\s+Player31\s+10\s+3`).MatchString(standings) || strings.Contains(standings, "Player30 ") {
			t.Errorf("game %d chosen: the standings do not show the leaders and Player31 (rank 31, the player's own):\n%s", at, s)
		}
		if !strings.Contains(standings, "… and 9 more") {
			t.Errorf("game %d chosen: the standings do not say that 9 are ranked below the player:\n%s", at, s)
		}
		if want := fmt.Sprintf("> P%da v P%db", at, at); !strings.Contains(games, want) {
			t.Errorf("game %d chosen: %q is not in view:\n%s", at, want, s)
		}
		if before := at >= 4; before != strings.Contains(games, "before") {
			t.Errorf("game %d chosen: the games before it said: %v, want %v:\n%s", at, !before, before, s)
		}
	}

	// Finished, the games played take the place of those under way.
	over := *ev
	over.Status, over.Playing, over.Winners = "finished", nil, []string{"Player01"}
	for i := range 60 {
		over.Games = append(over.Games, client.TournamentGame{Table: fmt.Sprintf("done%02d", i), Players: []string{fmt.Sprintf("P%da", i), fmt.Sprintf("P%db", i)},
			Points: []int{2, 0}, Ended: time.Now()})
	}
	for _, at := range []int{0, 5, 49} {
		e := &eventScreen{shared: &shared{w: 80, h: 24}, id: over.ID, ev: &over, at: at}
		s := ansi.Strip(e.view())
		for _, p := range fitProblems(s, 80, 24) {
			t.Errorf("finished, game %d chosen: %s", at, p)
		}
		if want := fmt.Sprintf("> P%da v P%db", at, at); !strings.Contains(s, want) || !strings.Contains(s, "Games played") {
			t.Errorf("finished, game %d chosen: %q is not in view:\n%s", at, want, s)
		}
	}
}

// TestEventGameInHistory: a finished game an event paired says so where
// the player's games are listed, an aborted one too, since the event
// counted it: the home screen's recent games (on the game's line where
// it fits, else under it) and a profile's games.
func TestEventGameInHistory(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ben, benS := signedUp(t, ts, "Ben")
	cat, catS := signedUp(t, ts, "Cat")
	finishedSwiss(t, ts, ben, benS, cat, catS)

	tm := newTermWith(t, ts.URL, "Cat", 80, 24, Config{DataDir: t.TempDir(), Session: catS.Token, Account: "Cat"})
	s := tm.waitFor("the recent game", has("Nymphabet", "aborted"))
	lines := strings.Split(s, "\n")
	i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "aborted") })
	if i < 0 || i+1 >= len(lines) || strings.TrimSpace(lines[i+1]) != "in Sunday Swiss, round 1" {
		t.Errorf("at 80 columns the recent game does not name its event under it:\n%s", s)
	}
	checkFits(t, tm)
	tm.update(tea.WindowSizeMsg{Width: 100, Height: 24})
	if l := strings.TrimSpace(lineWith(tm.screen(), "aborted")); !strings.HasSuffix(l, " · in Sunday Swiss, round 1") {
		t.Errorf("at 100 columns the recent game reads %q", l)
	}
	checkFits(t, tm)

	h, err := ben.PlayedGames(context.Background(), benS.Token, "Ben", 10)
	if err != nil || len(h) != 1 {
		t.Fatalf("Ben's games: %+v, %v", h, err)
	}
	sh := &shared{w: 100, h: 24, cfg: Config{Session: benS.Token, Account: "Ben"}}
	ps := &profileScreen{shared: sh, name: "Ben", p: &client.Profile{Name: "Ben", Games: 1, Ratings: map[string]client.PoolRating{}}, games: h}
	if l := ps.playedLine(h[0]); !strings.Contains(l, "aborted nymphabet against Cat · in Sunday Swiss, round 1") {
		t.Errorf("Ben's profile lists the game as %q", l)
	}
	for _, c := range []struct {
		e    *client.GameEvent
		want string
	}{{nil, ""}, {&client.GameEvent{ID: "a", Name: "Hourly Arena"}, "in Hourly Arena"}, {&client.GameEvent{ID: "s", Name: "Club Swiss", Round: 3}, "in Club Swiss, round 3"}} {
		if got := eventWords(c.e); got != c.want {
			t.Errorf("eventWords(%+v) = %q, want %q", c.e, got, c.want)
		}
	}
}

// TestEventPlayerGames: / and a player's name (any case, or its start
// when it starts one name only) list that player's games alone, as a click
// on a name does on the browser's page; a name nobody in the event has,
// or a start of several, is refused and changes nothing; esc shows every
// game again before it leaves the event.
func TestEventPlayerGames(t *testing.T) {
	t.Parallel()
	sh := offline(t, 80, 24)
	ended := time.Now().Add(-time.Minute)
	live := client.TournamentGame{Table: "t3", Round: 2, Players: []string{"Ann", "Ben"}}
	ev := &client.Tournament{Kind: "swiss", Name: "Club Swiss", Game: "nymphabet", Rounds: 3, Round: 2, ClockText: "1+0", Status: "started",
		Starts: time.Now().Add(-time.Hour), Players: 5,
		Standings: []client.Standing{{Rank: 1, Name: "Ann"}, {Rank: 2, Name: "Ben"}, {Rank: 3, Name: "Bea"}, {Rank: 4, Name: "Cat"}, {Rank: 5, Name: "Dan"}},
		Playing:   []client.TournamentGame{live},
		Games: []client.TournamentGame{live,
			{Table: "t2", Round: 1, Players: []string{"Cat", "Ann"}, Points: []int{0, 2}, Ended: ended},
			{Table: "t1", Round: 1, Players: []string{"Ben", "Dan"}, Points: []int{2, 0}, Ended: ended}}}
	e := &eventScreen{shared: sh, ev: ev, opened: map[string]bool{}}
	if got := ansi.Strip(e.view()); !strings.Contains(got, "/ a player's games") {
		t.Errorf("the keys do not offer a player's games:\n%s", got)
	}
	// Before any game there are none to list: no key.
	if got := ansi.Strip((&eventScreen{shared: sh, ev: &client.Tournament{Kind: "swiss", Name: "Club Swiss", Game: "nymphabet", Rounds: 3, ClockText: "1+0", Status: "created",
		Starts: time.Now().Add(time.Hour), Players: 2, Standings: ev.Standings[:2]}, opened: map[string]bool{}}).view()); strings.Contains(got, "/ a player's games") {
		t.Errorf("an event of no game yet offers a player's games:\n%s", got)
	}
	for _, c := range []struct{ typed, only, err string }{
		{"zed", "", "nobody in Club Swiss is called zed"},
		{"b", "", "the names of 2 players start b"},
		{"CAT", "Cat", ""},
		{"be", "", "the names of 2 players start be"},
		{"ben", "Ben", ""}, // a whole name, though Bea's starts alike
		{"Da", "Dan", ""},
	} {
		before := e.only
		e.pickPlayer(c.typed)
		want := c.only
		if want == "" {
			want = before
		}
		if e.only != want || !strings.Contains(e.err, c.err) || (c.err == "") != (e.err == "") {
			t.Errorf("%q: the games of %q, the refusal %q; want %q, %q", c.typed, e.only, e.err, want, c.err)
		}
	}
	got := ansi.Strip(e.view())
	for _, p := range fitProblems(got, 80, 24) {
		t.Error(p)
	}
	for _, want := range []string{"Dan's games", "round 1: Ben v Dan", "Ben 2, Dan 0", "enter see how it ended", "esc every game"} {
		if !strings.Contains(got, want) {
			t.Errorf("Dan's games do not say %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "Cat v Ann") || strings.Contains(got, "Ann v Ben") {
		t.Errorf("Dan's games list another's:\n%s", got)
	}
	// A player of no game yet.
	e.pickPlayer("bea")
	if got := ansi.Strip(e.view()); !strings.Contains(got, "Bea's games\n  none yet") || len(fitProblems(got, 80, 24)) > 0 {
		t.Errorf("Bea's games (%q):\n%s", fitProblems(got, 80, 24), got)
	}
	e.pickPlayer("ann")
	if got := ansi.Strip(e.view()); !strings.Contains(got, "Ann's games") || !strings.Contains(got, "> round 2: Ann v Ben") || !strings.Contains(got, "round 1: Cat v Ann") ||
		!strings.Contains(got, "enter watch (yours: play)") {
		t.Errorf("Ann's games, one under way:\n%s", got)
	}
	// esc: every game again, the event still on show.
	if cmd := e.update(keyMsg("esc")); cmd != nil || e.only != "" {
		t.Fatalf("esc from Ann's games: only %q, a command %v", e.only, cmd != nil)
	}
	if got := ansi.Strip(e.view()); !strings.Contains(got, "\nGames\n") || !strings.Contains(got, "Ben v Dan") || !strings.Contains(got, "esc back") {
		t.Errorf("every game again:\n%s", got)
	}
}

// TestEventPasswordTakenSlowly: a guest who takes their time over an
// event's password (its screen out of sight meanwhile, no longer read)
// joins with one that has spaces at its ends, as its maker set it, and
// the event's screen reads the event again: when it starts and pairs
// them, the game's table opens by itself, though no player stream tells
// a guest.
func TestEventPasswordTakenSlowly(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ben, benS := signedUp(t, ts, "Ben")
	ev := newArenaAPI(t, ts, benS, "Club night", " owl and lark ")
	if _, err := ben.JoinTournament(context.Background(), benS.Token, ev.ID, " owl and lark "); err != nil {
		t.Fatal(err)
	}
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.key("e")
	tm.waitFor("the list", has("> Club night ⚿"))
	tm.key("enter")
	tm.waitFor("the event", has("Club night", "Standings", "Ben"))
	tm.key("j")
	tm.waitFor("the password's prompt", has("The password of Club night"))
	// A tick while the prompt is on show: the event, out of sight and
	// not joined, is read no more.
	tm.waitFor("the event's reading stopped", func(string) bool { return !tm.m.event.ticking })
	tm.typeText(" owl and lark ")
	tm.key("enter")
	tm.waitFor("joined", has("you joined Club night", "2 players"))
	if err := startEvent(ben, benS, ev.ID); err != nil {
		t.Fatal(err)
	}
	tm.waitFor("the event's game", has("Nymphabet · ", "you: Ann"))
}
