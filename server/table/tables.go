package table

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"parlour/game"
	"parlour/invite"
	"parlour/lexicon"
	"parlour/server/auth"
	"parlour/server/chat"
	"parlour/server/refuse"
	"parlour/store"
)

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
	// Maker is the level (easy, medium, strong) of the computer that
	// makes the hidden setup a lone seat attacks (solitaire Quizl's
	// grid); strong when empty. Only a one-seat table of a game with
	// setups takes one.
	Maker string `json:"maker,omitempty"`
	// Rated asks for a rated table: two players with accounts, no
	// computers, the default rules (see checkRated).
	Rated bool `json:"rated,omitempty"`
}

// SolitaireInfo says who made the hidden setup of a solitaire table.
type SolitaireInfo struct {
	// Maker is the level of the computer that made it.
	Maker string `json:"maker"`
	// Random is set when that computer found no setup of its own and
	// the table fell back to a random one.
	Random bool `json:"random,omitempty"`
}

// Seated answers a create, a join or a rematch: the table, the seat and
// the token that acts for it.
type Seated struct {
	Table  string `json:"table"`
	Seat   int    `json:"seat"`
	Token  string `json:"token"`
	Invite string `json:"invite,omitempty"`
	// Code is the table's invite code, to read aloud beside Invite.
	Code string `json:"code,omitempty"`
}

// Create opens a table. p may be nil: the creator then becomes a new guest
// identity, and the seat token is its credential.
func (s *Service) Create(ctx context.Context, p *auth.Principal, req CreateRequest) (Seated, error) {
	return s.create(ctx, p, req, nil)
}

// Preset is the hidden setup a one-seat table attacks when it is not
// made for the table alone: a daily puzzle's.
type Preset struct {
	Daily string // "quizl/2006-01-02"
	Setup json.RawMessage
	Seed  uint64
}

// CreatePreset is Create for a one-seat table whose hidden setup and
// seed pre gives: a daily puzzle's attempt.
func (s *Service) CreatePreset(ctx context.Context, p *auth.Principal, req CreateRequest, pre Preset) (Seated, error) {
	return s.create(ctx, p, req, &pre)
}

