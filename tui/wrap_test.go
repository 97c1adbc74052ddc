package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWrapKeys: a line of keys breaks between its items, each key
// beside what it does and each broken line ending in " ·"; an item longer
// than a line breaks at its spaces; no line is wider than asked but a
// word that is.
func TestWrapKeys(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, s string
		w       int
		want    string
	}{
		{"keys that fit", "r rules · ? help", 20, "r rules · ? help"},
		{"keys broken between items", "↑↓ choose · i join · t leaderboards · ? help", 24, "↑↓ choose · i join ·\nt leaderboards · ? help"},
		{"the last line as wide as asked", "ab · cd · ef", 7, "ab ·\ncd · ef"},
		{"room kept for the mark", "ab · cd · ef", 9, "ab · cd ·\nef"},
		{"an item longer than a line", "esc back · a very long hint indeed · q", 10, "esc back ·\na very\nlong\nhint\nindeed · q"},
		{"a lone item, prose", "the quick brown fox jumps", 10, "the quick\nbrown fox\njumps"},
		{"spaces and lines gathered, empty items left out", " · r  rules ·  · \n", 20, "r rules"},
		{"a word wider than the line stays whole", "abcdefghij · k", 4, "abcdefghij ·\nk"},
		{"nothing", "", 10, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := wrapKeys(c.s, c.w)
			if got != c.want {
				t.Errorf("wrapKeys(%q, %d) = %q, want %q", c.s, c.w, got, c.want)
			}
			for _, l := range strings.Split(got, "\n") {
				// Only a single word wider than the line may overflow it.
				if ansi.StringWidth(l) > c.w && strings.Contains(strings.TrimSuffix(l, " ·"), " ") {
					t.Errorf("line %q is wider than %d", l, c.w)
				}
			}
		})
	}
}

// TestTailOf: the end of a line that fits in w columns, whole characters
// only (a wide one that would straddle the edge goes), as dropping
// characters from the front until it fits would leave it.
func TestTailOf(t *testing.T) {
	t.Parallel()
	// dropping is the reading tailOf must agree with, one character at
	// a time from the front.
	dropping := func(line string, w int) string {
		r := []rune(line)
		for len(r) > 0 && ansi.StringWidth(string(r)) > w {
			r = r[1:]
		}
		return string(r)
	}
	for _, c := range []struct {
		line string
		w    int
	}{
		{"", 10}, {"short", 10}, {"exactly10!", 10}, {"a line longer than ten", 10},
		{"漢字の行が長すぎる", 7}, {"漢字の行が長すぎる", 8}, {"ab漢字", 3},
		{"résumé and café", 6}, {"x", 0}, {"xyz", -3},
		{strings.Repeat("ssh-ed25519 AAAA", 300), 77},
	} {
		if got, want := tailOf(c.line, c.w), dropping(c.line, c.w); got != want {
			t.Errorf("tailOf(%q, %d) = %q, want %q", c.line, c.w, got, want)
		}
		if got := tailOf(c.line, c.w); ansi.StringWidth(got) > max(c.w, 0) {
			t.Errorf("tailOf(%q, %d) = %q, %d columns", c.line, c.w, got, ansi.StringWidth(got))
		}
	}
}

// BenchmarkTailOf draws the end of a pasted key of 4,096 characters, the
// longest the key box takes, as each key pressed in it redraws it.
func BenchmarkTailOf(b *testing.B) {
	line := "ssh-ed25519 " + strings.Repeat("A", 4096-12)
	for b.Loop() {
		tailOf(line, 77)
	}
}
