package store

import (
	"context"
	"time"
)

// DailyPuzzle is the one puzzle of a game on a day, the same for everyone:
// the hidden setup (Quizl's grid, Salvo's fleet) every attempt attacks.
type DailyPuzzle struct {
	Game string
	// Day is the UTC date, "2006-01-02".
	Day     string
	Setup   []byte
	Created time.Time
}

// DailyAttempt is one player's one attempt at a daily puzzle: the table
// it is played at and, once that game is over, its result.
type DailyAttempt struct {
	Game     string
	Day      string
	Identity string
	Name     string
	// Account is set when the player had an account: only those rank.
	Account bool
	Table   string
	Started time.Time
	// Finished is set once the game is over; the fields below are then
	// the result.
	Finished bool
	// Solved: Quizl's password announced, Salvo's fleet rightly outlined.
	Solved bool
	// Moves counts Quizl's calls or Salvo's salvos.
	Moves int
	// Wrong counts wrong announcements (Quizl) or wrong outlines (Salvo).
	Wrong int
	// Millis is the time from the start to the end of the game.
	Millis int64
	// Marks is the picture of the squares used, row by row ("#" used,
	// "." not, "/" between rows): it names no letter or ship, but points
	// at the answer, so only the attempt's player sees it while the day
	// lasts.
	Marks string
	// Trail is the moves' outcomes in order with no square in them
	// (game.Tally's Trail), which the share text draws; "" for an
	// attempt finished before trails were kept.
	Trail string
}

// Dailies persists daily puzzles and the attempts at them.
type Dailies interface {
	// PutDailyPuzzle stores p unless a puzzle of its game and day is
	// stored already, and returns the stored one: the first wins, so
	// that everyone gets the same puzzle.
	PutDailyPuzzle(ctx context.Context, p DailyPuzzle) (DailyPuzzle, error)
	// DailyPuzzle returns the puzzle of game and day, or ErrNotFound: a
	// server that starts reads the day's puzzle rather than make one the
	// store would not keep.
	DailyPuzzle(ctx context.Context, game, day string) (DailyPuzzle, error)
	// LatestDailyDay returns the latest day with a puzzle of game ("" if
	// none).
	LatestDailyDay(ctx context.Context, game string) (string, error)
	// StartDaily stores a new attempt; an attempt of the same game, day
	// and identity is refused with ErrConflict.
	StartDaily(ctx context.Context, a DailyAttempt) error
	// DailyAttempt returns identity's attempt at game's puzzle of day.
	DailyAttempt(ctx context.Context, game, day, identity string) (DailyAttempt, error)
	// FinishDaily stores an attempt's result (Finished and the fields
	// after it) once.
	FinishDaily(ctx context.Context, a DailyAttempt) error
	// UnfinishedDailies returns the attempts at game's puzzle of day
	// whose result is not stored yet.
	UnfinishedDailies(ctx context.Context, game, day string) ([]DailyAttempt, error)
	// DailyLeaderboard returns up to limit finished attempts of players
	// with accounts at game's puzzle of day, best first: solved first,
	// then fewest moves and wrong answers together (a wrong answer costs
	// what a move does, so that guessing word after word is no shortcut),
	// fewest wrong, least time. An account a
	// moderator closed is left out, as the rating leaderboards leave it.
	DailyLeaderboard(ctx context.Context, game, day string, limit int) ([]DailyAttempt, error)
	// DailyHistory returns up to limit attempts of identity at game's
	// puzzles, the latest day first.
	DailyHistory(ctx context.Context, identity, game string, limit int) ([]DailyAttempt, error)
}
