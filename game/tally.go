package game

import (
	"fmt"
	"strings"
)

// Tally is a finished one-seat play as a daily puzzle ranks and shares
// it: whether the player found what was hidden, and at what cost. It
// holds nothing of the hidden setup, since tallies are shown to everybody
// while others have still to play the same puzzle. Every game with a
// daily puzzle tallies into this one type, so that one leaderboard ranks
// them all: solved first, then fewest moves, then fewest wrong.
type Tally struct {
	// Solved is set when the player found what was hidden (Quizl's
	// password announced, Salvo's fleet rightly outlined).
	Solved bool
	// Moves counts the player's moves at the board (Quizl's calls,
	// Salvo's salvos); Wrong their wrong guesses at the whole (wrong
	// announcements, wrong outlines). TallyWords names both.
	Moves, Wrong int
	// Marks pictures the squares the moves used, row by row: "#" used,
	// "." not, rows separated by "/" (see Marks). It points at the
	// answer, so it is shown only to the player until the day is over.
	Marks string
	// Trail tells the moves in order by their outcomes alone, with no
	// square in it, so that it may be shown to anybody at any time (a
	// daily result's share text draws it): rows of the Trail symbols
	// separated by "/", laid out by the game (one row a salvo, or a
	// few calls a row).
	Trail string
}

// The symbols of a Tally's Trail: a move at the board that found
// something (a letter, a ship) or nothing, and a guess at the whole that
// was wrong or right.
const (
	TrailHit   = '#'
	TrailMiss  = '.'
	TrailWrong = 'x'
	TrailRight = '+'
)

// TallyWords names what a game's tallies count, in the singular and the
// plural, so that a tally reads in the game's own words ("1 call", "2
// wrong outlines") long after its play is gone.
type TallyWords struct {
	Move, Moves   string
	Wrong, Wrongs string
}

// Counts writes moves and wrong in w's words: "3 calls, 1 wrong
// announcement".
func (w TallyWords) Counts(moves, wrong int) string {
	return Count(moves, w.Move, w.Moves) + ", " + Count(wrong, w.Wrong, w.Wrongs)
}

// Tallier is implemented by games that have a daily puzzle: one seat
// plays against a setup hidden from it, and a tally ranks and shares the
// attempt. A server finds it on the Game in the registry: which games
// have a daily puzzle is a fact of the games, not the server's. It sits
// on the Game rather than the State because a server must know which
// games have a puzzle, and how their tallies read, before any play
// exists and after a play is gone.
type Tallier interface {
	// Tally returns the tally of st, a finished one-seat play of the
	// game. The error says st is not that: a play of another game, or
	// one still in progress.
	Tally(st State) (Tally, error)
	// TallyWords names what the game's tallies count.
	TallyWords() TallyWords
}

// Marks pictures a board of rows by cols squares for a Tally: "#" for a
// square used, "." for one not, rows separated by "/".
func Marks(rows, cols int, used func(row, col int) bool) string {
	var b strings.Builder
	b.Grow(rows * (cols + 1))
	for r := range rows {
		if r > 0 {
			b.WriteByte('/')
		}
		for c := range cols {
			if used(r, c) {
				b.WriteByte('#')
			} else {
				b.WriteByte('.')
			}
		}
	}
	return b.String()
}

// CheckTally returns an error unless st is a finished play, the first
// thing a Tallier checks; title names the game in the error.
func CheckTally(title string, st State) error {
	if st == nil {
		return fmt.Errorf("no play of %s to tally", title)
	}
	if st.Result().Status != Finished {
		return fmt.Errorf("a play of %s is tallied once it is over", title)
	}
	return nil
}
