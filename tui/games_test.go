package tui

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"parlour/lexicon"
)

// open starts a new table of game from the home screen, with the form's
// opponent moved right opp times.
func (tm *term) open(game string, opp int) {
	tm.t.Helper()
	for i, g := range tm.m.games {
		if g.Name == game {
			tm.key(strconv.Itoa(i + 1))
		}
	}
	tm.waitFor("the new-table form", has("new table", "Play against"))
	for range opp {
		tm.key("right")
	}
}

// view decodes the seat's view the client holds (the tests' player reads
// it to choose moves; the checks read the screen).
func (tm *term) view(v any) {
	tm.t.Helper()
	if err := json.Unmarshal(tm.table().upd.View, v); err != nil {
		tm.t.Fatal(err)
	}
}

func over(s string) bool { return strings.Contains(s, "Game over") }

func TestNymphabetAgainstTheComputer(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("nymphabet", 0)
	tm.key("enter")
	s := tm.waitFor("the first turn", has("▶ your turn", "current letter A", "[A]"))
	checkFits(t, tm)

	// A word the referee refuses: its message in place, nothing played.
	tm.typeText("aqqqq")
	tm.key("enter")
	s = tm.waitFor("the refusal", has("! "))
	if !strings.Contains(s, "AQQQQ") && !strings.Contains(strings.ToLower(s), "aqqqq") {
		t.Errorf("the refusal does not name the word:\n%s", s)
	}
	if strings.Contains(s, "Ann: ") && strings.Contains(s, "Aqqqq") {
		t.Errorf("a refused word is listed:\n%s", s)
	}
	tm.key("ctrl+u")

	words := map[byte][]string{}
	for n := 4; n <= 9; n++ {
		for _, w := range lexicon.Default().OfLength(n) {
			words[w[0]] = append(words[w[0]], w)
		}
	}
	for turn := 0; turn < 60; turn++ {
		var v nymphView
		tm.view(&v)
		cur := strings.ToLower(v.Current)
		list := words[cur[0]]
		w := list[(turn*7919)%len(list)]
		before := len(v.Words)
		tm.typeText(w)
		if s := tm.screen(); !strings.Contains(s, "A word starting with "+v.Current+": "+w) {
			t.Fatalf("the typed word is not on the prompt:\n%s", s)
		}
		tm.key("enter")
		s = tm.waitFor("the word's answer", func(s string) bool {
			return over(s) || (strings.Contains(s, "▶ your turn") && len(tm.table().log) > before+1) || strings.Contains(s, "! ")
		})
		if strings.Contains(s, "! ") {
			t.Fatalf("the referee refused %q:\n%s", w, s)
		}
		if over(s) {
			break
		}
		checkFits(t, tm)
		// The word is listed with the letters it deleted in capitals, and
		// its first letter is struck from the alphabet.
		if !strings.Contains(s, strings.ToUpper(w[:1])+w[1:2]) && !strings.Contains(s, strings.ToUpper(w[:2])) {
			t.Fatalf("%q is not listed:\n%s", w, s)
		}
		if !strings.Contains(s, w[:1]+"̶") {
			t.Fatalf("%c is not struck:\n%s", w[0], s)
		}
	}
	s = tm.waitFor("the end", over)
	checkFits(t, tm)
	if !regexp.MustCompile(`scores: Ann \d+ · Computer \(easy\) \d+`).MatchString(s) {
		t.Errorf("the end shows no scores:\n%s", s)
	}
	tm.key("s")
	tm.waitFor("the saved record", has("record saved to"))
	path := tm.table().end.saved
	raw, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(raw), `"nymphabet"`) {
		t.Errorf("the saved record %s: %v\n%s", path, err, raw)
	}
	// A rematch: a new table, the computer first this time.
	first := tm.table().id
	tm.key("r")
	s = tm.waitFor("the rematch", func(s string) bool {
		return tm.table().id != first && strings.Contains(s, "▶ your turn")
	})
	checkFits(t, tm)
	// Home lists both games among the recent ones.
	tm.key("esc")
	s = tm.waitFor("home", has("Your recent games", tm.m.recent[0].Table, first))
	if !strings.Contains(s, "finished") || !strings.Contains(s, "playing") {
		t.Errorf("the recent games lack their status:\n%s", s)
	}
}

