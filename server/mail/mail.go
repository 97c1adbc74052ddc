// Package mail is e-mail to players who asked for it: an account gives an
// address and chooses what it wants to hear of (its seat is to move while
// it is away, a game of its ended, a challenge to it); the address is
// confirmed by a mailed link before anything else is sent to it, every
// message carries a link that stops the mail, and nothing is sent unless
// the operator named an SMTP server (`parlour serve --smtp URL`).
//
// It listens to the tables as a table.TurnObserver and to challenges
// through social's hook, and sends from a queue with retries on its own
// goroutine: a move never waits for mail, and an SMTP server that fails is
// logged and counted, never an error to a player.
package mail

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"parlour/account"
	"parlour/game"
	"parlour/server/auth"
	"parlour/server/limit"
	"parlour/server/players"
	"parlour/server/refuse"
	"parlour/server/social"
	"parlour/server/table"
	"parlour/store"
)

// Defaults of Config.
const (
	// VerifyTTL is how long a confirmation link works.
	VerifyTTL = 48 * time.Hour
	// Attempts is how often a message is tried before it is given up.
	Attempts = 5
	// RetryDelay is the wait before the first retry; each retry waits
	// twice as long as the one before.
	RetryDelay = 30 * time.Second
	// QueueSize is how many messages may wait to be sent; past it new
	// ones are dropped (and counted) rather than hold anyone up.
	QueueSize = 1024
)

// Config is what a Service is built from. Store, Players and Games are
// required; without SMTP no mail is sent and the API says e-mail is not
// offered.
type Config struct {
	SMTP    *SMTP
	Store   store.Store
	Players *players.Service
	Games   *game.Registry
	// BaseURL returns the server's address for the links in the mail
	// (the table service's, which tests set once they listen).
	BaseURL func() string
	// Online reports whether a player has a page or stream of the server
	// open (social's IsOnline): a player who is there sees their turn
	// and gets no mail about it.
	Online func(identity string) bool
	// Now is the time (default time.Now): confirmation links expire.
	Now        func() time.Time
	Logger     *slog.Logger
	Registerer prometheus.Registerer
	// VerifyTTL, ResetTTL, Attempts, RetryDelay and QueueSize default to
	// the constants of those names.
	VerifyTTL  time.Duration
	ResetTTL   time.Duration
	Attempts   int
	RetryDelay time.Duration
	QueueSize  int
}

// Service is the players' e-mail: their addresses and consents, and the
// queue that sends.
type Service struct {
	cfg   Config
	log   *slog.Logger
	st    store.Emails // nil when the store keeps no addresses
	smtp  *SMTP
	queue chan message

	// perIdentity and perAddress limit the confirmation mails asked for,
	// resetFor and resetFrom the password reset links asked for each
	// account and from each network address.
	perIdentity, perAddress *limit.Keyed
	resetFor, resetFrom     *limit.Keyed

	// mailed holds the (table, identity) pairs told it is their move
	// and not yet heard to have moved: one mail per turn, not one per
	// move of the others.
	mu     sync.Mutex
	mailed map[turnKey]bool

	sent, failed, retried, dropped prometheus.Counter

	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
}

type turnKey struct{ table, identity string }

