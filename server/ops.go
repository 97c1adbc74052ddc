package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"

	"parlour/game"
	"parlour/lexicon"
	"parlour/store"
)

// MaxMoveLen caps a move's text, in bytes: the longest notation (a Salvo
// outline) is well under it.
const MaxMoveLen = 256

// setTargetOption is the rule option that makes a game's tables play sets:
// scores carry from game to game until somebody's total reaches it.
const setTargetOption = "set_target"

// CreateRequest asks for a new table.
type CreateRequest struct {
	// Game is the game's name ("quizl").
	Game string `json:"game"`
	// Rules are rule options; missing ones take their defaults.
	Rules map[string]json.RawMessage `json:"rules,omitempty"`
	// Seats lists the seats in order: exactly one "me" (the creator),
	// "open" for a person who joins by invite, "computer:LEVEL".
	Seats []string `json:"seats"`
	// Name is the creator's display name (optional).
	Name string `json:"name,omitempty"`
	// Private keeps the table out of the lobby: only its link leads in.
	Private bool `json:"private,omitempty"`
	// Lexicon names an embedded lexicon; the default when empty.
	Lexicon string `json:"lexicon,omitempty"`
}

// Seated answers a create, a join or a rematch: the table, the seat and
// the token that acts for it.
type Seated struct {
	Table  string `json:"table"`
	Seat   int    `json:"seat"`
	Token  string `json:"token"`
	Invite string `json:"invite,omitempty"`
}

// Create opens a table. p may be nil: the creator then becomes a new guest
// identity, and the seat token is its credential.
func (s *Service) Create(ctx context.Context, p *Principal, req CreateRequest) (Seated, error) {
	g, err := s.games.Lookup(strings.ToLower(strings.TrimSpace(req.Game)))
	if err != nil {
		return Seated{}, badRequest("%v", err)
	}
	lo, hi := g.Players()
	if n := len(req.Seats); n < lo || n > hi {
		return Seated{}, badRequest("%s seats %d to %d players; you asked for %d seats", g.Title(), lo, hi, n)
	}
	rules, err := game.Resolve(g.Options(), req.Rules)
	if err != nil {
		return Seated{}, badRequest("%v", err)
	}
	lexName := strings.TrimSpace(req.Lexicon)
	if lexName != "" {
		names := lexicon.Names()
		if !slices.Contains(names, lexName) {
			return Seated{}, badRequest("there is no lexicon %q (there are %s)", clip(lexName), strings.Join(names, ", "))
		}
	}
	lex, err := s.lexicon(lexName)
	if err != nil {
		return Seated{}, err
	}
	seats := make([]seatMeta, len(req.Seats))
	me := -1
	for i, spec := range req.Seats {
		spec = strings.ToLower(strings.TrimSpace(spec))
		switch {
		case spec == "me":
			if me >= 0 {
				return Seated{}, badRequest(`seats must hold exactly one "me"; seats %d and %d both do`, me, i)
			}
			me = i
		case spec == "open":
			seats[i].Name = fmt.Sprintf("Seat %d", i+1)
		case strings.HasPrefix(spec, "computer:") || spec == "computer":
			level := strings.TrimPrefix(strings.TrimPrefix(spec, "computer"), ":")
			if level == "" {
				level = game.Medium
			}
			if level != game.Easy && level != game.Medium && level != game.Strong {
				return Seated{}, badRequest("seat %d: computer level %q is not easy, medium or strong", i, clip(level))
			}
			if s.cfg.NewBot == nil {
				return Seated{}, badRequest("this server has no computer players")
			}
			if _, err := s.cfg.NewBot(g.Name(), level, 1, lex); err != nil {
				return Seated{}, badRequest("seat %d: %v", i, err)
			}
			seats[i].Computer = level
			seats[i].Name = "Computer (" + level + ")"
		default:
			return Seated{}, badRequest(`seat %d: %q is not "me", "open" or "computer:LEVEL"`, i, clip(spec))
		}
	}
	if me < 0 {
		return Seated{}, badRequest(`seats must hold exactly one "me", the creator's seat`)
	}
	identity, name, err := s.identityFor(ctx, p, req.Name)
	if err != nil {
		return Seated{}, err
	}
	seats[me].Identity, seats[me].Name = identity, name
	for i := range seats {
		seats[i].Name = uniqueName(seats, seats[i].Name, i)
	}
	m := meta{
		Game: g.Name(), Rules: rawRules(g, rules), Lexicon: lex.Name(),
		Seed: randomSeed(), Private: req.Private, Seats: seats,
	}
	if o := slices.IndexFunc(g.Options(), func(o game.Option) bool { return o.Name == setTargetOption }); o >= 0 {
		m.Set = &setMeta{Target: rules.Int(setTargetOption), Totals: make([]int, len(seats))}
	}
	t := s.newTable(g, m, rules, lex)
	if err := s.solitaireSetup(ctx, t); err != nil {
		return Seated{}, err
	}
	if err := s.insert(ctx, t); err != nil {
		return Seated{}, err
	}
	tok, err := s.seatToken(ctx, identity, t.id, me)
	if err != nil {
		return Seated{}, err
	}
	s.log.Info("table created", "table", t.id, "game", g.Name(), "seats", len(seats))
	return Seated{Table: t.id, Seat: me, Token: tok, Invite: s.invite(t.id)}, nil
}

