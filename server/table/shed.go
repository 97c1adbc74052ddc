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
	return len(t.recent) > 0 || t.enc != nil || t.loose()
}

// loose reports whether t's moves could take less of the heap
// (packMoves): a slice grown by appending has up to twice the room it
// uses, each move played here took an allocation for its time, and a
// waiting table makes no move.
func (t *table) loose() bool { return len(t.moves) > 0 && !t.packed }

// packMoves gives t's moves exactly their room and their times one
// allocation between them. t.mu must be held.
func (t *table) packMoves() {
	moves, at := make([]game.Move, len(t.moves)), make([]time.Time, len(t.moves))
	for i, mv := range t.moves {
		if mv.At != nil {
			at[i] = *mv.At
			mv.At = &at[i]
		}
		moves[i] = mv
	}
	t.moves, t.packed = moves, true
}

// shed lets go of what t can make again when asked, packs its moves
// (packMoves), and gives back the room its game's state was given to
// grow. t.mu must be held.
func (t *table) shed() {
	t.recent = nil
	t.enc = nil
	if t.loose() {
		t.packMoves()
	}
	if c, ok := t.st.(game.Compacter); ok {
		c.Compact()
	}
}