// New returns the e-mail service of cfg, whose sending goroutine runs
// until Close.
func New(cfg Config) (*Service, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.BaseURL == nil {
		cfg.BaseURL = func() string { return "" }
	}
	if cfg.Online == nil {
		cfg.Online = func(string) bool { return false }
	}
	if cfg.VerifyTTL <= 0 {
		cfg.VerifyTTL = VerifyTTL
	}
	if cfg.ResetTTL <= 0 {
		cfg.ResetTTL = ResetTTL
	}
	if cfg.Attempts <= 0 {
		cfg.Attempts = Attempts
	}
	if cfg.RetryDelay <= 0 {
		cfg.RetryDelay = RetryDelay
	}
	if cfg.QueueSize <= 0 {
		cfg.QueueSize = QueueSize
	}
	s := &Service{
		cfg: cfg, log: cfg.Logger, smtp: cfg.SMTP, queue: make(chan message, cfg.QueueSize),
		perIdentity: limit.NewKeyed(3.0/3600, 3), perAddress: limit.NewKeyed(2.0/3600, 2),
		resetFor: limit.NewKeyed(3.0/3600, 3), resetFrom: limit.NewKeyed(10.0/3600, 10),
		mailed: map[turnKey]bool{}, done: make(chan struct{}),
		sent:    prometheus.NewCounter(prometheus.CounterOpts{Name: "parlour_mail_sent_total", Help: "E-mail messages the SMTP server accepted."}),
		failed:  prometheus.NewCounter(prometheus.CounterOpts{Name: "parlour_mail_failed_total", Help: "E-mail messages given up after every attempt failed."}),
		retried: prometheus.NewCounter(prometheus.CounterOpts{Name: "parlour_mail_retries_total", Help: "Failed attempts to send an e-mail message that were tried again."}),
		dropped: prometheus.NewCounter(prometheus.CounterOpts{Name: "parlour_mail_dropped_total", Help: "E-mail messages dropped because the queue was full."}),
	}
	s.st, _ = cfg.Store.(store.Emails)
	if cfg.Registerer != nil {
		for _, c := range []prometheus.Collector{s.sent, s.failed, s.retried, s.dropped} {
			if err := cfg.Registerer.Register(c); err != nil {
				return nil, fmt.Errorf("mail: registering metrics: %w", err)
			}
		}
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	go s.run()
	return s, nil
}

// Close stops the sending; messages still queued are not sent.
func (s *Service) Close() {
	s.cancel()
	<-s.done
}

// Offered reports whether this server sends e-mail: the operator named an
// SMTP server and the store keeps addresses.
func (s *Service) Offered() bool { return s.smtp != nil && s.st != nil }

// Settings is what GET /api/v1/account/email answers: whether the server
// sends mail at all, and the account's address with what it asked for.
type Settings struct {
	Offered bool   `json:"offered"`
	Address string `json:"address,omitempty"`
	// Verified is true once the link mailed to the address was
	// followed; Pending while a link waits to be.
	Verified  bool `json:"verified"`
	Pending   bool `json:"pending"`
	YourMove  bool `json:"your_move"`
	GameEnd   bool `json:"game_end"`
	Challenge bool `json:"challenge"`
}

// SetRequest is the body of PUT /api/v1/account/email. A kind left out
// keeps its setting; on a first address, a kind left out is asked for
// (giving the address is asking for mail). Password, the account's
// current one, is needed to give or change the address: the address
// receives the links that choose a new password, so a session alone (one
// left signed in, or stolen) must not be able to point them elsewhere.
type SetRequest struct {
	Address   string `json:"address"`
	Password  string `json:"password,omitempty"`
	YourMove  *bool  `json:"your_move,omitempty"`
	GameEnd   *bool  `json:"game_end,omitempty"`
	Challenge *bool  `json:"challenge,omitempty"`
}

func settings(offered bool, e store.Email) Settings {
	return Settings{Offered: offered, Address: e.Address, Verified: e.Verified, Pending: !e.Verified && e.VerifyHash != nil,
		YourMove: e.YourMove, GameEnd: e.GameEnd, Challenge: e.Challenge}
}

// Get returns p's address and consents.
func (s *Service) Get(ctx context.Context, p *auth.Principal) (Settings, error) {
	a, err := s.cfg.Players.AccountOnly(ctx, p, "e-mail")
	if err != nil {
		return Settings{}, err
	}
	if s.st == nil {
		return Settings{Offered: false}, nil
	}
	e, err := s.st.EmailOf(ctx, a.Identity)
	if errors.Is(err, store.ErrNotFound) {
		return Settings{Offered: s.Offered()}, nil
	}
	if err != nil {
		return Settings{}, refuse.ReadFailed(s.log, "your e-mail address", err)
	}
	return settings(s.Offered(), e), nil
}

// Set stores p's address and what it asks for. A new address (or one
// not yet confirmed) is mailed a confirmation link, and receives nothing
// else until that link is followed; the links asked for are limited per
// account and per address.
func (s *Service) Set(ctx context.Context, p *auth.Principal, req SetRequest) (Settings, error) {
	a, err := s.cfg.Players.AccountOnly(ctx, p, "e-mail")
	if err != nil {
		return Settings{}, err
	}
	if !s.Offered() {
		return Settings{}, refuse.Conflict("e-mail is not offered on this server: its operator has set up no mail server")
	}
	addr, err := ParseAddress(req.Address)
	if err != nil {
		return Settings{}, refuse.Bad("%v", err)
	}
	old, err := s.st.EmailOf(ctx, a.Identity)
	had := err == nil
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return Settings{}, refuse.ReadFailed(s.log, "your e-mail address", err)
	}
	if !had || !strings.EqualFold(old.Address, addr) {
		if req.Password == "" {
			return Settings{}, refuse.Bad("give your password too: a new address is where a link to choose a new password would go")
		}
		if err := s.cfg.Players.CheckCurrentPassword(ctx, a, req.Password); err != nil {
			return Settings{}, err
		}
	}
	e := old
	if !had {
		e = store.Email{Identity: a.Identity, YourMove: true, GameEnd: true, Challenge: true}
	}
	for _, c := range []struct {
		to  *bool
		set *bool
	}{{&e.YourMove, req.YourMove}, {&e.GameEnd, req.GameEnd}, {&e.Challenge, req.Challenge}} {
		if c.set != nil {
			*c.to = *c.set
		}
	}
	now := s.cfg.Now().UTC()
	e.Updated = now
	var token string
	if !had || !strings.EqualFold(old.Address, addr) || !old.Verified {
		// A new address, or one still to confirm: a new link.
		if !s.perIdentity.Allow(a.Identity) {
			return Settings{}, refuse.TooMany("you have asked for several confirmation mails lately: use the last one, or try again in an hour")
		}
		if !s.perAddress.Allow(strings.ToLower(addr)) {
			return Settings{}, refuse.TooMany("%s was sent confirmation mails lately: use the last one, or try again in an hour", addr)
		}
		// The old address's unsubscribe links, which must not reach the
		// new one, go with it as the new one is stored (SetEmail): a
		// failed save keeps the old address whole.
		var h [32]byte
		token, h = account.NewToken()
		e.Address, e.Verified, e.VerifyHash, e.VerifySent = addr, false, h[:], now
		// A reset link mailed to the address before must not outlive it.
		e.ResetHash, e.ResetSent = nil, time.Time{}
	}
	if err := s.st.SetEmail(ctx, e); err != nil {
		return Settings{}, refuse.SaveFailed(s.log, "your e-mail address", err)
	}
	if token != "" {
		s.enqueue(message{kind: kindVerify, identity: a.Identity, to: addr, name: a.Name, token: token})
	}
	if had && old.Verified && !strings.EqualFold(old.Address, addr) {
		// The confirmed address hears that it is replaced: if its owner
		// did not do it, someone else holds the account's password.
		s.enqueue(message{kind: kindMoved, identity: a.Identity, to: old.Address, name: a.Name})
	}
	return settings(true, e), nil
}

