package table

import (
	"time"

	"parlour/game"
)

// ShedAfter is how long a table in memory goes unused before it lets go
// of what it keeps only to answer sooner (table.shed): the events of its
// last moves, kept for the clients that resume a move or two behind, and
// its encoded rules, setups and commitments. Those are a quarter of a
// Quizl table's heap ten moves in, and a table spends most of its life
// waiting for a player to think. A client that comes back later gets
// the events from a replay of the record, as one further behind always
// did; the next move keeps its own again.
const ShedAfter = 10 * time.Second

// tableBytes is about what a table in memory holds, its part of the
// heap's spans included, and shedBytes about what shed lets go of
// (docs/performance.md, "Idle memory"): Config.LeftMemory is told in
// them.
const (
	tableBytes = 20 << 10
	shedBytes  = 2 << 10
)

// sheddable reports whether t holds anything shed would let go of. t.mu
// must be held.
func (t *table) sheddable() bool {
	return len(t.recent) > 0 || t.enc != nil || t.spareMoves()
}

// spareMoves reports whether t's moves have room to grow: a slice grown
// by appending has up to twice the room it uses, and a waiting table
// makes no move.
func (t *table) spareMoves() bool { return cap(t.moves) > len(t.moves) }

// shed lets go of what t can make again when asked, and of the room its
// moves and its game's state were given to grow. t.mu must be held.
func (t *table) shed() {
	t.recent = nil
	t.enc = nil
	if t.spareMoves() {
		t.moves = append(make([]move, 0, len(t.moves)), t.moves...)
	}
	if c, ok := t.st.(game.Compacter); ok {
		c.Compact()
	}
}
