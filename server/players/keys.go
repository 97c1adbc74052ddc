// The accounts' SSH keys: the endpoints that add, list and delete them,
// and the session the SSH door asks for when a client proves it holds one.

package players

import (
	"context"
	"crypto/rsa"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"

	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/store"
)

// ErrKeyUnconfirmed is what KeySession's error wraps for a key its
// account holds unconfirmed: the door asks for the account's password
// once, which confirms it.
var ErrKeyUnconfirmed = errors.New("the key is not confirmed")

// maxKeys is how many SSH keys one account may hold.
const maxKeys = 20

// maxKeyText is the longest key line accepted (an RSA key of 16384 bits
// fits).
const maxKeyText = 4096

// KeyRequest adds an SSH key: one line of authorized_keys form,
// "ssh-ed25519 AAAA… comment", and the account's current password. A key
// signs in as the account with no password and outlives a new password
// and every sign-out, so a session alone (one left signed in, or stolen)
// must not be able to add one.
type KeyRequest struct {
	Key      string `json:"key"`
	Password string `json:"password"`
}

// KeyInfo is one of an account's SSH keys.
type KeyInfo struct {
	Fingerprint string    `json:"fingerprint"`
	Type        string    `json:"type"`
	Key         string    `json:"key"`
	Comment     string    `json:"comment,omitempty"`
	Added       time.Time `json:"added"`
	// Used is when the SSH door last signed the account in with the key;
	// absent for a key never used.
	Used *time.Time `json:"used,omitempty"`
	// Confirmed is whether the key signs in: a key pasted here does once
	// its holder has come through the SSH door with it and typed the
	// account's password there, which proves the key is theirs and the
	// account too.
	Confirmed bool `json:"confirmed"`
}

func keyInfo(k store.SSHKey) KeyInfo {
	typ, _, _ := strings.Cut(k.Key, " ")
	in := KeyInfo{Fingerprint: k.Fingerprint, Type: typ, Key: k.Key, Comment: k.Comment, Added: k.Added, Confirmed: k.Confirmed}
	if !k.Used.IsZero() {
		used := k.Used
		in.Used = &used
	}
	return in
}

// keys returns the store's key side, or a refusal when it keeps none.
func (s *Service) keys() (store.Keys, error) {
	ks, ok := s.st.(store.Keys)
	if !ok {
		return nil, refuse.With(http.StatusNotImplemented, "this server keeps no SSH keys")
	}
	return ks, nil
}

// ParseKey reads one public key in authorized_keys form and returns it
// with its comment. It refuses what the SSH door would not accept:
// certificates, keys with options, RSA keys under 2048 bits, more than
// one line.
func ParseKey(text string) (ssh.PublicKey, string, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, "", refuse.Bad("paste a public key: one line such as \"ssh-ed25519 AAAA… you@laptop\" (from ~/.ssh/id_ed25519.pub)")
	}
	// A private key file is many lines, and an RSA one may pass the
	// length limit: it is told apart first, so that its owner hears what
	// they sent rather than to send one line.
	if strings.HasPrefix(text, "-----BEGIN") {
		return nil, "", refuse.Bad("that is a private key: never send it anywhere; send the public one (the .pub file)")
	}
	if len(text) > maxKeyText {
		return nil, "", refuse.Bad("that key is too long: a public key is one line of at most %d characters", maxKeyText)
	}
	if strings.ContainsAny(text, "\r\n") {
		return nil, "", refuse.Bad("send one key at a time: one line")
	}
	pub, comment, opts, rest, err := ssh.ParseAuthorizedKey([]byte(text))
	if err != nil {
		return nil, "", refuse.Bad("that is not an SSH public key: send one line such as \"ssh-ed25519 AAAA… you@laptop\"")
	}
	if len(opts) > 0 || len(rest) > 0 {
		return nil, "", refuse.Bad("send the key alone, without options before it")
	}
	if _, ok := pub.(*ssh.Certificate); ok {
		return nil, "", refuse.Bad("certificates are not accepted: send the plain public key")
	}
	if ck, ok := pub.(ssh.CryptoPublicKey); ok {
		if r, ok := ck.CryptoPublicKey().(*rsa.PublicKey); ok && r.N.BitLen() < 2048 {
			return nil, "", refuse.Bad("that RSA key has %d bits: use one of at least 2048, or better an ed25519 key", r.N.BitLen())
		}
	}
	return pub, strings.TrimSpace(comment), nil
}

