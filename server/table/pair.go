package table

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"sync"
	"time"

	"parlour/game"
	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/store"
)

// Pairing is a table for players agreed on elsewhere (a challenge
// accepted; later a seek matched or a tournament's round), seated at once
// with nobody left to join.
type Pairing struct {
	Game  game.Game
	Rules game.Rules
	Rated bool
	// Lexicon names the word list of the table ("": the default); a
	// rated table keeps the default.
	Lexicon string
	// Seats are the players, each an account's identity and name; they
	// are seated in a random order.
	Seats []PairedSeat
	// Asker is the identity of the player whose request makes the table
	// (who accepted): the answer carries its seat's token.
	Asker string
	// Challenge is the challenge the table accepts, if any: it is marked
	// accepted in the table's own transaction, so that of two
	// acceptances at once only one makes a table (the other meets
	// store.ErrChallengeNotOpen), and a table that cannot be stored
	// leaves the challenge open.
	Challenge string
	// Event names the tournament and round the table is a game of, if
	// any: the table's record carries it.
	Event *game.Tournament
	// SetupBy, for an event's game with secret setups, is when every
	// setup must be in or its player forfeits: the table shows it to its
	// players while it is in setup. Zero for none.
	SetupBy time.Time
}

// PairedSeat is one player of a Pairing.
type PairedSeat struct {
	Identity, Name string
	// Guest is set for an identity without an account (a casual seek's).
	Guest bool
}

// CheckPairing checks that a table of pr's game, rules and players may be
// made (a rated one keeps its rated rules), without making it.
func (s *Service) CheckPairing(pr Pairing) error {
	lexName, err := s.lexiconName(pr.Game, pr.Lexicon)
	if err != nil {
		return err
	}
	pr.Lexicon = lexName
	if !pr.Rated {
		return nil
	}
	_, err = checkRated(pr.Game, pr.Rules, pr.Lexicon, pr.seats(), asker{identity: pr.Asker, account: true})
	return err
}

func (pr Pairing) seats() []seatMeta {
	seats := make([]seatMeta, len(pr.Seats))
	for i, st := range pr.Seats {
		seats[i] = seatMeta{Identity: st.Identity, Name: st.Name, Player: "account"}
		if st.Guest {
			seats[i].Player = "guest"
		}
	}
	return seats
}

// RawRules returns rules as a table's description keeps them: only the
// options set away from g's defaults.
func RawRules(g game.Game, rules game.Rules) map[string]json.RawMessage { return rawRules(g, rules) }

// Pair makes and stores pr's table, its game under way as soon as every
// seat's setup is in, and tells the observers it started. A rated pairing
// of two players is refused past their cap of rated games a day.
func (s *Service) Pair(ctx context.Context, pr Pairing) (Seated, error) {
	counted := func() {}
	if pr.Rated && len(pr.Seats) == 2 {
		s.ratedStart.Lock()
		counted = sync.OnceFunc(s.ratedStart.Unlock)
		defer counted()
		if err := s.pairCap(ctx, pr.Seats[0].Identity, pr.Seats[1].Identity, s.ratedUnderWay()); err != nil {
			return Seated{}, err
		}
	}
	lexName, err := s.lexiconName(pr.Game, pr.Lexicon)
	if err != nil {
		return Seated{}, err
	}
	pr.Lexicon = lexName
	seats := pr.seats()
	if auth.RandomSeed()%2 == 1 {
		slices.Reverse(seats)
	}
	pool := ""
	if pr.Rated {
		if pool, err = checkRated(pr.Game, pr.Rules, pr.Lexicon, seats, asker{identity: pr.Asker, account: true}); err != nil {
			return Seated{}, err
		}
	}
	for i := range seats {
		seats[i].Name = uniqueName(seats, seats[i].Name, i)
	}
	lex, err := s.lexicon(pr.Lexicon)
	if err != nil {
		return Seated{}, err
	}
	g := pr.Game
	m := meta{Game: g.Name(), Rules: rawRules(g, pr.Rules), Lexicon: lex.Name(), Seed: auth.RandomSeed(), Seats: seats, Rated: pr.Rated, Pool: pool, Challenge: pr.Challenge, Event: pr.Event, SetupBy: pr.SetupBy, Paired: true}
	if slices.ContainsFunc(g.Options(), func(o game.Option) bool { return o.Name == game.SetTargetOption }) {
		m.Set = game.NewSet(len(seats), pr.Rules.Int(game.SetTargetOption))
	}
	t := s.newTable(g, m, pr.Rules, lex)
	mine := slices.IndexFunc(seats, func(st seatMeta) bool { return st.Identity == pr.Asker })
	b, tok, cred := asker{identity: pr.Asker}.seating(t.id, mine)
	if pr.Challenge != "" {
		b.Challenge = &store.ChallengeAnswer{ID: pr.Challenge, Status: store.ChallengeAccepted, Table: t.id}
	}
	if err := s.insert(ctx, t, b); err != nil {
		return Seated{}, err
	}
	counted() // the game is among those under way now
	s.auth.Remember(cred)
	t.mu.Lock()
	s.started(t)
	t.unlock()
	if pr.Challenge != "" {
		if err := s.unseatClosed(ctx, t); err != nil {
			return Seated{}, err
		}
	}
	return Seated{Table: t.id, Seat: mine, Token: tok, Invite: s.invite(t.id)}, nil
}

// unseatClosed asks the root's MayPlay again about each player of t, a
// challenge's table just made, and, while its game has not begun, gives
// the table up for the first it refuses (a moderator closed their
// account), as the close's sweep (Vacate) would have, and returns the
// refusal. The acceptance checked the players before making the table,
// but a close may land in between, and its sweep finds only the tables
// already in memory. Asked once t is there, the close is either seen
// here or stored after it, and then its sweep finds t. A game begun at
// once (no setups) is left under way, as the sweep leaves one, for the
// closed player to resign or the other to claim. A seek's table and an
// event's are left to them: the seeks let a pairing under way as a close
// lands make its table (seek.Service.Drop), and an event withdraws a
// closed player and scores a seat not taken as a forfeit.
func (s *Service) unseatClosed(ctx context.Context, t *table) error {
	if s.cfg.MayPlay == nil {
		return nil
	}
	t.mu.Lock()
	seats, begun := slices.Clone(t.m.Seats), t.m.Started
	t.unlock()
	if begun {
		return nil
	}
	for _, st := range seats {
		err := s.cfg.MayPlay(ctx, []PairedSeat{{Identity: st.Identity, Name: st.Name, Guest: st.Player == "guest"}})
		if err == nil {
			continue
		}
		why := refuse.Said(s.log, err)
		// A table the sweep gave up first (410), or whose game began
		// meanwhile (409), is as the close leaves it.
		_, lerr := s.leaveTable(ctx, &auth.Principal{Identity: st.Identity}, t.id, why)
		if code := refuse.Status(lerr); lerr != nil && code != http.StatusConflict && code != http.StatusGone {
			s.log.Warn("giving up a table made for a closed account", "table", t.id, "identity", st.Identity, "err", lerr)
		}
		return err
	}
	return nil
}
