// Package server is Parlour's composition root: one Config, New, Close
// and NewHandler. It builds the parts, each a package of its own (the live
// tables in server/table, who asks in server/auth, accounts and all that is
// a player's in server/players, who is online, challenges and the player
// stream in server/social, the daily puzzles in server/daily, the analyses
// in server/analyses, the cluster in server/cluster), hands each the seams
// it listens through (the table's Placement, Observers and read gate, the
// Peers of the other nodes), and serves them behind the HTTP API
// (server/httpapi), which mounts the WebSocket door (server/socket). It
// holds no domain of its own; docs/architecture.md draws the house.
package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"parlour/game"
	"parlour/internal/buildinfo"
	"parlour/lexicon"
	"parlour/server/analyses"
	"parlour/server/auth"
	"parlour/server/chat"
	"parlour/server/cluster"
	"parlour/server/daily"
	"parlour/server/httpapi"
	"parlour/server/limit"
	"parlour/server/mail"
	"parlour/server/moderation"
	"parlour/server/players"
	"parlour/server/relations"
	"parlour/server/seek"
	"parlour/server/social"
	"parlour/server/socket"
	"parlour/server/table"
	"parlour/server/tournament"
	"parlour/server/tournament/calendar"
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
	// HouseLexicons are the house word lists the operator adds
	// (table.Config.House).
	HouseLexicons []*lexicon.Lexicon
	// BaseURL prefixes invite links ("http://localhost:8080").
	BaseURL string
	Logger  *slog.Logger
	// BotTimeout, MaxWait, IdleEvict, ParkAfter, OpenExpiry, Clock,
	// WalkAway and RatedPerPair are the table service's (table.Config).
	BotTimeout time.Duration
	MaxWait    time.Duration
	IdleEvict  time.Duration
	ParkAfter  time.Duration
	OpenExpiry time.Duration
	// LeftMemory is the table service's (table.Config.LeftMemory).
	LeftMemory   func(bytes uint64)
	Clock        table.Clock
	WalkAway     time.Duration
	RatedPerPair int
	// Cluster, when set, makes the service one node of a cluster (see
	// server/cluster); the store must then implement store.Leases.
	Cluster *Cluster
	// Calendar, when set, is the events the server puts up by itself
	// (server/tournament/calendar; cmd/parlour passes the default
	// calendar unless told otherwise). Without it the server runs only
	// the events its players make.
	Calendar *calendar.Calendar
	// ChatFilter is the words chat refuses (nil: the list Parlour
	// ships; see server/chat).
	ChatFilter *chat.Filter
	// SMTP, when set, is where the players' e-mail goes (server/mail);
	// without it no mail is sent and the API says e-mail is not offered.
	SMTP *mail.SMTP
	// DailyAhead, when set, makes each day's daily puzzles in the
	// background, as the server starts and just after each UTC day
	// begins (daily.Service.Ahead), rather than at the day's first
	// attempt, which would wait seconds for them. cmd/parlour sets it;
	// tests leave it off, so that the strong computer does not make
	// puzzles on every server they start.
	DailyAhead bool
	// MailRetryDelay, when set, is the mail's first wait after a failed
	// delivery (mail.RetryDelay); tests shorten it.
	MailRetryDelay time.Duration
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

	// reg is the server's own Prometheus registry (never the package
	// level default one): every part registers its metrics on it, and
	// GET /metrics serves it.
	reg *prometheus.Registry

	// daily is the daily puzzles.
	daily *daily.Service

	// social is presence, challenges and the player streams.
	social *social.Service
	// seeks is quick pairing, in memory.
	seeks *seek.Service

	// rel is the follows and blocks (server/relations).
	rel *relations.Service

	// cl is this node of a cluster; nil for a single node.
	cl *cluster.Node

	// moderation is reports, moderators and the chat filter.
	moderation *moderation.Service
	// mail is the players' e-mail (server/mail), made after the tables,
	// whose computer players may already move: until it is set the
	// mailObserver hears nothing.
	mail atomic.Pointer[mail.Service]

	// tournaments are the events (server/tournament), made after the
	// tables: until it is set the tournamentObserver hears nothing, and
	// the games that ended meanwhile are scored when it loads its
	// events.
	tournaments atomic.Pointer[tournament.Service]
	// house puts up the calendar's events (nil without a calendar).
	house *houseEvents
	// sessions ends the accounts' sessions unused for long (nil for a
	// store without accounts); usesDone is closed once the auth's uses
	// are all written (auth.NoteUses).
	sessions *sessionSweep
	usesDone chan struct{}
	// dailyDone is closed once the daily puzzles made ahead
	// (Config.DailyAhead) have stopped; nil when none are.
	dailyDone chan struct{}
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
		reg: newRegistry(),
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
	if err := s.auth.Register(s.reg); err != nil {
		s.cancel()
		return nil, fmt.Errorf("server: registering metrics: %w", err)
	}
	// The goroutine holds its own copies: New's s is nil once it fails.
	a, actx, done := s.auth, s.ctx, make(chan struct{})
	s.usesDone = done
	go func() {
		defer close(done)
		a.NoteUses(actx)
	}()
	if clustered {
		// Made before the tables, whose Placement it is; Start hands it
		// the parts made after it.
		if s.cl, err = cluster.New(*cfg.Cluster, s.st, s.auth, s.log, s.reg); err != nil {
			s.cancel()
			return nil, err
		}
	}
	chatLimits := chat.NewLimits(chat.Rates{})
	tc := table.Config{
		Store: cfg.Store, Games: cfg.Games, NewBot: cfg.NewBot, Lexicon: cfg.Lexicon, House: cfg.HouseLexicons, BaseURL: cfg.BaseURL, Logger: cfg.Logger,
		BotTimeout: cfg.BotTimeout, MaxWait: cfg.MaxWait, IdleEvict: cfg.IdleEvict, ParkAfter: cfg.ParkAfter, OpenExpiry: cfg.OpenExpiry, LeftMemory: cfg.LeftMemory,
		Clock: cfg.Clock, WalkAway: cfg.WalkAway, RatedPerPair: cfg.RatedPerPair,
		// The daily puzzles are made once the tables are: the gate
		// asks them through s.daily, set by then.
		Shut: func(ctx context.Context, p *auth.Principal, r table.Reading) error {
			return s.daily.Shut(ctx, p, r)
		},
		DailyGoesOn: func(ctx context.Context, daily string) error {
			return s.daily.GoesOn(ctx, daily)
		},
		DailyOver: func(ctx context.Context, daily string) (bool, error) {
			return s.daily.Over(ctx, daily)
		},
		// A player's blocks keep who they block out of their tables'
		// chats, through s.rel, made once the players are.
		MayChat: func(ctx context.Context, writer string, seated []string) error {
			return s.rel.MayChat(ctx, writer, seated)
		},
		// Nor do the lines of a player one blocks reach them at any table.
		Hidden: func(ctx context.Context, reader string) (map[string]bool, error) {
			return s.rel.Hidden(ctx, reader)
		},
		// Nor does the lobby list them one another's open tables.
		Apart: func(ctx context.Context, reader string) (ids, names map[string]bool, err error) {
			return s.rel.ApartNames(ctx, reader)
		},
		// And they keep a rematch from seating two players one of whom
		// blocks the other.
		MayRematch: func(ctx context.Context, asker string, others []table.PairedSeat) error {
			return s.rel.MayRematch(ctx, asker, others)
		},
		// And a join from seating two such players at one table.
		MayJoin: func(ctx context.Context, joiner string, others []table.PairedSeat) error {
			return s.rel.MayJoin(ctx, joiner, others)
		},
		// The accounts keep anyone from sitting down beside a player a
		// moderator closed, through s.playersService, made once the
		// tables are.
		MayPlay: func(ctx context.Context, others []table.PairedSeat) error {
			return s.playersService.MayPlay(ctx, others)
		},
		// The player streams hear of games through s.social, made once
		// the tables and the players are.
		// The mail hears of turns and ends through s.mail, made once the
		// players and presence are.
		// The events hear of their games through s.tournaments, the
		// seeks through s.seeks.
		Observers: []table.Observer{socialObserver{s}, mailObserver{s}, tournamentObserver{s}, seekObserver{s}},
		// Moderation is made once the tables and the players are: the
		// chat asks it through s.moderation, set by then.
		ChatGate: func(ctx context.Context, identity, text string) error {
			return s.moderation.ChatGate(ctx, identity, text)
		},
		// One writer's chat is limited across the tables and the
		// events' rooms alike.
		ChatLimits: chatLimits,
		Auth:       s.auth, Registerer: s.reg,
		// The sockets write the updates the table encodes, in their
		// own message.
		Envelope: table.Envelope{Head: socket.UpdateHead, Tail: socket.UpdateTail},
		// The clocks and computer players of the tables restored wait
		// for the parts that hear of their games (Resume, below).
		Paused: true,
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
		// A deleted account leaves what waits for it on every node, as
		// a closed account does: its seeks leave the book (s.seeks is
		// made once the players are) and it leaves the events it is
		// in, else a Swiss would keep pairing it, and its place, under
		// a name now free for anybody, stay taken. (Its tables and
		// challenges are gone already: a seat refuses the deletion,
		// and the store withdraws the challenges.)
		// Its challenges are withdrawn with it, and the other players
		// told, as of a withdrawal.
		Deleting: func(ctx context.Context, identity string) func() {
			return s.social.Withdrawing(ctx, identity)
		},
		Deleted: func(ctx context.Context, identity string) {
			ctx = context.WithoutCancel(ctx)
			s.closedHere(ctx, identity, players.DeletedName)
			if s.cl != nil {
				s.cl.ClosedEverywhere(ctx, identity, players.DeletedName)
			}
		},
	}
	if s.cl != nil {
		pc.Peers = s.cl
	}
	if s.playersService, err = players.New(pc); err != nil {
		s.Close()
		return nil, err
	}
	if _, ok := cfg.Store.(store.Players); ok {
		s.sessions = startSessionSweep(s.ctx, s.auth, s.playersService, s.Service.Config().Clock, s.log)
	}
	s.rel = relations.New(relations.Config{Players: s.playersService, Store: cfg.Store, Logger: cfg.Logger, Now: s.Service.Now})
	sc := social.Config{Tables: s.Service, Players: s.playersService, Store: cfg.Store, Games: cfg.Games, Logger: cfg.Logger, Clock: s.Service.Config().Clock,
		Relations: s.rel,
		Challenged: func(to, from string, ch social.Challenge) {
			if m := s.mail.Load(); m != nil {
				m.Challenged(to, from, ch)
			}
		}}
	if s.cl != nil {
		sc.Peers = s.cl
	}
	s.social = social.New(sc)
	kc := seek.Config{Tables: s.Service, Streams: s.social, Players: seek.StorePlayers{Store: cfg.Store},
		Games: cfg.Games, Clock: s.Service.Config().Clock, Logger: cfg.Logger,
		// A seek never pairs two players one of whom blocks the other.
		Blocked: func(a, b string) bool { return s.rel.Blocked(s.ctx, a, b) },
		// Nor does it list to a player the seeks of one they keep apart
		// from: they could not take them.
		Apart: s.rel.Apart}
	// The seeks waiting when the server stops wait for the next start
	// in the store; a cluster's go to another node, and to the store
	// only when none takes them.
	kc.Held, _ = cfg.Store.(store.HeldSeeks)
	if s.cl != nil {
		// One node keeps the cluster's seeks (the cluster carries the
		// requests about seeks to it); the others tell it what it needs.
		kc.Peers = s.cl
	}
	s.seeks = seek.New(kc)
	if s.cl == nil {
		s.takeSeeksBack(s.ctx)
	}
	m, err := mail.New(mail.Config{SMTP: cfg.SMTP, Store: cfg.Store, Players: s.playersService, Games: cfg.Games,
		BaseURL: s.Service.BaseURL, Online: s.social.IsOnline, Now: s.Service.Now, Logger: cfg.Logger, Registerer: s.reg,
		RetryDelay: cfg.MailRetryDelay})
	if err != nil {
		s.Close()
		return nil, err
	}
	s.mail.Store(m)
	s.daily = daily.New(daily.Config{Tables: s.Service, Store: cfg.Store, Games: cfg.Games, Logger: cfg.Logger,
		NewBot: cfg.NewBot, BotTimeout: cfg.BotTimeout, Accounts: s.playersService})
	if cfg.DailyAhead {
		d, dctx, done := s.daily, s.ctx, make(chan struct{})
		s.dailyDone = done
		go func() {
			defer close(done)
			d.Ahead(dctx)
		}()
	}
	if s.moderation, err = moderation.New(moderation.Config{Store: cfg.Store, Tables: s.Service, Players: s.playersService,
		Filter: cfg.ChatFilter, Logger: cfg.Logger, Closed: s.accountClosed, Renamed: s.accountRenamed,
		Refunded: func(identity string, r store.Refund) {
			s.social.Tell(identity, social.StreamEvent{Type: "refund", Refund: &social.RefundNews{Pool: r.Pool, Points: math.Round(r.Points*10) / 10, Games: r.Games}})
		}}); err != nil {
		s.Close()
		return nil, err
	}
	s.analyses = analyses.New(s.Service, cfg.Store, cfg.Games, s.log)
	if err := s.analyses.Register(s.reg); err != nil {
		s.Close()
		return nil, fmt.Errorf("server: registering metrics: %w", err)
	}
	// The parts of this package read the table service's settings, with
	// the defaults it gave them.
	d := s.Service.Config()
	s.cfg.BotTimeout, s.cfg.MaxWait, s.cfg.IdleEvict, s.cfg.ParkAfter, s.cfg.OpenExpiry = d.BotTimeout, d.MaxWait, d.IdleEvict, d.ParkAfter, d.OpenExpiry
	s.cfg.Clock, s.cfg.WalkAway, s.cfg.Lexicon = d.Clock, d.WalkAway, d.Lexicon
	if _, ok := cfg.Store.(store.Tournaments); ok {
		// The events' chat rooms keep the tables' rules: the filter,
		// the moderators' gate, one count of the lines the limits
		// refused.
		rooms := chat.NewRooms(chat.RoomsConfig{Store: cfg.Store, Filter: cfg.ChatFilter, Logger: cfg.Logger,
			Gate: func(ctx context.Context, identity, text string) error {
				return s.moderation.ChatGate(ctx, identity, text)
			},
			Limits: chatLimits, Limited: s.Service.RateLimited, Now: s.Service.Now})
		tcfg := tournament.Config{Store: cfg.Store, Tables: s.Service, Games: cfg.Games,
			Streams: s.social, Online: s.social.IsOnlineAnywhere, Logger: cfg.Logger, Rooms: rooms,
			Seated: s.playersService.Seated, Moderator: s.moderation.IsModerator,
			Apart: func(ctx context.Context, identity string) (map[string]bool, error) { return s.rel.Apart(ctx, identity) }}
		if s.cl != nil {
			// Each event runs on the one node that holds its lease; the
			// others take it up when that node dies.
			ev := s.cl.Events()
			tcfg.Lease, tcfg.Claim, tcfg.Peers = ev, ev.Every(), s.cl
		}
		ts, err := tournament.New(ctx, tcfg)
		if err != nil {
			s.Close()
			return nil, err
		}
		s.tournaments.Store(ts)
		if s.cl != nil {
			s.cl.EventGames(ts.GameOver)
		}
		if cfg.Calendar != nil {
			s.house = startHouseEvents(s.ctx, ts, cfg.Calendar, s.Service.Config().Clock, s.log)
		}
	}
	if s.cl != nil {
		// The other nodes tell this one of the accounts closed there.
		s.cl.ClosedHere(s.closedHere)
		s.cl.RenamedHere(s.renamedHere)
		s.cl.SeeksHere(cluster.SeekBook{
			Waiting: func(identity string) json.RawMessage {
				b, _ := json.Marshal(s.seeks.WaitingHere(identity))
				return b
			},
			Started: s.seeks.StartedHere,
			Lost:    s.seeks.Clear,
			Hand: func() []json.RawMessage {
				var out []json.RawMessage
				for _, h := range s.seeks.Hand() {
					if b, err := json.Marshal(h); err == nil {
						out = append(out, b)
					}
				}
				return out
			},
			Take: func(b json.RawMessage) {
				var hs []seek.Handed
				if err := json.Unmarshal(b, &hs); err != nil {
					s.log.Warn("the seeks another node handed on", "err", err)
					return
				}
				s.seeks.Take(hs)
			},
			Keep: func(raw []json.RawMessage) {
				hs := make([]seek.Handed, 0, len(raw))
				for _, b := range raw {
					var h seek.Handed
					if err := json.Unmarshal(b, &h); err == nil {
						hs = append(hs, h)
					}
				}
				ctx, cancel := context.WithTimeout(context.Background(), holdWait)
				defer cancel()
				s.logHeld(s.seeks.Keep(ctx, hs))
			},
			TakeBack: s.takeSeeksBack,
		})
		s.cl.Start(s.Service, s.social)
	}
	s.Service.Resume()
	return s, nil
}

