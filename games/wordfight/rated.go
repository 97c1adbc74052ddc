package wordfight

import "parlour/game"

var _ game.Rated = Game{}

// RatedOptions returns none: the board's size and shape, the multiplying
// squares, and how strikes are counted and how many end the game all
// change what a good move is, so a rated table keeps every default.
func (Game) RatedOptions() []string { return nil }

// PoolOption returns "": Sightless Word Fight is one rating pool.
func (Game) PoolOption() string { return "" }
