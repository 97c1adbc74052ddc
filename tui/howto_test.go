package tui

import (
	"context"
	"strings"
	"testing"
)

// TestHowToPlay: r on a game of the home screen shows its rules as the
// server words them, scrolled a page at a time; esc comes back home; r
// elsewhere says to choose a game.
func TestHowToPlay(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.key("down")
	tm.key("down") // Salvo, the third game
	tm.key("r")
	s := tm.waitFor("Salvo's rules", has("How to play Salvo", "lines 1-", "The ocean and the fleet", "esc back"))
	checkFits(t, tm)
	for _, raw := range []string{"## ", "`B3`", "|---"} {
		if strings.Contains(s, raw) {
			t.Errorf("the rules show Markdown's %q:\n%s", raw, s)
		}
	}
	tm.key("pgdown")
	tm.key("pgdown")
	s2 := tm.waitFor("a page on", func(s string) bool { return !strings.Contains(s, "The ocean and the fleet") })
	checkFits(t, tm)
	if s2 == s {
		t.Error("pgdown did not scroll")
	}
	tm.key("esc")
	tm.waitFor("home", has("New table"))
	for range 4 {
		tm.key("down") // past the games
	}
	tm.key("r")
	tm.waitFor("the games named", has("choose a game (↑↓), then r shows how to play it"))
}

// TestMarkdownLines: the rules' Markdown as a terminal shows it.
func TestMarkdownLines(t *testing.T) {
	t.Parallel()
	md := "# Salvo\n\nHide a *fleet*, then find\nyours: `B3`.\n\n## The fleet\n\n| ship | squares |\n|---|---|\n| battleship | 5 |\n\n- one item that goes on\n  over two lines\n2. two\n\n```json\n{\"fleet\": []}\n```\n\nSee [the page](x.md).\n"
	got := ansiStrip(strings.Join(markdownLines(md, 30), "\n"))
	want := strings.Join([]string{
		"Salvo",
		"",
		"Hide a fleet, then find yours:",
		"B3.",
		"",
		"The fleet",
		"",
		"  ship           squares",
		"  battleship     5",
		"",
		"- one item that goes on over",
		"  two lines",
		"2. two",
		"",
		"    {\"fleet\": []}",
		"",
		"See the page.",
	}, "\n")
	if got != want {
		t.Errorf("markdownLines:\n%s\n\nwant:\n%s", got, want)
	}
}

// TestHowToPlayAtTable: at a table, ? and then r show the game's rules
// over it, r goes back to the keys, and the table under them goes on
// taking its updates: a line Ben writes meanwhile is there once the help
// closes.
func TestHowToPlayAtTable(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm, ben := twoPlayerQuizl(t, ts)
	tm.key("?")
	tm.waitFor("the keys, with the rules' key", has("Keys (? or esc closes this)", "r: how to play Quizl"))
	checkFits(t, tm)
	tm.key("r")
	s := tm.waitFor("Quizl's rules", has("How to play Quizl (r the keys · esc closes this)", "The grid"))
	checkFits(t, tm)
	if strings.Contains(s, "## ") {
		t.Errorf("the rules show Markdown's headings:\n%s", s)
	}
	if _, err := ben.c.Chat(context.Background(), ben.token, ben.id, "players", "read them well"); err != nil {
		t.Fatal(err)
	}
	tm.key("pgdown")
	tm.waitFor("a page on", func(s string) bool { return !strings.Contains(s, "The grid") })
	tm.key("r")
	tm.waitFor("the keys again", has("Keys (? or esc closes this)", "r: how to play Quizl"))
	tm.key("esc")
	tm.waitFor("the table, with Ben's line", has("▶ your turn", "Ben (guest): read them well"))
}
