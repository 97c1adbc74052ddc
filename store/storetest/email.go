package storetest

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"parlour/store"
)

// emailTests are the e-mail addresses' tests.
func emailTests() []test {
	return []test{{"Emails", testEmails}, {"NewPasswordSpendsReset", testNewPasswordSpendsReset}}
}

// testNewPasswordSpendsReset: a new password, and a moderator's
// reopening of the account, spend the account's password reset link, so
// that a link mailed before neither undoes the new password nor outlives
// a closing (while the account is closed, the link stays, for the reset
// to say the account is closed); the address stays, with a later updated time (a change read
// before cannot store the link again), and another account's link is
// kept.
func testNewPasswordSpendsReset(t *testing.T, e *env) {
	ctx := context.Background()
	es := as[store.Emails](t, e.s)
	ps := as[store.Players](t, e.s)
	at := now()
	for _, id := range []string{"ida", "idb"} {
		if _, err := ps.CreateAccount(ctx, account(id, id, at), store.Credential{Hash: []byte(id), Identity: id}, guest(id, at)); err != nil {
			t.Fatal(err)
		}
	}
	mailed := func(id string) store.Email {
		t.Helper()
		em := store.Email{Identity: id, Address: id + "@example.org", Verified: true,
			ResetHash: []byte("reset-" + id), ResetSent: at, Updated: at}
		if err := es.SetEmail(ctx, em); err != nil {
			t.Fatal(err)
		}
		return em
	}
	spent := func(how string, before store.Email) {
		t.Helper()
		if _, err := es.EmailByResetHash(ctx, before.ResetHash); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("after %s, the reset link still finds the address: %v", how, err)
		}
		got, err := es.EmailOf(ctx, before.Identity)
		if err != nil || got.Address != before.Address || !got.Verified || got.ResetHash != nil || !got.Updated.After(before.Updated) {
			t.Errorf("after %s, the address is %+v, %v; want it kept without its link and updated after %v", how, got, err, before.Updated)
		}
	}
	a, b := mailed("ida"), mailed("idb")
	if _, err := ps.SetPassword(ctx, "ida", "$argon2id$ida", "new-hash", nil); err != nil {
		t.Fatal(err)
	}
	spent("a new password", a)
	if got, err := es.EmailByResetHash(ctx, b.ResetHash); err != nil || got.Identity != "idb" {
		t.Errorf("another account's link after a new password: %+v, %v", got, err)
	}
	ms, ok := e.s.(store.Moderation)
	if !ok {
		return
	}
	act := func(action string) store.ModAction {
		return store.ModAction{Moderator: "mod", ModeratorName: "Mo", Action: action, Subject: "idb", SubjectName: "idb", At: at}
	}
	if _, err := ms.CloseAccount(ctx, "idb", store.ClosedHash, act("close")); err != nil {
		t.Fatal(err)
	}
	if got, err := es.EmailByResetHash(ctx, b.ResetHash); err != nil || got.Identity != "idb" {
		t.Errorf("the link while the account is closed: %+v, %v", got, err)
	}
	if _, err := ms.ReopenAccount(ctx, "idb", act("reopen")); err != nil {
		t.Fatal(err)
	}
	spent("a closing and a reopening", b)
}

// sameEmail reports whether a and b hold the same address, consents and
// confirmation token.
func sameEmail(a, b store.Email) bool {
	return a.Identity == b.Identity && a.Address == b.Address && a.Verified == b.Verified &&
		a.YourMove == b.YourMove && a.GameEnd == b.GameEnd && a.Challenge == b.Challenge &&
		bytes.Equal(a.VerifyHash, b.VerifyHash) && a.VerifySent.Equal(b.VerifySent) &&
		bytes.Equal(a.ResetHash, b.ResetHash) && a.ResetSent.Equal(b.ResetSent) && a.Updated.Equal(b.Updated)
}

