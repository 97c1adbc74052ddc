package client

import (
	"context"
	"net/http"
	"net/url"
)

// Settings are an account's stored settings (GET /api/v1/account/settings):
// Hidden keeps its name off the list of players online; GuestChat lets
// guests write in the chat of its tables.
type Settings struct {
	Hidden    bool `json:"hidden"`
	GuestChat bool `json:"guest_chat"`
}

// Settings reads the settings of the account of token.
func (c *Client) Settings(ctx context.Context, token string) (Settings, error) {
	var s Settings
	err := c.do(ctx, http.MethodGet, "/api/v1/account/settings", token, nil, &s)
	return s, err
}

// SetHidden hides the account from the list of players online, or shows
// it again, and answers the settings as they now are.
func (c *Client) SetHidden(ctx context.Context, token string, hidden bool) (Settings, error) {
	var s Settings
	err := c.do(ctx, http.MethodPut, "/api/v1/account/settings", token, map[string]bool{"hidden": hidden}, &s)
	return s, err
}

// SetGuestChat lets guests write in the chat of the account's tables, or
// keeps that chat to players with accounts, and answers the settings as
// they now are.
func (c *Client) SetGuestChat(ctx context.Context, token string, allowed bool) (Settings, error) {
	var s Settings
	err := c.do(ctx, http.MethodPut, "/api/v1/account/settings", token, map[string]bool{"guest_chat": allowed}, &s)
	return s, err
}

// ChangePassword changes the account's password from current to next; the
// account's other sessions are signed out, token's stays.
func (c *Client) ChangePassword(ctx context.Context, token, current, next string) error {
	return c.do(ctx, http.MethodPut, "/api/v1/account/password", token, map[string]string{"password": current, "new_password": next}, nil)
}

// DeleteAccount deletes the account of token, given its password: its
// tokens, ratings and history go, its finished games stay.
func (c *Client) DeleteAccount(ctx context.Context, token, password string) error {
	return c.do(ctx, http.MethodDelete, "/api/v1/account", token, map[string]string{"password": password}, nil)
}

// Email is an account's e-mail: whether the server sends mail at all,
// the address given (none: ""), whether it is confirmed or a
// confirmation link waits, and the kinds of mail asked for.
type Email struct {
	Offered   bool   `json:"offered"`
	Address   string `json:"address,omitempty"`
	Verified  bool   `json:"verified"`
	Pending   bool   `json:"pending"`
	YourMove  bool   `json:"your_move"`
	GameEnd   bool   `json:"game_end"`
	Challenge bool   `json:"challenge"`
}

// Email reads the e-mail settings of the account of token.
func (c *Client) Email(ctx context.Context, token string) (Email, error) {
	var e Email
	err := c.do(ctx, http.MethodGet, "/api/v1/account/email", token, nil, &e)
	return e, err
}

// SetEmail gives or changes the account's address and the kinds of mail
// it wants (e's Address and kinds); a new address is mailed a link to
// confirm it. Giving or changing the address needs the account's
// password; choosing the kinds alone does not (password may be empty).
// It answers the settings as they now are.
func (c *Client) SetEmail(ctx context.Context, token string, e Email, password string) (Email, error) {
	body := map[string]any{"address": e.Address, "your_move": e.YourMove, "game_end": e.GameEnd, "challenge": e.Challenge}
	if password != "" {
		body["password"] = password
	}
	var out Email
	err := c.do(ctx, http.MethodPut, "/api/v1/account/email", token, body, &out)
	return out, err
}

// RemoveEmail forgets the account's address.
func (c *Client) RemoveEmail(ctx context.Context, token string) error {
	return c.do(ctx, http.MethodDelete, "/api/v1/account/email", token, nil, nil)
}

// DeleteKey removes the SSH key of the given fingerprint from the
// account of token: it signs in at the SSH door no more.
func (c *Client) DeleteKey(ctx context.Context, token, fingerprint string) error {
	return c.do(ctx, http.MethodDelete, "/api/v1/keys/"+url.PathEscape(fingerprint), token, nil, nil)
}
