package tui

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"parlour/tui/client"
)

// TestNoDiskRecordLink: a client whose player is elsewhere (the SSH
// door's) writes no file, whatever DataDir says: `s` on the end screen
// shows the record's address under the server's public URL, whole on a
// line of its own, and the curl command that fetches it (ctrl+s, the
// record so far, says it stays on the server); the home screen
// offers no key file of this machine.
func TestNoDiskRecordLink(t *testing.T) {
	ts := newTestServer(t)
	dir := t.TempDir()
	key := filepath.Join(dir, "id_ed25519.pub")
	if err := os.WriteFile(key, []byte("ssh-ed25519 AAAA x@y\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tm := newTermWith(t, ts.URL, "Ann", 80, 24, Config{NoDisk: true, DataDir: dir, SSHKey: key, PublicURL: "https://parlour.example/"})
	tm.key("u")
	tm.typeText("Ann")
	tm.key("tab")
	tm.typeText("correct horse battery")
	tm.key("enter")
	s := tm.waitFor("signed up", has("signed in as Ann"))
	if strings.Contains(s, "id_ed25519") {
		t.Errorf("a remote player is offered the server's key file:\n%s", s)
	}
	tm.key("K")
	s = tm.waitFor("the paste line", has("Add an SSH key"))
	if strings.Contains(s, "id_ed25519") {
		t.Errorf("a remote player's K reads the server's key file:\n%s", s)
	}
	tm.key("esc")
	tm.open("nymphabet", 0)
	tm.key("enter")
	tm.waitFor("play", has("▶ your turn"))
	tm.key("ctrl+s") // the record so far: nothing written here either
	tm.waitFor("the refusal", has("over SSH the record stays on the server"))
	tm.typeText(":resign")
	tm.key("enter")
	tm.key("enter") // the first asks
	tm.waitFor("the end", over)
	tm.key("s")
	id := tm.table().id
	s = tm.waitFor("the record's address", has("Fetch the record on your own computer with:"))
	checkFits(t, tm)
	lines := strings.Split(s, "\n")
	want := []string{
		"  curl -o parlour-nymphabet-" + id + ".json \\",
		"    https://parlour.example/api/v1/tables/" + id + "/record",
	}
	found := false
	for i := range lines[:len(lines)-1] {
		if strings.TrimRight(lines[i], " ") == want[0] && strings.TrimRight(lines[i+1], " ") == want[1] {
			found = true
		}
	}
	if !found {
		t.Errorf("the screen lacks the lines\n%s\n%s\nit shows:\n%s", want[0], want[1], s)
	}
	if !strings.Contains(s, "s the record's address") || strings.Contains(s, "s save the record") {
		t.Errorf("the keys offer to save a file:\n%s", s)
	}
	tm.key("esc")
	tm.waitFor("home", has("New table"))
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.Name() != "id_ed25519.pub" {
			t.Errorf("the client wrote %s", e.Name())
		}
	}
}

// TestSetEndScreen: a Quizl game that ends its set (to the default 25)
// says on the end screen who won the set and by how much, and that r
// starts a new set.
func TestSetEndScreen(t *testing.T) {
	ts := newTestServer(t)
	tm, ben := twoPlayerQuizl(t, ts)
	var mine struct{ Password string }
	json.Unmarshal(tm.table().upd.Setup, &mine)
	tm.typeText("72")
	tm.key("enter")
	tm.waitFor("Ben to move", has("waiting for Ben"))
	if _, err := ben.c.Move(context.Background(), ben.token, ben.id, "say "+mine.Password, 0, false); err != nil {
		t.Fatalf("Ben announcing Ann's password: %v", err)
	}
	tm.waitFor("Ann to move", has("▶ your turn"))
	tm.typeText(":resign")
	tm.key("enter")
	tm.key("enter") // the first asks
	s := tm.waitFor("the end of the set", has("Ben wins the set 25-0 · r starts a new set"))
	if strings.Contains(s, "r plays the next game") {
		t.Errorf("the end of a set offers its next game:\n%s", s)
	}
	checkFits(t, tm)
}

// TestEndScreenAnalysis: a on the end screen shows the engines' analysis
// of the game, in the server's words, scrolled like the reports; a again
// goes back. An aborted game has none, and says so.
func TestEndScreenAnalysis(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("nymphabet", 0)
	tm.key("enter")
	tm.waitFor("the first turn", has("▶ your turn", "[A]"))
	tm.typeText("able")
	tm.key("enter")
	tm.waitFor("the computer's answer", func(s string) bool {
		return strings.Contains(s, "▶ your turn") && len(tm.table().log) > 1
	})
	tm.typeText(":resign")
	tm.key("enter")
	tm.key("enter") // the first asks
	tm.waitFor("the end", has("Game over", "a analysis"))
	tm.key("a")
	s := tm.waitFor("the analysis", has("The engines' analysis", "Analysis of a Nymphabet game between Ann", "Ann: ABLE"))
	checkFits(t, tm)
	if !strings.Contains(s, "esc or a back to the game") {
		t.Errorf("the analysis does not say how to go back:\n%s", s)
	}
	tm.key("a")
	tm.waitFor("the end screen again", has("Game over", "a analysis"))

	// An aborted game: nothing to analyse.
	tm.key("esc")
	tm.open("nymphabet", 0)
	tm.key("enter")
	tm.waitFor("the first turn", has("▶ your turn"))
	tm.typeText(":resign")
	tm.key("enter")
	tm.key("enter") // the first asks
	tm.waitFor("the end", over)
	tm.key("a")
	tm.waitFor("no analysis", has("an aborted game has no analysis"))
}

// TestScoresLabel: the end names what each game's scores count, by the
// table's rules where the game has modes; rules it cannot read count
// letters, the standard mode's.
func TestScoresLabel(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		game, rules, want string
	}{
		{"quizl", `{}`, "scores"},
		{"wordfight", `{"multiply": true}`, "scores"},
		{"salvo", `{}`, "ships sunk"},
		{"nymphabet", `{"mode": "standard"}`, "letters deleted"},
		{"nymphabet", `{"mode": "cyclic"}`, "letters deleted"},
		{"nymphabet", `{"mode": "scoring"}`, "scores (the letters each turn deleted, multiplied)"},
		{"nymphabet", `not json`, "letters deleted"},
		{"nymphabet", ``, "letters deleted"},
	} {
		if got := scoresLabel(c.game, json.RawMessage(c.rules)); got != c.want {
			t.Errorf("scoresLabel(%s, %s) = %q, want %q", c.game, c.rules, got, c.want)
		}
	}
}

