// Package players keeps who plays: accounts and their sessions, the
// profiles, histories and leaderboards anybody may read, SSH keys and an
// account's settings. It reaches the live tables only through
// table.Service's exported API, and the other nodes of a cluster through
// Peers.
package players

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"runtime"
	"slices"
	"sync/atomic"

	"parlour/game"
	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/server/table"
	"parlour/store"
)

// Peers is what the players' side needs of the other nodes of a
// cluster; a single node has none.
type Peers interface {
	// ForgetEverywhere tells every other node to drop the credentials
	// that hash to hashes from its cache, and waits for their answers
	// (bounded): a token signed out on one node must not go on working
	// on another.
	ForgetEverywhere(ctx context.Context, hashes [][]byte)
	// SeatedElsewhere returns the tables under way that the other nodes
	// own where identity holds a seat. When a node did not answer it
	// returns what the others answered and an error saying so.
	SeatedElsewhere(ctx context.Context, identity string) ([]table.SeatedTable, error)
}

// Config is what a Service is built from. Store, Tables and Auth are
// required.
type Config struct {
	Store store.Store
	// Tables are the live tables, for the seats an account holds and the
	// finished tables an account's deletion renames.
	Tables *table.Service
	// Auth caches credentials: a new session is remembered there, and an
	// ended one forgotten.
	Auth   *auth.Auth
	Logger *slog.Logger
	// Peers are the other nodes of a cluster; nil for a single node.
	Peers Peers
	// KeyAdded, when set, hears of each SSH key added to an account, for
	// the account's open pages and terminals.
	KeyAdded func(identity string, k KeyInfo)
	// Deleted, when set, hears of each account deleted, once it is: its
	// player plays no more, so the root takes its seeks out of the book.
	Deleted func(ctx context.Context, identity string)
	// Deleting, when set, is asked just before an account is deleted,
	// and the func it returns is called once the deletion is done: the
	// store withdraws the account's open challenges in the deletion's
	// own step, so what they were must be read before it, to tell the
	// other players after it.
	Deleting func(ctx context.Context, identity string) (done func())
}

// Service is the players' side of the server.
type Service struct {
	st       store.Store
	tables   *table.Service
	games    *game.Registry
	auth     *auth.Auth
	log      *slog.Logger
	peers    Peers
	keyAdded func(identity string, k KeyInfo)
	deleted  func(ctx context.Context, identity string)
	deleting func(ctx context.Context, identity string) (done func())

	// hashing holds a slot for each password being hashed (see
	// hashPassword); hashWaiting counts the requests waiting for one.
	// signingUp holds a place for each sign-up between its start and its
	// hash: fewer places than slots, so that sign-ins always find one.
	hashing     chan struct{}
	hashWaiting atomic.Int64
	signingUp   chan struct{}
}

// New builds the players' side on cfg. Half the processors may hash
// passwords at once (one at least): each hash is a processor's work for
// tens of milliseconds, and the tables need the rest.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil || cfg.Tables == nil || cfg.Auth == nil {
		return nil, errors.New("players: config needs a Store, Tables and Auth")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Service{
		st: cfg.Store, tables: cfg.Tables, games: cfg.Tables.Config().Games, auth: cfg.Auth, log: cfg.Logger,
		peers: cfg.Peers, keyAdded: cfg.KeyAdded, deleted: cfg.Deleted, deleting: cfg.Deleting,
		hashing:   make(chan struct{}, max(1, runtime.GOMAXPROCS(0)/2)),
		signingUp: make(chan struct{}, max(1, runtime.GOMAXPROCS(0)/2-1)),
	}, nil
}

// players returns the store's account side, or a refusal when the store
// keeps no accounts.
func (s *Service) players() (store.Players, error) { return s.tables.Players() }

// hidden returns the store's side that keeps who hides from the list of
// players online, or a refusal when the store keeps none.
func (s *Service) hidden() (store.Challenges, error) {
	cs, ok := s.st.(store.Challenges)
	if !ok {
		return nil, refuse.With(http.StatusNotImplemented, "this server keeps no settings")
	}
	return cs, nil
}

func (s *Service) saveFailed(what string, err error) error {
	return refuse.SaveFailed(s.log, what, err)
}

func (s *Service) reading(what string, err *error) { refuse.Reading(s.log, what, err) }

// Seated returns the tables under way where identity holds a seat, on
// every node, newest first; err, when set, says some node did not answer
// (what the others hold is there all the same).
func (s *Service) Seated(ctx context.Context, identity string) ([]table.SeatedTable, error) {
	out := s.tables.SeatedAt(identity)
	if s.peers == nil {
		return out, nil
	}
	more, err := s.peers.SeatedElsewhere(ctx, identity)
	for _, t := range more {
		// A node that lost a table's lease and has not noticed yet
		// lists it too.
		if !slices.ContainsFunc(out, func(o table.SeatedTable) bool { return o.ID == t.ID }) {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b table.SeatedTable) int { return b.Created.Compare(a.Created) })
	return out, err
}