// create is Create, with the hidden setup of a one-seat table given by
// pre when it is not nil.
func (s *Service) create(ctx context.Context, p *auth.Principal, req CreateRequest, pre *Preset) (Seated, error) {
	g, err := s.games.Lookup(strings.ToLower(strings.TrimSpace(req.Game)))
	if err != nil {
		return Seated{}, refuse.Bad("%v", err)
	}
	lo, hi := g.Players()
	if len(req.Seats) == 0 {
		return Seated{}, refuse.Bad(`list the table's seats, yours among them: "seats": ["me", "open"] seats you and keeps a seat for a friend (%s seats %s)`, g.Title(), game.PlayerRange(lo, hi))
	}
	if n := len(req.Seats); n < lo || n > hi {
		return Seated{}, refuse.Bad("%s seats %s; you asked for %s", g.Title(), game.PlayerRange(lo, hi), game.Count(n, "seat", "seats"))
	}
	rules, err := s.rules(g, req.Rules, false)
	if err != nil {
		return Seated{}, refuse.Bad("%v", err)
	}
	lexName, err := s.lexiconName(g, strings.TrimSpace(req.Lexicon))
	if err != nil {
		return Seated{}, err
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
				return Seated{}, refuse.Bad(`seats must hold exactly one "me"; seats %d and %d both do`, me, i)
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
				return Seated{}, refuse.Bad("seat %d: computer level %q is not easy, medium or strong", i, refuse.Clip(level))
			}
			if s.cfg.NewBot == nil {
				return Seated{}, refuse.Bad("this server has no computer players")
			}
			if _, err := s.cfg.NewBot(g.Name(), level, 1, lex); err != nil {
				return Seated{}, refuse.Bad("seat %d: %v", i, err)
			}
			seats[i].Computer = level
		default:
			return Seated{}, refuse.Bad(`seat %d: %q is not "me", "open" or "computer:LEVEL"`, i, refuse.Clip(spec))
		}
	}
	nameComputers(seats)
	if me < 0 {
		return Seated{}, refuse.Bad(`seats must hold exactly one "me", the creator's seat`)
	}
	who, err := s.askerFor(ctx, p, req.Name)
	if err != nil {
		return Seated{}, err
	}
	seats[me].Identity, seats[me].Name, seats[me].Player = who.identity, who.name, who.player()
	pool := ""
	if req.Rated {
		if pool, err = checkRated(g, rules, lexName, seats, who); err != nil {
			return Seated{}, err
		}
	}
	for i := range seats {
		seats[i].Name = uniqueName(seats, seats[i].Name, i)
	}
	maker := strings.ToLower(strings.TrimSpace(req.Maker))
	switch {
	case maker != "" && !g.HasSetup():
		return Seated{}, refuse.Bad("%s has no setup for the computer to make; leave out maker", g.Title())
	case maker != "" && len(seats) != 1:
		return Seated{}, refuse.Bad("only a one-seat %s table has its setup made by the computer; leave out maker", g.Title())
	case maker == "" && len(seats) == 1 && g.HasSetup():
		maker = game.Strong
	case maker != "" && maker != game.Easy && maker != game.Medium && maker != game.Strong:
		return Seated{}, refuse.Bad("maker %q is not easy, medium or strong", refuse.Clip(maker))
	}
	m := meta{
		Game: g.Name(), Rules: rawRules(g, rules), Lexicon: lex.Name(),
		Seed: auth.RandomSeed(), Private: req.Private, Seats: seats, Maker: maker,
		Rated: req.Rated, Pool: pool,
	}
	// A daily puzzle is one attempt, ranked alone: it opens no set for
	// the games played after it to add to.
	if o := slices.IndexFunc(g.Options(), func(o game.Option) bool { return o.Name == game.SetTargetOption }); o >= 0 && pre == nil {
		m.Set = game.NewSet(len(seats), rules.Int(game.SetTargetOption))
	}
	if pre != nil {
		m.Daily, m.Seed = pre.Daily, pre.Seed
	}
	t := s.newTable(g, m, rules, lex)
	if pre != nil {
		if len(seats) != 1 {
			return Seated{}, fmt.Errorf("a daily puzzle's table has one seat, not %d", len(seats))
		}
		raw, err := g.CheckSetup(t.cfg, 0, pre.Setup)
		if err != nil {
			return Seated{}, fmt.Errorf("the daily puzzle's setup: %w", err)
		}
		t.m.Seats[0].Setup, t.m.Seats[0].Salt, t.m.Seats[0].Hidden = raw, newSalt(), true
	} else if err := s.solitaireSetup(ctx, t); err != nil {
		return Seated{}, err
	}
	// The table, a new guest and the seat's token are one write: a
	// failure leaves none of them.
	b, tok, cred := who.seating(t.id, me)
	if err := s.insert(ctx, t, b); err != nil {
		return Seated{}, err
	}
	s.auth.Remember(cred)
	s.log.Info("table created", "table", t.id, "game", g.Name(), "seats", len(seats))
	// The table is shared now (a computer seat may be setting up): look
	// at its seats under its lock.
	t.mu.Lock()
	if !slices.ContainsFunc(t.m.Seats, seatMeta.open) {
		s.started(t) // against the computer, or alone: every seat is taken
	}
	seated := Seated{Table: t.id, Seat: me, Token: tok, Invite: s.invite(t.id), Code: t.m.Code}
	t.unlock()
	return seated, nil
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
	t := &table{id: auth.NewID(), g: g, created: time.Now().UTC().Truncate(time.Microsecond), m: m, lastUse: time.Now(), conf: &s.cfg}
	t.tc = newTableClock(rules)
	t.ch = chat.NewChannels()
	t.here.size(len(m.Seats), s.now())
	t.changedAt = s.now()
	t.cfg = game.Config{Players: t.players(), Rules: rules, Lexicon: lex, Seed: m.Seed}
	return t
}

// solitaireSetup gives the lone seat of a one-player game with setups the
// computer-made setup it attacks (solitaire Quizl), hidden from it.
func (s *Service) solitaireSetup(ctx context.Context, t *table) error {
	if !t.hidesSetup() {
		return nil
	}
	h, err := s.makeHidden(ctx, t.g, t.cfg, t.maker())
	if err != nil {
		return err
	}
	t.hide(h)
	return nil
}