// TestEndReason: the end says whose password was found or uncovered; in
// solitaire the grid is the computer's, never the one seat's (the
// player's own name there read as if they had found their own word).
func TestEndReason(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		seats []string
		view  string
		end   endData
		want  string
	}{
		{"announced", []string{"Ann", "Ben"}, `{}`, endData{Reason: "announced", Seat: 1, Against: 0, Word: "CRANE"}, "Ben announced CRANE, Ann's password"},
		{"tripped", []string{"Ann", "Ben"}, `{}`, endData{Reason: "tripped", Seat: 0, Against: 1}, "Ann tripped over the password of Ben's grid"},
		{"solitaire announced", []string{"Ann"}, `{"solitaire": true}`, endData{Reason: "announced", Seat: 0, Against: 0, Word: "HOCKS"}, "Ann announced HOCKS, the grid's password"},
		{"solitaire tripped", []string{"Ann"}, `{"solitaire": true}`, endData{Reason: "tripped", Seat: 0, Against: 0}, "Ann tripped over the password of the grid"},
		{"resigned", []string{"Ann"}, `{"solitaire": true}`, endData{Reason: "resign", Seat: 0, Against: -1}, "Ann resigned"},
		{"nymphabet:standard", []string{"Ann", "Ben"}, `{}`, endData{Reason: "deleted_z", Seat: 0, Against: -1, Word: "ZIP"}, "Ann's ZIP deleted Z, and whoever deletes Z loses"},
		{"nymphabet:cyclic", []string{"Ann", "Ben"}, `{}`, endData{Reason: "deleted_last", Seat: 1, Against: -1, Word: "LUMEN"}, "Ben's LUMEN deleted the last letter, and whoever deletes it wins"},
		{"nymphabet:scoring", []string{"Ann", "Ben"}, `{}`, endData{Reason: "all_deleted", Seat: 1, Against: -1, Word: "MINORSHIP"}, "Ben's MINORSHIP deleted the last letters, and the higher product wins"},
		{"wordfight:strikes", []string{"Ann", "Ben"}, `{"list":[{"word":"DRAW","by":1,"done":true,"cannot":[1]},{"word":"FJORD","by":1,"done":true,"cannot":[0,1]}]}`,
			endData{Reason: "strikes", Seat: 1, Against: -1, Word: "FJORD"}, "the strikes reached the limit with FJORD, declared by Ben: Ann and Ben could not place it"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			game, _, ok := strings.Cut(c.name, ":")
			if !ok {
				game = "quizl"
			}
			ts := &tableScreen{game: game, ends: &c.end, upd: &client.Update{View: json.RawMessage(c.view)}}
			for i, n := range c.seats {
				ts.upd.Table.Seats = append(ts.upd.Table.Seats, client.Seat{Seat: i, Name: n})
			}
			if got := ts.reasonText(); got != c.want {
				t.Errorf("reasonText() = %q, want %q", got, c.want)
			}
		})
	}
}