// rawRules returns the rules that differ from the defaults, as a record
// stores them.
func rawRules(g game.Game, r game.Rules) map[string]json.RawMessage {
	nd := game.NonDefault(g.Options(), r)
	if len(nd) == 0 {
		return nil
	}
	out := make(map[string]json.RawMessage, len(nd))
	for k, v := range nd {
		b, _ := json.Marshal(v)
		out[k] = b
	}
	return out
}

func (s *Service) newTable(g game.Game, m meta, rules game.Rules, lex *lexicon.Lexicon) *table {
	t := &table{id: newID(), g: g, created: time.Now().UTC(), m: m, changed: make(chan struct{}), lastUse: time.Now()}
	t.cfg = game.Config{Players: t.players(), Rules: rules, Lexicon: lex, Seed: m.Seed}
	t.bots = make([]game.Bot, len(m.Seats))
	t.busy = make([]bool, len(m.Seats))
	return t
}

// solitaireSetup gives the lone seat of a one-player game with setups the
// computer-made setup it attacks (solitaire Quizl), hidden from it.
func (s *Service) solitaireSetup(ctx context.Context, t *table) error {
	if len(t.m.Seats) != 1 || !t.g.HasSetup() {
		return nil
	}
	var raw json.RawMessage
	var err error
	if s.cfg.NewBot != nil {
		var bot game.Bot
		if bot, err = s.cfg.NewBot(t.g.Name(), game.Strong, randomSeed(), t.cfg.Lexicon); err == nil {
			bctx, cancel := context.WithTimeout(ctx, s.cfg.BotTimeout)
			raw, err = bot.Setup(bctx, t.cfg, 0)
			cancel()
		}
	}
	if raw == nil || err != nil {
		raw, err = t.g.AutoSetup(t.cfg, 0, randomSeed())
	}
	if err == nil {
		raw, err = t.g.CheckSetup(t.cfg, 0, raw)
	}
	if err != nil {
		return fmt.Errorf("making the solitaire setup: %w", err)
	}
	t.m.Seats[0].Setup, t.m.Seats[0].Salt, t.m.Seats[0].Hidden = raw, newSalt(), true
	return nil
}

// insert stores a new table, starts it if it is ready, and puts it in
// memory.
func (s *Service) insert(ctx context.Context, t *table) error {
	if t.ready() {
		_, _, st, err := game.Start(s.games, t.record(), t.cfg.Lexicon)
		if err != nil {
			return refuse(http.StatusUnprocessableEntity, "the game cannot start: %v", err)
		}
		t.st, t.m.Started, t.m.Changes, t.m.Start = st, true, 1, 1
	}
	t.status = t.deriveStatus()
	b, err := json.Marshal(t.m)
	if err != nil {
		return err
	}
	if err := s.st.CreateTable(ctx, store.Table{ID: t.id, Game: t.m.Game, Status: t.status, Created: t.created, Updated: t.created, Meta: b}); err != nil {
		return fmt.Errorf("storing table: %w", err)
	}
	s.mu.Lock()
	s.tables[t.id] = t
	s.mu.Unlock()
	s.Metrics.tablesCreated.Add(1)
	t.mu.Lock()
	s.scheduleBots(t)
	t.mu.Unlock()
	return nil
}

