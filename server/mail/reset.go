package mail

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"parlour/account"
	"parlour/server/players"
	"parlour/server/refuse"
	"parlour/store"
)

// ResetTTL is how long a password reset link works: long enough to reach
// the mail, short enough that a mailbox opened later by someone else finds
// it dead.
const ResetTTL = time.Hour

// ResetAsked is what a request for a password reset link answers, whether
// or not a link was sent: the answer never tells who has an account or an
// address.
func (s *Service) ResetAsked() string {
	return "if that account has a confirmed e-mail address, a link to choose a new password is on its way to it: it works for " + hours(s.cfg.ResetTTL)
}

// ResetRequest is the body of POST /api/v1/password-reset.
type ResetRequest struct {
	Name string `json:"name"`
}

// ResetDone is the body of POST /api/v1/password-reset/confirm.
type ResetDone struct {
	Token    string `json:"token"`
	Password string `json:"password"`
}

// RequestReset mails a link to choose a new password to the confirmed
// address of the account called name, replacing any link mailed before.
// Nothing in the answer says whether the account or its address exists:
// an unknown name, an address not confirmed and a link asked for too
// often (three an hour per account) are answered as a link sent. from
// is the asker's network address, limited to ten asks an hour.
func (s *Service) RequestReset(ctx context.Context, name, from string) error {
	if !s.Offered() {
		return refuse.Conflict("this server sends no e-mail, so it cannot mail a link to choose a new password: ask its operator")
	}
	name = strings.TrimSpace(name)
	if name == "" {
		return refuse.Bad("give the name of the account whose password you forgot")
	}
	if !s.resetFrom.Allow(from) {
		return refuse.TooMany("several password reset links were asked for from your address lately: try again in an hour")
	}
	a, _, err := s.cfg.Players.AccountNamed(ctx, name)
	if no := (*refuse.Error)(nil); errors.As(err, &no) {
		if no.Status == http.StatusNotFound {
			return nil // no such account: said as sent
		}
		return err
	}
	if err != nil {
		return refuse.ReadFailed(s.log, "the account", err)
	}
	if a.Hash == players.ClosedHash {
		return nil // a closed account takes no new password: said as sent
	}
	e, err := s.st.EmailOf(ctx, a.Identity)
	if errors.Is(err, store.ErrNotFound) || err == nil && !e.Verified {
		return nil
	}
	if err != nil {
		return refuse.ReadFailed(s.log, "the account's e-mail address", err)
	}
	if !s.resetFor.Allow(a.Identity) {
		return nil
	}
	token, h := account.NewToken()
	e, err = s.change(ctx, e, func(e *store.Email) (bool, error) {
		if !e.Verified {
			return false, nil // changed meanwhile: said as sent
		}
		e.ResetHash, e.ResetSent = h[:], s.cfg.Now().UTC()
		return true, nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return refuse.SaveFailed(s.log, "the password reset link", err)
	}
	if !bytes.Equal(e.ResetHash, h[:]) {
		return nil
	}
	s.enqueue(message{kind: kindReset, identity: a.Identity, to: e.Address, name: a.Name, token: token})
	s.log.Info("password reset link mailed", "identity", a.Identity)
	return nil
}

// Reset gives the account whose reset link carries token the password,
// ends every session of the account, spends the link and returns the
// account's name. A password the rules refuse leaves the link working.
func (s *Service) Reset(ctx context.Context, req ResetDone) (string, error) {
	if s.st == nil {
		return "", refuse.NotFound("this server sends no e-mail, so it mails no password reset links")
	}
	if req.Token == "" {
		return "", refuse.Bad("this password reset link has no token: open the whole link from the mail")
	}
	if !account.ValidTokenShape(req.Token) {
		return "", refuse.Bad("this password reset link is cut short or changed: open the whole link from the mail")
	}
	h := account.HashToken(req.Token)
	e, err := s.st.EmailByResetHash(ctx, h[:])
	if errors.Is(err, store.ErrNotFound) {
		return "", refuse.NotFound("this password reset link is not known: it was used already, a newer one was asked for since, or the password changed since")
	}
	if err != nil {
		return "", refuse.ReadFailed(s.log, "the password reset link", err)
	}
	if s.cfg.Now().Sub(e.ResetSent) > s.cfg.ResetTTL {
		return "", refuse.Gone("this password reset link expired (it works for %s): ask for a new one", hours(s.cfg.ResetTTL))
	}
	if err := s.cfg.Players.CheckNewPassword(ctx, e.Identity, req.Password); err != nil {
		return "", err
	}
	// Spent before the password changes, and by the store, which lets one
	// of two spends at once through: a link that failed half way is asked
	// for again, never used twice.
	err = s.st.SpendReset(ctx, h[:], s.cfg.Now().UTC())
	if errors.Is(err, store.ErrNotFound) {
		return "", refuse.NotFound("this password reset link is not known: it was used already, a newer one was asked for since, or the password changed since")
	}
	if err != nil {
		return "", refuse.SaveFailed(s.log, "the password reset link", err)
	}
	return s.cfg.Players.ResetPassword(ctx, e.Identity, req.Password)
}