// TestEndKeys: alone at the table (solitaire, practice, a daily puzzle)
// r deals a new game rather than asking anybody for a rematch, and a
// daily's esc goes back to its result. A daily puzzle whose day lasts
// (its table reveals nothing) offers no analysis, replay or record,
// which the server refuses until then; once the day is over it does.
func TestEndKeys(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name      string
		seats     int
		daily     string
		reveal    bool
		noDisk    bool
		aborted   bool
		want, not []string
	}{
		{"two seats", 2, "", true, false, false, []string{"a analysis · p replay · s save the record · r rematch · esc home"}, []string{"new game"}},
		{"solitaire", 1, "", true, false, false, []string{"r new game · esc home"}, []string{"rematch"}},
		{"daily", 1, "quizl/2026-12-03", false, false, false, []string{"r new game · esc your daily result"}, []string{"rematch", "analysis", "replay", "record"}},
		{"daily over SSH", 1, "quizl/2026-12-03", false, true, false, []string{"r new game · esc your daily result"}, []string{"analysis", "replay", "record"}},
		{"daily, the day over", 1, "quizl/2026-12-03", true, false, false, []string{"a analysis · p replay · s save the record · r new game · esc your daily result"}, []string{"rematch"}},
		{"aborted", 2, "", true, false, true, []string{"p replay · s save the record · r rematch · esc home"}, []string{"analysis"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ts := &tableScreen{game: "quizl", shared: &shared{cfg: Config{NoDisk: c.noDisk}}, upd: &client.Update{Table: client.Table{Daily: c.daily}}}
			if c.aborted {
				ts.upd.Table.Result = &client.Result{Status: "aborted"}
			}
			for i := range c.seats {
				ts.upd.Table.Seats = append(ts.upd.Table.Seats, client.Seat{Seat: i})
				if c.reveal {
					ts.upd.Table.Reveal = append(ts.upd.Table.Reveal, client.Reveal{})
				}
			}
			got := (&endScreen{t: ts}).keys()
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("keys() = %q, want %q", got, w)
				}
			}
			for _, n := range c.not {
				if strings.Contains(got, n) {
					t.Errorf("keys() = %q, want no %q", got, n)
				}
			}
		})
	}
}

