package tui

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"parlour/lexicon"

	"github.com/charmbracelet/x/ansi"
)

func TestNymphabetAgainstTheComputer(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("nymphabet", 0)
	tm.key("enter")
	tm.waitFor("the first turn", has("▶ your turn", "current letter A", "[A]"))
	checkFits(t, tm)

	// A word the referee refuses: its message in place, nothing played.
	tm.typeText("aqqqq")
	tm.key("enter")
	s := tm.waitFor("the refusal", has("! "))
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
	if !regexp.MustCompile(`letters deleted: Ann \d+ · Computer \(easy\) \d+`).MatchString(s) {
		t.Errorf("the end shows no letters deleted:\n%s", s)
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
	tm.waitFor("the rematch", func(s string) bool {
		return tm.table().id != first && strings.Contains(s, "▶ your turn")
	})
	checkFits(t, tm)
	// Home lists both games among the recent ones.
	tm.key("esc")
	s = tm.waitFor("home", has("Your recent games", tm.m.recent[0].Table, first))
	if l := lineWith(s, first); !strings.Contains(l, " won ") && !strings.Contains(l, " lost ") || !strings.Contains(s, "playing") {
		t.Errorf("the recent games lack their status:\n%s", s)
	}
}

// TestNymphabetPromptWaits: while the other player is to move, the
// prompt does not ask for a word starting with the current letter, which
// their word is about to move on; once they have, it asks for the new one.
func TestNymphabetPromptWaits(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("nymphabet", 3) // a friend
	tm.key("enter")
	tm.waitFor("the table", func(string) bool { return tm.table() != nil })
	ben, b := benJoins(t, ts, tm)
	tm.waitFor("Ann's turn", has("▶ your turn", "A word starting with A:"))
	tm.typeText("able")
	tm.key("enter")
	s := tm.waitFor("Ben's turn", has("ABle", "waiting for Ben"))
	if !strings.Contains(s, "Your word, once it is your turn:") || strings.Contains(s, "A word starting with C") {
		t.Errorf("while Ben is to move, the prompt asks for a word starting with C:\n%s", s)
	}
	checkFits(t, tm)
	if _, err := ben.Move(context.Background(), b.Token, b.Table, "cede", 0, false); err != nil {
		t.Fatal(err)
	}
	tm.waitFor("Ann's turn again", has("CeDE", "▶ your turn", "A word starting with F:"))
}

// TestNymphabetWordsLaidOut: the words played fill the room one a line,
// then in columns, so that a long game's early words stay in sight (they
// scrolled off, where the browser lists every word); only when the
// columns are full do the earliest go.
func TestNymphabetWordsLaidOut(t *testing.T) {
	t.Parallel()
	v := nymphView{Players: []struct {
		Name    string `json:"name"`
		Letters int    `json:"letters"`
		Turns   int    `json:"turns"`
		Product int    `json:"product"`
		Score   int    `json:"score"`
	}{{Name: "Ann"}, {Name: "Computer (easy)"}}}
	add := func(n int) {
		for i := range n {
			v.Words = append(v.Words, struct {
				By      int    `json:"by"`
				Word    string `json:"word"`
				Deleted string `json:"deleted"`
			}{By: i % 2, Word: fmt.Sprintf("word%02d", len(v.Words)), Deleted: ""})
		}
	}
	for _, tc := range []struct {
		words, room, width int
		first              int // the earliest word in sight
	}{
		{words: 5, room: 12, width: 80},
		{words: 12, room: 12, width: 80},
		{words: 20, room: 12, width: 80},
		{words: 30, room: 12, width: 80},
		{words: 50, room: 12, width: 80, first: 14}, // three columns of 12

		{words: 20, room: 4, width: 40, first: 16},
	} {
		v.Words = nil
		add(tc.words)
		got := nymphWords(v, tc.room, tc.width)
		lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
		if len(lines) != tc.room {
			t.Errorf("%d words in %d lines: %d lines\n%s", tc.words, tc.room, len(lines), got)
		}
		for _, l := range lines {
			if ansi.StringWidth(l) > tc.width {
				t.Errorf("%d words: a line wider than %d: %q", tc.words, tc.width, l)
			}
		}
		for i := range tc.words {
			in := strings.Contains(got, fmt.Sprintf("word%02d", i))
			if in != (i >= tc.first) {
				t.Errorf("%d words in %d lines of %d: word %d in sight %v, want %v\n%s", tc.words, tc.room, tc.width, i, in, i >= tc.first, got)
			}
		}
	}
}
