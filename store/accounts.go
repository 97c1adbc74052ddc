package store

import (
	"context"
	"time"
)

// Account is an identity that chose a unique name and a password. Key is
// the name as names compare (account.Key: lower case); Name keeps the
// owner's spelling; Hash is the password's argon2id hash in PHC form.
type Account struct {
	Identity string
	Name     string
	Key      string
	Hash     string
	Created  time.Time
}

// ClosedHash is the password hash of an account a moderator closed: no
// password matches it. A closed account keeps its games and ratings, but
// a leaderboard leaves it out.
const ClosedHash = "!closed"

// NoPasswordHash is the password hash of an account reopened without a
// password to give back: one closed before closing kept the password's
// hash aside. No password matches it; its player sets a new one by a
// reset link sent to the account's e-mail address, or the operator sets
// one. (Its SSH keys sign in once confirmed, which takes the password.)
const NoPasswordHash = "!nopassword"

// Rating is one identity's standing in one rating pool (a game, or a
// game's mode), on the Glicko scale.
type Rating struct {
	Identity   string
	Pool       string
	Rating     float64
	RD         float64
	Volatility float64
	Games      int
	Updated    time.Time
}

// Standing is one line of a leaderboard.
type Standing struct {
	Name   string
	Rating float64
	RD     float64
	Games  int
}

// Result is how a game ended for one seat.
type Result string

// The results a finished game gives a seat.
const (
	Win  Result = "win"
	Loss Result = "loss"
	Draw Result = "draw"
	// Aborted games ended without a result before every player had
	// moved: they are in each person's history, and rate nobody.
	Aborted Result = "aborted"
)

// GameEnd is what the store indexes when a game ends, written with the
// move (or the change) that ends it, in the same transaction: a line of
// each person's history and, for a rated game, both players' new ratings.
type GameEnd struct {
	Game  string
	Ended time.Time
	// Seats are the people at the table (computers have no history).
	Seats []SeatEnd
	// Rated, when not nil, rates the game.
	Rated *RatedGame
}

// SeatEnd is one person's line of a finished game.
type SeatEnd struct {
	Identity string
	Seat     int
	Result   Result
}

// RatedGame asks the store to rate a finished two-player game in pool:
// one Glicko-2 rating period for each player, each against the other's
// rating from before the game. The store reads both ratings and writes
// both new ones inside the transaction that stores the game's end, so
// that two games of one player ending together both count, and a crash
// leaves both ratings changed or neither.
type RatedGame struct {
	Pool string
	// Players are the two identities, Score the first one's score
	// (1 win, 0.5 draw, 0 loss).
	Players [2]string
	Score   float64
}

// PlayerGame is one line of an identity's history: a finished game.
type PlayerGame struct {
	Table string
	Seat  int
	Game  string
	Pool  string // "" for an unrated game
	// Result is "" for a game that ended before the store kept results;
	// the table's record says.
	Result Result
	Ended  time.Time
	// Before and After are the player's rating before and after a rated
	// game, RD the rating deviation after it.
	Before, After, RD float64
	// Refund is the points given back since for a game lost to an
	// account closed for cheating (Moderation.RefundOpponents), else 0.
	Refund float64
	// Meta is the table's description, for the players' names.
	Meta []byte
}

// HistoryPage asks for a page of an identity's history, newest first.
type HistoryPage struct {
	Identity string
	Game     string // "" for every game
	// Before, when not zero, starts the page after the game that ended
	// at Before at table BeforeTable (the last one of the previous page).
	Before      time.Time
	BeforeTable string
	Limit       int
	// Public, when set, leaves out the games of private tables (whose
	// description holds "private": true, and no "daily": a daily
	// puzzle's attempt is private only to stay out of the lobby) but
	// those identity Viewer held a seat at too: the history as Viewer
	// may see it, or anyone when Viewer is "".
	Public bool
	Viewer string
}

// RatingPoint is a player's rating after one rated game.
type RatingPoint struct {
	Table  string
	At     time.Time
	Rating float64
	RD     float64
	// Hidden says the game's table was private (as HistoryPage.Public
	// reads it) and the viewer asking held no seat at it: the point is
	// for the viewer's chart, its table not for the viewer to know.
	Hidden bool
}

