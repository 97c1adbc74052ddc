package nymphabet

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"parlour/game"
)

// String draws the view as text, for parlour replay and logs: the alphabet
// with deleted letters struck out, each word with the letters it deleted
// in capitals, the players' tallies and the state of play.
func (v View) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Nymphabet (%s)\n\n", v.Mode)
	for _, l := range v.Alphabet {
		if l.Deleted {
			b.WriteByte('-')
		} else {
			b.WriteString(l.Letter)
		}
	}
	fmt.Fprintf(&b, "   %d left", v.Left)
	if v.Current != "" {
		fmt.Fprintf(&b, ", next word begins with %s", v.Current)
	}
	b.WriteString("\n\n")
	// The words line up after the longest name.
	width := 0
	for _, p := range v.Players {
		width = max(width, utf8.RuneCountInString(p.Name))
	}
	for i, w := range v.Words {
		name := "?"
		if w.By >= 0 && w.By < len(v.Players) {
			name = v.Players[w.By].Name
		}
		fmt.Fprintf(&b, "%3d. %-*s  %s\n", i+1, width, name, Marked(w.Word, w.Deleted))
	}
	if len(v.Words) > 0 {
		b.WriteByte('\n')
	}
	for _, p := range v.Players {
		fmt.Fprintf(&b, "%s: %s in %s", p.Name, game.Count(p.Letters, "letter", "letters"), game.Count(p.Turns, "turn", "turns"))
		if v.Mode == Scoring {
			fmt.Fprintf(&b, ", score %d", p.Score)
		}
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n")
}

// Marked writes word in lower case with the letters it deleted in capitals,
// as players write it on paper ("ABacK"). deleted lists the letters in the
// order they were deleted, separated by commas and spaces ("A, B, C").
func Marked(word, deleted string) string {
	want := strings.ToLower(strings.NewReplacer(",", "", " ", "").Replace(deleted))
	out := []byte(strings.ToLower(word))
	for i := 0; i < len(out) && want != ""; i++ {
		if out[i] == want[0] {
			out[i] -= 'a' - 'A'
			want = want[1:]
		}
	}
	return string(out)
}
