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