// A node of a cluster holds events' leases as the cluster's Events, and
// reaches the node that runs an event through the cluster.
var (
	_ tournament.Lease = (*cluster.Events)(nil)
	_ tournament.Peers = (*cluster.Node)(nil)
	_ seek.Peers       = (*cluster.Node)(nil)
)

// Tournaments returns the events' service, nil when the server runs
// none (a store without events).
func (s *Service) Tournaments() *tournament.Service { return s.tournaments.Load() }

// Close stops the cluster's work, then the table service's computer
// players and clocks, and waits for them; it leaves the store open for
// its owner to close. It closes what New built, so that New can call it
// when a later part cannot be made.
func (s *Service) Close() {
	if s.cl != nil {
		s.cl.Close()
	} else if s.seeks != nil {
		s.holdSeeks()
	}
	s.cancel()
	if s.usesDone != nil {
		<-s.usesDone
	}
	if s.dailyDone != nil {
		<-s.dailyDone
	}
	if s.house != nil {
		s.house.stop()
	}
	if s.sessions != nil {
		s.sessions.stop()
	}
	if ts := s.tournaments.Load(); ts != nil {
		ts.Close()
	}
	if s.seeks != nil {
		s.seeks.Close()
	}
	if s.social != nil {
		s.social.Close()
	}
	if s.Service != nil {
		s.Service.Close()
	}
	if m := s.mail.Load(); m != nil {
		m.Close()
	}
}

