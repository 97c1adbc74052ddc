package table

import (
	"slices"
	"sort"
	"strings"
	"time"

	"parlour/game"
	"parlour/lexicon"
	"parlour/server/refuse"
	"parlour/store"
)

// Pools returns the names of the rating pools of reg's games, as each
// game tells them (game.Pools): a game's name, or game-mode for a game
// whose modes are rated apart ("nymphabet-standard").
func Pools(reg *game.Registry) []string {
	var out []string
	for _, name := range reg.Names() {
		g, _ := reg.Lookup(name)
		out = append(out, game.Pools(g)...)
	}
	sort.Strings(out)
	return out
}

// checkRated refuses a rated table that may not be one: it must seat two
// people with accounts (the creator's is checked here, the other's when
// they join), play the default rules apart from the options the game
// lets a rated table change (game.Rated), and check words against the
// default lexicon. It returns the table's pool.
func checkRated(g game.Game, rules game.Rules, lexName string, seats []seatMeta, creator asker) (string, error) {
	pool, ok := game.Pool(g, rules)
	if !ok {
		return "", refuse.Bad("%s is not rated", g.Title())
	}
	if len(seats) != 2 {
		return "", refuse.Bad("a rated table seats exactly two players; this one seats %d (games of three or more are not rated)", len(seats))
	}
	for i, st := range seats {
		if st.Computer != "" {
			return "", refuse.Bad("a rated table has no computer seats: seat %d is a computer", i)
		}
	}
	var changed []string
	for _, name := range game.Unrated(g, rules) {
		// Named as the forms label the rule, not by its key.
		changed = append(changed, `"`+game.LabelOf(g, name)+`"`)
	}
	if len(changed) > 0 {
		sort.Strings(changed)
		verb := "changes"
		if len(changed) > 1 {
			verb = "change"
		}
		return "", refuse.Bad("a rated table plays by the default rules, and %s %s the game; leave it out or play unrated", strings.Join(changed, " and "), verb)
	}
	if lexName != "" && lexName != lexicon.DefaultName {
		return "", refuse.Bad("a rated table checks words against the default lexicon (%s), not %s", lexicon.DefaultName, lexName)
	}
	if !creator.account {
		return "", refuse.Forbidden("only players with accounts play rated games: sign up or sign in first")
	}
	return pool, nil
}

// gameEnd describes the end of t's game for the store: each person's
// result and, for a rated table, the game to rate. t.mu must be held and
// the game over.
func (t *table) gameEnd(at time.Time) *store.GameEnd {
	res := t.st.Result()
	e := &store.GameEnd{Game: t.m.Game, Ended: at}
	for i, st := range t.m.Seats {
		if st.Identity == "" {
			continue
		}
		r := store.Loss
		switch {
		case t.m.Aborted != nil:
			r = store.Aborted
		case len(t.m.Seats) > 1 && (len(res.Winners) == 0 || len(res.Winners) == len(t.m.Seats)):
			// Nobody won, or everybody did. (A lone seat that does not
			// win loses: solitaire and practice have no draws.)
			r = store.Draw
		case slices.Contains(res.Winners, game.Seat(i)):
			r = store.Win
		}
		e.Seats = append(e.Seats, store.SeatEnd{Identity: st.Identity, Seat: i, Result: r})
	}
	// An aborted game rates nobody: it ended before both had played.
	if t.m.Rated && t.m.Aborted == nil && len(e.Seats) == 2 && len(t.m.Seats) == 2 {
		score := 0.5
		switch e.Seats[0].Result {
		case store.Win:
			score = 1
		case store.Loss:
			score = 0
		}
		e.Rated = &store.RatedGame{Pool: t.m.Pool, Players: [2]string{e.Seats[0].Identity, e.Seats[1].Identity}, Score: score}
	}
	return e
}
