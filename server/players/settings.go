// An account's settings, and the check that a request comes from an
// account, which the settings and the other domains ask for.

package players

import (
	"context"
	"errors"
	"net/http"

	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/store"
)

// Settings are an account's settings.
type Settings struct {
	// Hidden keeps the account out of the list of players online (it
	// still counts in the number).
	Hidden bool `json:"hidden"`
	// GuestChat lets guests write in the chat of the account's tables
	// (the players' and the spectators'); off, only players with
	// accounts may, so that nobody can come back as a guest to say what
	// a block or a moderator's mute stopped.
	GuestChat bool `json:"guest_chat"`
}

// SettingsRequest changes settings; a field left out stays as it is.
type SettingsRequest struct {
	Hidden    *bool `json:"hidden"`
	GuestChat *bool `json:"guest_chat"`
}

// AccountOnly returns p's account, or refuses a principal that is not an
// account's, saying that what (a thing to do: "challenging") needs one.
func (s *Service) AccountOnly(ctx context.Context, p *auth.Principal, what string) (store.Account, error) {
	if p == nil {
		return store.Account{}, refuse.Unauthorized("%s needs you signed in: Authorization: Bearer <token>, or the session cookie", what)
	}
	ps, err := s.players()
	if err != nil {
		return store.Account{}, err
	}
	a, err := ps.AccountOf(ctx, p.Identity)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return store.Account{}, refuse.Forbidden("%s is for players with accounts: sign up or sign in first", what)
		}
		return store.Account{}, err
	}
	return a, nil
}

// Settings returns p's account settings.
func (s *Service) Settings(ctx context.Context, p *auth.Principal) (_ Settings, err error) {
	defer s.reading("your settings", &err)
	if _, err := s.AccountOnly(ctx, p, "settings"); err != nil {
		return Settings{}, err
	}
	cs, err := s.hidden()
	if err != nil {
		return Settings{}, err
	}
	h, err := cs.Hidden(ctx, []string{p.Identity})
	if err != nil {
		return Settings{}, err
	}
	out := Settings{Hidden: h[p.Identity], GuestChat: true}
	if gs, ok := s.st.(store.GuestChat); ok {
		no, err := gs.NoGuestChat(ctx, []string{p.Identity})
		if err != nil {
			return Settings{}, err
		}
		out.GuestChat = !no[p.Identity]
	}
	return out, nil
}

// SetSettings changes p's account settings and returns them.
func (s *Service) SetSettings(ctx context.Context, p *auth.Principal, req SettingsRequest) (Settings, error) {
	if _, err := s.AccountOnly(ctx, p, "settings"); err != nil {
		return Settings{}, err
	}
	cs, err := s.hidden()
	if err != nil {
		return Settings{}, err
	}
	gs, ok := s.st.(store.GuestChat)
	if req.GuestChat != nil && !ok {
		return Settings{}, refuse.With(http.StatusNotImplemented, "this server keeps no chat settings")
	}
	if req.Hidden != nil {
		if err := cs.SetHidden(ctx, p.Identity, *req.Hidden); err != nil {
			return Settings{}, s.saveFailed("your settings", err)
		}
	}
	if req.GuestChat != nil {
		if err := gs.SetGuestChat(ctx, p.Identity, *req.GuestChat); err != nil {
			return Settings{}, s.saveFailed("your settings", err)
		}
	}
	return s.Settings(ctx, p)
}
