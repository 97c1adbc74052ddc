package quizl

import "parlour/game"

// Set is a set of Quizl games: scores carry from game to game until
// somebody's total reaches the rule option set_target. The rule is shared by
// every game that offers set_target, so it lives in package game.
type Set = game.Set

// NewSet starts a set for players seats with target (set_target).
func NewSet(players, target int) *Set { return game.NewSet(players, target) }