// holdSeeks keeps the seeks waiting in the store as the server stops,
// for the next start to take back.
func (s *Service) holdSeeks() {
	ctx, cancel := context.WithTimeout(context.Background(), holdWait)
	defer cancel()
	s.logHeld(s.seeks.Hold(ctx))
}

func (s *Service) logHeld(n int, err error) {
	switch {
	case err != nil:
		s.log.Warn("the seeks waiting are lost", "err", err)
	case n > 0:
		s.log.Info("the seek book is kept for the next start", "seeks", n)
	}
}

// takeSeeksBack adds to the book the seeks kept as the server, or the
// cluster, last stopped.
func (s *Service) takeSeeksBack(ctx context.Context) {
	switch n, err := s.seeks.TakeBack(ctx); {
	case err != nil:
		s.log.Warn("the seeks waiting when the server stopped are lost", "err", err)
	case n > 0:
		s.log.Info("the seeks waiting when the server stopped wait again", "seeks", n)
	}
}

// holdWait bounds the write of the seeks waiting as the server stops.
const holdWait = 5 * time.Second

// socialObserver hands the table service's news of games and rematches
// to the player streams (social.Service), built after the tables.
type socialObserver struct{ s *Service }

func (o socialObserver) Started(n table.GameNote) { o.s.social.Started(n) }

