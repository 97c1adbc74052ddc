// Challenges: one account invites another, by name, to a game with given
// rules; accepting opens the table with both seated.

package social

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"parlour/game"
	"parlour/server/auth"
	"parlour/server/players"
	"parlour/server/refuse"
	"parlour/server/table"
	"parlour/store"
)

// ChallengeTTL is how long a challenge waits for an answer. Ten minutes
// is long enough to notice one on another page, short enough that an
// acceptance still finds the challenger about.
const ChallengeTTL = 10 * time.Minute

// MaxOpenChallenges caps the challenges one player may have waiting for
// an answer, MaxChallengesWaiting those waiting for one player to answer,
// and ChallengesPerAddr and ChallengesPerAddrBurst the challenges made
// from one address (two a minute, twenty at once): a flood of 430
// challenges at one player in 11 s is what they stop.
const (
	MaxOpenChallenges      = 10
	MaxChallengesWaiting   = 20
	ChallengesPerAddr      = 2.0 / 60
	ChallengesPerAddrBurst = 20
)

// ChallengeRequest challenges the account called To to a game of Game
// with Rules, rated or not.
type ChallengeRequest struct {
	To    string                     `json:"to"`
	Game  string                     `json:"game"`
	Rules map[string]json.RawMessage `json:"rules,omitempty"`
	Rated bool                       `json:"rated,omitempty"`
	// Lexicon names the word list of the table ("": the default), as a
	// new table's does.
	Lexicon string `json:"lexicon,omitempty"`
}

// Challenge is a challenge as its two players see it. Status is
// "open", "accepted", "declined", "canceled" or "expired"; Table names
// the table an accepted one opened.
type Challenge struct {
	ID      string                     `json:"id"`
	From    string                     `json:"from"`
	To      string                     `json:"to"`
	Game    string                     `json:"game"`
	Rules   map[string]json.RawMessage `json:"rules,omitempty"`
	Rated   bool                       `json:"rated"`
	Lexicon string                     `json:"lexicon,omitempty"`
	Status  string                     `json:"status"`
	Table   string                     `json:"table,omitempty"`
	Created time.Time                  `json:"created"`
	Expires time.Time                  `json:"expires"`
}

// challengeInfo describes c, with the players' account names.
func (s *Service) challengeInfo(ctx context.Context, c store.Challenge) (Challenge, error) {
	ps, err := s.tables.Players()
	if err != nil {
		return Challenge{}, err
	}
	names, err := ps.AccountNames(ctx, []string{c.From, c.To})
	if err != nil {
		return Challenge{}, err
	}
	info := Challenge{
		ID: c.ID, From: nameOr(names, c.From), To: nameOr(names, c.To), Game: c.Game, Rated: c.Rated,
		Status: string(c.Status), Table: c.Table, Created: c.Created, Expires: c.Expires, Lexicon: c.Lexicon,
	}
	if len(c.Rules) > 0 {
		if err := json.Unmarshal(c.Rules, &info.Rules); err != nil {
			return Challenge{}, err
		}
	}
	if c.Status == store.ChallengeOpen && !s.now().Before(c.Expires) {
		info.Status = string(store.ChallengeExpired)
	}
	return info, nil
}

// nameOr returns the account name of identity, or DeletedName for one
// whose account has gone since.
func nameOr(names map[string]string, identity string) string {
	if n, ok := names[identity]; ok {
		return n
	}
	return players.DeletedName
}

// tell sends a stream event about c to both its players.
func (s *Service) tell(typ string, c Challenge, from, to string) {
	for _, id := range []string{from, to} {
		s.Tell(id, StreamEvent{Type: typ, Challenge: &c})
	}
}

