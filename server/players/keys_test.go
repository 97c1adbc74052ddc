package players

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"parlour/server/refuse"
	"parlour/store"
)

// TestKeyAddedIsHeard: adding a key tells the KeyAdded hook, once; adding
// it again changes nothing and tells nobody.
func TestKeyAddedIsHeard(t *testing.T) {
	t.Parallel()
	type heard struct {
		identity string
		k        KeyInfo
	}
	var got []heard
	f := newFixture(t, func(c *Config) {
		c.KeyAdded = func(identity string, k KeyInfo) { got = append(got, heard{identity, k}) }
	})
	ctx := context.Background()
	p := f.signUp("Ann")
	text := KeyText(newPub(t)) + " ann@laptop"
	k, err := f.s.AddKey(ctx, p, KeyRequest{Key: text, Password: testPassword})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].identity != p.Identity || got[0].k.Fingerprint != k.Fingerprint || got[0].k.Comment != "ann@laptop" {
		t.Fatalf("heard %+v, want Ann's key once", got)
	}
	if _, err := f.s.AddKey(ctx, p, KeyRequest{Key: text, Password: testPassword}); err != nil || len(got) != 1 {
		t.Fatalf("the same key again: %v, heard %d times", err, len(got))
	}
}

// newPub returns a new ed25519 public key.
func newPub(t *testing.T) ssh.PublicKey {
	t.Helper()
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// TestProveKey: a key pasted on a page signs nobody in until its holder
// proves it at the SSH door (ProveKey, with a session of the account).
// Malcolm pastes Ann's public key: it does not sign in, Ann pasting it
// is told how to take it, and her proof takes it from him, confirmed,
// after which nobody takes it. Ben's own pasted key is confirmed in
// place, its comment and time kept. Every confirmation is heard by the
// account's pages; a confirmation again changes nothing.
func TestProveKey(t *testing.T) {
	t.Parallel()
	var heard []KeyInfo
	f := newFixture(t, func(c *Config) {
		c.KeyAdded = func(_ string, k KeyInfo) { heard = append(heard, k) }
	})
	ctx := context.Background()
	var tok []string
	for _, name := range []string{"Ann", "Malcolm", "Ben"} {
		sess, err := f.s.SignUp(ctx, nil, name, testPassword)
		if err != nil {
			t.Fatal(err)
		}
		tok = append(tok, sess.Token)
	}
	ann, mal, ben := tok[0], tok[1], tok[2]
	annKey := newPub(t)
	paste := func(token string, pub ssh.PublicKey, comment string) (KeyInfo, error) {
		return f.s.AddKey(ctx, f.principal(token), KeyRequest{Key: KeyText(pub) + " " + comment, Password: testPassword})
	}

	if k, err := paste(mal, annKey, "hers"); err != nil || k.Confirmed {
		t.Fatalf("Malcolm pasting Ann's key: %+v %v, want it kept unconfirmed", k, err)
	}
	sess, err := f.s.KeySession(ctx, annKey)
	if !errors.Is(err, ErrKeyUnconfirmed) || refuse.Status(err) != 401 || sess.Name != "Malcolm" || sess.Token != "" {
		t.Fatalf("the session of a key pasted by another: %+v %v, want no token, ErrKeyUnconfirmed naming Malcolm", sess, err)
	}
	if _, err := paste(ann, annKey, "mine"); refuse.Status(err) != 409 || !strings.Contains(err.Error(), "ssh to this server with it") {
		t.Fatalf("Ann pasting her key Malcolm claimed: %v, want 409 saying how to take it", err)
	}

	k, err := f.s.ProveKey(ctx, ann, annKey, "added over ssh")
	if err != nil || !k.Confirmed || k.Comment != "added over ssh" || k.Fingerprint != ssh.FingerprintSHA256(annKey) {
		t.Fatalf("Ann proving her key: %+v %v", k, err)
	}
	sess, err = f.s.KeySession(ctx, annKey)
	if err != nil || sess.Name != "Ann" || f.principal(sess.Token).Identity != f.principal(ann).Identity {
		t.Fatalf("the session of Ann's proved key: %+v %v", sess, err)
	}
	if ks, err := f.s.Keys(ctx, f.principal(mal)); err != nil || len(ks) != 0 {
		t.Fatalf("Malcolm's keys after Ann took hers: %+v %v", ks, err)
	}
	if _, err := paste(mal, annKey, "hers"); refuse.Status(err) != 409 || !strings.Contains(err.Error(), "belongs to another account") {
		t.Fatalf("Malcolm pasting Ann's proved key: %v, want 409", err)
	}
	if _, err := f.s.ProveKey(ctx, mal, annKey, "added over ssh"); refuse.Status(err) != 409 {
		t.Fatalf("Malcolm proving Ann's proved key: %v, want 409", err)
	}
	n := len(heard)
	if k, err := f.s.ProveKey(ctx, ann, annKey, "again"); err != nil || !k.Confirmed || k.Comment != "added over ssh" || len(heard) != n {
		t.Fatalf("Ann proving her key again: %+v %v, heard %d more", k, err, len(heard)-n)
	}

	benKey := newPub(t)
	pasted, err := paste(ben, benKey, "ben@laptop")
	if err != nil {
		t.Fatal(err)
	}
	k, err = f.s.ProveKey(ctx, ben, benKey, "added over ssh")
	if err != nil || !k.Confirmed || k.Comment != "ben@laptop" || !k.Added.Equal(pasted.Added) {
		t.Fatalf("Ben proving his pasted key: %+v %v, want it confirmed as pasted (%+v)", k, err, pasted)
	}
	want := []string{"Malcolm's paste", "Ann's proof", "Ben's paste", "Ben's proof"}
	if len(heard) != len(want) || heard[0].Confirmed || !heard[1].Confirmed || heard[2].Confirmed || !heard[3].Confirmed {
		t.Fatalf("heard %+v, want %s", heard, strings.Join(want, ", "))
	}

	// A key claimed by an account a moderator has closed since is still
	// its holder's to confirm: its session says it waits, not that its
	// account is closed (the key may be anybody's).
	zed, err := f.s.SignUp(ctx, nil, "Zed", testPassword)
	if err != nil {
		t.Fatal(err)
	}
	cyKey := newPub(t)
	if _, err := paste(zed.Token, cyKey, "cy's"); err != nil {
		t.Fatal(err)
	}
	zedID := f.principal(zed.Token).Identity
	if _, err := f.db.CloseAccount(ctx, zedID, ClosedHash, store.ModAction{Action: "close", Subject: zedID, SubjectName: "Zed", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if sess, err := f.s.KeySession(ctx, cyKey); !errors.Is(err, ErrKeyUnconfirmed) || sess.Name != "" || sess.Token != "" {
		t.Fatalf("the session of a key claimed by a closed account: %+v %v, want ErrKeyUnconfirmed naming no account, whose password could sign nothing in", sess, err)
	}

	for _, c := range []struct {
		name, token string
		status      int
	}{
		{"no session", "", 401},
		{"a made-up token", "nonsense", 401},
	} {
		if _, err := f.s.ProveKey(ctx, c.token, newPub(t), "added over ssh"); refuse.Status(err) != c.status {
			t.Errorf("proving a key with %s: %v, want %d", c.name, err, c.status)
		}
	}
}

// FuzzParseKey checks that no key text crashes the parser and that what
// it accepts prints back as a key it accepts again.
func FuzzParseKey(f *testing.F) {
	f.Add("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGb9Sjr7ZQcLy8v1f3b0ZQ0m3QmTgN3c9Y0c5b9W0xkE me")
	f.Add("ssh-rsa AAAA")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		pub, _, err := ParseKey(s)
		if err != nil {
			return
		}
		if _, _, err := ParseKey(KeyText(pub)); err != nil {
			t.Fatalf("accepted %q, refused its own form: %v", s, err)
		}
	})
}