// testEmails stores, finds by each kind of token, replaces and deletes
// an account's address: nothing is stored before SetEmail, the address
// survives a restart, old unsubscribe tokens are forgotten, and a
// forgotten address or a deleted account takes its tokens with it.
func testEmails(t *testing.T, e *env) {
	ctx := context.Background()
	es := as[store.Emails](t, e.s)
	ps := as[store.Players](t, e.s)
	at := now()
	for _, id := range []string{"ida", "idb"} {
		if _, err := ps.CreateAccount(ctx, account(id, id, at), store.Credential{Hash: []byte(id), Identity: id}, guest(id, at)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := es.EmailOf(ctx, "ida"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("an address never given: %v, want ErrNotFound", err)
	}
	if err := es.AddUnsubscribe(ctx, "ida", []byte("unsub-0"), at, at); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("an unsubscribe token without an address: %v, want ErrNotFound", err)
	}
	pending := store.Email{Identity: "ida", Address: "ann@example.org", YourMove: true, Challenge: true,
		VerifyHash: []byte("verify-a"), VerifySent: at, Updated: at}
	if err := es.SetEmail(ctx, pending); err != nil {
		t.Fatal(err)
	}
	if got, err := es.EmailOf(ctx, "ida"); err != nil || !sameEmail(got, pending) {
		t.Fatalf("EmailOf: %+v, %v; want %+v", got, err, pending)
	}
	if got, err := es.EmailByVerifyHash(ctx, []byte("verify-a")); err != nil || !sameEmail(got, pending) {
		t.Fatalf("EmailByVerifyHash: %+v, %v", got, err)
	}
	if _, err := es.EmailByVerifyHash(ctx, []byte("nothing")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("EmailByVerifyHash(unknown): %v, want ErrNotFound", err)
	}

	// Confirmed: the verify token is spent, the rest kept, across a
	// restart.
	verified := pending
	verified.Verified, verified.VerifyHash, verified.VerifySent, verified.Updated = true, nil, time.Time{}, at.Add(time.Second)
	if err := es.SetEmail(ctx, verified); err != nil {
		t.Fatal(err)
	}
	for i, h := range []string{"unsub-1", "unsub-2"} {
		if err := es.AddUnsubscribe(ctx, "ida", []byte(h), at.Add(time.Duration(i)*time.Hour), at); err != nil {
			t.Fatal(err)
		}
	}
	if err := es.AddUnsubscribe(ctx, "ida", []byte("unsub-1"), at, at); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("an unsubscribe token stored twice: %v, want ErrConflict", err)
	}
	es = as[store.Emails](t, e.reopen())
	if got, err := es.EmailOf(ctx, "ida"); err != nil || !sameEmail(got, verified) {
		t.Fatalf("after verifying and a restart: %+v, %v; want %+v", got, err, verified)
	}
	if _, err := es.EmailByVerifyHash(ctx, []byte("verify-a")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a spent verify token: %v, want ErrNotFound", err)
	}
	for _, h := range []string{"unsub-1", "unsub-2"} {
		if got, err := es.EmailByUnsubscribeHash(ctx, []byte(h)); err != nil || !sameEmail(got, verified) {
			t.Fatalf("EmailByUnsubscribeHash(%s): %+v, %v", h, got, err)
		}
	}
	if _, err := es.EmailByUnsubscribeHash(ctx, []byte("verify-a")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("an unsubscribe token that is none: %v, want ErrNotFound", err)
	}
	// A third token forgets those from before the second.
	if err := es.AddUnsubscribe(ctx, "ida", []byte("unsub-3"), at.Add(2*time.Hour), at.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := es.EmailByUnsubscribeHash(ctx, []byte("unsub-1")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a forgotten unsubscribe token: %v, want ErrNotFound", err)
	}
	if _, err := es.EmailByUnsubscribeHash(ctx, []byte("unsub-2")); err != nil {
		t.Fatalf("a kept unsubscribe token: %v", err)
	}
	// The same address in other capitals keeps them.
	shouted := verified
	shouted.Address = strings.ToUpper(verified.Address)
	if err := es.SetEmail(ctx, shouted); err != nil {
		t.Fatal(err)
	}
	if _, err := es.EmailByUnsubscribeHash(ctx, []byte("unsub-2")); err != nil {
		t.Fatalf("an unsubscribe token after the address changed case: %v", err)
	}
	if err := es.SetEmail(ctx, verified); err != nil {
		t.Fatal(err)
	}

	// A password reset link waits, is found by its token, across a
	// restart, and is spent.
	resetting := verified
	resetting.ResetHash, resetting.ResetSent = []byte("reset-a"), at.Add(3*time.Hour)
	if err := es.SetEmail(ctx, resetting); err != nil {
		t.Fatal(err)
	}
	es = as[store.Emails](t, e.reopen())
	ps = as[store.Players](t, e.s)
	if got, err := es.EmailByResetHash(ctx, []byte("reset-a")); err != nil || !sameEmail(got, resetting) {
		t.Fatalf("EmailByResetHash: %+v, %v; want %+v", got, err, resetting)
	}
	if _, err := es.EmailByResetHash(ctx, []byte("verify-a")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("EmailByResetHash(unknown): %v, want ErrNotFound", err)
	}
	spent := verified
	spent.Updated = at.Add(4 * time.Hour)
	if err := es.SpendReset(ctx, []byte("reset-a"), spent.Updated); err != nil {
		t.Fatalf("SpendReset: %v", err)
	}
	if got, err := es.EmailOf(ctx, "ida"); err != nil || !sameEmail(got, spent) {
		t.Fatalf("after the reset link is spent: %+v, %v; want %+v", got, err, spent)
	}
	if _, err := es.EmailByResetHash(ctx, []byte("reset-a")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a spent reset token: %v, want ErrNotFound", err)
	}
	if err := es.SpendReset(ctx, []byte("reset-a"), spent.Updated); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a reset token spent twice: %v, want ErrNotFound", err)
	}
	// Two spends of one token at once: one finds it.
	if err := es.SetEmail(ctx, resetting); err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 2)
	for range 2 {
		go func() { errs <- es.SpendReset(ctx, []byte("reset-a"), spent.Updated) }()
	}
	if a, b := <-errs, <-errs; (a == nil) == (b == nil) || !errors.Is(a, store.ErrNotFound) && !errors.Is(b, store.ErrNotFound) {
		t.Fatalf("two spends of one reset token at once: %v and %v, want one nil and one ErrNotFound", a, b)
	}
	if err := es.SetEmail(ctx, verified); err != nil {
		t.Fatal(err)
	}
	if got, err := es.EmailOf(ctx, "ida"); err != nil || !sameEmail(got, verified) {
		t.Fatalf("after the reset link is cleared: %+v, %v; want %+v", got, err, verified)
	}

	// A change made over the address as it was read goes in; one made
	// over an older reading, or to an address never stored, does not.
	quieter := verified
	quieter.YourMove, quieter.Updated = false, at.Add(5*time.Hour)
	if err := es.SetEmailIf(ctx, quieter, verified.Updated); err != nil {
		t.Fatalf("SetEmailIf over the address as read: %v", err)
	}
	stale := verified
	stale.Address, stale.Updated = "stale@example.org", at.Add(6*time.Hour)
	if err := es.SetEmailIf(ctx, stale, verified.Updated); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("SetEmailIf over an older reading: %v, want ErrConflict", err)
	}
	if got, err := es.EmailOf(ctx, "ida"); err != nil || !sameEmail(got, quieter) {
		t.Fatalf("after a change over an older reading: %+v, %v; want %+v", got, err, quieter)
	}
	if err := es.SetEmailIf(ctx, store.Email{Identity: "nobody", Address: "n@example.org", Updated: at}, at); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("SetEmailIf with no address stored: %v, want ErrConflict", err)
	}
	if err := es.SetEmail(ctx, verified); err != nil {
		t.Fatal(err)
	}

	// Another account, with no pending token: two nil verify hashes are
	// stored side by side.
	other := store.Email{Identity: "idb", Address: "ben@example.org", Verified: true, GameEnd: true, Updated: at}
	if err := es.SetEmail(ctx, other); err != nil {
		t.Fatal(err)
	}
	if err := es.AddUnsubscribe(ctx, "idb", []byte("unsub-b"), at, at); err != nil {
		t.Fatal(err)
	}
	if got, err := es.EmailOf(ctx, "idb"); err != nil || !sameEmail(got, other) {
		t.Fatalf("EmailOf(idb): %+v, %v", got, err)
	}
	// One reset token opens one account.
	if err := es.SetEmail(ctx, resetting); err != nil {
		t.Fatal(err)
	}
	clash := other
	clash.ResetHash, clash.ResetSent = []byte("reset-a"), at
	if err := es.SetEmail(ctx, clash); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a reset token stored for two accounts: %v, want ErrConflict", err)
	}
	if err := es.SetEmail(ctx, verified); err != nil {
		t.Fatal(err)
	}

	if err := es.DeleteEmail(ctx, "ida"); err != nil {
		t.Fatal(err)
	}
	if _, err := es.EmailOf(ctx, "ida"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a deleted address: %v, want ErrNotFound", err)
	}
	if _, err := es.EmailByUnsubscribeHash(ctx, []byte("unsub-2")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a deleted address's unsubscribe token: %v, want ErrNotFound", err)
	}
	if err := es.DeleteEmail(ctx, "ida"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("deleting twice: %v, want ErrNotFound", err)
	}
	// The address given again starts without the old tokens.
	if err := es.SetEmail(ctx, pending); err != nil {
		t.Fatal(err)
	}
	if _, err := es.EmailByUnsubscribeHash(ctx, []byte("unsub-2")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("an unsubscribe token of a forgotten address, after a new one: %v, want ErrNotFound", err)
	}

	// A new address forgets the old one's tokens as it is stored.
	moved := other
	moved.Address = "ben@elsewhere.example"
	if err := es.SetEmail(ctx, moved); err != nil {
		t.Fatal(err)
	}
	if _, err := es.EmailByUnsubscribeHash(ctx, []byte("unsub-b")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the old address's unsubscribe token after a new address: %v, want ErrNotFound", err)
	}
	if err := es.AddUnsubscribe(ctx, "idb", []byte("unsub-b"), at, at); err != nil {
		t.Fatal(err)
	}

	// Deleting the account forgets its address and tokens.
	if _, err := ps.DeleteAccount(ctx, "idb", "deleted player", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := es.EmailOf(ctx, "idb"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a deleted account's address: %v, want ErrNotFound", err)
	}
	if _, err := es.EmailByUnsubscribeHash(ctx, []byte("unsub-b")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a deleted account's unsubscribe token: %v, want ErrNotFound", err)
	}
}