// Delete forgets p's address.
func (s *Service) Delete(ctx context.Context, p *auth.Principal) error {
	a, err := s.cfg.Players.AccountOnly(ctx, p, "e-mail")
	if err != nil {
		return err
	}
	if s.st == nil {
		return refuse.NotFound("you have given no e-mail address")
	}
	if err := s.st.DeleteEmail(ctx, a.Identity); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return refuse.NotFound("you have given no e-mail address")
		}
		return refuse.SaveFailed(s.log, "forgetting your e-mail address", err)
	}
	return nil
}

// Verify confirms the address whose link carries token, and returns a
// sentence for the page that answers the link.
func (s *Service) Verify(ctx context.Context, token string) (string, error) {
	if s.st == nil {
		return "", refuse.NotFound("e-mail is not offered on this server")
	}
	if token == "" {
		return "", refuse.Bad("this confirmation link has no token: open the whole link from the mail")
	}
	if !account.ValidTokenShape(token) {
		return "", refuse.Bad("this confirmation link is cut short or changed: open the whole link from the mail")
	}
	h := account.HashToken(token)
	e, err := s.st.EmailByVerifyHash(ctx, h[:])
	if errors.Is(err, store.ErrNotFound) {
		return "", refuse.NotFound("this confirmation link is not known: the address was changed or removed since it was sent, or it was used already")
	}
	if err != nil {
		return "", refuse.ReadFailed(s.log, "the e-mail address", err)
	}
	if s.cfg.Now().Sub(e.VerifySent) > s.cfg.VerifyTTL {
		return "", refuse.Gone("this confirmation link expired (it works for %s): give your address again on your account page for a new one", hours(s.cfg.VerifyTTL))
	}
	e, err = s.change(ctx, e, func(e *store.Email) (bool, error) {
		if !bytes.Equal(e.VerifyHash, h[:]) {
			return false, refuse.NotFound("this confirmation link is not known: the address was changed or removed since it was sent, or it was used already")
		}
		e.Verified, e.VerifyHash, e.VerifySent = true, nil, time.Time{}
		return true, nil
	})
	if err != nil {
		return "", s.changeFailed("confirming the address", err)
	}
	if !e.YourMove && !e.GameEnd && !e.Challenge {
		return fmt.Sprintf("%s is confirmed, but asks for no mail yet: choose what you want on your account page.", e.Address), nil
	}
	return fmt.Sprintf("%s is confirmed: Parlour will mail it %s. You can change this on your account page.", e.Address, kinds(e)), nil
}