// TestEndClearsARefusal: a word the referee refused, still on the
// screen when the opponent resigns, does not stay under the end: the game
// is over and the end says how.
func TestEndClearsARefusal(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("nymphabet", 3) // a friend
	tm.key("enter")
	tm.waitFor("the open table", has("waiting for players to join"))
	bc, seat := benJoins(t, ts, tm)
	tm.waitFor("Ann's turn", has("▶ your turn"))
	tm.typeText("echo")
	tm.key("enter")
	tm.waitFor("the refusal", has("! ECHO does not start with A"))
	if _, err := bc.Move(context.Background(), seat.Token, seat.Table, "resign", 0, false); err != nil {
		t.Fatal(err)
	}
	s := tm.waitFor("the end", over)
	if strings.Contains(s, "ECHO") || strings.Contains(s, "! ") {
		t.Errorf("the refusal stays under the end:\n%s", s)
	}
}

// TestEndHearsWhatComesAfter: the table's event stream ends with the
// game, but the end screen still hears the other player: Ben's last
// words in the chat, and the rematch he opened, which it offers as the
// browser does; r then takes Ann's seat at that very table.
func TestEndHearsWhatComesAfter(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("nymphabet", 3) // a friend
	tm.key("enter")
	tm.waitFor("the open table", has("waiting for players to join"))
	bc, seat := benJoins(t, ts, tm)
	tm.waitFor("Ann's turn", has("▶ your turn"))
	ctx := context.Background()
	if _, err := bc.Move(ctx, seat.Token, seat.Table, "resign", 0, false); err != nil {
		t.Fatal(err)
	}
	tm.waitFor("the end", over)
	if _, err := bc.Chat(ctx, seat.Token, seat.Table, "players", "good game"); err != nil {
		t.Fatalf("Ben's chat after the end: %v", err)
	}
	next, err := bc.Rematch(ctx, seat.Token, seat.Table)
	if err != nil {
		t.Fatalf("Ben's rematch: %v", err)
	}
	tm.waitFor("Ben's words and his rematch", has("good game", "The rematch is open: r takes your seat at it"))
	checkFits(t, tm)
	tm.key("r")
	tm.waitFor("the rematch's table", func(string) bool { return tm.table() != nil && tm.table().id == next.Table })
}

// quizlEnd is the end of a finished Quizl game at a table of seats,
// w columns by h rows, each seat's setup revealed and committed to.
func quizlEnd(t *testing.T, w, h int, seats []string, passwords []string) *tableScreen {
	t.Helper()
	ts := &tableScreen{shared: &shared{w: w, h: h}, game: "quizl", id: "t1", seat: 0,
		upd: &client.Update{View: json.RawMessage(`{}`), Table: client.Table{Game: "quizl", Title: "Quizl", Status: "finished",
			Result: &client.Result{Status: "finished", Winners: []int{0}, Scores: make([]int, len(seats))}}}}
	ts.end, ts.chat = &endScreen{t: ts}, &chatPanel{t: ts}
	for i, n := range seats {
		ts.upd.Table.Seats = append(ts.upd.Table.Seats, client.Seat{Seat: i, Name: n, Kind: "person"})
		pw := passwords[i]
		setup := json.RawMessage(`{"grid":["` + pw + `","ABCDE","FGHIJ","KLMNO","PQRST"],"password":"` + pw + `"}`)
		salt := []byte{byte(i), 1, 2, 3}
		sum := sha256.Sum256(append(slices.Clone(salt), setup...))
		ts.upd.Table.Reveal = append(ts.upd.Table.Reveal, client.Reveal{Salt: hex.EncodeToString(salt), Setup: setup, Commitment: hex.EncodeToString(sum[:])})
	}
	return ts
}

