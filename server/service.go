// Package server is Parlour's composition root: it builds the table
// service (server/table), who-asks (server/auth), the analyses
// (server/analyses) and the parts above the tables, hands each the seams
// it listens through, and serves them behind its two doors, an HTTP API
// for programs and a WebSocket for browsers.
//
// Accounts and all that is a player's live in server/players, the daily
// puzzles in server/daily. The domains above the tables that remain here
// (presence, challenges and the player stream, the cluster) and both
// doors reach the tables only through table's exported API, the
// Observer, the read gate, the Placement and its Peers interfaces, and
// the players through players'.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"parlour/game"
	"parlour/lexicon"
	"parlour/server/analyses"
	"parlour/server/auth"
	"parlour/server/cluster"
	"parlour/server/daily"
	"parlour/server/players"
	"parlour/server/social"
	"parlour/server/table"
	"parlour/store"
)

// playersService names the players' service where Service embeds it:
// embedded as players.Service its field would clash with the table
// service's, both being called Service.
type playersService = players.Service

// Config is what a Service is built from. Store and Games are required;
// the rest have the defaults table.Config gives them.
type Config struct {
	Store store.Store
	Games *game.Registry
	// NewBot makes computer players; without it tables may not seat
	// computers.
	NewBot table.BotMaker
	// Lexicon loads the lexicon called name ("" for the default).
	Lexicon func(name string) (*lexicon.Lexicon, error)
	// BaseURL prefixes invite links ("http://localhost:8080").
	BaseURL string
	Logger  *slog.Logger
	// BotTimeout, MaxWait, IdleEvict, OpenExpiry, Clock, WalkAway and
	// RatedPerPair are the table service's (table.Config).
	BotTimeout   time.Duration
	MaxWait      time.Duration
	IdleEvict    time.Duration
	OpenExpiry   time.Duration
	Clock        table.Clock
	WalkAway     time.Duration
	RatedPerPair int
	// Cluster, when set, makes the service one node of a cluster (see
	// server/cluster); the store must then implement store.Leases.
	Cluster *Cluster
}

// Service is every part of the server, built and wired together: the
// table service and the players' (whose methods it carries) and the
// domains above them.
type Service struct {
	*table.Service
	*playersService

	cfg   Config
	log   *slog.Logger
	st    store.Store
	games *game.Registry
	auth  *auth.Auth
	// analyses are finished tables' analyses (server/analyses).
	analyses *analyses.Cache

	// ctx is canceled by Close.
	ctx    context.Context
	cancel context.CancelFunc

	metrics *metricSet

	// daily is the daily puzzles.
	daily *daily.Service

	// social is presence, challenges and the player streams.
	social *social.Service

	// cl is this node of a cluster; nil for a single node.
	cl *cluster.Node
}

