package table

import (
	"context"

	"parlour/server/auth"
	"parlour/server/chat"
	"parlour/server/refuse"
)

// Reading is what the read gate is told of a read of a table.
type Reading struct {
	// Table is the table's id.
	Table string
	// Daily names the daily puzzle the table is an attempt at
	// ("quizl/2006-01-02"), or is "".
	Daily string
	// Seated says the asker sits at the table.
	Seated bool
}

// Shut decides whether a read of a table is shut to p: nil lets it
// through, a refusal says why not. Daily puzzles set it, so that nobody
// sees an attempt at a puzzle whose day is not over but its own player.
type Shut func(ctx context.Context, p *auth.Principal, r Reading) error

// MayChat decides whether writer (an identity) may write in the chat of
// a table where seated sit (chat.MayChat says how).
type MayChat = chat.MayChat

// MayRematch decides whether asker (an identity) may make the next game
// of a finished table with the others who played it, the people seated
// there (computers are not among them): nil lets the rematch be made, a
// refusal says why not. Blocks set it, so that a rematch never seats two
// players one of whom keeps the other away.
type MayRematch func(ctx context.Context, asker string, others []PairedSeat) error

// MayJoin decides whether joiner (an identity) may take an open seat at a
// table beside others, the people seated there (computers are not among
// them): nil lets them sit down, a refusal says why not. Blocks set it,
// so that a join never seats two players one of whom keeps the other
// away, as neither a challenge, a seek nor a rematch does.
type MayJoin func(ctx context.Context, joiner string, others []PairedSeat) error

// MayPlay decides whether a new game may seat people beside others, the
// people already seated (at a table someone joins, at a rematch): a
// refusal says why not. The accounts set it, so that nobody sits down
// with a player a moderator closed, who could never move.
type MayPlay func(ctx context.Context, others []PairedSeat) error

// DailyGoesOn decides whether a player's move may be played at an
// attempt at the daily puzzle daily ("quizl/2006-01-02"): nil lets it
// through. The daily puzzles set it, so that an attempt whose day is
// over, when every finished attempt of that day and so its answer are
// open to all, goes no further than a resignation: played on, it could
// announce the answer read elsewhere and top the day's leaderboard.
type DailyGoesOn func(ctx context.Context, daily string) error

// DailyOver reports whether the day of the daily puzzle daily
// ("quizl/2006-01-02") has ended. The daily puzzles set it, so that the
// tables end a day when they do: today stays the latest day a puzzle was
// set though the server's clock be set back, and a day that has ended,
// its answer open to all, does not close up again.
type DailyOver func(ctx context.Context, daily string) (bool, error)

// read returns table id for p to read, or the refusal of the read gate:
// every read of a table (its view, its updates, its chat, its record, its
// analysis, and those another node asks for) comes through here, so that
// what is shut is decided once. With whole, the read shows a finished
// game's setups whole (a record, an analysis), which a table that still
// conceals its answer shuts to its own player too.
func (s *Service) read(ctx context.Context, p *auth.Principal, id string, whole bool) (*table, error) {
	t, err := s.table(ctx, id)
	if err != nil {
		return nil, err
	}
	s.askDayOver(ctx, t)
	t.mu.Lock()
	r := Reading{Table: t.id, Daily: t.m.Daily, Seated: t.seatOf(p) >= 0}
	hidden := whole && t.concealed()
	t.unlock()
	if s.cfg.Shut != nil {
		if err := s.cfg.Shut(ctx, p, r); err != nil {
			return nil, err
		}
	}
	if hidden {
		return nil, refuse.Forbidden("your attempt at today's daily puzzle is over: its answer, record and analysis open to you and everyone when the day ends, at midnight UTC")
	}
	return t, nil
}