// JoinRequest asks for an open seat.
type JoinRequest struct {
	Name string `json:"name,omitempty"`
	// Seat picks an open seat; the first open one when nil.
	Seat *int `json:"seat,omitempty"`
}

// Join seats the asker at an open seat of table id.
func (s *Service) Join(ctx context.Context, p *Principal, id string, req JoinRequest) (Seated, error) {
	t, err := s.table(ctx, id)
	if err != nil {
		return Seated{}, err
	}
	if p != nil {
		t.mu.Lock()
		seat := t.seatOf(p)
		if seat < 0 && p.Table != "" {
			for i, st := range t.m.Seats {
				if st.Identity == p.Identity {
					seat = game.Seat(i)
				}
			}
		}
		t.mu.Unlock()
		if seat >= 0 {
			return Seated{}, refuse(http.StatusConflict, "you already hold seat %d at this table", seat)
		}
	}
	identity, name, err := s.identityFor(ctx, p, req.Name)
	if err != nil {
		return Seated{}, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lastUse = time.Now()
	if t.m.Started {
		return Seated{}, refuse(http.StatusConflict, "the table is full: the game has started")
	}
	seat := slices.IndexFunc(t.m.Seats, seatMeta.open)
	if req.Seat != nil {
		seat = *req.Seat
		if seat < 0 || seat >= len(t.m.Seats) {
			return Seated{}, badRequest("there is no seat %d (seats 0 to %d)", seat, len(t.m.Seats)-1)
		}
		if !t.m.Seats[seat].open() {
			return Seated{}, refuse(http.StatusConflict, "seat %d is taken", seat)
		}
	}
	if seat < 0 {
		return Seated{}, refuse(http.StatusConflict, "the table is full")
	}
	old := t.m.clone()
	t.m.Seats[seat].Identity = identity
	t.m.Seats[seat].Name = uniqueName(t.m.Seats, name, seat)
	t.cfg.Players = t.players()
	if err := s.changed(ctx, t, old); err != nil {
		t.cfg.Players = t.players()
		return Seated{}, err
	}
	tok, err := s.seatToken(ctx, identity, t.id, seat)
	if err != nil {
		return Seated{}, err
	}
	return Seated{Table: t.id, Seat: seat, Token: tok}, nil
}

// SetupRequest gives a seat's secret setup, or asks the server to make
// one: at random, or as the computer at Computer's level would.
type SetupRequest struct {
	Setup    json.RawMessage `json:"setup,omitempty"`
	Auto     bool            `json:"auto,omitempty"`
	Computer string          `json:"computer,omitempty"`
}

// SetupResult answers a setup: the checked setup as the record keeps it.
type SetupResult struct {
	Version int             `json:"version"`
	Setup   json.RawMessage `json:"setup"`
}

// Setup takes the secret setup of the asker's seat at table id.
func (s *Service) Setup(ctx context.Context, p *Principal, id string, req SetupRequest) (SetupResult, error) {
	if req.Auto == (len(req.Setup) > 0) {
		return SetupResult{}, badRequest(`give either "setup" or "auto": true`)
	}
	if !req.Auto && req.Computer != "" {
		return SetupResult{}, badRequest(`"computer" goes with "auto": true`)
	}
	t, err := s.table(ctx, id)
	if err != nil {
		return SetupResult{}, err
	}
	t.mu.Lock()
	seat := t.seatOf(p)
	t.mu.Unlock()
	if seat < 0 {
		return SetupResult{}, refuse(http.StatusForbidden, "you hold no seat at this table")
	}
	var raw json.RawMessage
	if req.Auto {
		raw, err = s.autoSetup(ctx, t, seat, req.Computer)
		if err != nil {
			return SetupResult{}, err
		}
	} else {
		raw = req.Setup
	}
	return s.setSetup(ctx, t, seat, raw)
}

// autoSetup makes a setup for seat: random, or by the computer at level.
func (s *Service) autoSetup(ctx context.Context, t *table, seat game.Seat, level string) (json.RawMessage, error) {
	t.mu.Lock()
	cfg := t.cfg
	t.mu.Unlock()
	if level == "" || level == "random" {
		raw, err := t.g.AutoSetup(cfg, seat, randomSeed())
		if err != nil {
			return nil, fmt.Errorf("making a setup: %w", err)
		}
		return raw, nil
	}
	if level != game.Easy && level != game.Medium && level != game.Strong {
		return nil, badRequest(`"computer" must be easy, medium or strong, not %q`, clip(level))
	}
	if s.cfg.NewBot == nil {
		return nil, badRequest("this server has no computer players")
	}
	bot, err := s.cfg.NewBot(t.g.Name(), level, randomSeed(), cfg.Lexicon)
	if err != nil {
		return nil, badRequest("%v", err)
	}
	bctx, cancel := context.WithTimeout(ctx, s.cfg.BotTimeout)
	defer cancel()
	raw, err := bot.Setup(bctx, cfg, seat)
	if err != nil {
		return nil, fmt.Errorf("the computer could not make a setup: %w", err)
	}
	return raw, nil
}

// setSetup checks and stores seat's setup; the last setup starts play.
func (s *Service) setSetup(ctx context.Context, t *table, seat game.Seat, raw json.RawMessage) (SetupResult, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lastUse = time.Now()
	switch {
	case !t.g.HasSetup():
		return SetupResult{}, refuse(http.StatusConflict, "%s has no secret setup", t.g.Title())
	case t.m.Started:
		return SetupResult{}, refuse(http.StatusConflict, "play has started: setups can no longer change")
	case t.m.Seats[seat].Hidden:
		return SetupResult{}, refuse(http.StatusConflict, "in a solitaire game the computer makes the setup you play against")
	}
	checked, err := t.g.CheckSetup(t.cfg, seat, raw)
	if err != nil {
		return SetupResult{}, refuse(http.StatusUnprocessableEntity, "setup refused: %v", err)
	}
	checked = compactJSON(checked)
	old := t.m.clone()
	t.m.Seats[seat].Setup, t.m.Seats[seat].Salt = checked, newSalt()
	if err := s.changed(ctx, t, old); err != nil {
		return SetupResult{}, err
	}
	return SetupResult{Version: t.version(), Setup: checked}, nil
}

// MoveResult answers a move: the table's new version and the events the
// move revealed to the mover.
type MoveResult struct {
	Version int `json:"version"`
	// Status is the table's status after the move, ToMove the seats to
	// move next.
	Status store.Status `json:"status"`
	ToMove []game.Seat  `json:"to_move"`
	Events []game.Event `json:"events"`
}

// Move plays move for the asker's seat at table id. When expect is not
// nil the move is refused unless the table is at that version, so that a
// client retrying after a lost answer cannot play a move twice.
func (s *Service) Move(ctx context.Context, p *Principal, id, move string, expect *int) (MoveResult, error) {
	t, err := s.table(ctx, id)
	if err != nil {
		return MoveResult{}, err
	}
	t.mu.Lock()
	seat := t.seatOf(p)
	t.mu.Unlock()
	if seat < 0 {
		return MoveResult{}, refuse(http.StatusForbidden, "you hold no seat at this table")
	}
	return s.move(ctx, t, seat, move, expect)
}

func (s *Service) move(ctx context.Context, t *table, seat game.Seat, text string, expect *int) (MoveResult, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return MoveResult{}, badRequest("the move is empty")
	}
	if len(text) > MaxMoveLen {
		return MoveResult{}, badRequest("a move may be at most %d characters", MaxMoveLen)
	}
	start := time.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lastUse = start
	switch {
	case !t.m.Started:
		return MoveResult{}, refuse(http.StatusConflict, "the game has not started: %s", t.waitingFor())
	case t.status == store.Finished:
		return MoveResult{}, refuse(http.StatusConflict, "the game is over")
	case expect != nil && *expect != t.version():
		return MoveResult{}, refuse(http.StatusConflict, "the table is at version %d, not %d: look again before moving", t.version(), *expect)
	}
	evs, err := t.st.Apply(seat, text)
	if err != nil {
		s.Metrics.movesRefused.Add(1)
		if errors.Is(err, game.ErrNotYourTurn) {
			return MoveResult{}, refuse(http.StatusConflict, "%v", err)
		}
		return MoveResult{}, refuse(http.StatusUnprocessableEntity, "%v", err)
	}
	now := time.Now().UTC()
	mv := store.Move{Seq: len(t.moves) + 1, Seat: int(seat), Text: text, At: now}
	var update *store.Update
	old := t.m.clone()
	if t.st.Result().Status == game.Finished {
		t.finishSet()
		b, err := json.Marshal(t.m)
		if err != nil {
			return MoveResult{}, err
		}
		update = &store.Update{Status: store.Finished, Meta: b}
	}
	if err := s.st.AppendMove(ctx, t.id, mv, update); err != nil {
		// The state ran ahead of the store: rebuild it from the record.
		t.m = old
		if _, st, _, rerr := game.Replay(s.games, t.record(), t.cfg.Lexicon); rerr == nil {
			t.st = st
		} else {
			s.log.Error("rebuilding table after a failed write", "table", t.id, "err", rerr)
		}
		s.log.Error("storing move", "table", t.id, "err", err)
		return MoveResult{}, refuse(http.StatusServiceUnavailable, "the move could not be saved; nothing changed, try again")
	}
	t.moves = append(t.moves, game.Move{By: t.m.Seats[seat].Name, Move: text, At: &now})
	t.status = t.deriveStatus()
	st := step{version: t.version(), seat: seat, move: text, events: evs}
	t.remember(st)
	t.broadcast()
	s.scheduleBots(t)
	s.Metrics.movesAccepted.Add(1)
	s.Metrics.moveLatency.observe(time.Since(start))
	if t.status == store.Finished {
		s.log.Info("game over", "table", t.id, "moves", len(t.moves))
	}
	ev := game.VisibleTo(evs, seat)
	if ev == nil {
		ev = []game.Event{}
	}
	return MoveResult{Version: st.version, Events: ev, ToMove: append([]game.Seat{}, t.st.ToMove()...), Status: t.status}, nil
}