// Challenge challenges another account. Only an account may challenge, and
// only another account; the game must seat two; a rated challenge must
// pass the checks of a rated table.
func (s *Service) Challenge(ctx context.Context, p *auth.Principal, req ChallengeRequest) (Challenge, error) {
	me, err := s.players.AccountOnly(ctx, p, "challenging")
	if err != nil {
		return Challenge{}, err
	}
	cs, err := s.challenges()
	if err != nil {
		return Challenge{}, err
	}
	to := strings.TrimSpace(req.To)
	if to == "" {
		return Challenge{}, refuse.Bad(`say whom you challenge: "to" is an account name`)
	}
	them, _, err := s.players.AccountNamed(ctx, to)
	if err != nil {
		return Challenge{}, err
	}
	if them.Identity == me.Identity {
		return Challenge{}, refuse.Bad("you cannot challenge yourself")
	}
	if them.Hash == players.ClosedHash {
		return Challenge{}, players.Closed(them.Name)
	}
	if err := s.mayChallenge(ctx, me, them); err != nil {
		return Challenge{}, err
	}
	g, rules, err := s.challengeGame(req.Game, req.Rules)
	if err != nil {
		return Challenge{}, err
	}
	lexName, err := s.tables.ChallengeLexicon(g, req.Lexicon)
	if err != nil {
		return Challenge{}, err
	}
	pr := table.Pairing{Game: g, Rules: rules, Rated: req.Rated, Lexicon: lexName, Asker: me.Identity,
		Seats: []table.PairedSeat{{Identity: me.Identity, Name: me.Name}, {Identity: them.Identity, Name: them.Name}}}
	if err := s.tables.CheckPairing(pr); err != nil {
		return Challenge{}, err
	}
	now := s.now().UTC()
	var raw []byte
	if r := table.RawRules(g, rules); r != nil {
		if raw, err = json.Marshal(r); err != nil {
			return Challenge{}, err
		}
	}
	c := store.Challenge{
		ID: auth.NewID(), From: me.Identity, To: them.Identity, Game: g.Name(), Rules: raw, Rated: req.Rated, Lexicon: lexName,
		Status: store.ChallengeOpen, Created: now, Expires: now.Add(ChallengeTTL),
	}
	// The caps are kept by the store, in one step with the insert: a
	// count read first let 30 challenges sent at once leave 25 open.
	if err := cs.CreateChallenge(ctx, c, store.ChallengeCaps{From: MaxOpenChallenges, To: MaxChallengesWaiting}); err != nil {
		switch {
		case errors.Is(err, store.ErrChallengeDuplicate):
			return Challenge{}, refuse.Conflict("you have already challenged %s to %s on these terms, and that challenge still waits for an answer", them.Name, g.Title())
		case errors.Is(err, store.ErrChallengesFrom):
			return Challenge{}, refuse.TooMany("you have %d challenges waiting for an answer: withdraw one, or wait until they expire", MaxOpenChallenges)
		case errors.Is(err, store.ErrChallengesTo):
			return Challenge{}, refuse.TooMany("%s has %d challenges waiting for an answer already: try again later", them.Name, MaxChallengesWaiting)
		}
		return Challenge{}, s.saveFailed("the challenge", err)
	}
	info, err := s.challengeInfo(ctx, c)
	if err != nil {
		return Challenge{}, err
	}
	s.tell("challenge", info, c.From, c.To)
	if s.cfg.Challenged != nil {
		s.cfg.Challenged(c.To, c.From, info)
	}
	s.armExpiry(c.ID, c.Expires)
	return info, nil
}

// armExpiry sets a timer for challenge id to expire at at, unless this
// node has one: at its making, and when a player's challenges are listed
// (a client does at every start and reopening of its stream), so that a
// challenge made before a restart, whose timer went with the process,
// still expires with its line on both players' streams.
func (s *Service) armExpiry(id string, at time.Time) {
	s.armedMu.Lock()
	defer s.armedMu.Unlock()
	if s.armed[id] {
		return
	}
	s.armed[id] = true
	s.cfg.Clock.AfterFunc(max(0, at.Sub(s.now())), func() {
		s.expire(id)
		s.armedMu.Lock()
		delete(s.armed, id)
		s.armedMu.Unlock()
	})
}

// challengeGame resolves a challenge's game and rules: a game that two
// may play, and rules it takes.
func (s *Service) challengeGame(name string, raw map[string]json.RawMessage) (game.Game, game.Rules, error) {
	g, err := s.games.Lookup(strings.ToLower(strings.TrimSpace(name)))
	if err != nil {
		return nil, game.Rules{}, refuse.Bad("%v", err)
	}
	if lo, hi := g.Players(); lo > 2 || hi < 2 {
		return nil, game.Rules{}, refuse.Bad("%s is not played by two, so nobody can be challenged to it", g.Title())
	}
	rules, err := game.ResolveFor(g, raw)
	if err != nil {
		return nil, game.Rules{}, refuse.Bad("%v", err)
	}
	return g, rules, nil
}