// trackingLetters counts the letters on the screen's first tracking grid
// (the five rows under "Tracking"), and says what is at (r, c).
func trackingLetters(s string, r, c int) (int, string) {
	lines := strings.Split(s, "\n")
	at := -1
	for i, l := range lines {
		if strings.Contains(l, "Tracking") {
			at = i + 2
			break
		}
	}
	if at < 0 || at+5 > len(lines) {
		return -1, ""
	}
	n, cell := 0, ""
	for i := range 5 {
		row := []rune(lines[at+i])
		if len(row) > 20 {
			row = row[:20]
		}
		for j := 4; j < len(row); j++ {
			if row[j] >= 'A' && row[j] <= 'Z' {
				n++
			}
		}
		if i == r && 5+3*c < len(row) {
			cell = string(row[5+3*c])
		}
	}
	return n, cell
}

// playQuizl calls every square in turn (by the arrows, or by typing its
// name) until the game is over, checking the tracking grid after every
// call: the letter called shows, and nothing else that was not called.
func playQuizl(t *testing.T, tm *term, secret string) string {
	t.Helper()
	calls := 0
	for i := range 25 {
		r, c := i/5, i%5
		s := tm.waitFor("the turn", func(s string) bool { return over(s) || strings.Contains(s, "▶ your turn") })
		if over(s) {
			return s
		}
		if i%2 == 0 {
			for tm.table().play.r != r {
				tm.key("down")
			}
			for tm.table().play.c != c {
				tm.key("right")
			}
			tm.key("enter")
		} else {
			tm.typeText(fmt.Sprintf("%d%d", r+5, c))
			tm.key("enter")
		}
		calls++
		s = tm.waitFor("the call's letter", func(s string) bool {
			_, cell := trackingLetters(s, r, c)
			return over(s) || (cell >= "A" && cell <= "Z")
		})
		if over(s) {
			return s
		}
		checkFits(t, tm)
		if n, _ := trackingLetters(s, r, c); n != calls {
			t.Fatalf("after %d calls the tracking grid shows %d letters:\n%s", calls, n, s)
		}
		if secret != "" && strings.Contains(s, secret) {
			t.Fatalf("the opponent's password %s shows before the end:\n%s", secret, s)
		}
	}
	return tm.waitFor("the end", over)
}

func TestQuizlAgainstTheComputer(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("quizl", 0)
	tm.key("enter")
	tm.waitFor("the grid editor", has("Make your grid"))
	tm.typeText("crane")
	s := tm.waitFor("the count of squares left", has(`password "CRANE" on row 5`, "20 squares to fill"))
	checkFits(t, tm)
	tm.key("ctrl+f")
	tm.waitFor("the referee's check", has("✓ the referee accepts"))
	// Breaking the grid: the referee names what is wrong.
	tm.key("down")
	tm.typeText("c")
	s = tm.waitFor("the refusal", has("✗"))
	if strings.Contains(s, "accepts") {
		t.Fatalf("a repeated letter passed:\n%s", s)
	}
	tm.key("ctrl+f")
	tm.waitFor("the referee's check", has("✓ the referee accepts"))
	tm.key("enter")
	s = tm.waitFor("play", has("▶ your turn", "Tracking Computer (easy)", "Your grid password CRANE"))
	checkFits(t, tm)

	// An announcement the referee refuses: its words in place.
	tm.typeText("qxzvj")
	tm.key("enter")
	s = tm.waitFor("the refusal", has("! "))
	if n, _ := trackingLetters(s, 0, 0); n != 0 {
		t.Fatalf("letters show before any call:\n%s", s)
	}
	tm.key("esc") // clears the line
	if tm.table() == nil || tm.table().play.line != "" {
		t.Fatal("esc with a line typed left the table or kept the line")
	}
	s = playQuizl(t, tm, "")
	checkFits(t, tm)
	if strings.Count(s, "✓ commitment matches") != 2 {
		t.Errorf("the end does not check both commitments:\n%s", s)
	}
	if !strings.Contains(s, "password CRANE") {
		t.Errorf("the end does not reveal the grids:\n%s", s)
	}
}

func TestSolitaireQuizl(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("quizl", 4) // solitaire, a grid made by the easy computer
	if s := tm.screen(); !strings.Contains(s, "solitaire") {
		t.Fatalf("the form does not offer solitaire:\n%s", s)
	}
	tm.key("enter")
	s := tm.waitFor("play", has("▶ your turn", "Tracking the computer's grid"))
	if strings.Contains(s, "Your grid") {
		t.Errorf("a solitaire player has a grid of their own:\n%s", s)
	}
	s = playQuizl(t, tm, "")
	if !strings.Contains(s, "✓ commitment matches") {
		t.Errorf("the end does not check the grid's commitment:\n%s", s)
	}
}