// hidesSetup reports whether t is solitaire of a game with setups: the
// computer makes the setup its lone seat attacks.
func (t *table) hidesSetup() bool { return len(t.m.Seats) == 1 && t.g.HasSetup() }

// maker is the level of the computer that makes t's hidden setup: a
// table made before makers had levels has the strongest.
func (t *table) maker() string {
	if t.m.Maker == "" {
		return game.Strong
	}
	return t.m.Maker
}

// hidden is a setup made for a solitaire seat to attack.
type hidden struct {
	level string
	setup json.RawMessage
	// random says the computer made none, and the server a random one.
	random bool
}

// makeHidden makes the setup the computer at level hides from the lone
// seat of a solitaire game of g under cfg, or a random one where the
// computer makes none. It takes no lock: the computer may think for
// seconds, and a table's lock held that long would hold up everybody who
// lists the tables.
func (s *Service) makeHidden(ctx context.Context, g game.Game, cfg game.Config, level string) (hidden, error) {
	h := hidden{level: level}
	var err error
	if s.cfg.NewBot != nil {
		var bot game.Bot
		if bot, err = s.cfg.NewBot(g.Name(), level, auth.RandomSeed(), cfg.Lexicon); err == nil {
			bctx, cancel := context.WithTimeout(ctx, s.cfg.BotTimeout)
			h.setup, err = bot.Setup(bctx, cfg, 0)
			cancel()
		}
	}
	if h.setup == nil || err != nil {
		s.log.Info("solitaire setup: the computer made none, so a random one", "game", g.Name(), "level", level, "err", err)
		h.random = true
		h.setup, err = g.AutoSetup(cfg, 0, auth.RandomSeed())
	}
	if err == nil {
		h.setup, err = g.CheckSetup(cfg, 0, h.setup)
	}
	if err != nil {
		return hidden{}, fmt.Errorf("making the solitaire setup: %w", err)
	}
	return h, nil
}

// hide gives t's lone seat the setup h to attack.
func (t *table) hide(h hidden) {
	t.m.Maker, t.m.MakerRandom = h.level, h.random
	t.m.Seats[0].Setup, t.m.Seats[0].Salt, t.m.Seats[0].Hidden = h.setup, newSalt(), true
}

// solitaireInfo says who made a solitaire table's hidden setup, or nil
// for a table of several seats.
func (t *table) solitaireInfo() *SolitaireInfo {
	if t.m.Maker == "" {
		return nil
	}
	return &SolitaireInfo{Maker: t.m.Maker, Random: t.m.MakerRandom}
}

// insert stores a new table, with the other writes of b in the same
// transaction, starts it if it is ready, and puts it in memory.
func (s *Service) insert(ctx context.Context, t *table, b store.Batch) error {
	if t.ready() {
		t.pack()
		_, _, st, err := game.Start(s.games, t.record(), t.cfg.Lexicon)
		if err != nil {
			return refuse.Unprocessable("the game cannot start: %v", err)
		}
		t.st, t.m.Started, t.m.Changes, t.m.Start = st, true, 1, 1
		at := s.now().UTC()
		t.m.StartedAt = at
	}
	t.status = t.deriveStatus()
	// A table is made only where it can be placed.
	if err := s.place.Created(ctx, t.id); err != nil {
		return err
	}
	t.epoch = s.place.Epoch(t.id)
	// A table that takes a code tries fresh ones while the store says
	// the code is taken.
	for try := 1; ; try++ {
		if s.wantsCode(t) {
			code, err := invite.New()
			if err != nil {
				return err
			}
			t.m.Code, b.Code = code, code
		}
		desc, err := json.Marshal(t.m)
		if err != nil {
			return err
		}
		b.NewTable = &store.Table{ID: t.id, Game: t.m.Game, Status: t.status, Created: t.created, Updated: t.created, Meta: desc}
		err = s.st.Write(ctx, b)
		if errors.Is(err, store.ErrCodeTaken) && try < maxCodeTries {
			continue
		}
		if err != nil {
			t.m.Code = ""
			s.place.Abandoned(context.WithoutCancel(ctx), t.id)
			if errors.Is(err, store.ErrChallengeNotOpen) {
				return err // the caller says what became of the challenge
			}
			return s.saveFailed("the table", err)
		}
		break
	}
	s.mu.Lock()
	s.tables[t.id] = t
	s.mu.Unlock()
	s.metrics.tablesCreated.Add(1)
	t.mu.Lock()
	s.scheduleBots(t)
	if !t.m.StartedAt.IsZero() {
		s.startClock(t, t.m.StartedAt)
	}
	s.noteOpen(t)
	s.noteIdle(t) // made in play, as a pairing does
	t.unlock()
	return nil
}

