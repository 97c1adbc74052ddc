package store

import (
	"context"
	"time"
)

// Email is an account's e-mail address and the mail its owner asked for.
// It is stored only once the owner gives the address and chooses what to
// receive; deleting it, or the account, forgets the address. The tokens
// of the links the server mails (to confirm the address, to stop the
// mail) are kept as hashes, as sessions are: whoever reads the store
// cannot follow them. Since only the hash is kept, each message carries a
// token of its own (AddUnsubscribe).
type Email struct {
	Identity string
	Address  string
	// Verified is true once the owner followed the link mailed to the
	// address; nothing but that link's mail goes to an address that is
	// not.
	Verified bool
	// YourMove, GameEnd and Challenge are the kinds of mail the owner
	// agreed to: their seat is to move, a game of theirs ended, a
	// challenge to them.
	YourMove, GameEnd, Challenge bool
	// VerifyHash is the hash of the pending confirmation link's token
	// (nil once verified), VerifySent when that link was mailed: it
	// expires.
	VerifyHash []byte
	VerifySent time.Time
	// ResetHash is the hash of the token of the password reset link last
	// mailed to a confirmed address (nil when none waits: used, or never
	// asked for), ResetSent when it was mailed: it expires sooner.
	ResetHash []byte
	ResetSent time.Time
	Updated   time.Time
}

// Emails keeps the accounts' e-mail addresses. A Store that holds
// accounts may implement it too; a deleted account's address goes with
// it.
type Emails interface {
	// SetEmail stores e as identity e.Identity's address, replacing the
	// one it had; a new address (not the one stored, in any case) forgets
	// the old one's unsubscribe tokens with it, in one change, so that
	// they reach no other address and a failed change loses neither.
	SetEmail(ctx context.Context, e Email) error
	// SetEmailIf stores e as SetEmail does, but only over the address
	// last updated at was: one changed or removed since is ErrConflict.
	// A change read, decided and written so loses nothing written
	// meanwhile; each such change must move Updated on.
	SetEmailIf(ctx context.Context, e Email, was time.Time) error
	// EmailOf returns identity's address; none is ErrNotFound.
	EmailOf(ctx context.Context, identity string) (Email, error)
	// EmailByVerifyHash returns the address whose pending confirmation
	// token hashes to h; none is ErrNotFound.
	EmailByVerifyHash(ctx context.Context, h []byte) (Email, error)
	// EmailByResetHash returns the address whose password reset token
	// hashes to h; none is ErrNotFound.
	EmailByResetHash(ctx context.Context, h []byte) (Email, error)
	// SpendReset forgets the password reset token hashing to h, stamping
	// the address updated at at, and touches nothing else; none is
	// ErrNotFound. Of two spends of one token, one finds it: a link is
	// used once.
	SpendReset(ctx context.Context, h []byte, at time.Time) error
	// AddUnsubscribe stores h, the hash of the token of the unsubscribe
	// link of a message mailed to identity's address at at, and forgets
	// that address's tokens from before forget. An identity without an
	// address is ErrNotFound.
	AddUnsubscribe(ctx context.Context, identity string, h []byte, at, forget time.Time) error
	// EmailByUnsubscribeHash returns the address to which a message with
	// the unsubscribe token hashing to h was mailed; none is ErrNotFound.
	EmailByUnsubscribeHash(ctx context.Context, h []byte) (Email, error)
	// DeleteEmail forgets identity's address and its unsubscribe tokens;
	// none is ErrNotFound.
	DeleteEmail(ctx context.Context, identity string) error
}