func (o socialObserver) Finished(n table.GameNote, end *store.GameEnd) { o.s.social.Finished(n, end) }

func (o socialObserver) Rematched(n table.RematchNote) { o.s.social.Rematched(n) }

// mailObserver hands the table service's news of turns and ends to the
// players' e-mail (mail.Service), built after the tables.
type mailObserver struct{ s *Service }

func (o mailObserver) Started(n table.GameNote) {
	if m := o.s.mail.Load(); m != nil {
		m.Started(n)
	}
}

func (o mailObserver) Finished(n table.GameNote, end *store.GameEnd) {
	if m := o.s.mail.Load(); m != nil {
		m.Finished(n, end)
	}
}

func (o mailObserver) HearsTurns() bool {
	m := o.s.mail.Load()
	return m != nil && m.HearsTurns()
}

func (o mailObserver) Turn(n table.GameNote, seats []int) {
	if m := o.s.mail.Load(); m != nil {
		m.Turn(n, seats)
	}
}

// seekObserver hands the table service's news of games begun to the
// seeks (seek.Service.Started), made after the tables.
type seekObserver struct{ s *Service }

func (o seekObserver) Started(n table.GameNote) {
	if o.s.seeks != nil {
		o.s.seeks.Started(n)
	}
}

func (seekObserver) Finished(table.GameNote, *store.GameEnd) {}

