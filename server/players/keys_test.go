package players

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"testing"

	"golang.org/x/crypto/ssh"
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
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	text := KeyText(sp) + " ann@laptop"
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
	sess, err := f.s.KeySession(ctx, sp)
	if err != nil || sess.Name != "Ann" {
		t.Fatalf("the key's session: %+v %v", sess, err)
	}
	if f.principal(sess.Token).Identity != p.Identity {
		t.Fatal("the key's session acts for somebody else")
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
