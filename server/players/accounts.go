package players

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"parlour/account"
	"parlour/game"
	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/server/table"
	"parlour/store"
)

// DeletedName is what a deleted account is called in the records of its
// finished games (account.DeletedName).
const DeletedName = account.DeletedName

// wrongPair is the one answer to a sign-in with a name that has no
// account and to one with a wrong password, so that nobody learns which
// names exist.
const wrongPair = "wrong name or password"

// Session answers a sign-up or a sign-in: the account's name and a token
// that acts for it.
type Session struct {
	Name  string `json:"name"`
	Token string `json:"token"`
}

// AccountRequest is the body of a sign-up and of a sign-in.
type AccountRequest struct {
	Name     string `json:"name"`
	Password string `json:"password"`
}

// PasswordRequest changes a password: the current one, and the new one.
type PasswordRequest struct {
	Password    string `json:"password"`
	NewPassword string `json:"new_password"`
}

// DeleteRequest deletes an account; the password confirms it.
type DeleteRequest struct {
	Password string `json:"password"`
}

// Account says who a signed-in request comes from.
type Account struct {
	Name     string    `json:"name"`
	Identity string    `json:"identity"`
	Created  time.Time `json:"created"`
}

// hashPassword hashes password with argon2id, taking one of the service's
// hashing slots: each hash holds 64 MiB for its time, so a burst of
// sign-ins waits its turn rather than exhausting memory.
func (s *Service) hashPassword(ctx context.Context, password string) (string, error) {
	if err := s.hashSlot(ctx); err != nil {
		return "", err
	}
	defer func() { <-s.hashing }()
	return account.Hash(password), nil
}

// verifyPassword checks password against encoded (a dummy hash when
// encoded is empty, so that a missing account costs the same time).
func (s *Service) verifyPassword(ctx context.Context, encoded, password string) (bool, error) {
	if err := s.hashSlot(ctx); err != nil {
		return false, err
	}
	defer func() { <-s.hashing }()
	if encoded == "" || encoded == store.NoPasswordHash {
		// No password matches an account without one (a reopened
		// account's), after the same work as a wrong one.
		account.VerifyDummy(password)
		return false, nil
	}
	return account.Verify(encoded, password)
}

// maxHashWaiting bounds the requests that wait for a hashing slot. Each
// hash takes tens of milliseconds of a processor, so a queue longer than
// this is seconds of work that a flood has piled up: past it a request is
// told to come back rather than made to wait behind the flood.
const maxHashWaiting = 32

// hashBusy refuses a password check that would wait too long.
func hashBusy() error {
	return refuse.Unavailable("the server is busy checking passwords: try again in a few seconds")
}