// New builds a service on cfg: the table service rebuilds every live
// table in the store by replaying its record (a node of a cluster
// rebuilds those it takes), and computer seats that are due to move
// resume.
func New(ctx context.Context, cfg Config) (s *Service, err error) {
	if cfg.Store == nil || cfg.Games == nil {
		return nil, errors.New("server: config needs a Store and Games")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	s = &Service{
		cfg: cfg, log: cfg.Logger, st: cfg.Store, games: cfg.Games,
		metrics: newMetrics(),
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	// A node of a cluster trusts a cached credential for
	// cluster.CredentialAge: a credential deleted on another node is
	// dropped here when that node tells this one, and at the latest then
	// should it not (the bus was away).
	var maxAge time.Duration
	clustered := cfg.Cluster != nil && cfg.Cluster.Bus != nil
	if clustered {
		maxAge = cluster.CredentialAge
	}
	s.auth = auth.New(s.st, s.log, maxAge)
	if err := s.auth.Register(s.metrics.reg); err != nil {
		s.cancel()
		return nil, fmt.Errorf("server: registering metrics: %w", err)
	}
	if clustered {
		// Made before the tables, whose Placement it is; Start hands it
		// the parts made after it.
		if s.cl, err = cluster.New(*cfg.Cluster, s.st, s.auth, s.log, s.metrics.reg); err != nil {
			s.cancel()
			return nil, err
		}
	}
	tc := table.Config{
		Store: cfg.Store, Games: cfg.Games, NewBot: cfg.NewBot, Lexicon: cfg.Lexicon, BaseURL: cfg.BaseURL, Logger: cfg.Logger,
		BotTimeout: cfg.BotTimeout, MaxWait: cfg.MaxWait, IdleEvict: cfg.IdleEvict, OpenExpiry: cfg.OpenExpiry,
		Clock: cfg.Clock, WalkAway: cfg.WalkAway, RatedPerPair: cfg.RatedPerPair,
		// The daily puzzles are made once the tables are: the gate
		// asks them through s.daily, set by then.
		Shut: func(ctx context.Context, p *auth.Principal, r table.Reading) error {
			return s.daily.Shut(ctx, p, r)
		},
		// The player streams hear of games through s.social, made once
		// the tables and the players are.
		Observers: []table.Observer{socialObserver{s}},
		Auth:      s.auth, Registerer: s.metrics.reg,
	}
	if s.cl != nil {
		tc.Placement, tc.LobbyPeers = s.cl, s.cl
	}
	if s.Service, err = table.New(ctx, tc); err != nil {
		s.cancel()
		return nil, err
	}
	pc := players.Config{Store: cfg.Store, Tables: s.Service, Auth: s.auth, Logger: cfg.Logger,
		KeyAdded: func(identity string, k players.KeyInfo) {
			s.social.Tell(identity, social.StreamEvent{Type: "keyAdded", Key: &k})
		},
	}
	if s.cl != nil {
		pc.Peers = s.cl
	}
	if s.playersService, err = players.New(pc); err != nil {
		s.Service.Close()
		s.cancel()
		return nil, err
	}
	sc := social.Config{Tables: s.Service, Players: s.playersService, Store: cfg.Store, Games: cfg.Games, Logger: cfg.Logger, Clock: s.Service.Config().Clock}
	if s.cl != nil {
		sc.Peers = s.cl
	}
	s.social = social.New(sc)
	s.daily = daily.New(daily.Config{Tables: s.Service, Store: cfg.Store, Games: cfg.Games, Logger: cfg.Logger,
		NewBot: cfg.NewBot, BotTimeout: cfg.BotTimeout, Accounts: s.playersService})
	s.analyses = analyses.New(s.Service, cfg.Store, cfg.Games, s.log)
	if err := s.analyses.Register(s.metrics.reg); err != nil {
		s.Service.Close()
		s.cancel()
		return nil, fmt.Errorf("server: registering metrics: %w", err)
	}
	// The parts of this package read the table service's settings, with
	// the defaults it gave them.
	d := s.Service.Config()
	s.cfg.BotTimeout, s.cfg.MaxWait, s.cfg.IdleEvict, s.cfg.OpenExpiry = d.BotTimeout, d.MaxWait, d.IdleEvict, d.OpenExpiry
	s.cfg.Clock, s.cfg.WalkAway, s.cfg.Lexicon = d.Clock, d.WalkAway, d.Lexicon
	if s.cl != nil {
		s.cl.Start(s.Service, s.social)
	}
	return s, nil
}

// Close stops the cluster's work, then the table service's computer
// players and clocks, and waits for them; it leaves the store open for
// its owner to close.
func (s *Service) Close() {
	if s.cl != nil {
		s.cl.Close()
	}
	s.cancel()
	s.social.Close()
	s.Service.Close()
}

// socialObserver hands the table service's news of games to the player
// streams (social.Service), built after the tables.
type socialObserver struct{ s *Service }

func (o socialObserver) Started(n table.GameNote) { o.s.social.Started(n) }

func (o socialObserver) Finished(n table.GameNote, end *store.GameEnd) { o.s.social.Finished(n, end) }

// Auth returns who-asks, the part that resolves the tokens the service
// issues.
func (s *Service) Auth() *auth.Auth { return s.auth }