// KeyText returns pub in authorized_keys form without a comment.
func KeyText(pub ssh.PublicKey) string {
	return strings.TrimSpace(string(ssh.MarshalAuthorizedKey(pub)))
}

// AddKey adds the SSH key of req to p's account, once req's password is
// the account's.
func (s *Service) AddKey(ctx context.Context, p *auth.Principal, req KeyRequest) (KeyInfo, error) {
	a, _, err := s.accountFor(ctx, p)
	if err != nil {
		return KeyInfo{}, err
	}
	ks, err := s.keys()
	if err != nil {
		return KeyInfo{}, err
	}
	pub, comment, err := ParseKey(req.Key)
	if err != nil {
		return KeyInfo{}, err
	}
	if req.Password == "" {
		return KeyInfo{}, refuse.Bad("give your password too: a key signs in as you without one")
	}
	if err := s.checkPassword(ctx, a, req.Password); err != nil {
		return KeyInfo{}, err
	}
	have, err := ks.KeysOf(ctx, a.Identity)
	if err != nil {
		return KeyInfo{}, err
	}
	fp := ssh.FingerprintSHA256(pub)
	for _, k := range have {
		if k.Fingerprint == fp {
			return keyInfo(k), nil // adding a key twice changes nothing
		}
	}
	if len(have) >= maxKeys {
		return KeyInfo{}, refuse.Conflict("your account holds %d keys already: delete one first", maxKeys)
	}
	// A public key is public: whoever pastes one proves nothing of
	// holding it, so the key signs in only once its holder confirms it
	// through the SSH door (ProveKey).
	k := store.SSHKey{Identity: a.Identity, Fingerprint: fp, Key: KeyText(pub), Comment: comment, Added: time.Now()}
	if err := ks.AddKey(ctx, k); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return KeyInfo{}, s.keyTaken(ctx, ks, fp)
		}
		return KeyInfo{}, s.saveFailed("your key", err)
	}
	s.log.Info("ssh key added", "identity", a.Identity, "fingerprint", fp, "confirmed", false)
	// Every open page and terminal of the account hears of it: a key
	// added by someone else would sign in as the account once confirmed
	// (by one who knows the password).
	in := keyInfo(k)
	if s.keyAdded != nil {
		s.keyAdded(a.Identity, in)
	}
	return in, nil
}

// keyTaken is the refusal of a key another account holds. One it holds
// unconfirmed may be its paster's mistake, or a stranger's claim on the
// key: its holder takes it by coming through the SSH door with it.
func (s *Service) keyTaken(ctx context.Context, ks store.Keys, fp string) error {
	if k, err := ks.KeyByFingerprint(ctx, fp); err == nil && !k.Confirmed {
		return refuse.Conflict("another account has added that key, and its holder has not confirmed it there: if the key is yours, ssh to this server with it and sign in with your password; it becomes your account's")
	}
	return refuse.Conflict("that key belongs to another account: a key signs in one account only")
}

