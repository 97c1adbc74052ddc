// Package daily is one puzzle a day per game, played as one-seat tables:
// the day's puzzle (made once by the strong computer and kept by the
// store, so that every player and every node gets the same), one attempt
// a player a day, its result tallied by the game (game.Tallier), the
// day's leaderboard, a player's streaks, and the read gate that keeps an
// attempt shut to everyone but its player until the day is over.
package daily

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"parlour/game"
	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/server/table"
	"parlour/store"
)

// dayLayout writes a daily puzzle's day, a UTC date.
const dayLayout = table.DayLayout

// Accounts is what the daily puzzles need of accounts: a player's, by
// name (players.Service has it).
type Accounts interface {
	AccountNamed(ctx context.Context, name string) (store.Account, store.Players, error)
}

// Config is what a Service is built from; all but Accounts and NewBot are
// required.
type Config struct {
	Tables *table.Service
	Store  store.Store
	Games  *game.Registry
	Logger *slog.Logger
	// NewBot makes the strong computer that sets each day's puzzle;
	// without it the puzzle is a random setup.
	NewBot table.BotMaker
	// BotTimeout bounds the making of a puzzle (at least 30 seconds).
	BotTimeout time.Duration
	// Accounts finds players by name, for their daily records; without
	// it nobody has one.
	Accounts Accounts
}

// Service is the daily puzzles.
type Service struct {
	cfg    Config
	tables *table.Service
	st     store.Store
	games  *game.Registry
	log    *slog.Logger
	// mu guards puzzles, making and starting. It is never held while
	// the store or the strong computer works: the first start of a day
	// waits seconds for its puzzle, and every other player's start, of
	// either game, would wait behind it.
	mu sync.Mutex
	// puzzles are the puzzles stored, by game and day ("quizl/2026-11-24"):
	// a day's puzzle never changes once stored, and making one takes the
	// strong computer a second or two, which each start of an attempt
	// would otherwise wait for.
	puzzles map[string]store.DailyPuzzle
	// making holds the puzzles being made, by the same keys: the starts
	// that come meanwhile wait for the one making rather than make more.
	making map[string]*making
	// starting holds, by game and identity, a channel closed when that
	// player's start ends: a second start of the same attempt (a double
	// press) waits for the first and then finds the attempt it made,
	// rather than making a second table.
	starting map[string]chan struct{}
}

// making is a puzzle being made; pz and err are set before done closes.
type making struct {
	done chan struct{}
	pz   store.DailyPuzzle
	err  error
}

// New returns the daily puzzles of cfg.
func New(cfg Config) *Service {
	return &Service{cfg: cfg, tables: cfg.Tables, st: cfg.Store, games: cfg.Games, log: cfg.Logger}
}

func (s *Service) now() time.Time { return s.tables.Now() }

func (s *Service) readFailed(what string, err error) error {
	return refuse.ReadFailed(s.log, what, err)
}

func (s *Service) reading(what string, err *error) { refuse.Reading(s.log, what, err) }

// dailyBoardSize is the most entries a day's leaderboard lists, and
// dailyHistory the most days of a player's daily history.
const (
	dailyBoardSize = 100
	dailyHistory   = 366
)

// tallier returns the game called name and its Tallier when it has a
// daily puzzle: a game has one when it tallies one (game.Tallier).
func (s *Service) tallier(name string) (game.Game, game.Tallier, bool) {
	g, err := s.games.Lookup(name)
	if err != nil {
		return nil, nil, false
	}
	tl, ok := g.(game.Tallier)
	return g, tl, ok
}

// dailyGames lists the names of the games with a daily puzzle, in the
// registry's order.
func (s *Service) dailyGames() []string {
	var out []string
	for _, name := range s.games.Names() {
		if _, _, ok := s.tallier(name); ok {
			out = append(out, name)
		}
	}
	return out
}