// Unsubscribe turns off every kind of mail to the address whose messages
// carry token, and returns a sentence for the page that answers the link.
// The address stays on the account page, receiving nothing, until its
// owner removes it or asks for mail again.
func (s *Service) Unsubscribe(ctx context.Context, token string) (string, error) {
	e, err := s.unsubscribing(ctx, token)
	if err != nil {
		return "", err
	}
	addr := e.Address
	_, err = s.change(ctx, e, func(e *store.Email) (bool, error) {
		if !strings.EqualFold(e.Address, addr) {
			return false, refuse.NotFound("this unsubscribe link is not known: the address was changed or removed since, and gets no mail from Parlour")
		}
		if !e.YourMove && !e.GameEnd && !e.Challenge {
			return false, nil
		}
		e.YourMove, e.GameEnd, e.Challenge = false, false, false
		return true, nil
	})
	if err != nil {
		return "", s.changeFailed("turning the mail off", err)
	}
	return fmt.Sprintf("Parlour will send no more mail to %s. To hear from it again, or to remove the address, visit your account page.", addr), nil
}

// UnsubscribeAddress returns the address whose messages carry token,
// changing nothing: the page a followed link opens asks before it turns
// the mail off, since the programs that guard mailboxes open every link
// in a message, and must not unsubscribe its reader by looking.
func (s *Service) UnsubscribeAddress(ctx context.Context, token string) (string, error) {
	e, err := s.unsubscribing(ctx, token)
	return e.Address, err
}

// unsubscribing reads the address whose messages carry token.
func (s *Service) unsubscribing(ctx context.Context, token string) (store.Email, error) {
	if s.st == nil {
		return store.Email{}, refuse.NotFound("e-mail is not offered on this server")
	}
	if token == "" {
		return store.Email{}, refuse.Bad("this unsubscribe link has no token: open the whole link from the mail")
	}
	if !account.ValidTokenShape(token) {
		return store.Email{}, refuse.Bad("this unsubscribe link is cut short or changed: open the whole link from the mail")
	}
	h := account.HashToken(token)
	e, err := s.st.EmailByUnsubscribeHash(ctx, h[:])
	if errors.Is(err, store.ErrNotFound) {
		return store.Email{}, refuse.NotFound("this unsubscribe link is not known: the address was changed or removed since, and gets no mail from Parlour")
	}
	if err != nil {
		return store.Email{}, refuse.ReadFailed(s.log, "the e-mail address", err)
	}
	return e, nil
}