// expire marks challenge id expired, if nobody answered it, and tells
// both players. An expired challenge is one whose time has passed,
// whether or not this ran: a challenge nobody listed since a restart
// stays open in the store, expired all the same (armExpiry).
func (s *Service) expire(id string) {
	if s.ctx.Err() != nil {
		return
	}
	cs, err := s.challenges()
	if err != nil {
		return
	}
	if err := cs.SettleChallenge(s.ctx, id, store.ChallengeExpired, ""); err != nil {
		if !errors.Is(err, store.ErrConflict) {
			s.log.Warn("expiring a challenge", "challenge", id, "err", err)
		}
		return // answered meanwhile, or the store will say expired later
	}
	c, err := cs.Challenge(s.ctx, id)
	if err != nil {
		return
	}
	info, err := s.challengeInfo(s.ctx, c)
	if err != nil {
		s.log.Warn("expiring a challenge", "challenge", id, "err", err)
		return
	}
	s.tell("challengeCanceled", info, c.From, c.To)
}

// challengeFor returns challenge id as p may answer it: p's account, and
// a challenge that is still open.
func (s *Service) challengeFor(ctx context.Context, p *auth.Principal, id, what string) (store.Challenge, store.Challenges, error) {
	if _, err := s.players.AccountOnly(ctx, p, what); err != nil {
		return store.Challenge{}, nil, err
	}
	cs, err := s.challenges()
	if err != nil {
		return store.Challenge{}, nil, err
	}
	if !auth.ValidID(id) {
		return store.Challenge{}, nil, refuse.NotFound("there is no challenge %q", refuse.Clip(id))
	}
	c, err := cs.Challenge(ctx, id)
	if errors.Is(err, store.ErrNotFound) || err == nil && c.From != p.Identity && c.To != p.Identity {
		// Somebody else's challenge is none of the asker's business.
		return store.Challenge{}, nil, refuse.NotFound("there is no challenge %q", refuse.Clip(id))
	}
	if err != nil {
		return store.Challenge{}, nil, err
	}
	if err := s.stillOpen(c); err != nil {
		return store.Challenge{}, nil, err
	}
	return c, cs, nil
}

// stillOpen refuses a challenge that was answered, withdrawn or expired.
func (s *Service) stillOpen(c store.Challenge) error {
	switch c.Status {
	case store.ChallengeOpen:
	case store.ChallengeAccepted:
		return refuse.Conflict("this challenge was already accepted: its table is %s", c.Table)
	case store.ChallengeDeclined:
		return refuse.Conflict("this challenge was declined")
	case store.ChallengeExpired:
		return refuse.Gone("this challenge expired at %s, %s after it was made; challenge again", c.Expires.UTC().Format(time.RFC3339), ChallengeTTL)
	default:
		return refuse.Conflict("this challenge was withdrawn")
	}
	if !s.now().Before(c.Expires) {
		return refuse.Gone("this challenge expired at %s, %s after it was made; challenge again", c.Expires.UTC().Format(time.RFC3339), ChallengeTTL)
	}
	return nil
}

// settle moves c to status, refusing it when another answer came first.
func (s *Service) settle(ctx context.Context, cs store.Challenges, c store.Challenge, status store.ChallengeStatus, table string) error {
	err := cs.SettleChallenge(ctx, c.ID, status, table)
	if errors.Is(err, store.ErrConflict) {
		return s.answeredMeanwhile(ctx, cs, c.ID)
	}
	if err != nil {
		return s.saveFailed("your answer", err)
	}
	return nil
}

// answeredMeanwhile is the refusal of an answer to challenge id that the
// store found no longer open: it says what became of it.
func (s *Service) answeredMeanwhile(ctx context.Context, cs store.Challenges, id string) error {
	now, err := cs.Challenge(ctx, id)
	if err != nil {
		return err
	}
	if err := s.stillOpen(now); err != nil {
		return err
	}
	return refuse.Conflict("this challenge was answered meanwhile")
}

