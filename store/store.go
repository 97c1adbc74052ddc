// Package store is Parlour's persistence interface: identities, the
// credentials that stand for them, and tables with their moves.
//
// The server keeps a live table in memory and derives its state by
// replaying the table's record; a Store holds what that replay needs. A
// move is written with AppendMove, which returns only once the move is
// durable, so that nobody is told of a move that a crash could lose.
// Package store/sqlite holds the embedded implementation, the default;
// store/postgres holds the one that several nodes of a cluster share, with
// the leases that fence each table's writes to its owner (Leases). Both
// pass the tests of store/storetest.
package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrNotFound is returned when the identity, credential or table asked for
// does not exist.
var ErrNotFound = errors.New("not found")

// ErrConflict is returned by AppendMove when the move's sequence number is
// not the next one for its table, and by the Create methods when the key is
// taken.
var ErrConflict = errors.New("conflict")

// ErrNoSpace is returned, wrapped, by a write the store could not make for
// lack of space (a full disk) or because its storage failed: nothing was
// written, and the same write may succeed later.
var ErrNoSpace = errors.New("no space left to store the write")

// ErrUnmigrated is a store's Open's answer, when asked not to migrate,
// for a database that lacks migrations this build has: opened by the
// tools that run beside a server (parlour admin), a newer build would
// otherwise change the schema under an older server still using it.
var ErrUnmigrated = errors.New("the database lacks migrations this build has")

// Identity is a player, a guest or an account's: the name shown at its
// seats. An Account is an identity that also chose a unique name and a
// password, and its ratings are kept by the identity's id.
type Identity struct {
	ID      string
	Name    string
	Created time.Time
	// Account, as read back (Identity), says the identity has an
	// account, whose name is then Name too (a store that holds accounts
	// keeps the two the same): a seat's sitter is known in one read.
	// Ignored when storing.
	Account bool
}

// Credential binds the hash of a bearer token to an identity and, for a
// seat token, to one seat of one table. Tokens themselves are never
// stored.
type Credential struct {
	Hash     []byte
	Identity string
	// Table and Seat name the seat a seat token was issued for; Table is
	// empty for an identity's own token.
	Table string
	Seat  int
	// Used is when an identity's own token was last used as far as the
	// store knows (Players.TouchSessions), zero when never noted.
	// Ignored when storing.
	Used time.Time
}

// Status is a table's place in its life, as the store indexes it.
type Status string

// The statuses a table passes through.
const (
	Open     Status = "open"     // waiting for people to take seats
	Setup    Status = "setup"    // seated, waiting for secret setups
	Playing  Status = "playing"  // moves are being made
	Finished Status = "finished" // the game is over
	// Cancelled tables were given up before play began: every person
	// seated left. They keep their row (and their invite code stays
	// reserved as a finished table's does) but never come back to life.
	Cancelled Status = "cancelled"
)

// Live reports whether a table in status s is still under way.
func (s Status) Live() bool { return s != Finished && s != Cancelled }

// Table is one table as stored: its description and the moves made at it.
type Table struct {
	ID      string
	Game    string
	Status  Status
	Created time.Time
	Updated time.Time
	// Meta is the server's description of the table (rules, seats,
	// setups, ...), opaque to the store.
	Meta []byte
	// Moves are the accepted moves in order; Seq counts from 1.
	Moves []Move
}

// Move is one accepted move of a table.
type Move struct {
	Seq  int
	Seat int
	Text string
	At   time.Time
	// Epoch, when not zero, fences the write of the move (and of the
	// update that goes with it): a Store that implements Leases stores
	// it only while the table's lease has this epoch, and otherwise
	// refuses it with ErrFenced. It is not stored: moves read back have
	// Epoch 0. A Store without Leases (the embedded one, a single node)
	// ignores it.
	Epoch int64
}

