package tui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// guidePanel is a game's first-game guide, open at a table in play: a
// few steps, each about one part of the play screen and the keys that
// work it, drawn at the foot of the screen under the board they talk
// about, as the browser's guide points at each part.
type guidePanel struct {
	title string
	steps []string
	at    int // the step on show
}

// guideSteps is the guide of game at a table with these rules. own says
// the player has a grid of their own (not a solitaire of Quizl).
func guideSteps(game string, rules map[string]json.RawMessage, own bool) []string {
	rule := func(name string) string {
		var s string
		json.Unmarshal(rules[name], &s) // missing or not a text: the default
		return s
	}
	switch game {
	case "quizl":
		steps := []string{
			"On the left, under Tracking, is the grid you hunt in: a five-letter password hides along one of its rows or columns, among 25 different letters. It starts blank.",
			"On your turn, call a square: the arrows pick it and enter calls it, or type its name, row then column (72), and enter. The letter it shows is yours alone to see.",
			"The moves on the right keep every call, and the letter each of yours showed: from them, work out which row or column holds the password, and what it spells.",
			"Sure of the password? Type it and press enter to announce it. Right, it scores 25 less one for each square you called; wrong, it costs you. Uncover its five letters by calls alone and that grid scores you nothing.",
		}
		if own {
			steps = append(steps, "Your grid is on the right, its password between [ ]. The others call its squares on their turns to hunt your word: those called show in lower case.")
		}
		return steps
	case "salvo":
		ocean := "On the left is the ocean you aim at: ten by ten, columns A to J, rows 1 to 10, with the other side's five ships hidden in it. Your own fleet is on the right."
		shots := "You start with five shots, and each ship you sink costs you one shot in the salvos after; you always keep one."
		outline := "Once every ship of a fleet is sunk, its hunter outlines where each one lay: o, then the fleet editor's keys, and enter. A wrong outline loses; the first right one wins."
		owner := rule("shots_lost_by") == "owner"
		switch {
		case !own && owner:
			shots = "You have five shots a salvo, and keep them all: nobody fires at you."
		case owner:
			shots = "You start with five shots, and each ship of yours that is sunk costs you one shot in the salvos after; you always keep one."
		}
		if !own {
			ocean = "On the left is the ocean you aim at: ten by ten, columns A to J, rows 1 to 10, with the computer's five ships hidden in it. Nobody fires back."
			outline = "Once every ship is sunk, outline where each one lay: o, then the fleet editor's keys, and enter. A wrong outline loses; the right one wins."
		}
		return []string{
			ocean,
			"Aim a salvo: the arrows move, space takes a square in (and out again), enter fires. " + shots,
			"A report says how many shots hit each kind of ship, never which shot: one in the destroyer from a salvo of three means one of those three squares holds it. m pencils a mark on a square; l lists every report.",
			outline,
		}
	case "wordfight":
		return []string{
			"Everybody builds a crossword nobody else sees, from the words of the list on the right: on your turn to declare, you add one to it.",
			"To declare, type a word and press enter. Then every player, you too, fits that word into their own grid.",
			"To place it, the arrows pick the square it starts on and space turns it across or down; enter places it. Letters already on your grid that it reuses score, and the line beside the grid says the points before you send.",
			"A word that fits nowhere: press c twice to say you cannot place it, and take a strike. Enough strikes end the game, and the best score wins.",
		}
	case "nymphabet":
		first := "The alphabet runs across the top: the letter between [ ] is the current one, the first not yet crossed off."
		last := "In this game whoever crosses off Z loses: plan so that the other player has to."
		switch rule("mode") {
		case "cyclic":
			first += " Here the alphabet goes round from Z to A, and the first word may begin with any letter."
			last = "Here the game ends once every letter is crossed off, and whoever crosses off the last one wins."
		case "scoring":
			first += " Here the alphabet goes round from Z to A, and the first word may begin with any letter."
			last = "Here each player scores the product of the letters each of their words crossed off (3, then 2, make 6); once every letter is crossed off, the higher product wins."
		}
		return []string{
			first,
			"Your word must begin with the current letter. It crosses off that letter, then each next letter of the alphabet that comes later in the word, in order: ABDICATED crosses off A, B, C and D.",
			"The words played are listed under the alphabet. " + last,
		}
	}
	return nil
}

// lines draws the guide in w columns: a title with the step, the step's
// words, and its keys.
func (g *guidePanel) lines(w int) []string {
	out := []string{title(g.title) + faint(fmt.Sprintf(" · step %d of %d", g.at+1, len(g.steps)))}
	out = append(out, strings.Split(wrap(g.steps[g.at], w), "\n")...)
	next := "enter or → next"
	if g.at == len(g.steps)-1 {
		next = "enter got it"
	}
	if g.at > 0 {
		next += " · ← back"
	}
	return append(out, faint(next+" · esc close the guide · any other key plays on"))
}

