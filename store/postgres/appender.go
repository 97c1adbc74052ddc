package postgres

import (
	"context"
	"fmt"
	"time"

	"parlour/store"
)

// appendReq is one plain append waiting for an appender.
type appendReq struct {
	table string
	m     store.Move
	err   chan error
}

// moveKey names a move: a table's number is stored once.
type moveKey struct {
	table string
	seq   int
}

// appender inserts the appends waiting at each moment with one statement,
// until the store closes.
func (s *Store) appender() {
	defer s.wg.Done()
	batch := make([]*appendReq, 0, maxBatch)
	for first := range s.appends {
		batch = append(batch[:0], first)
	more:
		for len(batch) < maxBatch {
			select {
			case r, ok := <-s.appends:
				if !ok {
					break more
				}
				batch = append(batch, r)
			default:
				break more
			}
		}
		s.appendBatch(batch)
		clear(batch) // let the moves go
	}
}

// appendBatch stores batch and answers each of its appends. The same move
// twice in one batch (two nodes racing) goes in a statement of its own
// after the first, so that each answer says whether its own row was
// stored.
func (s *Store) appendBatch(batch []*appendReq) {
	for len(batch) > 0 {
		seen := make(map[moveKey]bool, len(batch))
		var now, later []*appendReq
		for _, r := range batch {
			k := moveKey{r.table, r.m.Seq}
			if seen[k] {
				later = append(later, r)
				continue
			}
			seen[k] = true
			now = append(now, r)
		}
		s.insertGroup(now)
		batch = later
	}
}

// insertGroup stores moves of distinct keys with one statement. When the
// server refuses the statement itself (not a duplicate: those it skips),
// nothing of it was stored, and each move is tried alone so that one bad
// move does not spoil the others.
func (s *Store) insertGroup(group []*appendReq) {
	stored, err := s.insertMoves(group)
	s.smu.Lock()
	s.stats.Commits++
	s.stats.Writes += int64(len(group))
	s.smu.Unlock()
	if err != nil && len(group) > 1 && pgCode(err) != "" {
		for _, r := range group {
			s.insertGroup([]*appendReq{r})
		}
		return
	}
	for _, r := range group {
		switch {
		case err != nil:
			r.err <- noSpace(fmt.Errorf("postgres: storing moves: %w", err))
		case stored[moveKey{r.table, r.m.Seq}]:
			r.err <- nil
		default:
			r.err <- fmt.Errorf("move %d of table %s is already stored: %w", r.m.Seq, r.table, store.ErrConflict)
		}
	}
}

// insertMovesQuery inserts rows given as arrays, one per column, and
// returns the keys of the rows it stored: those already stored it skips.
// (The seam for fencing: see the package doc.)
const insertMovesQuery = `INSERT INTO moves (table_id, seq, seat, move, at)
	SELECT * FROM unnest($1::text[], $2::integer[], $3::integer[], $4::text[], $5::timestamptz[])
	ON CONFLICT (table_id, seq) DO NOTHING
	RETURNING table_id, seq`

// insertMoves runs insertMovesQuery for group, one transaction, and
// returns the moves it stored.
func (s *Store) insertMoves(group []*appendReq) (map[moveKey]bool, error) {
	tables := make([]string, len(group))
	seqs := make([]int32, len(group))
	seats := make([]int32, len(group))
	texts := make([]string, len(group))
	ats := make([]time.Time, len(group))
	for i, r := range group {
		tables[i], seqs[i], seats[i], texts[i], ats[i] = r.table, int32(r.m.Seq), int32(r.m.Seat), r.m.Text, r.m.At
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	rows, err := s.pool.Query(ctx, insertMovesQuery, tables, seqs, seats, texts, ats)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	stored := make(map[moveKey]bool, len(group))
	for rows.Next() {
		var k moveKey
		if err := rows.Scan(&k.table, &k.seq); err != nil {
			return nil, err
		}
		stored[k] = true
	}
	return stored, rows.Err()
}