// change lets fn change e, an address as read from the store, and
// stores it unless it changed meanwhile; then it reads it again and lets
// fn look again. A link followed while its owner changes the address so
// loses neither change. fn returns false to store nothing; its error is
// returned as it is.
func (s *Service) change(ctx context.Context, e store.Email, fn func(e *store.Email) (bool, error)) (store.Email, error) {
	for tries := 1; ; tries++ {
		was := e.Updated
		ok, err := fn(&e)
		if err != nil || !ok {
			return e, err
		}
		// Updated moves on with every change, so that a change over an
		// older reading is seen even when two fall within one tick.
		e.Updated = s.cfg.Now().UTC()
		if !e.Updated.After(was) {
			e.Updated = was.Add(time.Microsecond)
		}
		err = s.st.SetEmailIf(ctx, e, was)
		if !errors.Is(err, store.ErrConflict) || tries == 3 {
			return e, err
		}
		if e, err = s.st.EmailOf(ctx, e.Identity); err != nil {
			return e, err
		}
	}
}

// changeFailed says why change failed: fn's refusal as it is, an address
// removed meanwhile as gone, anything else as a failed save of what.
func (s *Service) changeFailed(what string, err error) error {
	if no := (*refuse.Error)(nil); errors.As(err, &no) {
		return err
	}
	if errors.Is(err, store.ErrNotFound) {
		return refuse.NotFound("this address was removed from its account meanwhile")
	}
	return refuse.SaveFailed(s.log, what, err)
}

// kinds names the mail e asked for, in a sentence.
func kinds(e store.Email) string {
	var k []string
	if e.YourMove {
		k = append(k, "when it is your move and you are away")
	}
	if e.GameEnd {
		k = append(k, "when a game of yours ends")
	}
	if e.Challenge {
		k = append(k, "when someone challenges you")
	}
	if len(k) == 1 {
		return k[0]
	}
	return strings.Join(k[:len(k)-1], ", ") + " and " + k[len(k)-1]
}

// hours says d in hours, plural right.
func hours(d time.Duration) string {
	n := int(d.Round(time.Hour) / time.Hour)
	if n == 1 {
		return "1 hour"
	}
	return fmt.Sprintf("%d hours", n)
}

// Started implements table.Observer: a game's start is told as its first
// turn (Turn).
func (s *Service) Started(table.GameNote) {}

// Finished implements table.Observer: the players who asked hear how the
// game ended.
func (s *Service) Finished(n table.GameNote, end *store.GameEnd) {
	s.mu.Lock()
	for _, id := range n.Seats {
		delete(s.mailed, turnKey{n.Table, id})
	}
	s.mu.Unlock()
	if !s.Offered() {
		return
	}
	for _, se := range end.Seats {
		if se.Identity != "" {
			s.enqueue(message{kind: kindGameEnd, identity: se.Identity, note: n, seat: se.Seat, result: se.Result})
		}
	}
}

// Turn implements table.TurnObserver: a player whose seat is to move and
// who has no page or stream open hears of it, once a turn. It applies to
// any table: a slow game (days a move) is where it matters, and a player
// who left a quick one is told too.
func (s *Service) Turn(n table.GameNote, seats []int) {
	if !s.Offered() {
		return
	}
	var tell []int
	s.mu.Lock()
	for i, id := range n.Seats {
		if id == "" {
			continue
		}
		k := turnKey{n.Table, id}
		if !containsSeat(seats, i) {
			delete(s.mailed, k)
			continue
		}
		if s.mailed[k] || s.cfg.Online(id) {
			continue
		}
		s.mailed[k] = true
		tell = append(tell, i)
	}
	s.mu.Unlock()
	for _, i := range tell {
		s.enqueue(message{kind: kindYourMove, identity: n.Seats[i], note: n, seat: i})
	}
}

func containsSeat(seats []int, i int) bool {
	for _, s := range seats {
		if s == i {
			return true
		}
	}
	return false
}

// Challenged hears of a challenge made (social.Config.Challenged): the
// one challenged hears of it, if they asked.
func (s *Service) Challenged(to, from string, ch social.Challenge) {
	if s.Offered() {
		s.enqueue(message{kind: kindChallenge, identity: to, challenge: ch})
	}
}

// HearsTurns implements table.TurnObserver: a turn is news only to a
// server that sends mail.
func (s *Service) HearsTurns() bool { return s.Offered() }

var _ table.TurnObserver = (*Service)(nil)