// Result is one player's attempt at a daily puzzle: its table and,
// once the game is over, how it went. Nothing in it gives the puzzle
// away.
type Result struct {
	Game string `json:"game"`
	Day  string `json:"day"`
	Name string `json:"name"`
	// Ranked is set for players with accounts; guests play unranked.
	Ranked bool `json:"ranked"`
	// Table is the attempt's table: left out of a leaderboard and a
	// player's history until the day is over, so that nobody's game
	// spoils the puzzle; Marks and Share too.
	Table    string `json:"table,omitempty"`
	Finished bool   `json:"finished"`
	// Solved, Moves, Wrong and Marks are the game's tally (game.Tally).
	// Solved: the hidden thing found (Quizl's password announced,
	// Salvo's fleet rightly outlined).
	Solved bool `json:"solved"`
	// Moves counts the moves at the board (Quizl's calls, Salvo's
	// salvos); Wrong the wrong guesses (announcements, outlines).
	Moves   int     `json:"moves"`
	Wrong   int     `json:"wrong"`
	Seconds float64 `json:"seconds"`
	// Marks pictures the squares used, rows separated by "/": "#" used,
	// "." not. It points at the answer: the share text leaves it out.
	Marks string `json:"marks,omitempty"`
	// Share is the result as a text to share: the moves' outcomes in
	// order, with no letter, ship or square.
	Share string `json:"share,omitempty"`
	// Rank is the place on the day's leaderboard (1 is best), 0 off it.
	Rank int `json:"rank,omitempty"`
}

// Today answers GET /api/v1/daily/{game}: today's puzzle and the asker's
// attempt at it.
type Today struct {
	Game  string `json:"game"`
	Title string `json:"title"`
	// Day is today, by the server's clock; Next when the next day starts.
	Day  string    `json:"day"`
	Next time.Time `json:"next"`
	// Yesterday is the previous day, whose games may now be replayed.
	Yesterday string `json:"yesterday"`
	// Attempt is the asker's attempt at today's puzzle, or null.
	Attempt *Result `json:"attempt"`
	// Streak counts the days in a row, up to today or yesterday, the
	// asker solved the puzzle.
	Streak int `json:"streak"`
}

// Refusal is the answer to a second attempt at a day's puzzle: the
// refusal and the first attempt.
type Refusal struct {
	Err     string `json:"error"`
	Attempt Result `json:"attempt"`
}

func (e *Refusal) Error() string { return e.Err }

// Board is a day's leaderboard of one game's puzzle.
type Board struct {
	Game string `json:"game"`
	Day  string `json:"day"`
	// Over is set once the day has ended: the entries then name their
	// tables, to be replayed and analysed.
	Over    bool     `json:"over"`
	Entries []Result `json:"entries"`
}

// Record is a player's daily puzzles of one game: the streak and the
// attempts, the latest first.
type Record struct {
	Streak  int      `json:"streak"`
	Best    int      `json:"best"`
	Played  int      `json:"played"`
	Solved  int      `json:"solved"`
	History []Result `json:"history"`
}

func (s *Service) dailies() (store.Dailies, error) {
	ds, ok := s.st.(store.Dailies)
	if !ok {
		return nil, refuse.With(http.StatusNotImplemented, "this server keeps no daily puzzles")
	}
	return ds, nil
}

// dailyGame returns the title of the game called name, which may be
// written in any case, when it has a daily puzzle; else the refusal names
// the games that have one.
func (s *Service) dailyGame(name string) (string, error) {
	name = strings.ToLower(strings.TrimSpace(name))
	g, _, ok := s.tallier(name)
	if !ok {
		var have []string
		for _, d := range s.dailyGames() {
			have = append(have, "daily "+d)
		}
		if len(have) == 0 {
			return "", refuse.NotFound("there is no daily puzzle of %q: this server has none", refuse.Clip(name))
		}
		verb := "are"
		if len(have) == 1 {
			verb = "is"
		}
		return "", refuse.NotFound("there is no daily puzzle of %q: there %s %s", refuse.Clip(name), verb, game.List(have))
	}
	return g.Title(), nil
}

