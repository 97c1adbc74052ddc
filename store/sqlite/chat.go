package sqlite

import (
	"context"
	"fmt"

	"parlour/store"
)

// AddChat implements store.Chats.
func (s *Store) AddChat(ctx context.Context, m store.ChatMessage) error {
	return s.do(ctx, func(ex *execer) error {
		_, err := ex.exec("INSERT INTO chat (table_id, seq, channel, identity, name, seat, text, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
			m.Table, m.Seq, m.Channel, m.Identity, m.Name, m.Seat, m.Text, nanos(m.At))
		if isConstraint(err) {
			return fmt.Errorf("chat message %d of table %s: %w", m.Seq, m.Table, store.ErrConflict)
		}
		if err != nil {
			return fmt.Errorf("sqlite: storing a chat message: %w", err)
		}
		return nil
	})
}

// Chat implements store.Chats.
func (s *Store) Chat(ctx context.Context, id string, since, limit int) ([]store.ChatMessage, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT seq, channel, identity, name, seat, text, at FROM chat WHERE table_id = ? AND seq > ? ORDER BY seq LIMIT ?", id, since, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading chat: %w", err)
	}
	defer rows.Close()
	var out []store.ChatMessage
	for rows.Next() {
		m := store.ChatMessage{Table: id}
		var at int64
		if err := rows.Scan(&m.Seq, &m.Channel, &m.Identity, &m.Name, &m.Seat, &m.Text, &at); err != nil {
			return nil, fmt.Errorf("sqlite: reading chat: %w", err)
		}
		m.At = fromNanos(at)
		out = append(out, m)
	}
	return out, rows.Err()
}

// LastChat implements store.Chats.
func (s *Store) LastChat(ctx context.Context, id string) (int, error) {
	var n int
	if err := s.queryRow(ctx, "SELECT COALESCE(MAX(seq), 0) FROM chat WHERE table_id = ?", id).Scan(&n); err != nil {
		return 0, fmt.Errorf("sqlite: reading chat: %w", err)
	}
	return n, nil
}

// SetMute implements store.Chats.
func (s *Store) SetMute(ctx context.Context, m store.Mute, muted bool) error {
	return s.do(ctx, func(ex *execer) error {
		q := "INSERT OR IGNORE INTO chat_mutes (table_id, identity, channel) VALUES (?, ?, ?)"
		if !muted {
			q = "DELETE FROM chat_mutes WHERE table_id = ? AND identity = ? AND channel = ?"
		}
		if _, err := ex.exec(q, m.Table, m.Identity, m.Channel); err != nil {
			return fmt.Errorf("sqlite: storing a mute: %w", err)
		}
		return nil
	})
}

// Mutes implements store.Chats.
func (s *Store) Mutes(ctx context.Context, id string) ([]store.Mute, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT identity, channel FROM chat_mutes WHERE table_id = ? ORDER BY identity, channel", id)
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading mutes: %w", err)
	}
	defer rows.Close()
	var out []store.Mute
	for rows.Next() {
		m := store.Mute{Table: id}
		if err := rows.Scan(&m.Identity, &m.Channel); err != nil {
			return nil, fmt.Errorf("sqlite: reading mutes: %w", err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// AppendRoomChat implements store.ChatRooms.
func (s *Store) AppendRoomChat(ctx context.Context, l store.RoomLine) error {
	account := 0
	if l.Account {
		account = 1
	}
	return s.do(ctx, func(ex *execer) error {
		_, err := ex.exec("INSERT INTO chat_rooms (room, seq, identity, name, account, text, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
			l.Room, l.Seq, l.Identity, l.Name, account, l.Text, nanos(l.At))
		if isConstraint(err) {
			return fmt.Errorf("line %d of chat room %s: %w", l.Seq, l.Room, store.ErrConflict)
		}
		if err != nil {
			return fmt.Errorf("sqlite: storing a chat room's line: %w", err)
		}
		return nil
	})
}

// RoomChatSince implements store.ChatRooms.
func (s *Store) RoomChatSince(ctx context.Context, room string, since, limit int) ([]store.RoomLine, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT seq, identity, name, account, text, at FROM chat_rooms WHERE room = ? AND seq > ? ORDER BY seq LIMIT ?", room, since, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading a chat room: %w", err)
	}
	defer rows.Close()
	var out []store.RoomLine
	for rows.Next() {
		l := store.RoomLine{Room: room}
		var at int64
		if err := rows.Scan(&l.Seq, &l.Identity, &l.Name, &l.Account, &l.Text, &at); err != nil {
			return nil, fmt.Errorf("sqlite: reading a chat room: %w", err)
		}
		l.At = fromNanos(at)
		out = append(out, l)
	}
	return out, rows.Err()
}

// LastRoomChat implements store.ChatRooms.
func (s *Store) LastRoomChat(ctx context.Context, room string) (int, error) {
	var n int
	if err := s.queryRow(ctx, "SELECT COALESCE(MAX(seq), 0) FROM chat_rooms WHERE room = ?", room).Scan(&n); err != nil {
		return 0, fmt.Errorf("sqlite: reading a chat room: %w", err)
	}
	return n, nil
}

// SetRoomMute implements store.ChatRooms.
func (s *Store) SetRoomMute(ctx context.Context, room, identity string, muted bool) error {
	return s.do(ctx, func(ex *execer) error {
		q := "INSERT OR IGNORE INTO chat_room_mutes (room, identity) VALUES (?, ?)"
		if !muted {
			q = "DELETE FROM chat_room_mutes WHERE room = ? AND identity = ?"
		}
		if _, err := ex.exec(q, room, identity); err != nil {
			return fmt.Errorf("sqlite: storing a chat room's mute: %w", err)
		}
		return nil
	})
}

// RoomMutes implements store.ChatRooms.
func (s *Store) RoomMutes(ctx context.Context, room string) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT identity FROM chat_room_mutes WHERE room = ? ORDER BY identity", room)
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading a chat room's mutes: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("sqlite: reading a chat room's mutes: %w", err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

var _ store.ChatRooms = (*Store)(nil)

// renameLines gives the lines that name identity as its writer or
// player (its chat lines at tables and in rooms, its attempts on the
// daily puzzles' boards) the name name: a renamed or deleted account
// leaves no line under its old name.
func renameLines(ex *execer, identity, name string) error {
	for _, q := range []string{
		"UPDATE chat SET name = ? WHERE identity = ?",
		"UPDATE chat_rooms SET name = ? WHERE identity = ?",
		"UPDATE daily_attempts SET name = ? WHERE identity = ?",
	} {
		if _, err := ex.exec(q, name, identity); err != nil {
			return fmt.Errorf("sqlite: renaming chat lines and daily attempts: %w", err)
		}
	}
	return nil
}