func TestSalvoAgainstTheComputer(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("salvo", 0)
	tm.key("enter")
	s := tm.waitFor("the fleet editor", has("Place your fleet", "✓ the referee accepts"))
	checkFits(t, tm)
	// Moving a ship onto another: the referee's refusal names them.
	for range 10 {
		tm.key("right")
		tm.key("down")
	}
	tm.key("r") // a random fleet again
	tm.waitFor("the referee's check", has("✓ the referee accepts"))
	tm.key("enter")
	s = tm.waitFor("play", has("▶ your turn", "Aiming at Computer (easy)'s ocean", "Your ocean"))
	checkFits(t, tm)
	// A pencil mark on J10, and off again; a shot too many is refused.
	tm.key("up")
	tm.key("left")
	tm.key("m")
	if l := strings.Split(tm.screen(), "\n")[12]; !strings.HasPrefix(l, "10  ·  ·  ·  ·  ·  ·  ·  ·  ·  x") {
		t.Fatalf("no pencil mark on J10: %q", l)
	}
	tm.key("m")
	tm.key("right")
	tm.key("down")

	next, outlined := 0, false
	for salvo := 1; salvo < 60; salvo++ {
		s = tm.waitFor("the turn", func(s string) bool { return over(s) || strings.Contains(s, "▶ your turn") })
		if over(s) {
			break
		}
		var v salvoView
		tm.view(&v)
		if v.MustOutline {
			// The test's player cannot deduce the fleet: it outlines its
			// own, wrongly, which ends the game.
			var own struct{ Fleet []string }
			json.Unmarshal(tm.table().upd.Setup, &own)
			tm.key("o")
			if s := tm.screen(); !strings.Contains(s, "Outline: "+strings.Join(own.Fleet, " ")) {
				t.Fatalf("the outline does not start from the fleet's shape:\n%s", s)
			}
			tm.key("enter")
			outlined = true
			break
		}
		var aimed []string
		for len(aimed) < v.Shots && next < 100 {
			r, c := next/10, next%10
			next++
			for tm.table().play.r != r {
				tm.key("down")
			}
			for tm.table().play.c != c {
				tm.key("right")
			}
			tm.key("space")
			aimed = append(aimed, sqName(c, r))
		}
		if s := tm.screen(); !strings.Contains(s, fmt.Sprintf("Salvo: %s (%d of %d shots)", strings.Join(aimed, " "), len(aimed), v.Shots)) {
			t.Fatalf("the salvo being aimed is not shown:\n%s", s)
		}
		tm.key("enter")
		s = tm.waitFor("the salvo's report", func(s string) bool {
			return over(s) || strings.Contains(s, fmt.Sprintf("Ann fired salvo %d at", salvo))
		})
		if over(s) {
			break
		}
		checkFits(t, tm)
		// Every square of the salvo shows its number on the tracking ocean.
		var after salvoView
		tm.view(&after)
		for _, q := range aimed {
			c, r, _ := parseSquare(q)
			if after.Tracking[0].Ocean[r][c] != salvo {
				t.Fatalf("%s holds %d, not salvo %d", q, after.Tracking[0].Ocean[r][c], salvo)
			}
		}
		line := strings.Split(s, "\n")[3+aimed[0][1]-'1']
		if !strings.Contains(line[:34], strconv.Itoa(salvo)) {
			t.Fatalf("salvo %d is not drawn on the tracking ocean:\n%s", salvo, s)
		}
		if !strings.Contains(s, "Hits so far:") {
			t.Fatalf("no tally:\n%s", s)
		}
		// Nothing of the computer's fleet shows on the tracking ocean.
		for _, l := range strings.Split(s, "\n")[3:13] {
			if strings.ContainsAny(l[:min(len(l), 34)], "BCDS") {
				t.Fatalf("a ship letter on the tracking ocean: %q", l)
			}
		}
	}
	s = tm.waitFor("the end", over)
	checkFits(t, tm)
	t.Logf("outlined: %v; %s", outlined, strings.SplitN(s, "\n", 3)[1])
	if strings.Count(s, "✓ commitment matches") != 2 || !strings.Contains(s, "fleet ") {
		t.Errorf("the end does not reveal and check both fleets:\n%s", s)
	}
}