// tournamentObserver hands the table service's news of games to the
// events (tournament.Service), built after the tables.
type tournamentObserver struct{ s *Service }

func (o tournamentObserver) Started(n table.GameNote) {
	if ts := o.s.tournaments.Load(); ts != nil {
		ts.Started(n)
	}
}

func (o tournamentObserver) Finished(n table.GameNote, end *store.GameEnd) {
	if ts := o.s.tournaments.Load(); ts != nil {
		ts.Finished(n, end)
	}
}

func (o tournamentObserver) Deserted(n table.GameNote, seat int) {
	if ts := o.s.tournaments.Load(); ts != nil {
		ts.Deserted(n, seat)
	}
}

// Auth returns who-asks, the part that resolves the tokens the service
// issues.
func (s *Service) Auth() *auth.Auth { return s.auth }

// newRegistry makes a server's registry, holding the Go runtime's and the
// process's collectors, the build a node runs (so that a dashboard shows
// which nodes a deploy has reached) and the two gauges the load tool reads.
func newRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	build := buildinfo.Read()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name:        "parlour_build_info",
			Help:        "Always 1; its labels name the build this node runs.",
			ConstLabels: prometheus.Labels{"version": build.Version, "revision": build.Short(), "goversion": build.Go},
		}, func() float64 { return 1 }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "parlour_heap_bytes", Help: "Bytes of allocated heap objects."}, func() float64 {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			return float64(ms.HeapAlloc)
		}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "parlour_goroutines", Help: "Goroutines."}, func() float64 { return float64(runtime.NumGoroutine()) }))
	return reg
}

