package moderation

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"time"

	"parlour/account"
	"parlour/store"
)

// NewPassword is the operator's way back into an account for a player who
// forgot the password on a server that mails no reset links, or whose
// address is gone: on the server's machine it gives the account called
// name a new random password, ends every session of the account and logs
// it with reason. It returns the account's name and the password, said
// nowhere else: the operator hands it to the player, who signs in with it
// and chooses their own.
func NewPassword(ctx context.Context, st store.Store, name, reason string, now time.Time) (string, string, error) {
	ps, ok := st.(store.Players)
	ms, mok := st.(store.Moderation)
	if !ok || !mok {
		return "", "", errors.New("this store keeps no accounts")
	}
	a, err := ps.AccountByKey(ctx, account.Key(strings.TrimSpace(name)))
	if errors.Is(err, store.ErrNotFound) {
		return "", "", fmt.Errorf("there is no account called %q (an account its player deleted is gone)", name)
	}
	if err != nil {
		return "", "", err
	}
	if a.Hash == store.ClosedHash {
		// A password would open it again, which is a reopening's to do.
		return "", "", fmt.Errorf("%s's account was closed by a moderator: reopen it first (parlour admin reopen %s)", a.Name, a.Name)
	}
	password := randomPassword(a.Name)
	if _, err := ps.SetPassword(ctx, a.Identity, a.Hash, account.Hash(password), nil); err != nil {
		return "", "", fmt.Errorf("the new password: %w", err)
	}
	act := store.ModAction{Action: "password", Subject: a.Identity, SubjectName: a.Name, Reason: reason, At: now.UTC()}
	if err := ms.LogAction(ctx, act); err != nil {
		return a.Name, password, fmt.Errorf("the password is set, but the moderators' log did not take it: %w", err)
	}
	return a.Name, password, nil
}

// passwordLetters are the letters of a password the operator reads out or
// copies: no 0 and o, 1 and l, nor i, which are told apart badly.
const passwordLetters = "abcdefghjkmnpqrstuvwxyz23456789"

// randomPassword returns four groups of five letters of passwordLetters
// (some 99 bits) that account.CheckPassword takes for an account called
// name.
func randomPassword(name string) string {
	n := len(passwordLetters)
	for {
		var b strings.Builder
		var one [1]byte
		for b.Len() < 23 {
			if b.Len()%6 == 5 {
				b.WriteByte('-')
				continue
			}
			rand.Read(one[:])
			if int(one[0]) >= 256/n*n {
				continue // past the last whole run of the letters: drawn again, so that each is as likely
			}
			b.WriteByte(passwordLetters[int(one[0])%n])
		}
		if p := b.String(); account.CheckPassword(name, p) == nil {
			return p
		}
	}
}
