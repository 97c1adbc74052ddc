package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ChallengeStatus is where a challenge stands.
type ChallengeStatus string

// The statuses of a challenge. Only an open one may change, and only once.
const (
	ChallengeOpen     ChallengeStatus = "open"
	ChallengeAccepted ChallengeStatus = "accepted"
	ChallengeDeclined ChallengeStatus = "declined"
	ChallengeCanceled ChallengeStatus = "canceled"
	// ChallengeExpired is a challenge nobody answered in time. The
	// server marks it when its time is up; one whose time passed while
	// the server was down stays open in the store, and the server treats
	// it as expired all the same.
	ChallengeExpired ChallengeStatus = "expired"
)

// Challenge is one account's invitation to another to play: a game, its
// rules, rated or not. Table names the table an accepted challenge
// opened.
type Challenge struct {
	ID    string
	From  string // the challenger's identity
	To    string // the challenged identity
	Game  string
	Rules []byte // the rules asked for, as JSON (nil: the defaults)
	Rated bool
	// Lexicon names the word list the table is to check words against
	// ("": the default).
	Lexicon string
	Status  ChallengeStatus
	Table   string
	Created time.Time
	Expires time.Time
}

// ChallengeAnswer moves a challenge from open to Status, with the Table
// it opens, in a Batch: an acceptance and the table it opens are stored
// together or not at all.
type ChallengeAnswer struct {
	ID     string
	Status ChallengeStatus
	Table  string
}

// ErrChallengeNotOpen is returned, wrapped, by a write that answers a
// challenge already answered: another answer came first.
var ErrChallengeNotOpen = fmt.Errorf("challenge not open: %w", ErrConflict)

// ErrChallengeDuplicate is returned, wrapped, by CreateChallenge for a
// challenge that repeats one still open and unexpired: the same
// challenger, the same player challenged, the same game, rules and
// rating. A second click on "send" must not make a second challenge.
var ErrChallengeDuplicate = fmt.Errorf("the same challenge is already open: %w", ErrConflict)

// ErrChallengesFrom and ErrChallengesTo are returned, wrapped, by
// CreateChallenge when the challenger already has ChallengeCaps.From open
// challenges, or the player challenged ChallengeCaps.To waiting for them.
var (
	ErrChallengesFrom = errors.New("the challenger has too many open challenges")
	ErrChallengesTo   = errors.New("the player challenged has too many challenges waiting")
)

// ChallengeCaps bounds the open, unexpired challenges CreateChallenge lets
// stand: From of one challenger, To for one player challenged; 0 for no
// bound. A bound kept by the store, in the same step as the insert, holds
// under a flood of challenges at once, which a count read first does not.
type ChallengeCaps struct {
	From, To int
}

// Challenges keeps challenges and who hides from the list of players
// online. A Store that holds them implements it too.
type Challenges interface {
	// CreateChallenge stores a new open challenge. One that repeats a
	// challenge still open and unexpired at c.Created (the same From, To,
	// Game, Rules and Rated) is ErrChallengeDuplicate, and one past caps
	// is ErrChallengesFrom or ErrChallengesTo; then nothing is stored.
	// The checks and the write are one, so of many at once no more are
	// stored than the caps allow.
	CreateChallenge(ctx context.Context, c Challenge, caps ChallengeCaps) error
	// Challenge returns the challenge called id.
	Challenge(ctx context.Context, id string) (Challenge, error)
	// SettleChallenge moves challenge id from open to status (with
	// table, for an accepted one). A challenge that is not open is
	// ErrChallengeNotOpen, and nothing changes: of two answers at once,
	// one wins. An acceptance, which opens a table, is written instead
	// in the table's Batch (Batch.Challenge).
	SettleChallenge(ctx context.Context, id string, status ChallengeStatus, table string) error
	// OpenChallenges returns the open challenges from or to identity,
	// newest first, at most limit, including expired ones still open.
	OpenChallenges(ctx context.Context, identity string, limit int) ([]Challenge, error)
	// SetHidden stores whether identity hides from the list of players
	// online.
	SetHidden(ctx context.Context, identity string, hidden bool) error
	// Hidden returns those of ids that hide.
	Hidden(ctx context.Context, ids []string) (map[string]bool, error)
}
