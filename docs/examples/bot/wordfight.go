package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// wordView is the little of a Sightless Word Fight view the bot reads
// (docs/rules/wordfight.md; the view's fields in docs/protocol.md).
type wordView struct {
	Seat     int      `json:"seat"`
	ToMove   []int    `json:"to_move"`
	Declarer int      `json:"declarer"`
	Current  string   `json:"current"`
	Grid     []string `json:"grid"`
	List     []struct {
		Word string `json:"word"`
		Mine *struct {
			Move string `json:"move"`
		} `json:"mine"`
	} `json:"list"`
}

// wordGame is what the bot knows of its Word Fight game: its own grid,
// the words declared, and the word to answer.
type wordGame struct {
	seat    int
	grid    [][]byte // rows of '.', '#' and upper-case letters
	said    map[string]bool
	current string // the word being answered, "" when none
	// answered is whether the bot has answered current.
	answered bool
}

// newWordGame reads the game from the bot's view of it.
func newWordGame(v wordView) *wordGame {
	g := &wordGame{seat: v.Seat, said: map[string]bool{}, current: v.Current}
	for _, row := range v.Grid {
		g.grid = append(g.grid, []byte(row))
	}
	for _, e := range v.List {
		g.said[e.Word] = true
		if e.Word == v.Current && e.Mine != nil {
			g.answered = true
		}
	}
	return g
}

// hear follows the game through the events of the moves since the bot's
// last: the words declared, its own placements, and the words done.
func (g *wordGame) hear(events []Event) {
	for _, e := range events {
		var d struct {
			Seat int    `json:"seat"`
			Word string `json:"word"`
			At   string `json:"at"`
		}
		json.Unmarshal(e.Data, &d)
		switch e.Kind {
		case "declare":
			g.said[d.Word] = true
			g.current, g.answered = d.Word, false
		case "placed":
			if d.Seat == g.seat {
				if r, c, down, ok := parseAt(d.At); ok {
					g.write(d.Word, r, c, down)
				}
				g.answered = true
			}
		case "cannot":
			if d.Seat == g.seat {
				g.answered = true
			}
		case "word_done":
			g.current = ""
		}
	}
}

// wordfight plays the bot's seat in a game of Sightless Word Fight: it
// places each word where it reuses the most letters of its grid without
// touching any other letter side on (so that it never makes a cross word
// it would have to check in a dictionary), answers "cannot" when it finds
// no such place, and declares, of its words not yet on the list, the one
// it can place best itself. It reads the table once, for its grid and
// where the game stands, then makes one request a move.
func (b *Bot) wordfight(ctx context.Context) error {
	var u struct {
		Version int `json:"version"`
		Table   struct {
			Status string `json:"status"`
		} `json:"table"`
		View wordView `json:"view"`
	}
	if err := b.call(ctx, "/api/v1/tables/"+b.table, nil, &u); err != nil {
		return err
	}
	g := newWordGame(u.View)
	a := Answer{Version: u.Version, Status: u.Table.Status, ToMove: u.View.ToMove}
	if !slices.Contains(a.ToMove, g.seat) && a.Status != "finished" {
		if err := b.awaitTurn(ctx, &a); err != nil {
			return err
		}
		g.hear(a.Events)
	}
	for a.Status != "finished" {
		var err error
		if g.current != "" && !g.answered {
			a, err = b.answerWord(ctx, g)
		} else {
			a, err = b.declare(ctx, g)
		}
		if err != nil {
			return err
		}
		g.hear(a.Events)
	}
	return nil
}

// answerWord places the current word where it scores most, or answers
// "cannot".
func (b *Bot) answerWord(ctx context.Context, g *wordGame) (Answer, error) {
	if r, c, down, reused := g.best(g.current); reused >= 0 {
		a, err := b.move(ctx, "place "+cell(r, c)+map[bool]string{false: " across", true: " down"}[down])
		var ref *Refusal
		if !errors.As(err, &ref) || ref.Status != http.StatusUnprocessableEntity {
			return a, err
		}
		// Refused: a rule the bot does not know of (a masked square's
		// own rule, say). It gives the word up rather than guess.
		fmt.Fprintf(b.Log, "placing %s was refused: %s\n", g.current, ref.Message)
	}
	return b.move(ctx, "cannot")
}

// declare declares the bot's word it can place best, of those not yet on
// the list; a word the table's dictionary refuses is passed over. It
// resigns when it has no word left.
func (b *Bot) declare(ctx context.Context, g *wordGame) (Answer, error) {
	type choice struct {
		word   string
		reused int
	}
	var choices []choice
	for _, w := range b.Words {
		w = strings.ToUpper(w)
		if len(w) < 2 || g.said[w] {
			continue
		}
		_, _, _, reused := g.best(w)
		choices = append(choices, choice{w, reused})
	}
	// The best placed first; the longer of two alike (it scores more).
	slices.SortStableFunc(choices, func(x, y choice) int {
		if x.reused != y.reused {
			return y.reused - x.reused
		}
		return len(y.word) - len(x.word)
	})
	for _, ch := range choices {
		a, err := b.move(ctx, "declare "+ch.word)
		var ref *Refusal
		if errors.As(err, &ref) && ref.Status == http.StatusUnprocessableEntity {
			g.said[ch.word] = true // not the table's word: never again
			continue
		}
		return a, err
	}
	return b.move(ctx, "resign")
}

