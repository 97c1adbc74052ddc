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
	// Confirmed is whether the key's holder proved it is the account's:
	// they came through the SSH door with it (proving they hold its
	// private half) and signed in to the account there. A key pasted on
	// a page proves nothing of the kind (a public key is public: anyone
	// may paste another's), so it signs nobody in until it is confirmed.
	Confirmed bool
}

// Keys keeps the accounts' SSH keys. A Store that holds accounts may
// implement it too.
type Keys interface {
	// AddKey stores k; a fingerprint already stored (for any account)
	// is ErrConflict.
	AddKey(ctx context.Context, k SSHKey) error
	// ConfirmKey stores k, confirmed, for k.Identity, in one step: a key
	// of that fingerprint that k.Identity holds is confirmed (its added
	// time and comment kept), and one another account holds unconfirmed
	// is taken from it, since its holder has now proved whose it is. One
	// another account holds confirmed is ErrConflict.
	ConfirmKey(ctx context.Context, k SSHKey) error
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

// SSHGuest is a guest the SSH door remembers: the guest identity that
// Key last played as, under the login Name. Key is the door's: a public
// key's fingerprint ("SHA256:…") with the login it came under, or a
// resume code the door gave a guest who came without a key, in a form
// that no fingerprint takes.
type SSHGuest struct {
	Key      string
	Name     string
	Identity string
	Used     time.Time
}

// SSHGuests keeps the guests the SSH door remembers, so that a guest who
// comes back through any server of a cluster, or after a restart, plays
// as the same guest. It holds no token: the door is given a new one each
// time. A Store that holds SSH keys may implement it too.
type SSHGuests interface {
	// SSHGuest returns the guest remembered under key.
	SSHGuest(ctx context.Context, key string) (SSHGuest, error)
	// PutSSHGuest remembers g under g.Key, in place of any guest there.
	PutSSHGuest(ctx context.Context, g SSHGuest) error
	// ForgetSSHGuests forgets the guests last used before before, and
	// returns how many there were.
	ForgetSSHGuests(ctx context.Context, before time.Time) (int, error)
}
