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
		if _, err := ex.exec("INSERT INTO ssh_keys (fingerprint, identity, key, comment, added) VALUES (?, ?, ?, ?, ?)",
			k.Fingerprint, k.Identity, k.Key, k.Comment, nanos(k.Added)); err != nil {
			if isConstraint(err) {
				return fmt.Errorf("key %s: %w", k.Fingerprint, store.ErrConflict)
			}
			return fmt.Errorf("sqlite: adding key: %w", err)
		}
		return nil
	})
}

// KeysOf implements store.Keys.
func (s *Store) KeysOf(ctx context.Context, identity string) ([]store.SSHKey, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT fingerprint, key, comment, added, used FROM ssh_keys WHERE identity = ? ORDER BY added, fingerprint", identity)
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading keys: %w", err)
	}
	defer rows.Close()
	var out []store.SSHKey
	for rows.Next() {
		k := store.SSHKey{Identity: identity}
		var added, used int64
		if err := rows.Scan(&k.Fingerprint, &k.Key, &k.Comment, &added, &used); err != nil {
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
	err := s.queryRow(ctx, "SELECT identity, key, comment, added, used FROM ssh_keys WHERE fingerprint = ?", fp).Scan(&k.Identity, &k.Key, &k.Comment, &added, &used)
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