func (s *Service) hashSlot(ctx context.Context) error {
	select {
	case s.hashing <- struct{}{}:
		return nil
	default:
	}
	if s.hashWaiting.Add(1) > maxHashWaiting {
		s.hashWaiting.Add(-1)
		return hashBusy()
	}
	defer s.hashWaiting.Add(-1)
	select {
	case s.hashing <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// signUpPlace holds one of the sign-ups' places until release is called.
// There is one place fewer than hashing slots (one at least), so a flood
// of sign-ups, each a 64 MiB hash, leaves a slot to the sign-ins of the
// players who already have accounts: a sign-in waits behind one sign-up
// at most. A sign-up that finds maxHashWaiting others waiting is refused.
func (s *Service) signUpPlace(ctx context.Context) (release func(), err error) {
	select {
	case s.signingUp <- struct{}{}:
		return func() { <-s.signingUp }, nil
	default:
	}
	if s.hashWaiting.Add(1) > maxHashWaiting {
		s.hashWaiting.Add(-1)
		return nil, hashBusy()
	}
	defer s.hashWaiting.Add(-1)
	select {
	case s.signingUp <- struct{}{}:
		return func() { <-s.signingUp }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// NameFree refuses name, a name account.CheckName accepts, for the
// account of identity ("" for an account not made yet) when another
// account holds it, in any case, or a name it looks like ("CaroI"
// beside "Carol"): such a name could pass for its holder, a moderator
// among them. Sign-up and a moderator's rename both ask it, so that
// they refuse the same names. The account's own name, and its
// look-alikes, are free to it.
func (s *Service) NameFree(ctx context.Context, name, identity string) error {
	ps, err := s.players()
	if err != nil {
		return err
	}
	if a, err := ps.AccountByKey(ctx, account.Key(name)); err == nil && (identity == "" || a.Identity != identity) {
		return nameTaken(name)
	} else if err != nil && !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("reading the account called %q: %w", name, err)
	}
	like, ok, err := s.auth.AccountLike(ctx, name, identity)
	if err != nil {
		return err
	}
	if ok {
		return refuse.Conflict("the name %q looks like %q, another player's: choose another", name, like.Name)
	}
	return nil
}

// nameTaken refuses name, which another account holds.
func nameTaken(name string) error {
	return refuse.Conflict("the name %q is taken: choose another", name)
}

// SignUp makes an account called name with password. When p is not nil
// its identity (a guest's) becomes the account, with every game it
// played; otherwise a new identity is made. It returns a new session.
func (s *Service) SignUp(ctx context.Context, p *auth.Principal, name, password string) (Session, error) {
	ps, err := s.players()
	if err != nil {
		return Session{}, err
	}
	name = strings.TrimSpace(name)
	if err := account.CheckName(name); err != nil {
		return Session{}, refuse.Bad("%v", err)
	}
	if err := account.CheckPassword(name, password); err != nil {
		return Session{}, refuse.Bad("%v", err)
	}
	if err := s.NameFree(ctx, name, ""); err != nil {
		return Session{}, err
	}
	var guest *store.Identity
	id := ""
	if p != nil {
		if _, err := ps.AccountOf(ctx, p.Identity); err == nil {
			return Session{}, refuse.Conflict("you already have an account: sign out first to make another")
		} else if !errors.Is(err, store.ErrNotFound) {
			return Session{}, err
		}
		id = p.Identity
	} else {
		id = auth.NewID()
		guest = &store.Identity{ID: id, Name: name, Created: s.tables.Now()}
	}
	release, err := s.signUpPlace(ctx)
	if err != nil {
		return Session{}, err
	}
	hash, err := s.hashPassword(ctx, password)
	release()
	if err != nil {
		return Session{}, err
	}
	tok, h := auth.NewToken()
	cred := store.Credential{Hash: h, Identity: id}
	a := store.Account{Identity: id, Name: name, Key: account.Key(name), Hash: hash, Created: time.Now()}
	dropped, err := ps.CreateAccount(ctx, a, cred, guest)
	if err != nil {
		if errors.Is(err, store.ErrConflict) {
			if _, aerr := ps.AccountOf(ctx, id); aerr == nil && p != nil {
				// Two sign-ups of one guest at once: the other won.
				return Session{}, refuse.Conflict("you already have an account: sign out first to make another")
			}
			return Session{}, nameTaken(name)
		}
		return Session{}, s.saveFailed("your account", err)
	}
	// The guest's own tokens end here: one planted in a victim's browser
	// before the sign-up must not become the account's session.
	s.forget(ctx, dropped)
	s.auth.Remember(cred)
	s.log.Info("account created", "identity", id, "upgraded", p != nil)
	return Session{Name: name, Token: tok}, nil
}

// SignIn checks name and password and returns a new session. A name with
// no account and a wrong password get the same answer, after the same
// work.
func (s *Service) SignIn(ctx context.Context, name, password string) (Session, error) {
	ps, err := s.players()
	if err != nil {
		return Session{}, err
	}
	a, err := ps.AccountByKey(ctx, account.Key(strings.TrimSpace(name)))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return Session{}, err
	}
	if err == nil && a.Hash == ClosedHash {
		return Session{}, errClosed()
	}
	if err == nil && a.Hash == store.NoPasswordHash {
		// Reopened with no password to give back: none matches.
		s.verifyPassword(ctx, "", password)
		return Session{}, refuse.Unauthorized("this account has no password since a moderator reopened it: set one with a reset link sent to its e-mail address (Forgot your password?), or ask the server's operator to set one")
	}
	ok, err := s.verifyPassword(ctx, a.Hash, password)
	if err != nil {
		return Session{}, err
	}
	if !ok {
		return Session{}, refuse.Unauthorized(wrongPair)
	}
	tok, h := auth.NewToken()
	cred := store.Credential{Hash: h, Identity: a.Identity}
	if account.NeedsRehash(a.Hash) {
		// Raised parameters reach every account that signs in.
		if nh, err := s.hashPassword(ctx, password); err == nil {
			if err := ps.Rehash(ctx, a.Identity, a.Hash, nh); err != nil {
				s.log.Warn("storing a rehashed password", "identity", a.Identity, "err", err)
			}
		}
	}
	if err := s.st.AddCredential(ctx, cred); err != nil {
		return Session{}, s.saveFailed("your session", err)
	}
	s.auth.Remember(cred)
	return Session{Name: a.Name, Token: tok}, nil
}

// SignOut ends the session whose token is token. A seat's token is not a
// session: it stays.
func (s *Service) SignOut(ctx context.Context, p *auth.Principal, token string) error {
	ps, err := s.players()
	if err != nil {
		return err
	}
	if p.Table != "" {
		return refuse.Bad("that is a seat's token, not a session: there is nothing to sign out of")
	}
	sum := account.HashToken(token)
	if err := ps.DeleteCredential(ctx, sum[:]); err != nil {
		return s.saveFailed("signing out", err)
	}
	s.forget(ctx, [][]byte{sum[:]})
	return nil
}

// SessionIdle is how long an account's session lasts unused: a program's
// token ends as long after its last request, and the browser's cookie
// lasts as long after its last page (httpapi). A guest's own token never
// ends, being all the guest has.
const SessionIdle = 30 * 24 * time.Hour

// ExpireSessions ends the accounts' sessions unused for SessionIdle, as
// signing out would: on every node, closing the sockets and streams
// opened with them. It returns how many it ended.
func (s *Service) ExpireSessions(ctx context.Context) (int, error) {
	ps, err := s.players()
	if err != nil {
		return 0, err
	}
	now := s.tables.Now()
	hashes, err := ps.ExpireSessions(ctx, now.Add(-SessionIdle), now)
	if err != nil {
		return 0, fmt.Errorf("ending the sessions unused for %v: %w", SessionIdle, err)
	}
	s.forget(ctx, hashes)
	return len(hashes), nil
}

// accountFor returns the account of p, or a refusal when p is nobody's or
// a guest's.
func (s *Service) accountFor(ctx context.Context, p *auth.Principal) (store.Account, store.Players, error) {
	ps, err := s.players()
	if err != nil {
		return store.Account{}, nil, err
	}
	if p == nil {
		return store.Account{}, nil, refuse.Unauthorized("sign in first")
	}
	a, err := ps.AccountOf(ctx, p.Identity)
	if errors.Is(err, store.ErrNotFound) {
		return a, nil, refuse.Forbidden("you are a guest: make an account first")
	}
	return a, ps, err
}

// Account returns the account p signed in to.
func (s *Service) Account(ctx context.Context, p *auth.Principal) (_ Account, err error) {
	defer s.reading("your account", &err)
	a, _, err := s.accountFor(ctx, p)
	if err != nil {
		return Account{}, err
	}
	return Account{Name: a.Name, Identity: a.Identity, Created: a.Created}, nil
}

// checkPassword refuses a wrong current password, for the changes that
// ask for it.
func (s *Service) checkPassword(ctx context.Context, a store.Account, password string) error {
	if password == "" {
		// Not a wrong password: none was given.
		return refuse.Bad("give your current password too")
	}
	ok, err := s.verifyPassword(ctx, a.Hash, password)
	if err != nil {
		return err
	}
	if !ok {
		return refuse.Forbidden("that is not your current password")
	}
	return nil
}

// CheckCurrentPassword refuses a wrong current password of the account
// a, for a change made elsewhere that asks for it (a new e-mail address,
// which can choose a new password through a reset link).
func (s *Service) CheckCurrentPassword(ctx context.Context, a store.Account, password string) error {
	return s.checkPassword(ctx, a, password)
}

// ChangePassword replaces p's password, after checking the current one,
// and ends every other session of the account (the seats' tokens stay).
func (s *Service) ChangePassword(ctx context.Context, p *auth.Principal, token string, req PasswordRequest) error {
	a, ps, err := s.accountFor(ctx, p)
	if err != nil {
		return err
	}
	if err := account.CheckPassword(a.Name, req.NewPassword); err != nil {
		return refuse.Bad("new password: %v", err)
	}
	if err := s.checkPassword(ctx, a, req.Password); err != nil {
		return err
	}
	hash, err := s.hashPassword(ctx, req.NewPassword)
	if err != nil {
		return err
	}
	sum := account.HashToken(token)
	dropped, err := ps.SetPassword(ctx, a.Identity, a.Hash, hash, sum[:])
	if errors.Is(err, store.ErrConflict) {
		// Changed since it was read and checked: by another change, for
		// which this one's current password is no longer right, or by a
		// moderator's close, which no password undoes.
		if now, err := ps.AccountOf(ctx, a.Identity); err == nil && now.Hash == ClosedHash {
			return errClosed()
		}
		return refuse.Forbidden("that is not your current password: it was changed meanwhile")
	}
	if err != nil {
		return s.saveFailed("your new password", err)
	}
	s.forget(ctx, dropped)
	return nil
}

// Ended answers a sign-out everywhere else: how many sessions ended.
type Ended struct {
	Ended int `json:"ended"`
}

// EndOtherSessions signs p's account out everywhere but here: every
// session and identity token of the account but token, the one asking,
// ends, on every node, and with them the sockets and streams opened with
// them. A player who left a session signed in on a borrowed computer, or
// fears one was stolen, ends it without changing the password.
func (s *Service) EndOtherSessions(ctx context.Context, p *auth.Principal, token string) (Ended, error) {
	a, ps, err := s.accountFor(ctx, p)
	if err != nil {
		return Ended{}, err
	}
	sum := account.HashToken(token)
	dropped, err := ps.EndSessions(ctx, a.Identity, sum[:])
	if err != nil {
		return Ended{}, s.saveFailed("signing out your other sessions", err)
	}
	s.forget(ctx, dropped)
	s.log.Info("signed out everywhere else", "identity", a.Identity, "sessions_ended", len(dropped))
	return Ended{Ended: len(dropped)}, nil
}

// CheckNewPassword refuses a password the rules refuse for the account
// of identity, as a sign-up or a change would, without changing anything:
// a password reset checks it before it spends its link.
func (s *Service) CheckNewPassword(ctx context.Context, identity, password string) error {
	ps, err := s.players()
	if err != nil {
		return err
	}
	a, err := ps.AccountOf(ctx, identity)
	if err != nil {
		return refuse.ReadFailed(s.log, "the account", err)
	}
	if a.Hash == ClosedHash {
		// Closing replaced the password: a new one would reopen it.
		return errClosed()
	}
	if err := account.CheckPassword(a.Name, password); err != nil {
		return refuse.Bad("new password: %v", err)
	}
	return nil
}

// ResetPassword gives the account of identity the new password, without
// the current one (its owner proved the account theirs another way: a
// link mailed to its confirmed address), and ends every session of the
// account, so that whoever else held one is signed out. It returns the
// account's name.
func (s *Service) ResetPassword(ctx context.Context, identity, password string) (string, error) {
	if err := s.CheckNewPassword(ctx, identity, password); err != nil {
		return "", err
	}
	ps, err := s.players()
	if err != nil {
		return "", err
	}
	a, err := ps.AccountOf(ctx, identity)
	if err != nil {
		return "", refuse.ReadFailed(s.log, "the account", err)
	}
	if a.Hash == ClosedHash {
		return "", errClosed() // closed since the link's check
	}
	hash, err := s.hashPassword(ctx, password)
	if err != nil {
		return "", err
	}
	dropped, err := ps.SetPassword(ctx, a.Identity, a.Hash, hash, nil)
	if errors.Is(err, store.ErrConflict) {
		// Closed, or its password changed, since the link was checked:
		// either spent the link.
		if now, err := ps.AccountOf(ctx, a.Identity); err == nil && now.Hash == ClosedHash {
			return "", errClosed()
		}
		return "", refuse.Gone("the password was changed since this link was sent: the link is spent")
	}
	if err != nil {
		return "", s.saveFailed("your new password", err)
	}
	s.forget(ctx, dropped)
	s.log.Info("password reset", "identity", a.Identity, "sessions_ended", len(dropped))
	return a.Name, nil
}

// DeleteAccount deletes p's account after checking its password: its
// ratings, history and every token go, and its finished games stay, with
// its seats renamed DeletedName. An account still seated at a game under
// way is refused: the game would stall for the others.
func (s *Service) DeleteAccount(ctx context.Context, p *auth.Principal, password string) error {
	a, ps, err := s.accountFor(ctx, p)
	if err != nil {
		return err
	}
	if err := s.checkPassword(ctx, a, password); err != nil {
		return err
	}
	seated, err := s.Seated(ctx, a.Identity)
	if err != nil {
		return err // a node that did not answer may hold a table of theirs
	}
	if err := stillSeated(seated); err != nil {
		return err
	}
	renames, err := s.RenameSeats(ctx, a.Identity, DeletedName)
	if err != nil {
		return err
	}
	done := func() {}
	if s.deleting != nil {
		done = s.deleting(ctx, a.Identity)
	}
	dropped, err := ps.DeleteAccount(ctx, a.Identity, DeletedName, renames)
	if errors.Is(err, store.ErrNotFound) {
		// Another request deleted it meanwhile (the same one sent twice).
		return refuse.Gone("your account is deleted already")
	}
	if err != nil {
		return s.saveFailed("deleting your account", err)
	}
	s.forget(ctx, dropped)
	done()
	// Finished tables in memory hold the old names: let the store answer
	// for them from now on.
	ids := make([]string, len(renames))
	for i, u := range renames {
		ids[i] = u.ID
	}
	s.tables.Forget(ids...)
	if s.deleted != nil {
		s.deleted(ctx, a.Identity)
	}
	s.log.Info("account deleted", "identity", a.Identity, "games", len(renames))
	return nil
}

// RenameSeats returns the updates of identity's finished tables that give
// its seats the name name: an account deleted, or renamed by a
// moderator, leaves no finished game under its old name.
func (s *Service) RenameSeats(ctx context.Context, identity, name string) ([]store.TableUpdate, error) {
	ps, err := s.players()
	if err != nil {
		return nil, err
	}
	var renames []store.TableUpdate
	for before, beforeTable := (time.Time{}), ""; ; {
		page, err := ps.History(ctx, store.HistoryPage{Identity: identity, Before: before, BeforeTable: beforeTable, Limit: 500})
		if err != nil {
			return nil, err
		}
		for _, g := range page {
			u, err := table.RenameSeat(g.Table, g.Meta, identity, name)
			if err != nil {
				return nil, err
			}
			renames = append(renames, u)
		}
		if len(page) < 500 {
			return renames, nil
		}
		before, beforeTable = page[len(page)-1].Ended, page[len(page)-1].Table
	}
}

// ClosedHash is the password hash of an account a moderator closed
// (store.ClosedHash): a sign-in to the account is refused as closed
// rather than as a wrong password.
const ClosedHash = store.ClosedHash

// errClosed refuses a sign-in to a closed account.
func errClosed() error { return refuse.Forbidden("this account was closed by a moderator") }

// Closed refuses a new game with the account called name, which a
// moderator closed: its player can no longer sign in to move.
func Closed(name string) error {
	return refuse.Conflict("%s's account was closed by a moderator: they play no more games", name)
}

// MayPlay refuses a game with others when one of them has an account a
// moderator closed (Closed): the tables ask it (table.Config.MayPlay) when
// someone joins and at a rematch, and the challenges when one is
// accepted. A challenge made, which holds the account it names, looks at
// its hash itself.
func (s *Service) MayPlay(ctx context.Context, others []table.PairedSeat) error {
	ps, err := s.players()
	if err != nil {
		return nil // no accounts kept, so none closed
	}
	for _, o := range others {
		if o.Guest {
			continue
		}
		a, err := ps.AccountOf(ctx, o.Identity)
		switch {
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			return refuse.ReadFailed(s.log, "the players' accounts", err)
		case a.Hash == ClosedHash:
			return Closed(a.Name)
		}
	}
	return nil
}

// Forget drops ended sessions from the credential cache, here and,
// clustered, on every other node, before it returns: a moderator's
// closing of an account ends its sessions everywhere.
func (s *Service) Forget(ctx context.Context, hashes [][]byte) { s.forget(ctx, hashes) }

// forget drops deleted credentials from the cache, and, clustered, from
// every other node's before it returns.
func (s *Service) forget(ctx context.Context, hashes [][]byte) {
	for _, h := range hashes {
		s.auth.Forget(h)
	}
	if s.peers != nil && len(hashes) > 0 {
		s.peers.ForgetEverywhere(ctx, hashes)
	}
}

// stillSeated refuses to delete an account seated at tables under way,
// saying what to do about each kind: resign a game begun, leave a table
// whose game has not.
func stillSeated(seated []table.SeatedTable) error {
	var begun, waiting []string
	for _, t := range seated {
		if t.Status == store.Open || t.Status == store.Setup {
			waiting = append(waiting, t.ID)
		} else {
			begun = append(begun, t.ID)
		}
	}
	pronoun := func(ids []string) string {
		if len(ids) == 1 {
			return "it"
		}
		return "them"
	}
	var parts []string
	if len(begun) > 0 {
		parts = append(parts, fmt.Sprintf("you hold a seat at %s still under way (%s): finish or resign %s first",
			game.Count(len(begun), "table", "tables"), strings.Join(begun, ", "), pronoun(begun)))
	}
	if len(waiting) > 0 {
		parts = append(parts, fmt.Sprintf("you hold a seat at %s whose game has not begun (%s): leave %s first",
			game.Count(len(waiting), "table", "tables"), strings.Join(waiting, ", "), pronoun(waiting)))
	}
	if len(parts) == 0 {
		return nil
	}
	return refuse.Conflict("%s", strings.Join(parts, "; "))
}