// ProveKey adds pub to the account of token, confirmed, for the SSH door
// once its client has proved it holds the key's private half and the
// player has signed in to the account in that same connection (by
// password or by signing up): together they show the key and the
// account are the same player's. The account's own unconfirmed key is
// confirmed; one another account claimed unconfirmed is taken from it; one
// another account confirmed is refused. comment is the key's comment when
// the account does not have it yet.
func (s *Service) ProveKey(ctx context.Context, token string, pub ssh.PublicKey, comment string) (KeyInfo, error) {
	p, err := s.auth.Authenticate(ctx, token)
	if err != nil {
		return KeyInfo{}, err
	}
	if p.Table != "" {
		return KeyInfo{}, refuse.Forbidden("a seat's token does not act for an account")
	}
	a, _, err := s.accountFor(ctx, p)
	if err != nil {
		return KeyInfo{}, err
	}
	ks, err := s.keys()
	if err != nil {
		return KeyInfo{}, err
	}
	have, err := ks.KeysOf(ctx, a.Identity)
	if err != nil {
		return KeyInfo{}, err
	}
	fp := ssh.FingerprintSHA256(pub)
	k := store.SSHKey{Identity: a.Identity, Fingerprint: fp, Key: KeyText(pub), Comment: comment, Added: time.Now(), Confirmed: true}
	held := false
	for _, h := range have {
		if h.Fingerprint == fp {
			if h.Confirmed {
				return keyInfo(h), nil
			}
			held = true
			k.Comment, k.Added, k.Used = h.Comment, h.Added, h.Used
		}
	}
	if !held && len(have) >= maxKeys {
		return KeyInfo{}, refuse.Conflict("your account holds %d keys already: delete one first", maxKeys)
	}
	if err := ks.ConfirmKey(ctx, k); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return KeyInfo{}, refuse.Conflict("that key belongs to another account: a key signs in one account only")
		}
		return KeyInfo{}, s.saveFailed("your key", err)
	}
	s.log.Info("ssh key confirmed", "identity", a.Identity, "fingerprint", fp)
	// Every open page and terminal of the account hears of it, as of a
	// key added: from now on it signs in.
	in := keyInfo(k)
	if s.keyAdded != nil {
		s.keyAdded(a.Identity, in)
	}
	return in, nil
}

// Keys lists p's account's SSH keys.
func (s *Service) Keys(ctx context.Context, p *auth.Principal) (_ []KeyInfo, err error) {
	defer s.reading("your keys", &err)
	a, _, err := s.accountFor(ctx, p)
	if err != nil {
		return nil, err
	}
	ks, err := s.keys()
	if err != nil {
		return nil, err
	}
	have, err := ks.KeysOf(ctx, a.Identity)
	if err != nil {
		return nil, err
	}
	out := make([]KeyInfo, 0, len(have))
	for _, k := range have {
		out = append(out, keyInfo(k))
	}
	return out, nil
}

// DeleteKey deletes the SSH key with fingerprint fp from p's account.
func (s *Service) DeleteKey(ctx context.Context, p *auth.Principal, fp string) error {
	a, _, err := s.accountFor(ctx, p)
	if err != nil {
		return err
	}
	ks, err := s.keys()
	if err != nil {
		return err
	}
	if err := ks.DeleteKey(ctx, a.Identity, fp); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return refuse.NotFound("your account has no key %s", fp)
		}
		return s.saveFailed("deleting your key", err)
	}
	return nil
}

// KeySession returns a new session for the account that added pub, for
// the SSH door once the client has proved it holds the key's private
// half. A key no account added is a refusal (401); one its account holds
// unconfirmed is one that wraps ErrKeyUnconfirmed, with the account's
// name in the Session (none for an account a moderator closed, which no
// password signs in).
func (s *Service) KeySession(ctx context.Context, pub ssh.PublicKey) (Session, error) {
	ks, err := s.keys()
	if err != nil {
		return Session{}, err
	}
	ps, err := s.players()
	if err != nil {
		return Session{}, err
	}
	k, err := ks.KeyByFingerprint(ctx, ssh.FingerprintSHA256(pub))
	if errors.Is(err, store.ErrNotFound) {
		return Session{}, refuse.Unauthorized("no account has added this key")
	}
	if err != nil {
		return Session{}, err
	}
	a, err := ps.AccountOf(ctx, k.Identity)
	if err != nil {
		return Session{}, err
	}
	if !k.Confirmed {
		// Pasted on a page, by the account or by anyone who has the
		// public key: its holder says with the account's password
		// whether the account is theirs. That the account was closed
		// says nothing of the key, which may be another player's; but
		// no password signs a closed account in, so none is named to
		// be offered.
		name := a.Name
		if a.Hash == ClosedHash {
			name = ""
		}
		return Session{Name: name}, fmt.Errorf("%w: %w", ErrKeyUnconfirmed, refuse.Unauthorized("this key waits to be confirmed over SSH"))
	}
	if a.Hash == ClosedHash {
		return Session{}, errClosed()
	}
	if err := ks.KeyUsed(ctx, k.Fingerprint, s.tables.Now().UTC()); err != nil {
		// Only the account page's "last used" misses it: the sign-in stands.
		s.log.Warn("recording an SSH key's use", "fingerprint", k.Fingerprint, "err", err)
	}
	tok, h := auth.NewToken()
	cred := store.Credential{Hash: h, Identity: a.Identity}
	if err := s.st.AddCredential(ctx, cred); err != nil {
		return Session{}, s.saveFailed("your session", err)
	}
	s.auth.Remember(cred)
	return Session{Name: a.Name, Token: tok}, nil
}