// today returns the day of game's puzzle now: the day in UTC of the
// store's clock when the store keeps one (a store shared by the nodes of
// a cluster: one clock decides for all of them), else of the service's,
// but never a day before the latest puzzle already made, so that a clock
// set back neither reopens a past day nor makes a second puzzle of one.
func (s *Service) today(ctx context.Context, ds store.Dailies, name string) (string, error) {
	now := s.now()
	if c, ok := s.st.(store.Clock); ok {
		var err error
		if now, err = c.Now(ctx); err != nil {
			return "", s.readFailed("the day's puzzle", err)
		}
	}
	day := now.UTC().Format(dayLayout)
	latest, err := ds.LatestDailyDay(ctx, name)
	if err != nil {
		return "", err
	}
	return max(day, latest), nil
}

// puzzleSeed draws the seed a day's puzzle is made from. It is random,
// not a function of the day: anyone can compute a function of the day,
// and with the public packages print any future day's grid or fleet. The
// store keeps the first puzzle made of a day (PutDailyPuzzle), so every
// node and every player still gets the same one.
func puzzleSeed() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

// tableSeed is the seed of every attempt at puzzle pz: the same for all
// of them, so that each player meets the same game, and as secret as the
// puzzle, since it is drawn from its hidden setup.
func tableSeed(pz store.DailyPuzzle) uint64 {
	h := sha256.New()
	h.Write([]byte("parlour daily table " + pz.Game + " " + pz.Day + " "))
	h.Write(pz.Setup)
	return binary.LittleEndian.Uint64(h.Sum(nil))
}

// puzzle returns game's puzzle of day, making it the first time: the
// strong computer's setup from the day's seed. The store keeps the first
// one made, so every player gets the same; this node keeps it too, and
// makes it no more. Starts that ask while it is made wait for it, each
// no longer than its own ctx: the making goes on without the asker that
// began it, since the others wait for it too.
func (s *Service) puzzle(ctx context.Context, ds store.Dailies, name, day string) (store.DailyPuzzle, error) {
	pz, m, mine := s.claim(name, day)
	if m == nil {
		return pz, nil
	}
	if mine {
		go s.makeShared(context.WithoutCancel(ctx), ds, name, day, m)
	}
	select {
	case <-m.done:
		return m.pz, m.err
	case <-ctx.Done():
		return store.DailyPuzzle{}, fmt.Errorf("waiting for the daily %s of %s: %w", name, day, ctx.Err())
	}
}

// claim returns game's puzzle of day when this node keeps it; else the
// making of it under way, mine when there was none and the caller is to
// make it (makeShared), which every other asker waits for.
func (s *Service) claim(name, day string) (pz store.DailyPuzzle, m *making, mine bool) {
	key := name + "/" + day
	s.mu.Lock()
	defer s.mu.Unlock()
	if pz, ok := s.puzzles[key]; ok {
		return pz, nil, false
	}
	if m := s.making[key]; m != nil {
		return store.DailyPuzzle{}, m, false
	}
	m = &making{done: make(chan struct{})}
	if s.making == nil {
		s.making = make(map[string]*making)
	}
	s.making[key] = m
	return store.DailyPuzzle{}, m, true
}

// makeShared makes the puzzle m stands for, keeps it, and tells those waiting.
// A puzzle not made is not kept: the next start tries again.
func (s *Service) makeShared(ctx context.Context, ds store.Dailies, name, day string, m *making) {
	// Bounded twice the computer's time: the store's write after it
	// must not hold the waiting starts for ever.
	ctx, cancel := context.WithTimeout(ctx, 2*s.botTimeout())
	defer cancel()
	pz, err := s.makePuzzle(ctx, ds, name, day)
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.making, name+"/"+day)
	m.pz, m.err = pz, err
	close(m.done)
	if err != nil {
		return
	}
	if s.puzzles == nil {
		s.puzzles = make(map[string]store.DailyPuzzle)
	}
	for k, p := range s.puzzles {
		if p.Day < day {
			delete(s.puzzles, k) // a day gone: no attempt starts at it again
		}
	}
	s.puzzles[name+"/"+day] = pz
}

// botTimeout bounds the strong computer's making of a puzzle.
func (s *Service) botTimeout() time.Duration { return max(s.cfg.BotTimeout, 30*time.Second) }

