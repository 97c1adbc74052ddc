package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"parlour/store"
)

// AddKey implements store.Keys.
func (s *Store) AddKey(ctx context.Context, k store.SSHKey) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "INSERT INTO ssh_keys (fingerprint, identity, key, comment, added, confirmed) VALUES ($1, $2, $3, $4, $5, $6)",
			k.Fingerprint, k.Identity, k.Key, k.Comment, k.Added, k.Confirmed); err != nil {
			if isConstraint(err) {
				return fmt.Errorf("key %s: %w", k.Fingerprint, store.ErrConflict)
			}
			return fmt.Errorf("postgres: adding key: %w", err)
		}
		return nil
	})
}

// ConfirmKey implements store.Keys.
func (s *Store) ConfirmKey(ctx context.Context, k store.SSHKey) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "UPDATE ssh_keys SET confirmed = true WHERE fingerprint = $1 AND identity = $2", k.Fingerprint, k.Identity)
		if err != nil {
			return fmt.Errorf("postgres: confirming key: %w", err)
		}
		if tag.RowsAffected() > 0 {
			return nil
		}
		if _, err := tx.Exec(ctx, "DELETE FROM ssh_keys WHERE fingerprint = $1 AND NOT confirmed", k.Fingerprint); err != nil {
			return fmt.Errorf("postgres: taking key: %w", err)
		}
		if _, err := tx.Exec(ctx, "INSERT INTO ssh_keys (fingerprint, identity, key, comment, added, confirmed) VALUES ($1, $2, $3, $4, $5, true)",
			k.Fingerprint, k.Identity, k.Key, k.Comment, k.Added); err != nil {
			if isConstraint(err) {
				return fmt.Errorf("key %s: %w", k.Fingerprint, store.ErrConflict)
			}
			return fmt.Errorf("postgres: confirming key: %w", err)
		}
		return nil
	})
}

// KeysOf implements store.Keys.
func (s *Store) KeysOf(ctx context.Context, identity string) ([]store.SSHKey, error) {
	rows, err := s.pool.Query(ctx, "SELECT fingerprint, key, comment, added, used, confirmed FROM ssh_keys WHERE identity = $1 ORDER BY added, fingerprint", identity)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading keys: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.SSHKey, error) {
		k := store.SSHKey{Identity: identity}
		var used *time.Time
		err := row.Scan(&k.Fingerprint, &k.Key, &k.Comment, &k.Added, &used, &k.Confirmed)
		k.Added = utc(k.Added)
		if used != nil {
			k.Used = utc(*used)
		}
		return k, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: reading keys: %w", err)
	}
	return out, nil
}

// KeyByFingerprint implements store.Keys.
func (s *Store) KeyByFingerprint(ctx context.Context, fp string) (store.SSHKey, error) {
	k := store.SSHKey{Fingerprint: fp}
	var used *time.Time
	err := s.pool.QueryRow(ctx, "SELECT identity, key, comment, added, used, confirmed FROM ssh_keys WHERE fingerprint = $1", fp).Scan(&k.Identity, &k.Key, &k.Comment, &k.Added, &used, &k.Confirmed)
	if errors.Is(err, pgx.ErrNoRows) {
		return k, fmt.Errorf("key %s: %w", fp, store.ErrNotFound)
	}
	if err != nil {
		return k, fmt.Errorf("postgres: reading key: %w", err)
	}
	k.Added = utc(k.Added)
	if used != nil {
		k.Used = utc(*used)
	}
	return k, nil
}

// KeyUsed implements store.Keys.
func (s *Store) KeyUsed(ctx context.Context, fp string, at time.Time) error {
	tag, err := s.pool.Exec(ctx, "UPDATE ssh_keys SET used = $1 WHERE fingerprint = $2", at, fp)
	if err != nil {
		return fmt.Errorf("postgres: recording a key's use: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("key %s: %w", fp, store.ErrNotFound)
	}
	return nil
}

// DeleteKey implements store.Keys.
func (s *Store) DeleteKey(ctx context.Context, identity, fp string) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "DELETE FROM ssh_keys WHERE identity = $1 AND fingerprint = $2", identity, fp)
		if err != nil {
			return fmt.Errorf("postgres: deleting key: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("key %s: %w", fp, store.ErrNotFound)
		}
		return nil
	})
}

// SSHGuest implements store.SSHGuests.
func (s *Store) SSHGuest(ctx context.Context, key string) (store.SSHGuest, error) {
	g := store.SSHGuest{Key: key}
	err := s.pool.QueryRow(ctx, "SELECT name, identity, used FROM ssh_guests WHERE key = $1", key).Scan(&g.Name, &g.Identity, &g.Used)
	if errors.Is(err, pgx.ErrNoRows) {
		return g, fmt.Errorf("ssh guest: %w", store.ErrNotFound)
	}
	if err != nil {
		return g, fmt.Errorf("postgres: reading an ssh guest: %w", err)
	}
	g.Used = utc(g.Used)
	return g, nil
}

// PutSSHGuest implements store.SSHGuests.
func (s *Store) PutSSHGuest(ctx context.Context, g store.SSHGuest) error {
	_, err := s.pool.Exec(ctx, "INSERT INTO ssh_guests (key, name, identity, used) VALUES ($1, $2, $3, $4) ON CONFLICT (key) DO UPDATE SET name = excluded.name, identity = excluded.identity, used = excluded.used",
		g.Key, g.Name, g.Identity, g.Used)
	if isConstraint(err) {
		return fmt.Errorf("ssh guest of identity %s: %w", g.Identity, store.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("postgres: keeping an ssh guest: %w", err)
	}
	return nil
}

// ForgetSSHGuests implements store.SSHGuests.
func (s *Store) ForgetSSHGuests(ctx context.Context, before time.Time) (int, error) {
	tag, err := s.pool.Exec(ctx, "DELETE FROM ssh_guests WHERE used < $1", before)
	if err != nil {
		return 0, fmt.Errorf("postgres: forgetting ssh guests: %w", err)
	}
	return int(tag.RowsAffected()), nil
}

var (
	_ store.Keys      = (*Store)(nil)
	_ store.SSHGuests = (*Store)(nil)
)