// GuestTTL is how long the SSH door remembers a guest after its last
// use.
const GuestTTL = 30 * 24 * time.Hour

// guests returns the store's side that keeps the SSH door's guests.
func (s *Service) guests() (store.SSHGuests, error) {
	gs, ok := s.st.(store.SSHGuests)
	if !ok {
		return nil, errors.New("this server's store keeps no SSH guests")
	}
	return gs, nil
}

// GuestToken returns the login name of the guest the SSH door remembers
// under key and a new token of its identity, for a connection that proved
// it is that guest (by the key's private half, or the resume code); "" and
// "" when no guest is remembered under key, or none used within GuestTTL,
// or one who has made an account since (who signs in as the account). The
// token is new so that no token need be kept: the door signs it out when
// the connection ends.
func (s *Service) GuestToken(ctx context.Context, key string) (name, token string, err error) {
	gs, err := s.guests()
	if err != nil {
		return "", "", err
	}
	ps, err := s.players()
	if err != nil {
		return "", "", err
	}
	now := s.tables.Now().UTC()
	g, err := gs.SSHGuest(ctx, key)
	if errors.Is(err, store.ErrNotFound) || (err == nil && now.Sub(g.Used) > GuestTTL) {
		return "", "", nil
	}
	if err != nil {
		return "", "", fmt.Errorf("reading the guest: %w", err)
	}
	if _, err := ps.AccountOf(ctx, g.Identity); err == nil {
		return "", "", nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return "", "", fmt.Errorf("reading the guest's account: %w", err)
	}
	tok, h := auth.NewToken()
	cred := store.Credential{Hash: h, Identity: g.Identity}
	if err := s.st.AddCredential(ctx, cred); err != nil {
		return "", "", fmt.Errorf("storing the guest's token: %w", err)
	}
	s.auth.Remember(cred)
	g.Used = now
	if err := gs.PutSSHGuest(ctx, g); err != nil {
		// Only the guest's time to be forgotten misses it: the token
		// stands.
		s.log.Warn("recording an SSH guest's use", "err", err)
	}
	return g.Name, tok, nil
}

// RememberGuest remembers, for the SSH door, that key plays as the guest
// whose identity token is token, under the login name: the guest found
// again by GuestToken. Guests unused for GuestTTL are forgotten then. A
// token that is not a guest's own (a seat's, an account's, an ended one)
// is an error that wraps store.ErrNotFound.
func (s *Service) RememberGuest(ctx context.Context, key, name, token string) error {
	gs, err := s.guests()
	if err != nil {
		return err
	}
	ps, err := s.players()
	if err != nil {
		return err
	}
	p, err := s.auth.Authenticate(ctx, token)
	if refuse.Status(err) == http.StatusUnauthorized {
		return fmt.Errorf("remembering a guest: %w: %w", err, store.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("remembering a guest: %w", err)
	}
	if p.Table != "" {
		return fmt.Errorf("remembering a guest: a seat's token is no guest's: %w", store.ErrNotFound)
	}
	if _, err := ps.AccountOf(ctx, p.Identity); err == nil {
		return fmt.Errorf("remembering a guest: an account's token is no guest's: %w", store.ErrNotFound)
	} else if !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("remembering a guest: %w", err)
	}
	now := s.tables.Now().UTC()
	if err := gs.PutSSHGuest(ctx, store.SSHGuest{Key: key, Name: name, Identity: p.Identity, Used: now}); err != nil {
		return fmt.Errorf("remembering a guest: %w", err)
	}
	if n, err := gs.ForgetSSHGuests(ctx, now.Add(-GuestTTL)); err != nil {
		s.log.Warn("forgetting the SSH guests unused for long", "err", err)
	} else if n > 0 {
		s.log.Info("forgot the SSH guests unused for long", "guests", n, "unused_for", GuestTTL.String())
	}
	return nil
}
