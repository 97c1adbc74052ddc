package tui

import (
	"encoding/json"
	"fmt"
	"strings"

	"parlour/game"

	"github.com/charmbracelet/x/ansi"
)

// Nymphabet's play screen: the struck alphabet and the words.

type nymphLetter struct {
	Letter  string `json:"letter"`
	Deleted bool   `json:"deleted"`
	By      int    `json:"by"`
}

type nymphView struct {
	Seat     int           `json:"seat"`
	Mode     string        `json:"mode"`
	Status   string        `json:"status"`
	Alphabet []nymphLetter `json:"alphabet"`
	Current  string        `json:"current"`
	Left     int           `json:"left"`
	Words    []struct {
		By      int    `json:"by"`
		Word    string `json:"word"`
		Deleted string `json:"deleted"`
	} `json:"words"`
	Players []struct {
		Name    string `json:"name"`
		Letters int    `json:"letters"`
		Turns   int    `json:"turns"`
		Product int    `json:"product"`
		Score   int    `json:"score"`
	} `json:"players"`
	Winners []int `json:"winners"`
}

// shown writes a word in lower case with the letters it deleted in
// capitals, as the referee listed them: each at its first place after the
// one before.
func shown(word, deleted string) string {
	run := strings.FieldsFunc(deleted, func(r rune) bool { return r == ',' || r == ' ' })
	w := []rune(strings.ToLower(word))
	k := 0
	for i := range w {
		if k < len(run) && strings.EqualFold(string(w[i]), run[k]) {
			w[i] = []rune(strings.ToUpper(string(w[i])))[0]
			k++
		}
	}
	return string(w)
}

// nymphWords lays out the words played in room lines of width columns:
// one a line while they fit, then down and across in as many columns as
// the width takes, so that a long game's early words stay in sight (the
// latest last); only when even those are full do the earliest go.
func nymphWords(v nymphView, room, width int) string {
	room = max(room, 0)
	items := make([]string, len(v.Words))
	for i, w := range v.Words {
		name := fmt.Sprintf("seat %d", w.By)
		if w.By >= 0 && w.By < len(v.Players) {
			name = v.Players[w.By].Name
		}
		if len(v.Words) <= room {
			items[i] = fmt.Sprintf("%-20s %s", name+":", shown(w.Word, w.Deleted))
		} else {
			items[i] = name + ": " + shown(w.Word, w.Deleted)
		}
	}
	cols, colW := 1, 0
	if len(items) > room {
		for _, it := range items {
			colW = max(colW, ansi.StringWidth(it)+3)
		}
		cols = max(1, (width-2)/colW)
		items = items[max(0, len(items)-cols*room):]
	}
	rows := (len(items) + cols - 1) / cols
	var b strings.Builder
	for r := range room {
		var line strings.Builder
		for c := 0; c < cols && r < rows; c++ {
			i := c*rows + r
			if i >= len(items) {
				break
			}
			line.WriteString(items[i])
			if c < cols-1 {
				line.WriteString(strings.Repeat(" ", max(0, colW-ansi.StringWidth(items[i]))))
			}
		}
		if l := strings.TrimRight(line.String(), " "); l != "" {
			b.WriteString("  " + l)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func (p *playScreen) nymphabetView() string {
	var v nymphView
	json.Unmarshal(p.t.upd.View, &v)
	var b strings.Builder
	b.WriteString("\n  ")
	for _, l := range v.Alphabet {
		switch {
		case l.Deleted:
			b.WriteString(faint(strings.ToLower(l.Letter)+"̶") + " ")
		case l.Letter == v.Current:
			b.WriteString(hi("["+l.Letter+"]") + " ")
		default:
			b.WriteString(l.Letter + " ")
		}
	}
	b.WriteString("\n\n")
	cur := "any letter may start the first word"
	if v.Current != "" {
		cur = "current letter " + v.Current
	}
	fmt.Fprintf(&b, "  %s · %s left · mode %s\n", cur, game.Count(v.Left, "letter", "letters"), v.Mode)
	var ps []string
	for _, p := range v.Players {
		if v.Mode == "scoring" {
			ps = append(ps, fmt.Sprintf("%s: product %d", p.Name, p.Product))
		} else {
			ps = append(ps, fmt.Sprintf("%s: %s in %s", p.Name, game.Count(p.Letters, "letter", "letters"), game.Count(p.Turns, "word", "words")))
		}
	}
	b.WriteString("  " + strings.Join(ps, " · ") + "\n\n")
	b.WriteString(nymphWords(v, p.height()-12-p.t.msgExtra(), p.t.w))
	// The current letter is the next word's only while it is this
	// player's turn: the other's word moves it on first.
	prompt := "Your word:"
	switch {
	case !p.t.myTurn():
		prompt = "Your word, once it is your turn:"
	case v.Current != "":
		prompt = "A word starting with " + v.Current + ":"
	}
	return b.String() + p.footer(prompt, "type a word · enter play it · :resign · esc home · ? help")
}