// Players keeps accounts, sessions, ratings and histories. A Store that
// holds accounts implements it too.
type Players interface {
	// CreateAccount makes identity a.Identity an account and stores cred,
	// its session, in one transaction; guest, when not nil, is a new
	// identity made in the same transaction. The identity's name becomes
	// the account's. An identity that existed (a guest signing up) loses
	// its other identity tokens (not its seats' tokens) in the same
	// transaction, and their hashes are returned: a guest's token may be
	// known to others, and must not become the account's session. A taken
	// key, or an identity that already has an account, is ErrConflict.
	CreateAccount(ctx context.Context, a Account, cred Credential, guest *Identity) ([][]byte, error)
	// AccountByKey returns the account whose name folds to key.
	AccountByKey(ctx context.Context, key string) (Account, error)
	// AccountsByKeys returns the accounts whose names fold to any of
	// keys, in no particular order; none is an empty slice, not an
	// error. It is one query where AccountByKey would take one a key
	// (a guest's name against all its look-alike spellings).
	AccountsByKeys(ctx context.Context, keys []string) ([]Account, error)
	// AccountsWithPrefix returns at most limit accounts whose keys begin
	// with prefix (itself a key's start: account.Key's folding), in
	// byte order of their keys: the players a name being typed may mean.
	// Closed accounts (ClosedHash) are left out here, not by the caller,
	// so that any number of them never crowds the open ones out of the
	// limit.
	AccountsWithPrefix(ctx context.Context, prefix string, limit int) ([]Account, error)
	// AccountOf returns the account of identity.
	AccountOf(ctx context.Context, identity string) (Account, error)
	// AccountNames returns the account names of those of ids that have
	// accounts.
	AccountNames(ctx context.Context, ids []string) (map[string]string, error)
	// SetPassword replaces identity's password hash old with hash,
	// deletes its session and identity tokens (not its seats' tokens)
	// except keep and spends its password reset link, if any (a link
	// mailed before a new password must not undo it), in one
	// transaction. It returns the hashes deleted. When the hash is no
	// longer old (another change, or a moderator's close, came between
	// the caller's read and this), it changes nothing and returns
	// ErrConflict: the one read and checked must be the one replaced.
	SetPassword(ctx context.Context, identity, old, hash string, keep []byte) ([][]byte, error)
	// TouchSessions notes that the session or identity tokens (not
	// seats' tokens) with hashes were used at at. A hash no longer
	// stored is passed over.
	TouchSessions(ctx context.Context, hashes [][]byte, at time.Time) error
	// ExpireSessions ends the accounts' sessions (not guests' identity
	// tokens, which are all a guest has, nor seats' tokens) last used
	// before before, in one transaction, and returns the hashes deleted.
	// A session or identity token never noted used is taken as used at
	// now, and stored so: made since the last call, or before the store
	// kept the time.
	ExpireSessions(ctx context.Context, before, now time.Time) ([][]byte, error)
	// EndSessions deletes identity's session and identity tokens (not
	// its seats' tokens) except keep, in one transaction, and returns the
	// hashes deleted: a player signing out everywhere else.
	EndSessions(ctx context.Context, identity string, keep []byte) ([][]byte, error)
	// Rehash replaces identity's password hash old with new, the same
	// password hashed with other parameters; it does nothing when the
	// hash is no longer old (the password changed meanwhile).
	Rehash(ctx context.Context, identity, old, new string) error
	// DeleteCredential deletes the credential with token hash h.
	DeleteCredential(ctx context.Context, h []byte) error
	// DeleteAccount deletes identity's account, ratings, daily attempts
	// and every credential, renames the identity name, and replaces the
	// descriptions of the tables in renames (its finished games, under
	// the new name), drops their filed analyses, which hold the old
	// name, and renames its chat lines, in one transaction. It returns
	// the hashes deleted.
	DeleteAccount(ctx context.Context, identity, name string, renames []TableUpdate) ([][]byte, error)

	// Ratings returns identity's ratings, by pool.
	Ratings(ctx context.Context, identity string) ([]Rating, error)
	// RatingHistory returns identity's rating after each rated game in
	// pool, oldest first, at most limit of the newest, as identity
	// viewer (or anyone, when "") may see them: a point of a private
	// table viewer held no seat at is Hidden.
	RatingHistory(ctx context.Context, identity, pool string, limit int, viewer string) ([]RatingPoint, error)
	// History returns a page of an identity's finished games.
	History(ctx context.Context, p HistoryPage) ([]PlayerGame, error)
	// FinishedGames counts identity's finished games.
	FinishedGames(ctx context.Context, identity string) (int, error)
	// RatedTogether counts the rated games identities a and b finished
	// together at or after since, aborted ones left out.
	RatedTogether(ctx context.Context, a, b string, since time.Time) (int, error)
	// Leaderboard returns the best players of pool with at least
	// minGames games and an RD below maxRD at the time at, best first,
	// at most limit. An RD at a time is the stored one grown by the
	// time since its last game (glicko.System.Away), so a player long
	// away leaves the board; each Standing's RD is that one. Closed
	// accounts (ClosedHash) are left out.
	Leaderboard(ctx context.Context, pool string, minGames int, maxRD float64, limit int, at time.Time) ([]Standing, error)
}

// PrefixEnd returns the least string greater than every string that
// begins with prefix, for a range scan of keys [prefix, PrefixEnd(prefix))
// in byte order; "" when there is none (a prefix of 0xff bytes only, or
// an empty one): the scan is then unbounded above.
func PrefixEnd(prefix string) string {
	b := []byte(prefix)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1])
		}
	}
	return ""
}