// TestQuizlEndEveryGrid: at a table of three, every grid is shown on
// the end screen: as many side by side as the width holds, b the next
// ones, the screen saying which are shown; none is cut at the edge.
func TestQuizlEndEveryGrid(t *testing.T) {
	t.Parallel()
	seats := []string{"ann", "bob", "Computer (strong)"}
	pws := []string{"CRANE", "HOUSE", "LAGER"}
	for _, c := range []struct {
		w     int
		pages [][]string // the passwords on each page
		heads []string   // what each page says it shows
	}{
		{80, [][]string{{"CRANE", "HOUSE"}, {"LAGER"}}, []string{"grids 1-2 of 3 · b next", "grid 3 of 3 · b next"}},
		{100, [][]string{{"CRANE", "HOUSE"}, {"LAGER"}}, []string{"grids 1-2 of 3 · b next", "grid 3 of 3 · b next"}},
		{120, [][]string{{"CRANE", "HOUSE", "LAGER"}}, []string{""}},
	} {
		t.Run(fmt.Sprint(c.w), func(t *testing.T) {
			t.Parallel()
			ts := quizlEnd(t, c.w, 24, seats, pws)
			for round := range 2 {
				for i, page := range c.pages {
					s := ansi.Strip(ts.view())
					for _, p := range fitProblems(s, c.w, 24) {
						t.Error(p)
					}
					for _, pw := range pws {
						if want := slices.Contains(page, pw); strings.Contains(s, "password "+pw) != want {
							t.Errorf("round %d, page %d: the grid of %s shown %v, want %v:\n%s", round, i, pw, !want, want, s)
						}
					}
					if h := c.heads[i]; h != "" && !strings.Contains(s, h) {
						t.Errorf("round %d, page %d: no %q:\n%s", round, i, h, s)
					} else if h == "" && strings.Contains(s, "b next") {
						t.Errorf("every grid fits, yet b is offered:\n%s", s)
					}
					ts.end.update(keyMsg("b"))
				}
			}
		})
	}
}

// TestDailyEndShut: while a daily puzzle's day lasts, its end screen
// says when its analysis, replay and record open, and a, p and s say so
// again rather than ask the server, which refuses them.
func TestDailyEndShut(t *testing.T) {
	t.Parallel()
	ts := quizlEnd(t, 80, 24, []string{"ann"}, []string{"CRANE"})
	ts.upd.Table.Daily, ts.upd.Table.Reveal = "quizl/2026-12-03", nil
	s := ansi.Strip(ts.view())
	for _, p := range fitProblems(s, 80, 24) {
		t.Error(p)
	}
	if !strings.Contains(s, "midnight UTC") || strings.Contains(s, "a analysis") {
		t.Errorf("the end of a daily puzzle offers what its day keeps shut:\n%s", s)
	}
	for _, k := range []string{"a", "p", "s"} {
		ts.note = ""
		if cmd := ts.end.update(keyMsg(k)); cmd != nil {
			t.Errorf("%s asks the server", k)
		}
		if !strings.Contains(ts.note, "midnight UTC") {
			t.Errorf("%s says %q", k, ts.note)
		}
	}
}

