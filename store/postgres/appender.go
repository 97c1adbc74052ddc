package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
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
// twice in one batch (a retry racing the first try, say) goes in a
// statement of its own
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
			r.err <- s.notStored(r)
		}
	}
}

// insertMovesQuery inserts rows given as arrays, one per column, and
// returns the keys of the rows it stored: those already stored it skips,
// and so it does those fenced with an epoch (not 0) that is no longer
// their table's lease's. The lease's row stays share-locked to the
// commit, so that a takeover waits for the statement (see the package
// doc).
const insertMovesQuery = `INSERT INTO moves (table_id, seq, seat, move, at)
	SELECT m.table_id, m.seq, m.seat, m.move, m.at
	FROM unnest($1::text[], $2::integer[], $3::integer[], $4::text[], $5::timestamptz[], $6::bigint[])
		AS m(table_id, seq, seat, move, at, epoch)
	WHERE m.epoch = 0 OR EXISTS (SELECT 1 FROM table_leases l
		WHERE l.table_id = m.table_id AND l.epoch = m.epoch FOR SHARE)
	ON CONFLICT (table_id, seq) DO NOTHING
	RETURNING table_id, seq`

// insertMoves runs insertMovesQuery for group, one transaction, and
// returns the moves it stored.
func (s *Store) insertMoves(group []*appendReq) (map[moveKey]bool, error) {
	// In the order of the tables' ids, the order in which a renewal of
	// several leases locks their rows (see renewLeasesQuery).
	slices.SortFunc(group, func(a, b *appendReq) int {
		return cmp.Or(strings.Compare(a.table, b.table), cmp.Compare(a.m.Seq, b.m.Seq))
	})
	tables := make([]string, len(group))
	seqs := make([]int32, len(group))
	seats := make([]int32, len(group))
	texts := make([]string, len(group))
	ats := make([]time.Time, len(group))
	epochs := make([]int64, len(group))
	for i, r := range group {
		tables[i], seqs[i], seats[i], texts[i], ats[i], epochs[i] = r.table, int32(r.m.Seq), int32(r.m.Seat), r.m.Text, r.m.At, r.m.Epoch
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	rows, err := s.pool.Query(ctx, insertMovesQuery, tables, seqs, seats, texts, ats, epochs)
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

// notStored says why the appenders' statement skipped r: its table's
// lease has another epoch (when r is fenced), or else its number was
// stored already.
func (s *Store) notStored(r *appendReq) error {
	if r.m.Epoch != 0 {
		ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
		defer cancel()
		l, err := lease(ctx, s.pool, r.table)
		if errors.Is(err, store.ErrNotFound) || err == nil && l.Epoch != r.m.Epoch {
			return fmt.Errorf("move %d of table %s with lease %d: %w", r.m.Seq, r.table, r.m.Epoch, store.ErrFenced)
		}
		if err != nil {
			return err
		}
	}
	return fmt.Errorf("move %d of table %s is already stored: %w", r.m.Seq, r.table, store.ErrConflict)
}