// turn waits until no other start of key (a game and an identity) is
// under way, or ctx ends, and marks one under way; release ends it.
func (s *Service) turn(ctx context.Context, key string) (release func(), err error) {
	for {
		s.mu.Lock()
		busy, ok := s.starting[key]
		if !ok {
			done := make(chan struct{})
			if s.starting == nil {
				s.starting = make(map[string]chan struct{})
			}
			s.starting[key] = done
			s.mu.Unlock()
			return func() {
				s.mu.Lock()
				delete(s.starting, key)
				s.mu.Unlock()
				close(done)
			}, nil
		}
		s.mu.Unlock()
		select {
		case <-busy:
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for your other start of the daily puzzle: %w", ctx.Err())
		}
	}
}

// makePuzzle makes game's puzzle of day and stores it, unless one is
// stored already; it answers the one stored.
func (s *Service) makePuzzle(ctx context.Context, ds store.Dailies, name, day string) (store.DailyPuzzle, error) {
	// A puzzle the store keeps already (made before a restart, or by
	// another node) is read: the strong computer's seconds would make one
	// the store would not keep.
	if pz, err := ds.DailyPuzzle(ctx, name, day); err == nil {
		return pz, nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return store.DailyPuzzle{}, fmt.Errorf("reading the daily %s of %s: %w", name, day, err)
	}
	g, err := s.games.Lookup(name)
	if err != nil {
		return store.DailyPuzzle{}, err
	}
	lex, err := s.tables.Lexicon("")
	if err != nil {
		return store.DailyPuzzle{}, err
	}
	seed := puzzleSeed()
	// The day's seed goes to the computer alone: the Quizl grid maker
	// mixes the bot's seed with the table's, and one seed in both would
	// cancel out to the same grid every day.
	cfg := game.Config{Players: []string{"daily"}, Rules: game.Defaults(g.Options()), Lexicon: lex}
	var raw json.RawMessage
	if s.cfg.NewBot != nil {
		bot, err := s.cfg.NewBot(name, game.Strong, seed, lex)
		if err == nil {
			bctx, cancel := context.WithTimeout(ctx, s.botTimeout())
			raw, err = bot.Setup(bctx, cfg, 0)
			cancel()
		}
		if err != nil && ctx.Err() != nil {
			return store.DailyPuzzle{}, fmt.Errorf("making the daily %s of %s: %w", name, day, ctx.Err())
		}
		if err != nil {
			s.log.Warn("daily puzzle: the strong computer made none, so a random one", "game", name, "day", day, "err", err)
			raw = nil
		}
	}
	if raw == nil {
		if raw, err = g.AutoSetup(cfg, 0, seed); err != nil {
			return store.DailyPuzzle{}, fmt.Errorf("making the daily %s of %s: %w", name, day, err)
		}
	}
	if raw, err = g.CheckSetup(cfg, 0, raw); err != nil {
		return store.DailyPuzzle{}, fmt.Errorf("making the daily %s of %s: %w", name, day, err)
	}
	return ds.PutDailyPuzzle(ctx, store.DailyPuzzle{Game: name, Day: day, Setup: raw, Created: s.now().UTC()})
}

// aheadMargin is how long after a UTC day begins Ahead makes its
// puzzles: a node whose clock runs a little ahead of the store's (which
// decides the day in a cluster, see today) would otherwise find the day
// not begun yet. aheadRetry is the wait before trying again after a
// failure.
const (
	aheadMargin = 5 * time.Second
	aheadRetry  = time.Minute
)

