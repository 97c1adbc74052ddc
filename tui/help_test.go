package tui

import (
	"os"
	"strings"
	"testing"
)

// TestDocsListEveryKey: docs/terminal.md lists every key of the help
// overlay, each with the same words.
func TestDocsListEveryKey(t *testing.T) {
	raw, err := os.ReadFile("../docs/terminal.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Join(strings.Fields(string(raw)), " ")
	for _, k := range keyHelp() {
		for _, item := range strings.Split(k.keys, " · ") {
			if !strings.Contains(doc, strings.Join(strings.Fields(item), " ")) {
				t.Errorf("docs/terminal.md lacks %s's %q", k.screen, item)
			}
		}
	}
}

// TestHelpKeys: the overlay lists the keys that clear a line and ask the
// server again, and they do what it says.
func TestHelpKeys(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.key("?")
	s := tm.screen()
	for _, want := range []string{"ctrl+u clear the line", "r ask the server again", "r refresh"} {
		if !strings.Contains(strings.Join(strings.Fields(s), " "), want) {
			t.Errorf("the help lacks %q:\n%s", want, s)
		}
	}
	checkFits(t, tm)
	tm.key("esc")
	tm.key("i")
	tm.typeText("K7M")
	tm.key("ctrl+u")
	if s := tm.screen(); !strings.Contains(s, "> █") {
		t.Errorf("ctrl+u did not clear the line:\n%s", s)
	}
}
