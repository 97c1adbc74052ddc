package store

import (
	"context"
	"time"
)

// TournamentStatus is an event's place in its life.
type TournamentStatus string

// The statuses an event passes through.
const (
	TournamentCreated  TournamentStatus = "created"  // open to join, not yet started
	TournamentStarted  TournamentStatus = "started"  // games are being paired
	TournamentFinished TournamentStatus = "finished" // over; its standings are kept
	// TournamentCancelled is an event called off by its maker or a
	// moderator before it started: kept, so that its address still says
	// what became of it, but no longer live, listed or counted against
	// its maker's events of the day.
	TournamentCancelled TournamentStatus = "cancelled"
)

// Over reports whether an event in status st is done with: finished or
// cancelled. Nothing is paired, joined or changed in it any more.
func (st TournamentStatus) Over() bool {
	return st == TournamentFinished || st == TournamentCancelled
}

// Tournament is one event as stored: an arena or a Swiss, its terms, and
// (when read with Tournament or LiveTournaments) its entrants, the rounds
// paired (Pairings) and its games.
type Tournament struct {
	ID          string
	Kind        string // "arena" or "swiss"
	Name        string
	Description string
	Game        string
	// Rules and Clock are the server's descriptions of the game's
	// options and of the clock, opaque to the store.
	Rules []byte
	Clock []byte
	Rated bool
	// Starts is when the event starts (or started, once it has); Ends
	// is when a started arena ends (zero before it starts, and for a
	// Swiss).
	Starts  time.Time
	Ends    time.Time
	Minutes int // an arena's length
	Rounds  int // a Swiss's rounds
	Seats   int // players a table
	// PasswordHash is the hash of the event's password (see
	// account.Hash), empty for an open event; the password is never
	// stored.
	PasswordHash  string
	MinRatedGames int
	// Creator is the identity that made the event, empty for the
	// house's scheduled events; CreatorName is its name as it made it.
	Creator     string
	CreatorName string
	// MaxPlayers caps the entrants.
	MaxPlayers int
	Status     TournamentStatus
	Round      int      // the current round of a Swiss (0 before the first)
	Winners    []string // identities, the winner first, once finished
	// WinnerNames are the winners' names as they played, in Winners'
	// order: read by ListTournaments and TournamentsPlaced, which read
	// no entrants.
	WinnerNames []string
	Created     time.Time

	// Players is how many entrants are its players, in lists
	// (ListTournaments, TournamentsPlaced): all but those who left
	// without a game or a bye; the others read it from Entrants.
	Players int

	Entrants []Entrant
	Pairings []TournamentRound
	Games    []TournamentGame
}

// Entrant is one player of an event as its standings see them.
type Entrant struct {
	Identity string
	Name     string
	Points   int
	Games    int
	Streak   int // wins in a row just now (an arena's streak)
	Forfeits int // games lost for not showing up
	Byes     int
	// Left is set when the player left or was withdrawn: they keep their
	// points but are paired no more (a Swiss player who comes back
	// clears it).
	Left   bool
	Rating float64 // the rating they entered with
	Guest  bool    // an identity without an account
	Joined time.Time
}

// TournamentRound is one round of a Swiss as paired: Pairing is the
// pairing's JSON (tables and byes), stored so that a restart or another
// node plays the very pairing that was made.
type TournamentRound struct {
	Number  int
	Pairing []byte
	Started time.Time
}

// TournamentGame is one game of an event: its table, the round it
// belongs to (0 in an arena), its players in seat order, and once it
// ended each player's points in the event's units.
type TournamentGame struct {
	Table   string
	Round   int
	Players []string
	Points  []int // nil while the game is under way
	Started time.Time
	Ended   time.Time // zero while the game is under way
}

// TournamentWrite is what one change of an event writes, all of it in one
// transaction.
type TournamentWrite struct {
	// Event, when not nil, is the event's own row (not its entrants,
	// rounds or games): inserted when Create is set, a taken id failing
	// with ErrConflict; otherwise replaced.
	Event  *Tournament
	Create bool
	// Entrants are inserted or replaced, each by its identity.
	Entrants []Entrant
	// Round, when not nil, is inserted; a round already stored fails the
	// write with ErrConflict, so that no round is paired twice.
	Round *TournamentRound
	// Games are inserted or replaced, each by its table.
	Games []TournamentGame
	// Log, when not nil, is a line of the moderators' log stored with
	// the write, in its transaction: a moderator's change of an event is
	// never made without its trace. A Store without Moderation ignores
	// it.
	Log *ModAction
	// Epoch, when not zero, fences the write as Move.Epoch fences a
	// move: a Store that implements Leases makes it only while the
	// event's lease (keyed TournamentLease + its id) has this epoch, and
	// otherwise refuses it with ErrFenced. A Store without Leases
	// ignores it.
	Epoch int64
}

// TournamentLease prefixes an event's id to key its lease among the
// tables' (store.Leases): a table's id never has it.
const TournamentLease = "tournament:"

// Tournaments keeps the events: arenas and Swiss. A Store that holds them
// implements it too.
type Tournaments interface {
	// WriteTournament makes w's writes of event id in one transaction.
	WriteTournament(ctx context.Context, id string, w TournamentWrite) error
	// Tournament returns event id with its entrants (in the order they
	// joined), rounds and games (in the order they started).
	Tournament(ctx context.Context, id string) (Tournament, error)
	// ListTournaments returns up to limit events in status, without
	// their entrants, rounds and games but with Players: the soonest
	// first for events not finished, the newest first for finished ones.
	ListTournaments(ctx context.Context, status TournamentStatus, limit int) ([]Tournament, error)
	// LiveTournaments returns every event neither finished nor
	// cancelled, as Tournament returns each.
	LiveTournaments(ctx context.Context) ([]Tournament, error)
	// TournamentsCreated counts the events creator made since since,
	// leaving out those cancelled.
	TournamentsCreated(ctx context.Context, creator string, since time.Time) (int, error)
	// TournamentsPlaced returns up to limit finished events among whose
	// winners identity stands, the newest first, as ListTournaments
	// returns each: a player's profile shows them.
	TournamentsPlaced(ctx context.Context, identity string, limit int) ([]Tournament, error)
}
