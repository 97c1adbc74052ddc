package nymphabet

import "parlour/game"

var _ game.Rated = Game{}

// RatedOptions names the one option a rated table may change: refusing a
// word already played only takes away a repeat, and leaves what a good
// move is as it was.
func (Game) RatedOptions() []string { return []string{OptNoRepeats} }

// PoolOption returns OptMode: the modes play differently enough (the last
// word loses in one, wins in another, and the third keeps score) that a
// rating in one says little of a player in another, so each mode is a
// rating pool of its own.
func (Game) PoolOption() string { return OptMode }
