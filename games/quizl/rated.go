package quizl

import "parlour/game"

var _ game.Rated = Game{}

// RatedOptions names the one option a rated table may change: the set's
// target only decides when a series of tables ends. The wrong
// announcement's penalty and award change what a good move is (how much
// a guess risks), so a rated table keeps their defaults.
func (Game) RatedOptions() []string { return []string{OptSetTarget} }

// PoolOption returns "": Quizl is one rating pool.
func (Game) PoolOption() string { return "" }
