package tui

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"parlour/tui/client"
)

func TestWordFightAgainstTheComputer(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("wordfight", 0)
	// A small board: width and height 5, typed as digits (past the
	// third seat, nobody).
	tm.key("down")
	tm.key("down")
	tm.typeText("5")
	tm.key("down")
	tm.typeText("5")
	if s := tm.screen(); !strings.Contains(s, "Board width              ‹ 5 ›") || !strings.Contains(s, "Board height             ‹ 5 ›") {
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
			tm.key("c") // the first asks
			// The next word may be the same word declared again: the
			// list's length tells them apart.
			tm.waitFor("the answer", func(s string) bool {
				var after wordfightView
				tm.view(&after)
				return over(s) || after.Current != v.Current || len(after.List) != len(v.List) || (len(after.Answered) > tm.table().seat && after.Answered[tm.table().seat])
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

// TestWordFightWideBoard: a 30 by 30 board scrolls with the cursor, says
// which rows and columns it shows, and names the columns after Z as the
// notation does.
func TestWordFightWideBoard(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("wordfight", 0)
	tm.key("down") // the third seat: nobody
	tm.key("down")
	tm.typeText("30")
	tm.key("down")
	tm.typeText("30")
	tm.key("enter")
	// The declarer, choosing a word for the whole grid, is told that
	// part of it is out of sight and how to see the rest.
	s := tm.waitFor("play", has("Your turn to declare a word"))
	if !strings.Contains(s, "rows 1-") || !strings.Contains(s, "columns A-") || !strings.Contains(s, "arrows scroll") {
		t.Errorf("the declarer is not told that part of the board is hidden:\n%s", s)
	}
	tm.typeText("cat")
	tm.key("enter")
	tm.waitFor("the word to place", has("Place CAT at A1 across", "✓"))
	for range 29 {
		tm.key("right")
	}
	for range 29 {
		tm.key("down")
	}
	s = tm.waitFor("the far corner", func(s string) bool {
		return strings.Contains(s, "Place CAT at AD30 across") && tm.table().play.pdone == tm.table().play.pseq
	})
	checkFits(t, tm)
	if !strings.Contains(s, " 30 ") {
		t.Errorf("the board did not scroll to AD30:\n%s", s)
	}
	if !strings.Contains(s, "✗") {
		t.Errorf("CAT across from AD30 is not refused by the preview:\n%s", s)
	}
	// AA-AD stand in two header lines, each letter over its column.
	if !strings.Contains(s, "A A A A") || !strings.Contains(s, "Y Z A B C D") {
		t.Errorf("the columns after Z are not named in two lines:\n%s", s)
	}
	if !strings.Contains(s, "-30 of 30") || !strings.Contains(s, "-AD of 30") {
		t.Errorf("the rows and columns shown at the far corner are not named:\n%s", s)
	}
}

// TestWordFightTypedNotation: a typed line of more than a word is a move
// in the notation, as written; a single word is declared.
func TestWordFightTypedNotation(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("wordfight", 0)
	tm.key("enter")
	tm.waitFor("play", has("Your turn to declare a word"))
	tm.typeText("place B2 down")
	tm.key("enter")
	tm.waitFor("the refusal", has("! ", "declare a word, as in"))
	tm.key("esc") // clears the line
	tm.typeText("declare cat")
	tm.key("enter")
	tm.waitFor("the word declared", has("Place CAT"))
}

// TestWordFightLogWidth: the events beside the board take the columns a
// wide terminal gives them; where they are too few (80 columns), an event
// goes on to an indented line rather than being cut.
func TestWordFightLogWidth(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	line := "Bartholomew declares PLANET (6 letters)"
	for _, w := range []int{80, 100} {
		tm := newTerm(t, ts.URL, "Bartholomew", w, 24)
		tm.open("wordfight", 0)
		tm.key("enter")
		tm.waitFor("play", has("Your turn to declare a word"))
		tm.typeText("planet")
		tm.key("enter")
		s := tm.waitFor("the word declared", has("Place PLANET", "Bartholomew declares"))
		checkFits(t, tm)
		if got := strings.Contains(s, line); got != (w == 100) {
			t.Errorf("at %d columns the log line is on one line: %v:\n%s", w, got, s)
		}
		if strings.Contains(s, "…") || !strings.Contains(s, "letters)") {
			t.Errorf("at %d columns the log line is cut:\n%s", w, s)
		}
	}
}

// TestWordFightListMarks: the list marks the word being answered (▸) and
// a word somebody could not place (✗, explained under the list). Saying
// cannot takes c twice: the first says what the second does, any other
// key takes it back.
func TestWordFightListMarks(t *testing.T) {
	t.Parallel()
	tm, move := wordFightWith(t, "Ben")
	tm.waitFor("Ann's placement", has("you placed QUIZ", "Waiting for Ben to answer QUIZ"))
	// Answering again is refused with the reason: the word is answered.
	tm.key("enter")
	s := tm.waitFor("the refusal", has("! you have answered QUIZ already: waiting for Ben"))
	// While there is nothing to place, the keys do not offer placing.
	if strings.Contains(s, "enter place") || !strings.Contains(s, "esc home · ? help") {
		t.Errorf("with QUIZ answered, the keys still offer placing:\n%s", s)
	}
	move("place A1 across")
	tm.waitFor("Ben to declare", has("Waiting for Ben to declare a word"))
	// Ben declares DRAW, which crosses nothing: neither can place it.
	move("declare draw")
	tm.waitFor("DRAW to place", has("▸ 2 DRAW"))
	sent := tm.table().sent
	tm.key("c")
	tm.waitFor("what a second c does", has("c again says you cannot place DRAW, which may cost a strike (0 of 3"))
	checkFits(t, tm)
	if tb := tm.table(); tb.busy || tb.sent != sent {
		t.Fatalf("the first c sent an answer: busy %v, %d sent, %d before", tb.busy, tb.sent, sent)
	}
	tm.key("right")
	if s := tm.screen(); strings.Contains(s, "c again") {
		t.Errorf("another key took the question back, but it stays:\n%s", s)
	}
	tm.key("c")
	tm.waitFor("the question, asked again", has("c again says you cannot place DRAW"))
	tm.key("c")
	tm.waitFor("Ann's answer", has("you did not place DRAW"))
	move("cannot")
	s = tm.waitFor("the strike", has("✗ 2 DRAW", "✗ who could not place it: a strike"))
	if !strings.Contains(s, "  1 QUIZ") {
		t.Errorf("QUIZ, placed by all, is marked:\n%s", s)
	}
	// The struck word names who could not place it, as the browser does.
	if l := lineWith(s, "✗ 2 DRAW"); !strings.Contains(l, "✗ Ann, Ben") {
		t.Errorf("the struck DRAW does not say who could not place it: %q", l)
	}
	if l := lineWith(s, "  1 QUIZ"); strings.Contains(l, "✗") {
		t.Errorf("QUIZ, placed by all, names somebody who could not: %q", l)
	}
	// Each word says how Ann answered it, as the browser's column of her
	// own does: where she placed it and what it won, or that she could not.
	if l := lineWith(s, "  1 QUIZ"); !regexp.MustCompile(`QUIZ A1→ \+\d+ +Ann`).MatchString(l) {
		t.Errorf("QUIZ's line does not say where Ann placed it and its points: %q", l)
	}
	if l := lineWith(s, "✗ 2 DRAW"); !regexp.MustCompile(`DRAW cannot +Ben`).MatchString(l) {
		t.Errorf("DRAW's line does not say Ann could not place it: %q", l)
	}
	checkFits(t, tm)

	// Two more words nobody places: the third strike ends the game, and
	// the end says whose strike it was.
	tm.waitFor("Ann's turn", has("Your turn to declare a word"))
	tm.typeText("lynx")
	tm.key("enter")
	tm.waitFor("LYNX to place", has("▸ 3 LYNX"))
	tm.key("c")
	tm.key("c")
	tm.waitFor("Ann's answer", has("you did not place LYNX"))
	move("cannot")
	tm.waitFor("the second strike", has("✗ 3 LYNX"))
	move("declare fjord")
	tm.waitFor("FJORD to place", has("▸ 4 FJORD"))
	move("cannot")
	tm.key("c")
	tm.key("c")
	s = tm.waitFor("the end", over)
	if !strings.Contains(strings.Join(strings.Fields(s), " "), "with FJORD, declared by Ben: Ann and Ben could not place it") {
		t.Errorf("the end does not say who could not place the last word:\n%s", s)
	}
	checkFits(t, tm)
}

// TestWordFightWaitingWraps: beside a board that leaves the list a narrow
// column, whom the table waits for wraps there rather than being cut, a
// name of the longest a guest may take included.
func TestWordFightWaitingWraps(t *testing.T) {
	t.Parallel()
	const long = "Bartholomew Fitzgeraldo" // 23 characters
	tm, move := wordFightWith(t, long)
	want := "Waiting for " + long + " to answer QUIZ"
	tm.waitFor("the wait for the answer", func(s string) bool { return strings.Contains(besideBoard(s), want) })
	checkFits(t, tm)
	move("place A1 across")
	want = "Waiting for " + long + " to declare a word"
	tm.waitFor("the wait for the word", func(s string) bool { return strings.Contains(besideBoard(s), want) })
	checkFits(t, tm)
}

// TestWordFightRefusalStaysWithItsLine: the referee's refusal of a
// placement typed in the notation stays on screen while its line does,
// however long, though the other players' answers come meanwhile: the
// line, given back to be mended, means nothing without it. Mending the
// line lets it go at once.
func TestWordFightRefusalStaysWithItsLine(t *testing.T) {
	t.Parallel()
	tm, move := wordFightWith(t, "Ben")
	tm.waitFor("Ann's placement", has("you placed QUIZ"))
	move("place A1 across")
	move("declare zip")
	tm.waitFor("ZIP to place", has("▸ 2 ZIP"))

	const refusal = "! A1 down: the square A1 holds Q"
	tm.typeText(":place A1 down")
	tm.key("enter")
	tm.waitFor("the refusal", has(refusal, "Move: :place A1 down"))
	tm.table().errSince = time.Now().Add(-2 * errRead) // read, were it news
	move("place D1 down")
	s := tm.waitFor("Ben's answer", has("Ben has answered ZIP"))
	if !strings.Contains(s, refusal) {
		t.Errorf("Ben's answer took the refusal of the line still there:\n%s", s)
	}

	// Mended, the line is no longer what was refused: its reason goes
	// at once, with no news needed.
	tm.key("backspace")
	if tm.table().keptRefusal() {
		t.Error("the refusal is still kept once its line was mended")
	}
	if s := tm.screen(); strings.Contains(s, refusal) {
		t.Errorf("the refusal stays beside the line mended:\n%s", s)
	}
	tm.key("esc")
	tm.typeText(":place D1 down")
	tm.key("enter")
	s = tm.waitFor("Ann's answer", has("you placed ZIP"))
	if strings.Contains(s, refusal) {
		t.Errorf("the refusal outlived the move that answered it:\n%s", s)
	}
}

// wordFightWith opens a Word Fight table in Ann's terminal, seats the
// player name at it through the API, and has Ann declare QUIZ and place
// it at A1 across; it returns Ann's terminal and what plays the other
// player's moves.
func wordFightWith(t *testing.T, name string) (*term, func(string)) {
	t.Helper()
	ts := newTestServer(t)
	ctx := context.Background()
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("wordfight", 3) // a friend
	tm.key("enter")
	tm.waitFor("the table", func(string) bool { return tm.table() != nil })
	ben, err := client.New(ts.URL, name)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ben.Join(ctx, "", tm.table().id)
	if err != nil {
		t.Fatal(err)
	}
	move := func(m string) {
		t.Helper()
		if _, err := ben.Move(ctx, b.Token, b.Table, m, 0, false); err != nil {
			t.Fatalf("%s's %s: %v", name, m, err)
		}
	}
	tm.waitFor("Ann's turn", has("Your turn to declare a word"))
	tm.typeText("quiz")
	tm.key("enter")
	tm.waitFor("QUIZ to place", has("▸ 1 QUIZ"))
	tm.key("enter") // A1 across
	return tm, move
}

// TestWordFightListNamesWhole: at 80 columns the public list beside the
// board names a long declarer, and who could not place a word, whole,
// under the word where its line has no room, rather than cut.
func TestWordFightListNamesWhole(t *testing.T) {
	t.Parallel()
	const long = "Bartholomew Featherstone"
	tm, move := wordFightWith(t, long)
	tm.waitFor("Ann's placement", has("you placed QUIZ"))
	move("place A1 across")
	move("declare zip")
	tm.waitFor("ZIP to place", has("▸ 2 ZIP"))
	tm.typeText(":cannot")
	tm.key("enter")
	move("cannot")
	s := tm.waitFor("ZIP struck", has("✗ 2 ZIP"))
	for _, want := range []string{long, "✗ Ann, " + long} {
		if !strings.Contains(besideBoard(s), want) {
			t.Errorf("the list does not show %q whole:\n%s", want, s)
		}
	}
	checkFits(t, tm)
}

// besideBoard is the column beside a 20-wide Word Fight board, what each
// line of screen s holds past it, its words joined by single spaces.
func besideBoard(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if r := []rune(l); len(r) > 46 {
			out = append(out, string(r[46:]))
		}
	}
	return strings.Join(strings.Fields(strings.Join(out, " ")), " ")
}
