package table

import (
	"context"
	"reflect"
	"slices"
	"testing"
	"time"

	"parlour/game"
)

// TestQuietTableSheds: a table in memory that nobody has used for
// ShedAfter, followed or not, lets go of its recent steps and encodings,
// and leaves the janitor's queue if nothing else is due; it answers as
// before all the same: a client resuming from the start gets the same
// moves and events, now from a replay, and a move sent again gets the
// answer it got the first time.
func TestQuietTableSheds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, followed := range []bool{false, true} {
		f := parkingFixture(t, -1, 0)
		id, ps := f.playing(ctx, CreateRequest{})
		if followed {
			w, err := f.s.Watch(ctx, nil, id, -1)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
		}
		u, err := f.s.View(ctx, ps[0], id)
		if err != nil {
			t.Fatal(err)
		}
		who, seat := ps[0], 0
		if slices.Contains(u.Table.ToMove, 1) {
			who, seat = ps[1], 1
			if u, err = f.s.View(ctx, who, id); err != nil {
				t.Fatal(err)
			}
		}
		req := MoveRequest{Move: bisect(t, u, 100), Version: &u.Version}
		first, err := f.s.Move(ctx, who, id, req)
		if err != nil {
			t.Fatal(err)
		}
		tb := f.held(id)
		resume := func() Update {
			t.Helper()
			tb.mu.Lock()
			defer tb.unlock()
			up, err := tb.update(f.s.games, game.Seat(seat), 0)
			if err != nil {
				t.Fatal(err)
			}
			return up
		}
		before := resume()
		tb.mu.Lock()
		had := tb.sheddable()
		tb.unlock()
		if !had || len(before.Moves) != 2 {
			t.Fatalf("followed %v: before: sheddable %v, %d moves resumed; want a table with steps at hand, 2 moves", followed, had, len(before.Moves))
		}

		tb.mu.Lock()
		moves := slices.Clone(tb.moves)
		tb.unlock()

		// The janitor's round a day on.
		f.s.evict(time.Now().Add(24 * time.Hour))
		if f.held(id) != tb || f.parked(id) {
			t.Fatalf("followed %v: the table left memory; want it kept, parking off", followed)
		}
		tb.mu.Lock()
		left, queued := tb.sheddable(), tb.evictQueued
		tb.unlock()
		f.s.jan.mu.Lock()
		_, inQueue := f.s.jan.idle[tb]
		f.s.jan.mu.Unlock()
		if left || queued || inQueue {
			t.Errorf("followed %v: after the round: sheddable %v, queued %v, in the queue %v; want none", followed, left, queued, inQueue)
		}

		tb.mu.Lock()
		packed, room := slices.Clone(tb.moves), cap(tb.moves)-len(tb.moves)
		tb.unlock()
		if !reflect.DeepEqual(packed, moves) || room != 0 {
			t.Errorf("followed %v: moves after shedding %v with room for %d more; want %v with none", followed, packed, room, moves)
		}

		if after := resume(); !reflect.DeepEqual(after.Moves, before.Moves) {
			t.Errorf("followed %v: resumed after shedding:\n%+v\nwant as before:\n%+v", followed, after.Moves, before.Moves)
		}
		again, err := f.s.Move(ctx, who, id, req)
		if err != nil {
			t.Fatal(err)
		}
		first.Repeated = true
		if !reflect.DeepEqual(again, first) {
			t.Errorf("followed %v: the move sent again after shedding: %+v\nwant %+v", followed, again, first)
		}
	}
}

// TestShedClipsMoves: shed gives a table's moves exactly their room, the
// moves unchanged, and the table is then no longer sheddable.
func TestShedClipsMoves(t *testing.T) {
	t.Parallel()
	moves := []move{{text: "a1", at: 1, seat: 0}, {text: "b2", at: 2, seat: 1}, {text: "c3", at: 3, seat: 0}}
	tb := &table{moves: append(make([]move, 0, 8), moves...)}
	if !tb.sheddable() {
		t.Fatal("a table whose moves have room to spare is not sheddable")
	}
	tb.shed()
	if !slices.Equal(tb.moves, moves) || cap(tb.moves) != len(moves) || tb.sheddable() {
		t.Errorf("after shedding: moves %v with room for %d, sheddable %v; want %v with none, not sheddable", tb.moves, cap(tb.moves), tb.sheddable(), moves)
	}
}