// Store persists identities, credentials and tables. Its methods are safe
// for concurrent use, and every write is durable when it returns nil.
type Store interface {
	// CreateIdentity stores a new identity with its first credential.
	CreateIdentity(ctx context.Context, id Identity, cred Credential) error
	// AddCredential stores another credential of an existing identity.
	AddCredential(ctx context.Context, cred Credential) error
	// Credential finds the credential with token hash h.
	Credential(ctx context.Context, h []byte) (Credential, error)
	// Identity returns the identity called id.
	Identity(ctx context.Context, id string) (Identity, error)

	// CreateTable stores a new table without moves.
	CreateTable(ctx context.Context, t Table) error
	// UpdateTable replaces a table's status and description.
	UpdateTable(ctx context.Context, id string, status Status, meta []byte) error
	// AppendMove stores move m of table id. The caller numbers a table's
	// moves from 1 without gaps and appends one at a time; a number already
	// stored is refused with ErrConflict. When update is not nil the
	// table's status and description change in the same transaction.
	AppendMove(ctx context.Context, id string, m Move, update *Update) error
	// Table returns table id with its moves.
	Table(ctx context.Context, id string) (Table, error)
	// LiveTables returns every table that is neither finished nor
	// cancelled, with moves.
	LiveTables(ctx context.Context) ([]Table, error)
	// Recent returns up to limit tables in status, newest first, without
	// their moves.
	Recent(ctx context.Context, status Status, limit int) ([]Table, error)

	// Write makes every write of b in one transaction: when it returns
	// nil all of them are durable, otherwise none was made. A request
	// that changes several things (a new guest, the table it sits at, its
	// seat's token) makes them with one Write, so that a failure half way
	// leaves nothing half made.
	Write(ctx context.Context, b Batch) error

	// Chats holds the tables' chat (see chat.go).
	Chats

	// Close waits for pending writes and releases the store.
	Close() error
}

// Update is a change of a table's status and description that goes with a
// move (the move that ends the game, say).
type Update struct {
	Status Status
	Meta   []byte
	// End, when not nil, indexes the game's end (histories, ratings) in
	// the same transaction: see GameEnd. Only a Store that implements
	// Players takes it.
	End *GameEnd
}

// Batch is writes that stand or fall together (see Store.Write). They are
// made in the order of its fields: the challenge answered, identities,
// then the new table, the table update, and the credentials, which may
// name any of them.
type Batch struct {
	// Challenge, when not nil, answers an open challenge (an acceptance
	// with the new table it opens); one no longer open fails the batch
	// with ErrChallengeNotOpen. Only a Store that implements Challenges
	// takes it.
	Challenge  *ChallengeAnswer
	Identities []Identity
	NewTable   *Table // without moves
	// Code is the new table's invite code, if it has one. A code held
	// by another table, or reserved after its table ended, fails the
	// batch with ErrCodeTaken.
	Code        string
	Update      *TableUpdate
	Credentials []Credential
}

// ErrCodeTaken is returned, wrapped, by a Write whose invite code another
// table holds or reserves: the caller tries another code.
var ErrCodeTaken = fmt.Errorf("invite code taken: %w", ErrConflict)

// Invites resolves invite codes. A Store that stores them (Batch.Code)
// implements it too.
type Invites interface {
	// TableByCode returns the id of the table whose invite code is
	// code, finished or not; an unknown code, or one whose table ended
	// so long ago that the code was freed, is ErrNotFound.
	TableByCode(ctx context.Context, code string) (string, error)
}

// TableUpdate replaces a table's status and description, as UpdateTable
// does.
type TableUpdate struct {
	ID     string
	Status Status
	Meta   []byte
	// Epoch fences the update in a Store.Write as Move.Epoch fences a
	// move (0: not fenced).
	Epoch int64
	// End, when not nil, indexes the end of a game that ended without a
	// move (it was aborted) in the same transaction, as Update.End does
	// for a move. Only a Store that implements Players takes it.
	End *GameEnd
}