// Ahead makes today's puzzle of every game that has one, at once and
// again just after each UTC day begins, until ctx ends: a puzzle made
// at the day's first start keeps that player waiting seconds for the
// strong computer. It makes no puzzle before its day: the store would
// then call that day the latest (LatestDailyDay), and today would begin
// it early. A start that comes while Ahead makes a puzzle waits for the
// same making (claim). Every node of a cluster may run it: the store
// keeps the first puzzle made of a day (PutDailyPuzzle), and the other
// nodes get that one. It returns at once on a store without daily
// puzzles, or a server without a game that has one.
func (s *Service) Ahead(ctx context.Context) {
	ds, err := s.dailies()
	if err != nil || len(s.dailyGames()) == 0 {
		return
	}
	clock := s.tables.Config().Clock
	for {
		wait := aheadRetry
		day, err := s.makeToday(ctx, ds)
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			s.log.Warn("daily puzzles: making today's ahead", "err", err)
		default:
			wait = untilNext(s.now(), day)
		}
		wake := make(chan struct{})
		t := clock.AfterFunc(wait, func() { close(wake) })
		select {
		case <-wake:
		case <-ctx.Done():
			t.Stop()
			return
		}
	}
}

// untilNext returns how long from now Ahead waits to make the puzzles
// of the day after day: aheadMargin past its beginning, or from now once
// that is past (the store's clock, which said day, runs behind now).
func untilNext(now time.Time, day string) time.Duration {
	d, _ := time.Parse(dayLayout, day)
	return max(d.AddDate(0, 0, 1).Sub(now), 0) + aheadMargin
}

// makeToday makes today's puzzle of each game with one, unless this node
// keeps it already, and returns the day (the earliest, should a clock
// set back leave one game's latest puzzle ahead); the making stops with
// ctx. A game whose puzzle fails does not keep the others from being
// made.
func (s *Service) makeToday(ctx context.Context, ds store.Dailies) (string, error) {
	var today string
	var errs []error
	for _, name := range s.dailyGames() {
		day, err := s.today(ctx, ds, name)
		if err != nil {
			errs = append(errs, fmt.Errorf("the day of the daily %s: %w", name, err))
			continue
		}
		if today == "" || day < today {
			today = day
		}
		_, m, mine := s.claim(name, day)
		switch {
		case m == nil:
			continue
		case mine:
			s.makeShared(ctx, ds, name, day, m)
		default:
			select {
			case <-m.done:
			case <-ctx.Done():
				return "", ctx.Err()
			}
		}
		if m.err != nil {
			errs = append(errs, m.err)
			continue
		}
		s.log.Info("daily puzzle ready", "game", name, "day", day)
	}
	return today, errors.Join(errs...)
}

// Today returns today's puzzle of game with p's attempt at it, if
// any (p may be nil).
func (s *Service) Today(ctx context.Context, p *auth.Principal, name string) (_ Today, err error) {
	defer s.reading("the daily puzzle", &err)
	title, err := s.dailyGame(name)
	if err != nil {
		return Today{}, err
	}
	name = strings.ToLower(strings.TrimSpace(name))
	ds, err := s.dailies()
	if err != nil {
		return Today{}, err
	}
	day, err := s.today(ctx, ds, name)
	if err != nil {
		return Today{}, err
	}
	d, _ := time.Parse(dayLayout, day)
	out := Today{Game: name, Title: title, Day: day, Next: d.AddDate(0, 0, 1), Yesterday: d.AddDate(0, 0, -1).Format(dayLayout)}
	if p == nil {
		return out, nil
	}
	a, err := ds.DailyAttempt(ctx, name, day, p.Identity)
	switch {
	case err == nil:
		if a, err = s.settleDaily(ctx, ds, a); err != nil {
			return Today{}, err
		}
		r := s.dailyResult(a, true)
		out.Attempt = &r
	case !errors.Is(err, store.ErrNotFound):
		return Today{}, err
	}
	hist, err := s.dailyHistory(ctx, ds, p.Identity, name)
	if err != nil {
		return Today{}, err
	}
	out.Streak, _ = streaks(hist, day)
	return out, nil
}