func TestWordFightAgainstTheComputer(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("wordfight", 0)
	// A small board: width and height 5, typed as digits.
	tm.key("down")
	tm.typeText("5")
	tm.key("down")
	tm.typeText("5")
	if s := tm.screen(); !strings.Contains(s, "width                       ‹ 5 ›") || !strings.Contains(s, "height                      ‹ 5 ›") {
		t.Fatalf("the form did not take the size:\n%s", tm.screen())
	}
	tm.key("enter")
	tm.waitFor("play", has("Your turn to declare a word"))
	words := []string{"cat", "dog", "emu", "fig", "hat", "owl", "pea", "ram", "sun", "tea", "yak", "zoo"}
	declared, placements := 0, 0
	for step := 0; step < 200; step++ {
		s := tm.waitFor("a turn", func(s string) bool {
			return over(s) || strings.Contains(s, "▶ your turn")
		})
		if over(s) {
			break
		}
		checkFits(t, tm)
		// Only this seat's own placements are in its log: the computer's
		// answers stay secret until the end.
		if n := strings.Count(strings.Join(tm.table().log, "\n"), "you placed"); n != placements {
			t.Fatalf("%d placements in the log, %d made", n, placements)
		}
		var v wordfightView
		tm.view(&v)
		if v.Current == "" {
			w := words[declared%len(words)]
			declared++
			tm.typeText(w)
			tm.key("enter")
			tm.waitFor("the word on the list", func(s string) bool {
				return over(s) || strings.Contains(s, strings.ToUpper(w)) && strings.Contains(s, "Place "+strings.ToUpper(w))
			})
			continue
		}
		// A refusal long enough to wrap still leaves the screen whole.
		p := tm.table().play
		p.preview = strings.Repeat("a refusal that goes on and on ", 5)
		checkFits(t, tm)
		// Look for a legal placement with the live preview; none: cannot.
		placed := false
		for sq := 0; sq < 50 && !placed; sq++ {
			r, c, down := sq/10, (sq/2)%5, sq%2 == 1
			for p.r != r {
				tm.key("down")
			}
			for p.c != c {
				tm.key("right")
			}
			if p.down != down {
				tm.key("space")
			}
			tm.waitFor("the preview", func(string) bool { return p.pdone == p.pseq })
			if strings.HasPrefix(ansiStrip(p.preview), "✓") {
				score := v.Score
				tm.key("enter")
				s = tm.waitFor("the placement", func(s string) bool {
					var after wordfightView
					tm.view(&after)
					return over(s) || after.Current != v.Current || len(after.List) != len(v.List) || (len(after.Answered) > tm.table().seat && after.Answered[tm.table().seat])
				})
				if over(s) {
					break
				}
				var after wordfightView
				tm.view(&after)
				if !strings.Contains(s, fmt.Sprintf("Your score %d", after.Score)) || after.Score < score {
					t.Fatalf("the score is not shown:\n%s", s)
				}
				placed = true
				placements++
			}
		}
		if !placed && !over(tm.screen()) {
			tm.key("c")
			tm.waitFor("the answer", func(s string) bool {
				var after wordfightView
				tm.view(&after)
				return over(s) || after.Current != v.Current || (len(after.Answered) > tm.table().seat && after.Answered[tm.table().seat])
			})
		}
	}
	s := tm.waitFor("the end", over)
	checkFits(t, tm)
	var end wordfightView
	tm.view(&end)
	t.Logf("%d words declared, %d on the list, %d placed, final score %d", declared, len(end.List), placements, end.Score)
	if placements == 0 {
		t.Errorf("no word was placed:\n%s", s)
	}
	if !strings.Contains(s, "The audit") || strings.Count(s, "✓ confirmed") != 2 {
		t.Errorf("the end shows no audit:\n%s", s)
	}
	if !strings.Contains(s, "Ann's grid (b: next)") {
		t.Errorf("the end shows no grid:\n%s", s)
	}
}

// TestWordFightWideBoard: a 30 by 30 board scrolls with the cursor, and
// the columns after Z are named as the notation names them.
func TestWordFightWideBoard(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("wordfight", 0)
	tm.key("down")
	tm.typeText("30")
	tm.key("down")
	tm.typeText("30")
	tm.key("enter")
	tm.waitFor("play", has("Your turn to declare a word"))
	tm.typeText("cat")
	tm.key("enter")
	tm.waitFor("the word to place", has("Place CAT at A1 across", "✓"))
	for range 29 {
		tm.key("right")
	}
	for range 29 {
		tm.key("down")
	}
	s := tm.waitFor("the far corner", func(s string) bool {
		return strings.Contains(s, "Place CAT at AD30 across") && tm.table().play.pdone == tm.table().play.pseq
	})
	checkFits(t, tm)
	if !strings.Contains(s, " 30 ") || !strings.Contains(s, "AD") {
		t.Errorf("the board did not scroll to AD30:\n%s", s)
	}
	if !strings.Contains(s, "✗") {
		t.Errorf("CAT across from AD30 is not refused by the preview:\n%s", s)
	}
}