// guideKey takes a key while the guide is open: its own keys step through
// it or close it; any other closes it and reaches the game, so that a
// player who starts to play is not stopped. It says whether the key was
// the guide's.
func (t *tableScreen) guideKey(s string) bool {
	g := t.guide
	switch s {
	case "enter":
		if g.at+1 < len(g.steps) {
			g.at++
		} else {
			t.closeGuide()
		}
	case "right":
		g.at = min(len(g.steps)-1, g.at+1)
	case "left":
		g.at = max(0, g.at-1)
	case "esc":
		t.closeGuide()
	default:
		t.closeGuide()
		return false
	}
	return true
}

// openGuide opens the guide of the table's game at its first step; a
// game without one (a fifth, newer than this client) opens none.
func (t *tableScreen) openGuide() {
	if steps := guideSteps(t.game, tableRules(t.upd.Table.Rules), t.ownGrid()); len(steps) > 0 {
		t.guide = &guidePanel{title: "Your first game of " + t.gameTitle(t.game) + ": a short guide", steps: steps}
	}
}

// closeGuide closes the guide, and keeps that the player has seen it: it
// opens by itself no more for that game.
func (t *tableScreen) closeGuide() {
	t.guide = nil
	if !slices.Contains(t.set.Guided, t.game) {
		t.set.Guided = append(t.set.Guided, t.game)
		t.keepSettings()
	}
}

// guideFirst opens the guide by itself at the player's first table of a
// game, once play starts: when the client guides (Config.Guide), the
// player has not closed the game's guide before, holds no other table
// of it among their recent games (an account's, from the server), and
// comes to this one new: not back to a game they held in play before
// or have moved in. Over the SSH door the guide closed is kept for the
// session only, and a guest coming back to their game in the next one
// has it among the server's list of their tables.
func (t *tableScreen) guideFirst() {
	if t.guideAsked || t.upd.Table.Status != "playing" || t.watching() {
		return
	}
	t.guideAsked = true
	if !t.cfg.Guide || slices.Contains(t.set.Guided, t.game) || t.heldBefore || t.moved {
		return
	}
	if slices.ContainsFunc(t.recentHere(), func(r Recent) bool { return r.Game == t.game && r.Table != t.id }) {
		return
	}
	t.openGuide()
}

// ownGrid says whether the player has a grid or fleet of their own on
// the play screen: every game's seat does, but a solitaire of Quizl's or
// a Salvo practice (a daily puzzle's too), where only the computer's is
// hunted.
func (t *tableScreen) ownGrid() bool {
	if t.upd == nil {
		return true
	}
	var v struct {
		Grid  []string          `json:"grid"`
		Fleet []json.RawMessage `json:"fleet"`
	}
	json.Unmarshal(t.upd.View, &v)
	switch t.game {
	case "quizl":
		return len(v.Grid) > 0
	case "salvo":
		return len(v.Fleet) > 0
	}
	return true
}

// height is the lines the play screen has for itself: the terminal's,
// less those of the open guide at its foot (withGuide), so that a board
// that scrolls (a tall Word Fight grid, many Quizl grids, a long list of
// words) shows fewer rows rather than lose its typed line under the guide.
func (p *playScreen) height() int {
	if p.t.guide == nil {
		return p.t.h
	}
	return p.t.h - len(p.t.guide.lines(p.t.w)) - 1
}

// withGuide draws the open guide at the foot of a table's screen, in
// place of its blank lines and then of its last ones where the screen is
// full (squeeze): the board, and the line the player types on, stay in
// sight above it, and the message (a refusal, news) under it when the
// lines cut held any of it.
func (t *tableScreen) withGuide(screen string) string {
	if t.guide == nil {
		return screen
	}
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	foot := t.guide.lines(t.w)
	cut := func(foot []string) []string {
		if over := len(lines) + 1 + len(foot) - t.h; over > 0 {
			return squeeze(lines, over)
		}
		return lines
	}
	kept := cut(foot)
	if msg := t.message(); msg != "" {
		if !strings.Contains(strings.Join(kept, "\n"), msg) {
			ml := strings.Split(msg, "\n")
			if i := slices.Index(lines, ml[0]); i >= 0 {
				lines = lines[:i] // its start, kept, would show twice
			}
			foot = append(foot, ml...)
			kept = cut(foot)
		}
	}
	return strings.Join(append(append(kept, ""), foot...), "\n")
}

// squeeze takes n lines out of ls to make room: blank ones first, one at
// a time from the longest run of them, each run keeping one (the padding
// that holds a play screen's typed line and keys at its foot), and then
// the last ones, keeping the first.
func squeeze(ls []string, n int) []string {
	ls = slices.Clone(ls)
	blank := func(l string) bool { return strings.TrimSpace(ansi.Strip(l)) == "" }
	for ; n > 0; n-- {
		at, longest := -1, 1
		for i := 0; i < len(ls); {
			j := i
			for j < len(ls) && blank(ls[j]) {
				j++
			}
			if j-i > longest {
				at, longest = i, j-i
			}
			i = max(j, i+1)
		}
		if at < 0 {
			break
		}
		ls = slices.Delete(ls, at, at+1)
	}
	return ls[:max(1, len(ls)-n)]
}