// Handler is the server's HTTP handler: the API, the event streams and
// the WebSocket (server/httpapi).
type Handler = httpapi.Handler

// NewHandler returns the HTTP handler of s with limits lim, behind the
// cluster's forwarding on a node of a cluster.
func NewHandler(s *Service, lim limit.Limits) *Handler {
	return newHandler(s, lim, nil)
}

// newHandler is NewHandler, with tune, if set, changing the door's
// config before it is built (tests shorten its waits).
func newHandler(s *Service, lim limit.Limits, tune func(*httpapi.Config)) *Handler {
	cfg := httpapi.Config{
		Tables: s.Service, Players: s.playersService, Social: s.social, Daily: s.daily, Analyses: s.analyses, Seeks: s.seeks, Moderation: s.moderation, Mail: s.mail.Load(),
		Auth: s.auth, Games: s.games, Store: s.st, Metrics: s.reg, Limits: lim, Logger: s.log, Closing: s.ctx,
		Relations: s.rel, Tournaments: s.tournaments.Load(),
	}
	if s.cl != nil {
		cfg.Forward, cfg.Remote, cfg.Ping = s.cl.Forward, s.cl, s.cl.Ping
	}
	if tune != nil {
		tune(&cfg)
	}
	h, err := httpapi.New(cfg)
	if err != nil {
		// Only two collectors of one name, a mistake in the code, fail.
		panic(err)
	}
	if s.cl != nil {
		s.cl.Serve(h)
	}
	return h
}