// Start starts p's one attempt at today's puzzle of game: a
// one-seat table against the day's hidden setup. A second attempt is
// refused with a *Refusal that carries the first.
func (s *Service) Start(ctx context.Context, p *auth.Principal, name string) (table.Seated, error) {
	if _, err := s.dailyGame(name); err != nil {
		return table.Seated{}, err
	}
	name = strings.ToLower(strings.TrimSpace(name))
	if p == nil {
		return table.Seated{}, refuse.Unauthorized("the daily puzzle is played under an identity: get one first (POST /api/v1/identity) or sign in")
	}
	ds, err := s.dailies()
	if err != nil {
		return table.Seated{}, err
	}
	release, err := s.turn(ctx, name+"/"+p.Identity)
	if err != nil {
		return table.Seated{}, err
	}
	defer release()
	day, err := s.today(ctx, ds, name)
	if err != nil {
		return table.Seated{}, err
	}
	if a, err := ds.DailyAttempt(ctx, name, day, p.Identity); err == nil {
		if a, err = s.settleDaily(ctx, ds, a); err != nil {
			return table.Seated{}, err
		}
		return table.Seated{}, &Refusal{Err: fmt.Sprintf("you have already played the daily %s of %s: one attempt a day", name, day), Attempt: s.dailyResult(a, true)}
	} else if !errors.Is(err, store.ErrNotFound) {
		return table.Seated{}, err
	}
	pz, err := s.puzzle(ctx, ds, name, day)
	if err != nil {
		return table.Seated{}, err
	}
	who, account, err := s.tables.NameOf(ctx, p)
	if err != nil {
		return table.Seated{}, err
	}
	seated, err := s.tables.CreatePreset(ctx, p, table.CreateRequest{Game: name, Seats: []string{"me"}, Private: true},
		table.Preset{Daily: name + "/" + day, Setup: pz.Setup, Seed: tableSeed(pz)})
	if err != nil {
		return table.Seated{}, err
	}
	a := store.DailyAttempt{Game: name, Day: day, Identity: p.Identity, Name: who, Account: account, Table: seated.Table, Started: s.now().UTC()}
	if err := ds.StartDaily(ctx, a); err != nil {
		return table.Seated{}, fmt.Errorf("storing the daily attempt: %w", err)
	}
	return seated, nil
}

// settleDaily stores the result of attempt a once its game is over, and
// returns a as it stands.
func (s *Service) settleDaily(ctx context.Context, ds store.Dailies, a store.DailyAttempt) (store.DailyAttempt, error) {
	if a.Finished {
		return a, nil
	}
	r, end, over, err := s.tables.Tally(ctx, a.Table, a.Game)
	if err != nil {
		return a, fmt.Errorf("reading the daily table: %w", err)
	}
	if !over {
		return a, nil
	}
	a.Solved, a.Moves, a.Wrong, a.Marks, a.Trail = r.Solved, r.Moves, r.Wrong, r.Marks, r.Trail
	if end.IsZero() {
		end = a.Started
	}
	// The time the server was down during the attempt does not count:
	// the solver could not move.
	a.Millis = max(0, (end.Sub(a.Started) - s.tables.Down(a.Started, end)).Milliseconds())
	a.Finished = true
	if err := ds.FinishDaily(ctx, a); err != nil {
		return a, err
	}
	return a, nil
}

// dailyHistory returns identity's attempts at the puzzles of game name,
// the latest day first, each one whose game has ended since settled.
func (s *Service) dailyHistory(ctx context.Context, ds store.Dailies, identity, name string) ([]store.DailyAttempt, error) {
	hist, err := ds.DailyHistory(ctx, identity, name, dailyHistory)
	if err != nil {
		return nil, err
	}
	for i, h := range hist {
		if !h.Finished {
			if hist[i], err = s.settleDaily(ctx, ds, h); err != nil {
				return nil, err
			}
		}
	}
	return hist, nil
}

// dailyResult shows attempt a: whole when open (to its own player, or
// to anyone once its day is over), else the counts alone. The squares an
// attempt used point at the answer (a sunk fleet lies within the salvos'
// squares, a password on a line the calls crowd), and the attempts of a
// few players who solved it, laid over each other, would give the day's
// grid or fleet away to those still to play it; so, like the table,
// marks stay with the player until the day ends. The share text names
// no square (shareText), but it goes with the marks: it is the player's
// to paste.
func (s *Service) dailyResult(a store.DailyAttempt, open bool) Result {
	r := Result{Game: a.Game, Day: a.Day, Name: a.Name, Ranked: a.Account, Finished: a.Finished,
		Solved: a.Solved, Moves: a.Moves, Wrong: a.Wrong, Seconds: float64(a.Millis) / 1000}
	if !open {
		return r
	}
	r.Table, r.Marks = a.Table, a.Marks
	if g, tl, ok := s.tallier(a.Game); ok && a.Finished {
		r.Share = shareText(g.Title(), tl.TallyWords(), a)
	}
	return r
}