// othersThan returns the people seated at t before its game starts
// but identity. t.mu must be held.
func (t *table) othersThan(identity string) []PairedSeat {
	var others []PairedSeat
	if t.m.Started {
		return nil
	}
	for _, st := range t.m.Seats {
		if st.Identity != "" && st.Computer == "" && st.Identity != identity {
			others = append(others, PairedSeat{Identity: st.Identity, Name: st.Name, Guest: st.Player == "guest"})
		}
	}
	return others
}

// mayJoin refuses joiner a seat beside others when the root's MayPlay
// (a closed account among them) or MayJoin (a block) refuses it.
func (s *Service) mayJoin(ctx context.Context, joiner string, others []PairedSeat) error {
	if s.cfg.MayPlay != nil {
		if err := s.cfg.MayPlay(ctx, others); err != nil {
			return err
		}
	}
	if s.cfg.MayJoin != nil && len(others) > 0 {
		return s.cfg.MayJoin(ctx, joiner, others)
	}
	return nil
}

// stillPlays refuses a the seat it is taking when the root's MayPlay
// says a moderator has closed a's account. Its session was good when the
// request came in, but a close may have landed since, and the close's
// sweep (Vacate) gives up only the seats it finds. Asked with the
// table's lock held, the close is either seen here or stored after it,
// and then its sweep, which takes the same lock, finds the seat.
func (s *Service) stillPlays(ctx context.Context, a asker) error {
	if s.cfg.MayPlay == nil || !a.account {
		return nil // a guest has no account to close
	}
	return s.cfg.MayPlay(ctx, []PairedSeat{{Identity: a.identity, Name: a.name}})
}

// JoinRequest asks for an open seat.
type JoinRequest struct {
	Name string `json:"name,omitempty"`
	// Seat picks an open seat; the first open one when nil.
	Seat *int `json:"seat,omitempty"`
}