// TestEndForcedResign: the server resigns for a player whose time ran
// out, or who walked away and was claimed against; the end says which,
// not that they resigned, and so does the replay's step of that move,
// with the event in its log. A resignation of the player's own, after
// the server played for another seat, stays a resignation.
func TestEndForcedResign(t *testing.T) {
	t.Parallel()
	resign := func(seat int, end bool) []client.Event {
		evs := []client.Event{{Kind: "resign", Text: "somebody resigned", Data: json.RawMessage(fmt.Sprintf(`{"seat":%d}`, seat))}}
		if end {
			evs = append(evs, client.Event{Kind: "end", Text: "game over", Data: json.RawMessage(fmt.Sprintf(`{"reason":"resign","seat":%d,"against":-1,"winners":[0]}`, seat))})
		}
		return evs
	}
	timeout := client.Event{Kind: "timeout", Text: "Ben ran out of time (1 minute a turn): Ben resigns", Data: json.RawMessage(`{"seat":1,"move":"resign","clock":60}`)}
	claim := client.Event{Kind: "claim", Text: "Ben was away for 5 minutes while it was their turn, and Ann claimed the game: Ben resigns", Data: json.RawMessage(`{"seat":1,"move":"resign","by":0,"away":300}`)}
	for _, c := range []struct {
		name      string
		moves     []client.Move // after Ann's first
		head, not string
		step      string // the replay's last step
		log       string // in the replay's log at its last step
	}{
		{"timeout", []client.Move{{Seat: 1, Move: "resign", Events: append([]client.Event{timeout}, resign(1, true)...)}},
			"Game over: Ben ran out of time", "resigned", "move 2 of 2, Ben: resign (time ran out)", timeout.Text},
		{"claim", []client.Move{{Seat: 1, Move: "resign", Events: append([]client.Event{claim}, resign(1, true)...)}},
			"Game over: Ben walked away, and Ann claimed the game", "resigned", "move 2 of 2, Ben: resign (away, claimed by Ann)", claim.Text},
		{"resigned after another's timeout", []client.Move{
			{Seat: 2, Move: "resign", Events: append([]client.Event{{Kind: "timeout", Text: "Cy ran out of time", Data: json.RawMessage(`{"seat":2,"move":"resign"}`)}}, resign(2, false)...)},
			{Seat: 1, Move: "resign", Events: resign(1, true)}},
			"Game over: Ben resigned", "ran out of time ·", "move 3 of 3, Ben: resign", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cl, err := client.New("http://parlour.invalid", "Ann")
			if err != nil {
				t.Fatal(err)
			}
			ts := &tableScreen{shared: &shared{w: 80, h: 24, cfg: Config{Server: "test", DataDir: t.TempDir()}, c: cl}, id: "t1", game: "nymphabet", gen: 1}
			ts.chat, ts.play, ts.setup, ts.end = &chatPanel{t: ts}, &playScreen{t: ts}, &setupScreen{t: ts}, &endScreen{t: ts}
			tb := client.Table{Game: "nymphabet", Title: "Nymphabet", Status: "playing", ToMove: []int{0}}
			for i, n := range []string{"Ann", "Ben", "Cy"} {
				tb.Seats = append(tb.Seats, client.Seat{Seat: i, Name: n, Kind: "person"})
			}
			ts.apply(client.Update{Version: 4, Table: tb})
			moves := append([]client.Move{{Seat: 0, Move: "able", Events: []client.Event{{Kind: "word", Text: "Ann: ABLE"}}}}, c.moves...)
			for i := range moves {
				moves[i].Version = 5 + i
			}
			tb.Status, tb.ToMove, tb.Result = "finished", nil, &client.Result{Status: "finished", Winners: []int{0}, Scores: []int{0, 0, 0}}
			ts.apply(client.Update{Version: 4 + len(moves), Table: tb, Moves: moves})

			s := ansi.Strip(ts.view())
			for _, p := range fitProblems(s, 80, 24) {
				t.Error(p)
			}
			if head := strings.Split(s, "\n")[1]; head != c.head {
				t.Errorf("the end's headline is %q, want %q:\n%s", head, c.head, s)
			}
			if strings.Contains(strings.Split(s, "\n")[1], c.not) {
				t.Errorf("the end's headline says %q:\n%s", c.not, s)
			}
			// The news of the end, for the screen that takes its place
			// (an event's next game), says why as the headline does.
			if news, want := ts.endNews(), "you won ("+strings.TrimPrefix(c.head, "Game over: ")+")"; news != want {
				t.Errorf("the end's news is %q, want %q", news, want)
			}

			ans := client.Replay{Game: "nymphabet", Title: "Nymphabet", Players: []string{"Ann", "Ben", "Cy"}, Result: *tb.Result}
			for _, mv := range moves {
				var evs []client.Event
				for _, e := range mv.Events {
					if !forcedEvent(e) { // the record holds the move alone
						evs = append(evs, e)
					}
				}
				ans.Steps = append(ans.Steps, client.ReplayStep{By: ans.Players[mv.Seat], Seat: mv.Seat, Move: mv.Move, Events: evs})
			}
			r := &replayScreen{t: ts, ans: ans, step: len(ans.Steps)}
			if at := r.at(); !strings.HasPrefix(at, c.step+" ·") {
				t.Errorf("the replay's last step reads %q, want %q", at, c.step)
			}
			if c.log != "" && !slices.Contains(r.board().log, c.log) {
				t.Errorf("the replay's log lacks %q: %q", c.log, r.board().log)
			}
		})
	}
}