// waitingFor says in words what keeps play from starting.
func (t *table) waitingFor() string {
	var open, setup []string
	for _, s := range t.m.Seats {
		switch {
		case s.open():
			open = append(open, s.Name)
		case t.g.HasSetup() && s.Setup == nil:
			setup = append(setup, s.Name)
		}
	}
	switch {
	case len(open) > 0:
		return "waiting for players to join (" + strings.Join(open, ", ") + ")"
	case len(setup) > 0:
		return "waiting for the setups of " + strings.Join(setup, ", ")
	}
	return "starting"
}

// finishSet adds a finished game's scores to its set.
func (t *table) finishSet() {
	if t.m.Set == nil || t.m.Set.Over {
		return
	}
	set := t.m.Set
	set.Games++
	sc := t.st.Result().Scores
	for i := range set.Totals {
		if i < len(sc) {
			set.Totals[i] += sc[i]
		}
	}
	best, reached := 0, false
	for i, v := range set.Totals {
		if i == 0 || v > best {
			best = v
		}
		reached = reached || v >= set.Target
	}
	if !reached {
		return
	}
	var w []int
	for i, v := range set.Totals {
		if v == best {
			w = append(w, i)
		}
	}
	if len(w) > 1 {
		return // a tie at the top plays another game
	}
	set.Over, set.Winners = true, w
}