// Accept accepts a challenge to p: it opens the table with both players
// seated, in an order drawn at random, by the rules asked for, rated if
// asked, and tells both players' streams ("gameStart"). It answers with
// the accepter's seat and its token; the challenger acts at the table with
// their own session or identity token, which works at every seat their
// identity holds.
func (s *Service) Accept(ctx context.Context, p *auth.Principal, id string) (table.Seated, error) {
	c, cs, err := s.challengeFor(ctx, p, id, "accepting a challenge")
	if err != nil {
		return table.Seated{}, err
	}
	if c.To != p.Identity {
		return table.Seated{}, refuse.Forbidden("this challenge is yours: you cannot accept it (withdraw it with DELETE instead)")
	}
	var raw map[string]json.RawMessage
	if len(c.Rules) > 0 {
		if err := json.Unmarshal(c.Rules, &raw); err != nil {
			return table.Seated{}, err
		}
	}
	g, rules, err := s.challengeGame(c.Game, raw)
	if err != nil {
		return table.Seated{}, err
	}
	ps, err := s.tables.Players()
	if err != nil {
		return table.Seated{}, err
	}
	names, err := ps.AccountNames(ctx, []string{c.From, c.To})
	if err != nil {
		return table.Seated{}, err
	}
	if _, ok := names[c.From]; !ok {
		return table.Seated{}, refuse.Gone("the player who challenged you has deleted their account")
	}
	// Nor is a challenge played whose maker a moderator has closed since:
	// they could not sign in to move.
	if err := s.players.MayPlay(ctx, []table.PairedSeat{{Identity: c.From, Name: names[c.From]}}); err != nil {
		return table.Seated{}, err
	}
	// A block made since the challenge keeps the two apart; the one
	// blocked is not told so.
	if s.rel != nil {
		if mine, err := s.rel.Blocks(ctx, c.To, c.From); err != nil {
			return table.Seated{}, err
		} else if mine {
			return table.Seated{}, refuse.Conflict("you have blocked %s: unblock them before you accept their challenge", names[c.From])
		}
		if theirs, err := s.rel.Blocks(ctx, c.From, c.To); err != nil {
			return table.Seated{}, err
		} else if theirs {
			return table.Seated{}, refuse.Conflict("this challenge can no longer be accepted")
		}
	}
	// The challenge is settled in the table's own transaction (Pairing):
	// of an acceptance and a withdrawal at once, only one happens.
	seated, err := s.tables.Pair(ctx, table.Pairing{
		Game: g, Rules: rules, Rated: c.Rated, Lexicon: c.Lexicon, Asker: p.Identity, Challenge: c.ID,
		Seats: []table.PairedSeat{{Identity: c.From, Name: names[c.From]}, {Identity: c.To, Name: names[c.To]}},
	})
	if errors.Is(err, store.ErrChallengeNotOpen) {
		return table.Seated{}, s.answeredMeanwhile(ctx, cs, c.ID)
	}
	if err != nil {
		return table.Seated{}, err
	}
	s.log.Info("challenge accepted", "challenge", c.ID, "table", seated.Table, "game", g.Name(), "rated", c.Rated)
	return seated, nil
}

// Decline declines a challenge to p and tells both players.
func (s *Service) Decline(ctx context.Context, p *auth.Principal, id string) (Challenge, error) {
	c, cs, err := s.challengeFor(ctx, p, id, "declining a challenge")
	if err != nil {
		return Challenge{}, err
	}
	if c.To != p.Identity {
		return Challenge{}, refuse.Forbidden("this challenge is yours: you cannot decline it (withdraw it with DELETE instead)")
	}
	return s.answer(ctx, cs, c, store.ChallengeDeclined, "challengeDeclined")
}

// Withdraw withdraws p's own challenge and tells both players.
func (s *Service) Withdraw(ctx context.Context, p *auth.Principal, id string) (Challenge, error) {
	c, cs, err := s.challengeFor(ctx, p, id, "withdrawing a challenge")
	if err != nil {
		return Challenge{}, err
	}
	if c.From != p.Identity {
		return Challenge{}, refuse.Forbidden("only the player who made a challenge can withdraw it; decline it instead")
	}
	return s.answer(ctx, cs, c, store.ChallengeCanceled, "challengeCanceled")
}

func (s *Service) answer(ctx context.Context, cs store.Challenges, c store.Challenge, status store.ChallengeStatus, typ string) (Challenge, error) {
	if err := s.settle(ctx, cs, c, status, ""); err != nil {
		return Challenge{}, err
	}
	c.Status = status
	info, err := s.challengeInfo(ctx, c)
	if err != nil {
		return Challenge{}, err
	}
	s.tell(typ, info, c.From, c.To)
	return info, nil
}

