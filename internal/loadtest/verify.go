package loadtest

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// maxUnavailable is how many times in a row a record's read-back is
// asked again after a 503, a tenth of a second apart: a cluster answers
// so while the table changes hands, which takes a moment.
const maxUnavailable = 50

// record is what verify reads of a table's record.
type record struct {
	Players []string `json:"players"`
	Moves   []struct {
		By   string `json:"by"`
		Move string `json:"move"`
	} `json:"moves"`
}

// verify reads back every table that was played and checks that its
// record holds every acknowledged move, in order; it returns how many
// moves it checked.
func (t *tester) verify(ctx context.Context) (int, error) {
	t.mu.Lock()
	all := slices.Clone(t.all)
	t.mu.Unlock()
	total := 0
	for k, tb := range all {
		if len(tb.acked) == 0 {
			continue
		}
		// Read back through the nodes in turn: with three or more, also
		// through one the table's players did not use.
		rec, err := t.readRecord(ctx, (tb.node[1]+1+k)%len(t.nodes), tb)
		if err != nil {
			return total, err
		}
		if err := tb.check(rec); err != nil {
			return total, err
		}
		total += len(tb.acked)
	}
	return total, nil
}

// readRecord reads tb's record through node at, waiting out the server's
// rate limits, which apply to this read-back too, and a cluster's "try
// again" while the table changes hands between its nodes.
func (t *tester) readRecord(ctx context.Context, at int, tb *table) (*record, error) {
	var rec record
	for unavailable := 0; ; {
		st, err := t.getAt(ctx, at, "/api/v1/tables/"+tb.id+"/record", tb.seats[0], &rec)
		if st == http.StatusServiceUnavailable && unavailable < maxUnavailable {
			unavailable++
			st = http.StatusTooManyRequests
		}
		if st == http.StatusTooManyRequests {
			if err := sleep(ctx, 100*time.Millisecond); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("reading the record of %s: %w", tb.id, err)
		}
		return &rec, nil
	}
}

// check says whether rec holds every move acknowledged at tb, in order.
func (tb *table) check(rec *record) error {
	if len(rec.Moves) < len(tb.acked) {
		return fmt.Errorf("table %s: %d moves acknowledged, %d in the record", tb.id, len(tb.acked), len(rec.Moves))
	}
	for i, a := range tb.acked {
		seat, mv, _ := strings.Cut(a, ":")
		s, _ := strconv.Atoi(seat)
		if s >= len(rec.Players) || rec.Moves[i].Move != mv || rec.Moves[i].By != rec.Players[s] {
			return fmt.Errorf("table %s move %d: acknowledged %s, record has %+v", tb.id, i+1, a, rec.Moves[i])
		}
	}
	return nil
}