// TestEndWordFightGridScrolls: a finished Word Fight grid taller than the
// room the end screen has for it says which rows are on show, and the
// arrows bring the others, down to the last, without running past it;
// one that fits is drawn whole with no such note.
func TestEndWordFightGridScrolls(t *testing.T) {
	t.Parallel()
	grid := func(n int) []string {
		rows := make([]string, n)
		for i := range rows {
			rows[i] = strings.Repeat(".", n)
		}
		rows[0] = "A" + rows[0][1:]
		rows[n-1] = "Z" + rows[n-1][1:]
		return rows
	}
	for _, c := range []struct {
		name string
		size int
		h    int
	}{
		{"20 rows at 80x24", 20, 24},
		{"20 rows at 100x32", 20, 32},
		{"30 rows at 80x24", 30, 24},
		{"8 rows at 80x24", 8, 24},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			view, err := json.Marshal(map[string]any{"grids": [][]string{grid(c.size), grid(c.size)}})
			if err != nil {
				t.Fatal(err)
			}
			ts := &tableScreen{game: "wordfight", shared: &shared{w: 80, h: c.h}, upd: &client.Update{View: view}}
			ts.upd.Table.Seats = []client.Seat{{Seat: 0, Name: "Ann"}, {Seat: 1, Name: "Ben"}}
			ts.upd.Table.Result = &client.Result{Status: "finished", Winners: []int{0}, Scores: []int{3, 1}}
			e := &endScreen{t: ts}
			s := ansi.Strip(e.view())
			if n := strings.Count(s, "\n") + 1; n > c.h {
				t.Errorf("the end screen takes %d lines of %d:\n%s", n, c.h, s)
			}
			last := fmt.Sprintf("%3d Z", c.size)
			if !strings.Contains(s, "  1 A") {
				t.Fatalf("the first row is not on show:\n%s", s)
			}
			if strings.Contains(s, last) {
				if strings.Contains(s, "scroll") {
					t.Errorf("a grid shown whole says it scrolls:\n%s", s)
				}
				return
			}
			if !strings.Contains(s, fmt.Sprintf(" of %d (b: next · ↑↓ scroll)", c.size)) {
				t.Errorf("a grid cut at the screen's foot does not say so:\n%s", s)
			}
			for range c.size + 5 {
				e.key("down")
			}
			s = ansi.Strip(e.view())
			if !strings.Contains(s, last) || strings.Contains(s, "  1 A") {
				t.Errorf("scrolled to the end, the last row is not on show, or the first still is:\n%s", s)
			}
			if !strings.Contains(s, fmt.Sprintf("-%d of %d", c.size, c.size)) {
				t.Errorf("scrolled to the end, the note does not end at row %d:\n%s", c.size, s)
			}
			e.key("pgup")
			e.key("pgup")
			e.key("pgup")
			e.key("up")
			if s = ansi.Strip(e.view()); !strings.Contains(s, "  1 A") || !strings.Contains(s, "rows 1-") {
				t.Errorf("scrolled back up, the first row is not on show:\n%s", s)
			}
		})
	}
}
