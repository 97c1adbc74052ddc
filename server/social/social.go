// Package social is who plays whom: who is online, challenges from one
// account to another, and the player stream that tells a player of their
// challenges and games as they come. It stands on the players (names,
// accounts) and the tables (a challenge accepted is a table made), and
// hears of games starting and finishing as a table.Observer.
package social

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"parlour/game"
	"parlour/server/players"
	"parlour/server/refuse"
	"parlour/server/relations"
	"parlour/server/table"
	"parlour/store"
)

// Peers is what presence and the player streams need of the other nodes
// of a cluster; the cluster implements it, a single node leaves it nil.
type Peers interface {
	// OnlineElsewhere returns the identities online on the other nodes.
	OnlineElsewhere(ctx context.Context) []string
	// StreamElsewhere hands ev to identity's player streams on the other
	// nodes, without waiting.
	StreamElsewhere(identity string, ev StreamEvent)
}

// Config is what a Service is built from; all but Peers and Challenged
// are required.
type Config struct {
	Tables  *table.Service
	Players *players.Service
	Store   store.Store
	Games   *game.Registry
	Logger  *slog.Logger
	// Clock times challenges out (the table service's).
	Clock table.Clock
	Peers Peers
	// Relations, when set, are the follows and blocks: followers hear
	// when a player comes online or starts a game, and blocked players
	// are kept from challenges and the list of players online.
	Relations *relations.Service
	// Challenged, when set, hears of each challenge made, with the
	// identities it is to and from: the mail tells the one challenged. It
	// is called on the request's goroutine and must not block.
	Challenged func(to, from string, ch Challenge)
}

// Service is presence, challenges and the player streams.
type Service struct {
	cfg      Config
	tables   *table.Service
	players  *players.Service
	st       store.Store
	games    *game.Registry
	log      *slog.Logger
	peers    Peers
	rel      *relations.Service
	presence *onlineSet
	hub      *hub
	// elsewhere is who was online on the other nodes when last asked
	// (IsOnlineAnywhere), and when.
	elsewhereMu sync.Mutex
	elsewhere   map[string]bool
	elsewhereAt time.Time
	// ctx is canceled by Close: challenges expiring after it are left to
	// the next start.
	ctx    context.Context
	cancel context.CancelFunc
	// armed holds the open challenges whose expiry this node has a timer
	// for (armExpiry).
	armedMu sync.Mutex
	armed   map[string]bool
}

// New returns the social side of cfg.
func New(cfg Config) *Service {
	s := &Service{cfg: cfg, tables: cfg.Tables, players: cfg.Players, st: cfg.Store, games: cfg.Games, log: cfg.Logger, peers: cfg.Peers, rel: cfg.Relations,
		presence: newOnlineSet(), hub: newHub(), armed: map[string]bool{}}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	return s
}

// Close stops what the service runs in the background.
func (s *Service) Close() { s.cancel() }

func (s *Service) now() time.Time { return s.tables.Now() }

func (s *Service) saveFailed(what string, err error) error {
	return refuse.SaveFailed(s.log, what, err)
}

func (s *Service) reading(what string, err *error) { refuse.Reading(s.log, what, err) }

// Touch notes that identity asked something of the server just now, and
// tells its followers when that brought it online.
func (s *Service) Touch(identity string) {
	if s.presence.touch(identity, s.now()) {
		s.cameOnline(identity)
	}
}

// Hold counts identity online until release is called: an open stream or
// socket. Its followers hear when that brought it online.
func (s *Service) Hold(identity string) (release func()) {
	release, came := s.presence.hold(identity, s.now)
	if came {
		s.cameOnline(identity)
	}
	return release
}

// OnlineHere returns the identities online on this node.
func (s *Service) OnlineHere() []string { return s.presence.online(s.now()) }

// IsOnline reports whether identity is online on this node.
func (s *Service) IsOnline(identity string) bool { return s.presence.isOnline(identity, s.now()) }

// ElsewhereFresh is how long IsOnlineAnywhere trusts its list of who is
// online on the other nodes: a wave of an arena asks for each of its
// players at once, and one round of the bus serves them all.
const ElsewhereFresh = time.Second

// IsOnlineAnywhere reports whether identity is online on this node or,
// on a node of a cluster, on another one (as they answered at most
// ElsewhereFresh ago).
func (s *Service) IsOnlineAnywhere(identity string) bool {
	if s.IsOnline(identity) {
		return true
	}
	if s.peers == nil {
		return false
	}
	s.elsewhereMu.Lock()
	defer s.elsewhereMu.Unlock()
	if s.elsewhere == nil || time.Since(s.elsewhereAt) > ElsewhereFresh {
		ctx, cancel := context.WithTimeout(s.ctx, 2*time.Second)
		ids := s.peers.OnlineElsewhere(ctx)
		cancel()
		s.elsewhere = make(map[string]bool, len(ids))
		for _, id := range ids {
			s.elsewhere[id] = true
		}
		s.elsewhereAt = time.Now()
	}
	return s.elsewhere[identity]
}

// Holding reports whether identity has a stream or socket open on this
// node: a player whose page, terminal or stream is open, however long
// since their last request.
func (s *Service) Holding(identity string) bool { return s.presence.holding(identity) }

// HoldingOf returns those of identities that have a stream or socket open
// on this node: the node that keeps a cluster's seeks asks the others
// about the players whose seeks wait.
func (s *Service) HoldingOf(identities []string) []string { return s.presence.holders(identities) }
