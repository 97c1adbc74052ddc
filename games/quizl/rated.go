package quizl

import "parlour/game"

var _ game.Rated = Game{}

// RatedOptions names the one option a rated table may change: the set's
// target only decides when a series of tables ends, and each game of a
// set is rated on its own result, so a game plays the same whatever the
// target. The wrong announcement's penalty and award change the scoring,
// and so how boldly one announces: a rated table keeps their defaults.
func (Game) RatedOptions() []string { return []string{OptSetTarget} }

// PoolOption returns "": Quizl is one rating pool.
func (Game) PoolOption() string { return "" }
