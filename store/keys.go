package store

import (
	"context"
	"time"
)

// SSHKey is a public key an account added so that the SSH door signs it
// in. Fingerprint is the key's SHA-256 fingerprint as ssh-keygen prints it
// ("SHA256:…"), unique across all accounts; Key is the key in
// authorized_keys form without its comment.
type SSHKey struct {
	Identity    string
	Fingerprint string
	Key         string
	Comment     string
	Added       time.Time
	// Used is when the SSH door last signed the account in with the key;
	// zero for never.
	Used time.Time
}

// Keys keeps the accounts' SSH keys. A Store that holds accounts may
// implement it too.
type Keys interface {
	// AddKey stores k; a fingerprint already stored (for any account)
	// is ErrConflict.
	AddKey(ctx context.Context, k SSHKey) error
	// KeysOf returns identity's keys, oldest first.
	KeysOf(ctx context.Context, identity string) ([]SSHKey, error)
	// KeyByFingerprint returns the key with fingerprint fp.
	KeyByFingerprint(ctx context.Context, fp string) (SSHKey, error)
	// KeyUsed records that the key with fingerprint fp signed its account
	// in at at; a key no longer stored is ErrNotFound.
	KeyUsed(ctx context.Context, fp string, at time.Time) error
	// DeleteKey deletes identity's key with fingerprint fp; a key that
	// identity does not have is ErrNotFound.
	DeleteKey(ctx context.Context, identity, fp string) error
}