// shareText writes a finished attempt at the daily puzzle of the game
// titled title as a text to paste anywhere while others still play the
// day: the game, the day, the counts in the game's words and the trail
// of the moves' outcomes in order (game.Tally's Trail), ■ a hit and □ a
// miss, ✗ a wrong guess and ✓ a right one. It draws no square: the
// squares an attempt used point at the answer (see dailyResult), so
// they stay in Marks, which only the player sees while the day lasts.
// An attempt finished before trails were kept shares its counts alone.
func shareText(title string, words game.TallyWords, a store.DailyAttempt) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Parlour daily %s %s\n", title, a.Day)
	verdict := "solved"
	if !a.Solved {
		verdict = "not solved"
	}
	fmt.Fprintf(&b, "%s: %s", verdict, words.Counts(a.Moves, a.Wrong))
	if a.Trail == "" {
		return b.String()
	}
	symbols := strings.NewReplacer(string(game.TrailHit), "■", string(game.TrailMiss), "□",
		string(game.TrailWrong), "✗", string(game.TrailRight), "✓")
	for _, row := range strings.Split(a.Trail, "/") {
		b.WriteByte('\n')
		b.WriteString(symbols.Replace(row))
	}
	return b.String()
}

// streaks returns the days in a row, up to today or (while today is not
// solved yet) yesterday, whose puzzle was solved, and the longest such
// run ever; hist is the latest day first.
func streaks(hist []store.DailyAttempt, today string) (current, best int) {
	run, prev := 0, ""
	for _, a := range hist {
		switch {
		case !a.Solved:
			run = 0
		case run > 0 && dayBefore(prev) == a.Day:
			run++
		default:
			run = 1
		}
		prev = a.Day
		best = max(best, run)
	}
	want := today
	for _, a := range hist {
		if a.Day == today && !a.Solved {
			if a.Finished {
				return 0, best
			}
			want = dayBefore(today) // today's game goes on: it breaks nothing yet
			continue
		}
		// A day out of the run ends it, but a run may end yesterday while
		// today is not played yet.
		if a.Day != want && (want != today || a.Day != dayBefore(today)) {
			break
		}
		if !a.Solved {
			break
		}
		current++
		want = dayBefore(a.Day)
	}
	return current, best
}

// dayBefore returns the day before day.
func dayBefore(day string) string {
	d, err := time.Parse(dayLayout, day)
	if err != nil {
		return ""
	}
	return d.AddDate(0, 0, -1).Format(dayLayout)
}

// Leaderboard returns the leaderboard of game's puzzle of day:
// players with accounts who finished, solved first, then fewest calls or
// salvos, fewest wrong, least time. A day after today is refused.
func (s *Service) Leaderboard(ctx context.Context, name, day string) (_ Board, err error) {
	defer s.reading("the daily puzzle's leaderboard", &err)
	if _, err := s.dailyGame(name); err != nil {
		return Board{}, err
	}
	name = strings.ToLower(strings.TrimSpace(name))
	if _, err := time.Parse(dayLayout, day); err != nil {
		return Board{}, refuse.Bad("%q is not a day: write it as 2006-01-02", refuse.Clip(day))
	}
	ds, err := s.dailies()
	if err != nil {
		return Board{}, err
	}
	today, err := s.today(ctx, ds, name)
	if err != nil {
		return Board{}, err
	}
	if day > today {
		return Board{}, refuse.NotFound("the daily %s of %s has not been set yet: today is %s", name, day, today)
	}
	open, err := ds.UnfinishedDailies(ctx, name, day)
	if err != nil {
		return Board{}, err
	}
	for _, a := range open {
		if _, err := s.settleDaily(ctx, ds, a); err != nil {
			s.log.Warn("daily: settling an attempt", "table", a.Table, "err", err)
		}
	}
	list, err := ds.DailyLeaderboard(ctx, name, day, dailyBoardSize)
	if err != nil {
		return Board{}, err
	}
	out := Board{Game: name, Day: day, Over: day < today, Entries: make([]Result, len(list))}
	for i, a := range list {
		out.Entries[i] = s.dailyResult(a, out.Over)
		out.Entries[i].Rank = i + 1
	}
	return out, nil
}