// accountClosed takes identity, whose account a moderator closed (it was
// called name), out of every game still waiting to begin: on every node,
// its seeks leave the book, its seats at tables not begun are given up (a
// table left empty leaves the lobby, saying why) and it is withdrawn from
// its events (closedHere); and its challenges are withdrawn. Nobody is
// then paired, seated or challenged to a game with a player who can no
// longer sign in to move. It goes on when the moderator's request ends.
func (s *Service) accountClosed(ctx context.Context, identity, name string) {
	ctx = context.WithoutCancel(ctx)
	s.closedHere(ctx, identity, name)
	if err := s.social.CancelAll(ctx, identity); err != nil {
		s.log.Warn("withdrawing a closed account's challenges", "identity", identity, "err", err)
	}
	if s.cl != nil {
		s.cl.ClosedEverywhere(ctx, identity, name)
	}
}

// accountRenamed gives identity, whose account a moderator renamed, the
// name name in what every node holds (renamedHere). It goes on when the
// moderator's request ends.
func (s *Service) accountRenamed(ctx context.Context, identity, name string) {
	ctx = context.WithoutCancel(ctx)
	s.renamedHere(ctx, identity, name)
	if s.cl != nil {
		s.cl.RenamedEverywhere(ctx, identity, name)
	}
}

// renamedHere gives identity the name name in what this node holds, as
// the store already has it: a renamed or deleted account is seated,
// listed and scored under the name it has now in the events this node
// runs, and its chat lines and finished games in memory go by it too.
func (s *Service) renamedHere(ctx context.Context, identity, name string) {
	if ts := s.tournaments.Load(); ts != nil {
		ts.Renamed(identity, name)
	}
	s.seeks.Renamed(identity, name)
	s.Service.Renamed(identity, name, name != players.DeletedName)
}

// closedHere is accountClosed's part on one node: what this node holds
// of the games waiting for identity. An account its owner deleted comes
// here too, called players.DeletedName, on every node.
func (s *Service) closedHere(ctx context.Context, identity, name string) {
	s.seeks.Drop(identity)
	why := name + "'s account was closed by a moderator"
	if name == players.DeletedName {
		why = "a player deleted their account"
		s.renamedHere(ctx, identity, name)
	}
	if err := s.Service.Vacate(ctx, identity, why); err != nil {
		s.log.Warn("giving up a closed account's seats", "identity", identity, "err", err)
	}
	if ts := s.tournaments.Load(); ts != nil {
		if err := ts.Withdraw(ctx, identity); err != nil {
			s.log.Warn("withdrawing a closed account from its events", "identity", identity, "err", err)
		}
	}
}
