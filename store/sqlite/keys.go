package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"parlour/store"
)

// AddKey implements store.Keys.
func (s *Store) AddKey(ctx context.Context, k store.SSHKey) error {
	return s.do(ctx, func(ex *execer) error {
		if _, err := ex.exec("INSERT INTO ssh_keys (fingerprint, identity, key, comment, added, confirmed) VALUES (?, ?, ?, ?, ?, ?)",
			k.Fingerprint, k.Identity, k.Key, k.Comment, nanos(k.Added), k.Confirmed); err != nil {
			if isConstraint(err) {
				return fmt.Errorf("key %s: %w", k.Fingerprint, store.ErrConflict)
			}
			return fmt.Errorf("sqlite: adding key: %w", err)
		}
		return nil
	})
}

// ConfirmKey implements store.Keys. Each step is a write of its own
// condition, so the three together run as one in the writer's
// transaction: a failed insert takes the delete back with it.
func (s *Store) ConfirmKey(ctx context.Context, k store.SSHKey) error {
	return s.do(ctx, func(ex *execer) error {
		n, err := ex.exec("UPDATE ssh_keys SET confirmed = 1 WHERE fingerprint = ? AND identity = ?", k.Fingerprint, k.Identity)
		if err != nil {
			return fmt.Errorf("sqlite: confirming key: %w", err)
		}
		if n > 0 {
			return nil
		}
		if _, err := ex.exec("DELETE FROM ssh_keys WHERE fingerprint = ? AND confirmed = 0", k.Fingerprint); err != nil {
			return fmt.Errorf("sqlite: taking key: %w", err)
		}
		if _, err := ex.exec("INSERT INTO ssh_keys (fingerprint, identity, key, comment, added, confirmed) VALUES (?, ?, ?, ?, ?, 1)",
			k.Fingerprint, k.Identity, k.Key, k.Comment, nanos(k.Added)); err != nil {
			if isConstraint(err) {
				return fmt.Errorf("key %s: %w", k.Fingerprint, store.ErrConflict)
			}
			return fmt.Errorf("sqlite: confirming key: %w", err)
		}
		return nil
	})
}

// KeysOf implements store.Keys.
func (s *Store) KeysOf(ctx context.Context, identity string) ([]store.SSHKey, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT fingerprint, key, comment, added, used, confirmed FROM ssh_keys WHERE identity = ? ORDER BY added, fingerprint", identity)
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading keys: %w", err)
	}
	defer rows.Close()
	var out []store.SSHKey
	for rows.Next() {
		k := store.SSHKey{Identity: identity}
		var added, used int64
		if err := rows.Scan(&k.Fingerprint, &k.Key, &k.Comment, &added, &used, &k.Confirmed); err != nil {
			return nil, fmt.Errorf("sqlite: reading keys: %w", err)
		}
		k.Added = fromNanos(added)
		if used != 0 {
			k.Used = fromNanos(used)
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// KeyByFingerprint implements store.Keys.
func (s *Store) KeyByFingerprint(ctx context.Context, fp string) (store.SSHKey, error) {
	k := store.SSHKey{Fingerprint: fp}
	var added, used int64
	err := s.queryRow(ctx, "SELECT identity, key, comment, added, used, confirmed FROM ssh_keys WHERE fingerprint = ?", fp).Scan(&k.Identity, &k.Key, &k.Comment, &added, &used, &k.Confirmed)
	if errors.Is(err, sql.ErrNoRows) {
		return k, fmt.Errorf("key %s: %w", fp, store.ErrNotFound)
	}
	if err != nil {
		return k, fmt.Errorf("sqlite: reading key: %w", err)
	}
	k.Added = fromNanos(added)
	if used != 0 {
		k.Used = fromNanos(used)
	}
	return k, nil
}

// KeyUsed implements store.Keys.
func (s *Store) KeyUsed(ctx context.Context, fp string, at time.Time) error {
	return s.do(ctx, func(ex *execer) error {
		n, err := ex.exec("UPDATE ssh_keys SET used = ? WHERE fingerprint = ?", nanos(at), fp)
		if err != nil {
			return fmt.Errorf("sqlite: recording a key's use: %w", err)
		}
		if n == 0 {
			return fmt.Errorf("key %s: %w", fp, store.ErrNotFound)
		}
		return nil
	})
}

// DeleteKey implements store.Keys.
func (s *Store) DeleteKey(ctx context.Context, identity, fp string) error {
	return s.do(ctx, func(ex *execer) error {
		n, err := ex.exec("DELETE FROM ssh_keys WHERE identity = ? AND fingerprint = ?", identity, fp)
		if err != nil {
			return fmt.Errorf("sqlite: deleting key: %w", err)
		}
		if n == 0 {
			return fmt.Errorf("key %s: %w", fp, store.ErrNotFound)
		}
		return nil
	})
}

// SSHGuest implements store.SSHGuests.
func (s *Store) SSHGuest(ctx context.Context, key string) (store.SSHGuest, error) {
	g := store.SSHGuest{Key: key}
	var used int64
	err := s.queryRow(ctx, "SELECT name, identity, used FROM ssh_guests WHERE key = ?", key).Scan(&g.Name, &g.Identity, &used)
	if errors.Is(err, sql.ErrNoRows) {
		return g, fmt.Errorf("ssh guest: %w", store.ErrNotFound)
	}
	if err != nil {
		return g, fmt.Errorf("sqlite: reading an ssh guest: %w", err)
	}
	g.Used = fromNanos(used)
	return g, nil
}

// PutSSHGuest implements store.SSHGuests.
func (s *Store) PutSSHGuest(ctx context.Context, g store.SSHGuest) error {
	return s.do(ctx, func(ex *execer) error {
		if _, err := ex.exec("INSERT INTO ssh_guests (key, name, identity, used) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET name = excluded.name, identity = excluded.identity, used = excluded.used",
			g.Key, g.Name, g.Identity, nanos(g.Used)); err != nil {
			if isConstraint(err) {
				return fmt.Errorf("ssh guest of identity %s: %w", g.Identity, store.ErrNotFound)
			}
			return fmt.Errorf("sqlite: keeping an ssh guest: %w", err)
		}
		return nil
	})
}

// ForgetSSHGuests implements store.SSHGuests.
func (s *Store) ForgetSSHGuests(ctx context.Context, before time.Time) (int, error) {
	var n int64
	err := s.do(ctx, func(ex *execer) error {
		var err error
		n, err = ex.exec("DELETE FROM ssh_guests WHERE used < ?", nanos(before))
		if err != nil {
			return fmt.Errorf("sqlite: forgetting ssh guests: %w", err)
		}
		return nil
	})
	return int(n), err
}

var _ store.SSHGuests = (*Store)(nil)