// View returns the asker's current view of table id (a spectator's when p
// holds no seat there).
func (s *Service) View(ctx context.Context, p *Principal, id string) (Update, error) {
	t, err := s.table(ctx, id)
	if err != nil {
		return Update{}, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lastUse = time.Now()
	return t.update(s.games, t.seatOf(p), -1)
}

// Record returns table id's record as the asker may see it.
func (s *Service) Record(ctx context.Context, p *Principal, id string) (*game.Record, error) {
	t, err := s.table(ctx, id)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.recordFor(t.seatOf(p)), nil
}

// Lobby lists the tables in status (open by default): open and playing
// tables from memory, finished ones from the store, newest first. Private
// tables are never listed.
func (s *Service) Lobby(ctx context.Context, status store.Status, limit int) ([]TableInfo, error) {
	if status == "" {
		status = store.Open
	}
	var out []TableInfo
	switch status {
	case store.Open, store.Setup, store.Playing:
		s.mu.RLock()
		for _, t := range s.tables {
			t.mu.Lock()
			if t.status == status && !t.m.Private {
				out = append(out, t.info())
			}
			t.mu.Unlock()
		}
		s.mu.RUnlock()
		sort.Slice(out, func(i, j int) bool { return out[i].Created.After(out[j].Created) })
	case store.Finished:
		rows, err := s.st.Recent(ctx, store.Finished, limit*2)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			t, err := s.table(ctx, r.ID)
			if err != nil {
				continue
			}
			t.mu.Lock()
			if !t.m.Private {
				out = append(out, t.info())
			}
			t.mu.Unlock()
		}
	default:
		return nil, badRequest("status must be open, setup, playing or finished, not %q", clip(string(status)))
	}
	if len(out) > limit {
		out = out[:limit]
	}
	if out == nil {
		out = []TableInfo{}
	}
	return out, nil
}