// best returns where word goes in g's grid reusing the most letters, by
// the bot's own cautious rule (fits), and how many it reuses; -1 when
// nowhere.
func (g *wordGame) best(word string) (row, col int, down bool, reused int) {
	reused = -1
	empty := !slices.ContainsFunc(g.grid, func(r []byte) bool {
		return slices.ContainsFunc(r, func(ch byte) bool { return ch >= 'A' && ch <= 'Z' })
	})
	for r := range g.grid {
		for c := range g.grid[r] {
			for _, d := range []bool{false, true} {
				n, ok := g.fits(word, r, c, d)
				if !ok || (n == 0) != empty {
					continue // after the first word, every word crosses one
				}
				// The first word goes as near the middle as it may, to
				// leave room on every side.
				if n > reused || empty && reused >= 0 && centred(g.grid, word, r, c, d) < centred(g.grid, word, row, col, down) {
					row, col, down, reused = r, c, d, n
				}
			}
		}
	}
	return row, col, down, reused
}

// centred measures how far word placed at (r, c) lies from the grid's
// middle.
func centred(grid [][]byte, word string, r, c int, down bool) int {
	h, w := len(grid), len(grid[0])
	mr, mc := r, c+len(word)/2
	if down {
		mr, mc = r+len(word)/2, c
	}
	return abs(2*mr-h) + abs(2*mc-w)
}

func abs(x int) int { return max(x, -x) }

// fits reports whether word may go at (r, c), across or down, by a rule
// stricter than the referee's: each square free or holding the same
// letter, the squares before and after it free, at least one letter new,
// and no new letter with a letter beside it across the word's line, so
// that no cross word is made. It returns the letters reused.
func (g *wordGame) fits(word string, r, c int, down bool) (int, bool) {
	dr, dc := 0, 1
	if down {
		dr, dc = 1, 0
	}
	if g.letter(r-dr, c-dc) || g.letter(r+len(word)*dr, c+len(word)*dc) {
		return 0, false
	}
	reused := 0
	for i := range len(word) {
		rr, cc := r+i*dr, c+i*dc
		if rr >= len(g.grid) || cc >= len(g.grid[rr]) {
			return 0, false
		}
		switch ch := g.grid[rr][cc]; {
		case ch == word[i]:
			reused++
		case ch != '.':
			return 0, false
		case g.letter(rr-dc, cc-dr) || g.letter(rr+dc, cc+dr):
			return 0, false // a new letter beside another
		}
	}
	return reused, reused < len(word)
}

// letter reports whether square (r, c) is on the grid and holds a letter.
func (g *wordGame) letter(r, c int) bool {
	if r < 0 || r >= len(g.grid) || c < 0 || c >= len(g.grid[r]) {
		return false
	}
	ch := g.grid[r][c]
	return ch >= 'A' && ch <= 'Z'
}

// write puts word in the grid at (r, c).
func (g *wordGame) write(word string, r, c int, down bool) {
	for i := range len(word) {
		if down && r+i < len(g.grid) && c < len(g.grid[r+i]) {
			g.grid[r+i][c] = word[i]
		} else if !down && r < len(g.grid) && c+i < len(g.grid[r]) {
			g.grid[r][c+i] = word[i]
		}
	}
}

// cell names the square at row r and column c (both from 0): columns
// A to Z, then AA, AB, ...; rows from 1.
func cell(r, c int) string {
	col := string(rune('A' + c%26))
	if c >= 26 {
		col = string(rune('A'+c/26-1)) + col
	}
	return fmt.Sprintf("%s%d", col, r+1)
}

// parseAt reads a placement as the server writes it ("B2 across").
func parseAt(at string) (r, c int, down bool, ok bool) {
	sq, dir, _ := strings.Cut(at, " ")
	i := strings.IndexFunc(sq, func(ch rune) bool { return ch >= '0' && ch <= '9' })
	if i < 1 || i > 2 || (dir != "across" && dir != "down") {
		return 0, 0, false, false
	}
	c = -1
	for _, ch := range sq[:i] {
		if ch < 'A' || ch > 'Z' {
			return 0, 0, false, false
		}
		c = (c+1)*26 + int(ch-'A')
	}
	if _, err := fmt.Sscanf(sq[i:], "%d", &r); err != nil || r < 1 {
		return 0, 0, false, false
	}
	return r - 1, c, dir == "down", true
}
