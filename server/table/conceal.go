// The answer of a daily puzzle stays hidden until its day ends, from
// everyone: the attempt's own player too, once the attempt is over. A
// guest who resigned at once would otherwise learn the answer and solve
// it with no calls under an account.

package table

import (
	"context"
	"encoding/json"
	"strings"

	"parlour/game"
	"parlour/store"
)

// concealed reports whether t's hidden setup must stay hidden though its
// game is over: t is an attempt at a daily puzzle whose day has not ended.
// t.mu must be held.
func (t *table) concealed() bool {
	if t.m.Daily == "" || t.status != store.Finished || t.conf == nil || t.conf.Clock == nil {
		return false
	}
	return !t.ended()
}

// dayOver reports whether t is an attempt at a daily puzzle, still under
// way, whose day has ended: it takes no move but a resignation then
// (Config.DailyGoesOn), and clients say so rather than offer a turn.
// t.mu must be held.
func (t *table) dayOver() bool {
	if t.m.Daily == "" || t.status != store.Playing || t.conf == nil || t.conf.Clock == nil {
		return false
	}
	return t.ended()
}

// ended reports whether the day of t's attempt at a daily puzzle is over:
// the daily puzzles said so (askDayOver), or the service's clock has
// passed it. t.mu must be held, and t.conf.Clock be set.
func (t *table) ended() bool {
	if t.m.dayEnded {
		return true
	}
	_, day, _ := strings.Cut(t.m.Daily, "/")
	return day < t.conf.Clock.Now().UTC().Format(DayLayout)
}

// askDayOver asks the daily puzzles (Config.DailyOver) whether the day of
// t's attempt is over while the service's clock says it is not: that
// clock may have been set back into a day that has ended, which the daily
// puzzles, whose today never goes back, still take as ended. Their yes
// is kept, as it stays true.
func (s *Service) askDayOver(ctx context.Context, t *table) {
	if s.cfg.DailyOver == nil {
		return
	}
	t.mu.Lock()
	daily := t.m.Daily
	ask := daily != "" && (t.status == store.Playing || t.status == store.Finished) && t.conf != nil && t.conf.Clock != nil && !t.ended()
	t.unlock()
	if !ask {
		return
	}
	over, err := s.cfg.DailyOver(ctx, daily)
	if err != nil {
		// The clock's answer stands for this read: a store that does
		// not answer just now must not keep players from their own
		// attempts.
		s.log.Warn("asking whether a daily puzzle's day is over", "table", t.id, "daily", daily, "err", err)
		return
	}
	if !over {
		return
	}
	t.mu.Lock()
	t.m.dayEnded = true
	t.unlock()
}

// viewFor returns seat's view: State.View, or, while t is concealed, the
// view without the end's reveal (game.Concealer). t.mu must be held.
func (t *table) viewFor(seat game.Seat) any {
	if c, ok := t.st.(game.Concealer); ok && t.concealed() {
		return c.ConcealedView(seat)
	}
	return t.st.View(seat)
}

// visible returns the events of evs that seat may see. While t is
// concealed, an "end" event keeps only its game.End part (why, who won,
// the scores): games put the revealed setups beside it. t.mu must be held.
func (t *table) visible(evs []game.Event, seat game.Seat) []game.Event {
	out := game.VisibleTo(evs, seat) // a new slice: changing it leaves evs be
	if !t.concealed() {
		return out
	}
	for i, e := range out {
		if e.Kind != "end" || e.Data == nil {
			continue
		}
		var end game.End
		b, err := json.Marshal(e.Data)
		if err == nil {
			err = json.Unmarshal(b, &end)
		}
		if err != nil {
			end = game.End{Reason: "over", Seat: game.Spectator, Against: game.Spectator}
		}
		out[i].Data = end
	}
	return out
}