// Rematch seats the asker at the next game of a finished table's series,
// making that table if nobody has yet: same game and rules, every player
// and computer one seat further on (the last seat comes first), scores of
// an unfinished set carried over.
func (s *Service) Rematch(ctx context.Context, p *Principal, id string) (Seated, error) {
	t, err := s.table(ctx, id)
	if err != nil {
		return Seated{}, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	seat := t.seatOf(p)
	if seat < 0 {
		return Seated{}, refuse(http.StatusForbidden, "you hold no seat at this table")
	}
	if t.status != store.Finished {
		return Seated{}, refuse(http.StatusConflict, "the game is not over yet")
	}
	n := len(t.m.Seats)
	newSeat := (int(seat) + 1) % n
	if t.m.Rematch == "" {
		m := meta{Game: t.m.Game, Rules: t.m.Rules, Lexicon: t.m.Lexicon, Seed: randomSeed(), Private: t.m.Private, Prev: t.id}
		m.Seats = make([]seatMeta, n)
		for i, st := range t.m.Seats {
			m.Seats[(i+1)%n] = seatMeta{Name: st.Name, Identity: st.Identity, Computer: st.Computer}
		}
		if t.m.Set != nil {
			m.Set = &setMeta{Target: t.m.Set.Target, Totals: make([]int, n)}
			if !t.m.Set.Over {
				m.Set.Games = t.m.Set.Games
				for i, v := range t.m.Set.Totals {
					m.Set.Totals[(i+1)%n] = v
				}
			}
		}
		nt := s.newTable(t.g, m, t.cfg.Rules, t.cfg.Lexicon)
		if err := s.solitaireSetup(ctx, nt); err != nil {
			return Seated{}, err
		}
		if err := s.insert(ctx, nt); err != nil {
			return Seated{}, err
		}
		old := t.m.clone()
		t.m.Rematch = nt.id
		t.m.Changes++
		if err := s.persistMeta(ctx, t, old); err != nil {
			return Seated{}, err
		}
		t.broadcast()
	}
	tok, err := s.seatToken(ctx, p.Identity, t.m.Rematch, newSeat)
	if err != nil {
		return Seated{}, err
	}
	return Seated{Table: t.m.Rematch, Seat: newSeat, Token: tok, Invite: s.invite(t.m.Rematch)}, nil
}
