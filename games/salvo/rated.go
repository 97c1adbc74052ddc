package salvo

import "parlour/game"

var _ game.Rated = Game{}

// RatedOptions returns none: the placement rule, diagonal ships and who
// loses shots for a sunk ship all change what a good move is (where a
// fleet may hide, how a salvo should be spread), so a rated table keeps
// every default.
func (Game) RatedOptions() []string { return nil }

// PoolOption returns "": Salvo is one rating pool.
func (Game) PoolOption() string { return "" }