// CancelAll withdraws every open challenge from or to identity and tells
// both players of those not yet expired ("challengeCanceled"): the root
// calls it when a moderator closes identity's account, whose player can
// no longer answer a challenge or play one accepted.
func (s *Service) CancelAll(ctx context.Context, identity string) error {
	cs, err := s.challenges()
	if err != nil {
		return nil // no challenges kept
	}
	const page = 100
	for {
		open, err := cs.OpenChallenges(ctx, identity, page)
		if err != nil {
			return fmt.Errorf("reading the challenges of %s: %w", identity, err)
		}
		for _, c := range open {
			err := cs.SettleChallenge(ctx, c.ID, store.ChallengeCanceled, "")
			if errors.Is(err, store.ErrConflict) {
				continue // answered meanwhile
			}
			if err != nil {
				return fmt.Errorf("withdrawing challenge %s: %w", c.ID, err)
			}
			s.tellWithdrawn(ctx, c, s.now())
		}
		if len(open) < page {
			return nil
		}
	}
}

// Withdrawing reads the open challenges from and to identity, whose
// account is about to be deleted, and returns the func that tells both
// players of each not yet expired that it was withdrawn
// ("challengeCanceled"), as a withdrawal does: the store withdraws them
// in the deletion's own step, so they are read before it and told of
// after it. A challenge that could not be read is withdrawn all the
// same, untold; its player finds it gone on answering it.
func (s *Service) Withdrawing(ctx context.Context, identity string) (done func()) {
	cs, err := s.challenges()
	if err != nil {
		return func() {}
	}
	// The newest first: those not yet expired, at most the caps of
	// both sides, come before any left open past their time.
	open, err := cs.OpenChallenges(ctx, identity, 2*(MaxOpenChallenges+MaxChallengesWaiting))
	if err != nil {
		s.log.Warn("reading the challenges of an account being deleted", "identity", identity, "err", err)
		return func() {}
	}
	return func() {
		now := s.now()
		for _, c := range open {
			s.tellWithdrawn(ctx, c, now)
		}
	}
}

// tellWithdrawn tells both players of challenge c, withdrawn, that it
// was ("challengeCanceled"), unless it had expired by now: nobody waits
// on an expired one.
func (s *Service) tellWithdrawn(ctx context.Context, c store.Challenge, now time.Time) {
	if !now.Before(c.Expires) {
		return
	}
	c.Status = store.ChallengeCanceled
	info, err := s.challengeInfo(ctx, c)
	if err != nil {
		s.log.Warn("telling of a challenge withdrawn", "challenge", c.ID, "err", err)
		return
	}
	s.tell("challengeCanceled", info, c.From, c.To)
}

// Challenges returns p's open challenges that have not expired: those to
// p (in) and those p made (out), newest first. Those with a player p
// blocks are left out, whoever made them: a block keeps them from being
// accepted.
func (s *Service) Challenges(ctx context.Context, p *auth.Principal) (in, out []Challenge, err error) {
	defer s.reading("the challenges", &err)
	in, out = []Challenge{}, []Challenge{}
	if _, err := s.players.AccountOnly(ctx, p, "challenges"); err != nil {
		return nil, nil, err
	}
	cs, err := s.challenges()
	if err != nil {
		return nil, nil, err
	}
	open, err := cs.OpenChallenges(ctx, p.Identity, 8*MaxOpenChallenges)
	if err != nil {
		return nil, nil, err
	}
	blocked := map[string]bool{}
	if s.rel != nil {
		list, err := s.rel.ListOf(ctx, p.Identity, store.Block)
		if err != nil {
			return nil, nil, err
		}
		for _, e := range list {
			blocked[e.Identity] = true
		}
	}
	now := s.now()
	for _, c := range open {
		other := c.To
		if c.To == p.Identity {
			other = c.From
		}
		if !now.Before(c.Expires) || blocked[other] {
			// Expired, or between p and a player p blocks, either way:
			// it can no longer be accepted, so it leaves p's list.
			continue
		}
		s.armExpiry(c.ID, c.Expires)
		info, err := s.challengeInfo(ctx, c)
		if err != nil {
			return nil, nil, err
		}
		if info.From == players.DeletedName || info.To == players.DeletedName {
			continue // the other player deleted their account since
		}
		if c.To == p.Identity {
			in = append(in, info)
		} else {
			out = append(out, info)
		}
	}
	return in, out, nil
}