// Join seats the asker at an open seat of table id. Whether the asker
// already sits at the table is checked under the table's lock, in the
// same step as the seating: one identity never takes two seats, however
// many joins it sends at once.
func (s *Service) Join(ctx context.Context, p *auth.Principal, id string, req JoinRequest) (Seated, error) {
	// A table shut to the asker (another player's daily attempt) says
	// so, as its reads do, rather than how far its game has gone.
	t, err := s.read(ctx, p, id, false)
	if err != nil {
		return Seated{}, err
	}
	who, err := s.askerFor(ctx, p, req.Name)
	if err != nil {
		return Seated{}, err
	}
	// The players seated are checked before the lock, since whether they
	// may still play, whether a block keeps the asker from them, and a
	// rated game's count of their games together ask the store; and
	// again under it, with the seating: a player seated meanwhile (two
	// joins at once) is checked in another round. The asker's own
	// account is asked only under it (stillPlays).
	var counted bool
	for try := 1; ; try++ {
		t.mu.Lock()
		others := t.othersThan(who.identity)
		rated := t.m.Rated
		t.unlock()
		if err := s.mayJoin(ctx, who.identity, others); err != nil {
			return Seated{}, err
		}
		counted = rated && len(others) > 0
		if counted {
			s.ratedStart.Lock()
			under := s.ratedUnderWay()
			for _, o := range others {
				if err := s.pairCap(ctx, who.identity, o.Identity, under); err != nil {
					s.ratedStart.Unlock()
					return Seated{}, err
				}
			}
		}
		t.mu.Lock()
		if slices.Equal(t.othersThan(who.identity), others) {
			break // t.mu held, and ratedStart when counted
		}
		t.unlock()
		if counted {
			s.ratedStart.Unlock()
		}
		if try == 3 {
			return Seated{}, refuse.Conflict("the table's seats kept changing as you joined: try again")
		}
	}
	defer t.unlock()
	if counted {
		defer s.ratedStart.Unlock() // before t.unlock tells the observers
	}
	if err := s.stillPlays(ctx, who); err != nil {
		return Seated{}, err
	}
	t.lastUse = time.Now()
	if i := slices.IndexFunc(t.m.Seats, func(st seatMeta) bool { return st.Identity == who.identity }); i >= 0 {
		return Seated{}, refuse.Conflict("you already hold seat %d at this table", i)
	}
	if t.m.Started {
		return Seated{}, refuse.Conflict("the table is full: the game has started")
	}
	if t.m.Rated && !who.account {
		return Seated{}, refuse.Forbidden("this table is rated: only players with accounts may sit at it; sign up or sign in first")
	}
	seat := slices.IndexFunc(t.m.Seats, seatMeta.open)
	if req.Seat != nil {
		seat = *req.Seat
		if seat < 0 || seat >= len(t.m.Seats) {
			return Seated{}, refuse.Bad("there is no seat %d (seats 0 to %d)", seat, len(t.m.Seats)-1)
		}
		if !t.m.Seats[seat].open() {
			return Seated{}, refuse.Conflict("seat %d is taken", seat)
		}
	}
	if seat < 0 {
		return Seated{}, refuse.Conflict("the table is full")
	}
	old := t.m.clone()
	t.m.Seats[seat].Identity = who.identity
	t.m.Seats[seat].Player = who.player()
	t.m.Seats[seat].Name = uniqueName(t.m.Seats, who.name, seat)
	t.cfg.Players = t.players()
	// The seating, a new guest and the seat's token are one write.
	b, tok, cred := who.seating(t.id, seat)
	if err := s.changedWith(ctx, t, old, b); err != nil {
		t.cfg.Players = t.players()
		return Seated{}, err
	}
	s.auth.Remember(cred)
	return Seated{Table: t.id, Seat: seat, Token: tok}, nil
}

// ChallengeLexicon returns the name a challenge of g keeps for the word
// list name means: "" for the default, however it is named ("", "en",
// "EN"), and otherwise the list's own spelling; two challenges on one
// list are then one challenge. It refuses a name that means no list, and
// any for a game without words (lexiconName).
func (s *Service) ChallengeLexicon(g game.Game, name string) (string, error) {
	n, err := s.lexiconName(g, strings.TrimSpace(name))
	if err != nil || n == lexicon.DefaultName {
		return "", err
	}
	return n, nil
}

// NoWords is the refusal of a word list named for a table, a seek or a
// challenge of g, a game without words.
func NoWords(g game.Game) error {
	return refuse.Bad("%s uses no words: leave out the lexicon", g.Title())
}

// lexiconName returns the name of the word list the server holds that
// name means ("" is the default) for a table of g: the same name, or one
// that differs from it only in case ("EN" is en), the table then keeping
// the name as the list spells it. It refuses a name that means none, and
// any for a game without words (game.UsesWords): such a game never reads
// the list, and a seek or a challenge that kept one would be told apart
// from one without it for nothing.
func (s *Service) lexiconName(g game.Game, name string) (string, error) {
	if name == "" {
		return "", nil
	}
	if !game.UsesWords(g) {
		return "", NoWords(g)
	}
	var names []string
	folded := ""
	for _, l := range s.Lexicons() {
		if l.Name == name {
			return name, nil
		}
		if folded == "" && strings.EqualFold(l.Name, name) {
			folded = l.Name
		}
		names = append(names, l.Name)
	}
	if folded != "" {
		return folded, nil
	}
	return "", refuse.Bad("there is no lexicon %q (there are %s)", refuse.Clip(name), strings.Join(names, ", "))
}

// HouseLexicons returns the house word lists the operator added
// (Config.House), for the editors' helpers.
func (s *Service) HouseLexicons() []*lexicon.Lexicon { return s.cfg.House }

// Lexicons describes the word lists a table may take: the embedded
// lexicons, smallest first, then the house lists the operator added.
func (s *Service) Lexicons() []lexicon.About {
	out := lexicon.Embedded()
	for _, l := range s.cfg.House {
		out = append(out, lexicon.About{Name: l.Name(), Title: l.Name() + " (house list)", Words: l.Len()})
	}
	return out
}