// Records returns the daily puzzles of the player with an account
// called name: per game, the streak and the history.
func (s *Service) Records(ctx context.Context, name string) (_ map[string]Record, err error) {
	defer s.reading("the player's daily puzzles", &err)
	if s.cfg.Accounts == nil {
		return nil, refuse.NotFound("there is no player called %q", refuse.Clip(name))
	}
	a, _, err := s.cfg.Accounts.AccountNamed(ctx, name)
	if err != nil {
		return nil, err
	}
	ds, err := s.dailies()
	if err != nil {
		return nil, err
	}
	out := map[string]Record{}
	for _, g := range s.dailyGames() {
		hist, err := s.dailyHistory(ctx, ds, a.Identity, g)
		if err != nil {
			return nil, err
		}
		today, err := s.today(ctx, ds, g)
		if err != nil {
			return nil, err
		}
		rec := Record{History: make([]Result, len(hist))}
		for i, h := range hist {
			if h.Finished {
				rec.Played++
			}
			if h.Solved {
				rec.Solved++
			}
			// A past day's attempt shows whole; today's only its counts.
			rec.History[i] = s.dailyResult(h, h.Day < today)
		}
		rec.Streak, rec.Best = streaks(hist, today)
		out[g] = rec
	}
	return out, nil
}

// GoesOn is the daily move gate (table.DailyGoesOn): it refuses a move,
// but a resignation, at an attempt at the puzzle daily once the puzzle's
// day is over. Its answer is open then (every finished attempt of that
// day is, Shut says), so a move would be played knowing it: the answer
// read in another player's record and announced, for the best result of
// the day.
func (s *Service) GoesOn(ctx context.Context, daily string) error {
	name, day, over, err := s.over(ctx, daily)
	if err != nil || !over {
		return err
	}
	return refuse.Conflict("the daily %s of %s is over, and its answer open to everyone: this attempt goes no further (resign to end it); today's puzzle is on the daily page", name, day)
}

// Over reports whether the day of daily ("quizl/2006-01-02") is over,
// for the tables (table.DailyOver): today is the later of the clock's date
// and the latest day a puzzle was set, so a clock set back closes no day
// that has ended.
func (s *Service) Over(ctx context.Context, daily string) (bool, error) {
	_, _, over, err := s.over(ctx, daily)
	return over, err
}

// Shut is the read gate (table.Shut): it refuses p a look at a table
// while the table is an attempt at a daily puzzle whose day is not over
// and p does not sit at it, since a finished attempt shows the day's grid
// or fleet, which would spoil the puzzle for everyone still to play it.
func (s *Service) Shut(ctx context.Context, p *auth.Principal, r table.Reading) error {
	if r.Daily == "" || r.Seated {
		return nil
	}
	name, _, over, err := s.over(ctx, r.Daily)
	if err != nil || over {
		return err
	}
	return refuse.Forbidden("this is somebody's attempt at today's daily %s: it opens to everyone when the day ends, at midnight UTC", name)
}

// over splits daily ("quizl/2006-01-02") into its game's name and its
// day, and says whether that day is over.
func (s *Service) over(ctx context.Context, daily string) (name, day string, over bool, err error) {
	name, day, _ = strings.Cut(daily, "/")
	ds, err := s.dailies()
	if err != nil {
		return name, day, false, err
	}
	today, err := s.today(ctx, ds, name)
	if err != nil {
		return name, day, false, err
	}
	return name, day, day < today, nil
}
