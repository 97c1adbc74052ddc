package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"parlour/store"
)

// AddChat implements store.Chats.
func (s *Store) AddChat(ctx context.Context, m store.ChatMessage) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "INSERT INTO chat (table_id, seq, channel, identity, name, seat, text, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
			m.Table, m.Seq, m.Channel, m.Identity, m.Name, m.Seat, m.Text, m.At)
		if isConstraint(err) {
			return fmt.Errorf("chat message %d of table %s: %w", m.Seq, m.Table, store.ErrConflict)
		}
		if err != nil {
			return fmt.Errorf("postgres: storing a chat message: %w", err)
		}
		return nil
	})
}

// Chat implements store.Chats.
func (s *Store) Chat(ctx context.Context, id string, since, limit int) ([]store.ChatMessage, error) {
	rows, err := s.pool.Query(ctx, "SELECT seq, channel, identity, name, seat, text, at FROM chat WHERE table_id = $1 AND seq > $2 ORDER BY seq LIMIT $3", id, since, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading chat: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.ChatMessage, error) {
		m := store.ChatMessage{Table: id}
		err := row.Scan(&m.Seq, &m.Channel, &m.Identity, &m.Name, &m.Seat, &m.Text, &m.At)
		m.At = utc(m.At)
		return m, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: reading chat: %w", err)
	}
	return out, nil
}

// LastChat implements store.Chats.
func (s *Store) LastChat(ctx context.Context, id string) (int, error) {
	var n int
	if err := s.pool.QueryRow(ctx, "SELECT COALESCE(MAX(seq), 0) FROM chat WHERE table_id = $1", id).Scan(&n); err != nil {
		return 0, fmt.Errorf("postgres: reading chat: %w", err)
	}
	return n, nil
}

// SetMute implements store.Chats.
func (s *Store) SetMute(ctx context.Context, m store.Mute, muted bool) error {
	q := "INSERT INTO chat_mutes (table_id, identity, channel) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING"
	if !muted {
		q = "DELETE FROM chat_mutes WHERE table_id = $1 AND identity = $2 AND channel = $3"
	}
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, q, m.Table, m.Identity, m.Channel); err != nil {
			return fmt.Errorf("postgres: storing a mute: %w", err)
		}
		return nil
	})
}

// Mutes implements store.Chats.
func (s *Store) Mutes(ctx context.Context, id string) ([]store.Mute, error) {
	rows, err := s.pool.Query(ctx, "SELECT identity, channel FROM chat_mutes WHERE table_id = $1 ORDER BY identity, channel", id)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading mutes: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Mute, error) {
		m := store.Mute{Table: id}
		return m, row.Scan(&m.Identity, &m.Channel)
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: reading mutes: %w", err)
	}
	return out, nil
}

var _ store.Chats = (*Store)(nil)

// AppendRoomChat implements store.ChatRooms.
func (s *Store) AppendRoomChat(ctx context.Context, l store.RoomLine) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "INSERT INTO chat_rooms (room, seq, identity, name, account, text, at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
			l.Room, l.Seq, l.Identity, l.Name, l.Account, l.Text, l.At)
		if isConstraint(err) {
			return fmt.Errorf("line %d of chat room %s: %w", l.Seq, l.Room, store.ErrConflict)
		}
		if err != nil {
			return fmt.Errorf("postgres: storing a chat room's line: %w", err)
		}
		return nil
	})
}

// RoomChatSince implements store.ChatRooms.
func (s *Store) RoomChatSince(ctx context.Context, room string, since, limit int) ([]store.RoomLine, error) {
	rows, err := s.pool.Query(ctx, "SELECT seq, identity, name, account, text, at FROM chat_rooms WHERE room = $1 AND seq > $2 ORDER BY seq LIMIT $3", room, since, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading a chat room: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.RoomLine, error) {
		l := store.RoomLine{Room: room}
		err := row.Scan(&l.Seq, &l.Identity, &l.Name, &l.Account, &l.Text, &l.At)
		l.At = utc(l.At)
		return l, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: reading a chat room: %w", err)
	}
	return out, nil
}

// LastRoomChat implements store.ChatRooms.
func (s *Store) LastRoomChat(ctx context.Context, room string) (int, error) {
	var n int
	if err := s.pool.QueryRow(ctx, "SELECT COALESCE(MAX(seq), 0) FROM chat_rooms WHERE room = $1", room).Scan(&n); err != nil {
		return 0, fmt.Errorf("postgres: reading a chat room: %w", err)
	}
	return n, nil
}

// SetRoomMute implements store.ChatRooms.
func (s *Store) SetRoomMute(ctx context.Context, room, identity string, muted bool) error {
	q := "INSERT INTO chat_room_mutes (room, identity) VALUES ($1, $2) ON CONFLICT DO NOTHING"
	if !muted {
		q = "DELETE FROM chat_room_mutes WHERE room = $1 AND identity = $2"
	}
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, q, room, identity); err != nil {
			return fmt.Errorf("postgres: storing a chat room's mute: %w", err)
		}
		return nil
	})
}

// RoomMutes implements store.ChatRooms.
func (s *Store) RoomMutes(ctx context.Context, room string) ([]string, error) {
	rows, err := s.pool.Query(ctx, "SELECT identity FROM chat_room_mutes WHERE room = $1 ORDER BY identity", room)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading a chat room's mutes: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("postgres: reading a chat room's mutes: %w", err)
	}
	return out, nil
}

var _ store.ChatRooms = (*Store)(nil)

// renameLines gives the lines that name identity as its writer or
// player (its chat lines at tables and in rooms, its attempts on the
// daily puzzles' boards) the name name: a renamed or deleted account
// leaves no line under its old name.
func renameLines(ctx context.Context, tx pgx.Tx, identity, name string) error {
	for _, q := range []string{
		"UPDATE chat SET name = $1 WHERE identity = $2",
		"UPDATE chat_rooms SET name = $1 WHERE identity = $2",
		"UPDATE daily_attempts SET name = $1 WHERE identity = $2",
	} {
		if _, err := tx.Exec(ctx, q, name, identity); err != nil {
			return fmt.Errorf("postgres: renaming chat lines and daily attempts: %w", err)
		}
	}
	return nil
}
