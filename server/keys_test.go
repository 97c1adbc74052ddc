package server

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"parlour/server/internal/servertest"
	"parlour/server/limit"
	"parlour/server/players"
	"parlour/server/refuse"
	"parlour/server/table"
	"parlour/store"

	"golang.org/x/crypto/ssh"
)

// newKey returns a fresh ed25519 public key in authorized_keys form with
// comment.
func newKey(t *testing.T, comment string) (ssh.PublicKey, string) {
	t.Helper()
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return sp, players.KeyText(sp) + " " + comment
}

// TestBadKeyNotCounted: a key the server refuses before any password is
// checked costs none of the sign-in budget, so a player who pasted the
// wrong lines can still add the right one.
func TestBadKeyNotCounted(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, limit.Limits{SignIns: 0.001, SignInsBurst: 20, SignInsPerName: 0.001, SignInsPerNameBurst: 2})
	ann := signUp(t, srv.URL, "Ann")
	for _, key := range []string{"garbage", "ssh-ed25519", "-----BEGIN OPENSSH PRIVATE KEY-----", "ssh-rsa AAAA"} {
		st, body := ann.do("POST", "/api/v1/keys", map[string]string{"key": key, "password": testPassword}, nil)
		if st != 400 || !strings.Contains(body, "key") {
			t.Fatalf("key %q: %d %s, want 400 about the key", key, st, body)
		}
	}
	_, text := newKey(t, "ann@laptop")
	if st, body := ann.do("POST", "/api/v1/keys", map[string]string{"key": text, "password": testPassword}, nil); st != 201 {
		t.Fatalf("the right key after four wrong ones: %d %s", st, body)
	}
}

// TestKeysAPI adds, lists and deletes SSH keys through the HTTP API:
// bad keys are refused with nothing stored, adding a key twice changes
// nothing, a key of one account cannot be added by another, guests and
// strangers are refused, and a deleted key no longer signs in.
func TestKeysAPI(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	ann, ben := signUp(t, srv.URL, "Ann"), signUp(t, srv.URL, "Ben")
	pub, text := newKey(t, "ann@laptop")
	// The key is deleted below by its fingerprint unescaped, which a path
	// carries whole only without "//" (about one fingerprint in a hundred
	// holds one, and the path is cleaned): such a client must escape it.
	for strings.Contains(ssh.FingerprintSHA256(pub), "//") {
		pub, text = newKey(t, "ann@laptop")
	}

	annStream := openStream(t, srv.URL, ann.token)
	// A key signs in without a password and outlives a new one and every
	// sign-out: a session alone (left signed in, or stolen) adds none.
	for _, c := range []struct {
		name, password string
		st             int
		want           string
	}{
		{"no password", "", 400, "give your password"},
		{"a wrong password", "not the password", 403, "not your current password"},
	} {
		if st, body := ann.do("POST", "/api/v1/keys", map[string]string{"key": text, "password": c.password}, nil); st != c.st || !strings.Contains(body, c.want) {
			t.Errorf("a key with %s: %d %s, want %d saying %q", c.name, st, body, c.st, c.want)
		}
	}
	if _, err := f.s.KeySession(context.Background(), pub); refuse.Status(err) != 401 {
		t.Fatalf("a key refused for its password signs in: %v", err)
	}
	var k players.KeyInfo
	if st, body := ann.do("POST", "/api/v1/keys", map[string]string{"key": text, "password": testPassword}, &k); st != 201 {
		t.Fatalf("add a key: %d %s", st, body)
	}
	if k.Fingerprint != ssh.FingerprintSHA256(pub) || k.Type != "ssh-ed25519" || k.Comment != "ann@laptop" || !strings.HasPrefix(k.Key, "ssh-ed25519 AAAA") || k.Used != nil {
		t.Fatalf("added key: %+v", k)
	}
	// Every page and terminal of the account hears of a new key.
	if ev := annStream.next("keyAdded"); ev.Key == nil || ev.Key.Fingerprint != k.Fingerprint {
		t.Fatalf("the stream's notice: %+v", ev)
	}
	if st, body := ann.do("POST", "/api/v1/keys", map[string]string{"key": text, "password": testPassword}, nil); st != 201 {
		t.Fatalf("the same key again: %d %s, want 201 (no change)", st, body)
	}
	if st, body := ben.do("POST", "/api/v1/keys", map[string]string{"key": text, "password": testPassword}, nil); st != 409 || !strings.Contains(body, "another account") {
		t.Fatalf("Ann's key added by Ben: %d %s", st, body)
	}

	small, _ := rsa.GenerateKey(rand.Reader, 1024)
	smallPub, _ := ssh.NewPublicKey(&small.PublicKey)
	for _, c := range []struct{ name, key, want string }{
		{"empty", "", "paste a public key"},
		{"garbage", "hello there", "not an SSH public key"},
		{"private", "-----BEGIN OPENSSH PRIVATE KEY-----", "private key"},
		{"private key file", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----\n", "private key"},
		{"long private key file", "-----BEGIN RSA PRIVATE KEY-----\n" + strings.Repeat(strings.Repeat("A", 64)+"\n", 80) + "-----END RSA PRIVATE KEY-----\n", "private key"},
		{"two lines", text + "\n" + text, "one line"},
		{"options", `command="ls" ` + text, "without options"},
		{"short rsa", players.KeyText(smallPub), "1024 bits"},
		{"too long", "ssh-ed25519 " + strings.Repeat("A", 5000), "too long"},
	} {
		st, body := ben.do("POST", "/api/v1/keys", map[string]string{"key": c.key}, nil)
		if st != 400 || !strings.Contains(body, c.want) {
			t.Errorf("%s: %d %s, want 400 saying %q", c.name, st, body, c.want)
		}
	}
	var list struct{ Keys []players.KeyInfo }
	if st, body := ben.do("GET", "/api/v1/keys", nil, &list); st != 200 || len(list.Keys) != 0 {
		t.Fatalf("Ben's keys after refusals: %d %s", st, body)
	}
	if st, body := ann.do("GET", "/api/v1/keys", nil, &list); st != 200 || len(list.Keys) != 1 || list.Keys[0].Fingerprint != k.Fingerprint {
		t.Fatalf("Ann's keys: %d %s", st, body)
	}

	guest := &client{t: t, base: srv.URL}
	var id struct{ Token string }
	guest.do("POST", "/api/v1/identity", map[string]string{"name": "Gus"}, &id)
	guest.token = id.Token
	if st, body := guest.do("POST", "/api/v1/keys", map[string]string{"key": text, "password": testPassword}, nil); st != 403 {
		t.Fatalf("a guest adding a key: %d %s", st, body)
	}
	if st, _ := (&client{t: t, base: srv.URL}).do("GET", "/api/v1/keys", nil, nil); st != 401 {
		t.Fatalf("nobody listing keys: %d", st)
	}

	// A key pasted signs in once its holder proves it at the SSH door.
	if _, err := f.s.KeySession(context.Background(), pub); !errors.Is(err, players.ErrKeyUnconfirmed) {
		t.Fatalf("KeySession of a key pasted: %v, want ErrKeyUnconfirmed", err)
	}
	if k, err := f.s.ProveKey(context.Background(), ann.token, pub, "added over ssh"); err != nil || !k.Confirmed {
		t.Fatalf("ProveKey: %+v, %v", k, err)
	}
	sess, err := f.s.KeySession(context.Background(), pub)
	if err != nil || sess.Name != "Ann" {
		t.Fatalf("KeySession: %+v, %v", sess, err)
	}
	if st, body := (&client{t: t, base: srv.URL, token: sess.Token}).do("GET", "/api/v1/account", nil, nil); st != 200 || !strings.Contains(body, `"Ann"`) {
		t.Fatalf("the key's session: %d %s", st, body)
	}
	// The list says when the key last signed in.
	if st, body := ann.do("GET", "/api/v1/keys", nil, &list); st != 200 || len(list.Keys) != 1 || list.Keys[0].Used == nil || list.Keys[0].Used.Before(list.Keys[0].Added) {
		t.Fatalf("Ann's keys after a sign-in by key: %d %s, want it used", st, body)
	}
	if st, body := ben.do("DELETE", "/api/v1/keys/"+url.PathEscape(k.Fingerprint), nil, nil); st != 404 {
		t.Fatalf("Ben deleting Ann's key: %d %s", st, body)
	}
	// The fingerprint's slashes may come escaped or not.
	if st, body := ann.do("DELETE", "/api/v1/keys/"+k.Fingerprint, nil, nil); st != 204 {
		t.Fatalf("delete: %d %s", st, body)
	}
	if _, err := f.s.KeySession(context.Background(), pub); refuse.Status(err) != 401 {
		t.Fatalf("a deleted key's session: %v", err)
	}
	if st, body := ben.do("POST", "/api/v1/keys", map[string]string{"key": text, "password": testPassword}, nil); st != 201 {
		t.Fatalf("the key, free again, added by Ben: %d %s", st, body)
	}
}

// TestSeatTokenActsForItsSeatAlone: a seat's token, which travels with a
// table's link and its record, acts for that seat at that table and for
// nothing of the account: every account-wide endpoint refuses it, and
// nothing changes.
func TestSeatTokenActsForItsSeatAlone(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	ann := signUp(t, srv.URL, "Ann")
	signUp(t, srv.URL, "Ben")
	var seated table.Seated
	if st, body := ann.do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}}, &seated); st != 201 {
		t.Fatalf("create: %d %s", st, body)
	}
	seat := &client{t: t, base: srv.URL, token: seated.Token}
	_, key := newKey(t, "mallory@elsewhere")
	other := &client{t: t, base: srv.URL}
	var open table.Seated
	if st, body := other.do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "name": "Olga"}, &open); st != 201 {
		t.Fatalf("another table: %d %s", st, body)
	}
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"POST", "/api/v1/keys", map[string]string{"key": key, "password": testPassword}},
		{"GET", "/api/v1/keys", nil},
		{"DELETE", "/api/v1/keys/SHA256:x", nil},
		{"POST", "/api/v1/challenges", map[string]any{"to": "Ben", "game": "nymphabet"}},
		{"GET", "/api/v1/challenges", nil},
		{"PUT", "/api/v1/account/settings", map[string]any{"hidden": true}},
		{"GET", "/api/v1/account/settings", nil},
		{"GET", "/api/v1/account", nil},
		{"PUT", "/api/v1/account/password", map[string]string{"password": testPassword, "new_password": "a brand new phrase"}},
		{"DELETE", "/api/v1/account", map[string]string{"password": testPassword}},
		{"DELETE", "/api/v1/sessions", nil},
		{"GET", "/api/v1/identity/tables", nil},
		{"GET", "/api/v1/stream", nil},
		{"POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}}},
		{"POST", "/api/v1/tables/" + open.Table + "/join", map[string]any{}},
		{"POST", "/api/v1/accounts", map[string]string{"name": "Mallory", "password": "an attacker's phrase"}},
		{"POST", "/api/v1/daily/quizl", map[string]any{}},
		{"GET", "/api/v1/daily/quizl", nil},
	} {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			st, body := seat.do(c.method, c.path, c.body, nil)
			if st != 403 || !strings.Contains(body, "seat") {
				t.Fatalf("%d %s, want 403 naming the seat's token", st, body)
			}
		})
	}
	// Nothing of the account changed, and the seat still acts for itself.
	var list struct{ Keys []players.KeyInfo }
	if st, body := ann.do("GET", "/api/v1/keys", nil, &list); st != 200 || len(list.Keys) != 0 {
		t.Fatalf("Ann's keys: %d %s", st, body)
	}
	if st, body := ann.do("GET", "/api/v1/challenges", nil, nil); st != 200 || strings.Contains(body, `"Ben"`) {
		t.Fatalf("Ann's challenges: %d %s", st, body)
	}
	if st, body := ann.do("GET", "/api/v1/account/settings", nil, nil); st != 200 || strings.Contains(body, `"hidden":true`) {
		t.Fatalf("Ann's settings: %d %s", st, body)
	}
	if _, err := f.s.SignIn(context.Background(), "Ann", testPassword); err != nil {
		t.Fatalf("Ann's password: %v", err)
	}
	if _, err := f.s.SignIn(context.Background(), "Mallory", "an attacker's phrase"); err == nil {
		t.Fatal("the seat's token signed up an account")
	}
	if st, body := seat.do("GET", "/api/v1/tables/"+seated.Table, nil, nil); st != 200 || !strings.Contains(body, `"seat":0`) {
		t.Fatalf("the seat's own table: %d %s", st, body)
	}
	if st, body := seat.do("POST", "/api/v1/tables/"+seated.Table+"/chat", map[string]string{"channel": "players", "text": "still mine"}, nil); st != 201 {
		t.Fatalf("the seat's chat: %d %s", st, body)
	}
}

// TestSSHGuests: the SSH door's guests, kept by the server. A guest
// remembered under a key gets a new token of the same identity each time
// (on either store, so through any node of a cluster); an unknown key, one
// unused for players.GuestTTL, and a guest who has made an account since
// get none; a token that is no guest's own is refused and nothing is kept.
func TestSSHGuests(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		ctx := context.Background()
		base := sf.srv.URL
		gus := newGuest(t, base, "Gus")
		if err := sf.s.RememberGuest(ctx, "SHA256:gus gus", "gus", gus.token); err != nil {
			t.Fatal(err)
		}
		identityOf := func(tok string) string {
			t.Helper()
			p, err := sf.s.Auth().Authenticate(ctx, tok)
			if err != nil {
				t.Fatalf("a guest token: %v", err)
			}
			return p.Identity
		}
		want := identityOf(gus.token)
		seen := map[string]bool{gus.token: true}
		for range 2 {
			name, tok, err := sf.s.GuestToken(ctx, "SHA256:gus gus")
			if err != nil || name != "gus" || tok == "" || seen[tok] {
				t.Fatalf("GuestToken: %q, %q, %v; want gus and a new token", name, tok, err)
			}
			seen[tok] = true
			if got := identityOf(tok); got != want {
				t.Fatalf("the new token is identity %s's, want Gus's %s", got, want)
			}
		}
		if name, tok, err := sf.s.GuestToken(ctx, "SHA256:nobody gus"); err != nil || name != "" || tok != "" {
			t.Errorf("an unknown key: %q, %q, %v; want none", name, tok, err)
		}

		// Tokens that are no guest's own: nothing is kept under the key.
		ann := signUp(t, base, "Ann")
		var sat table.Seated
		if st, body := gus.do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}}, &sat); st != 201 {
			t.Fatalf("Gus's table: %d %s", st, body)
		}
		seat := sat.Token
		if p, err := sf.s.Auth().Authenticate(ctx, seat); err != nil || p.Table == "" {
			t.Fatalf("the table's token is not a seat's: %+v, %v", p, err)
		}
		for _, c := range []struct{ what, tok string }{
			{"an account's session", ann.token},
			{"a seat's token", seat},
			{"a token never issued", strings.Repeat("A", len(ann.token))},
		} {
			err := sf.s.RememberGuest(ctx, "SHA256:other x", "x", c.tok)
			if !errors.Is(err, store.ErrNotFound) {
				t.Errorf("remembering %s: %v, want ErrNotFound", c.what, err)
			}
		}
		if _, tok, _ := sf.s.GuestToken(ctx, "SHA256:other x"); tok != "" {
			t.Error("a refused token was remembered")
		}

		// Unused for longer than GuestTTL, a guest is forgotten.
		ida := newGuest(t, base, "Ida")
		if err := sf.s.RememberGuest(ctx, "code:IDA", "ida", ida.token); err != nil {
			t.Fatal(err)
		}
		sf.clock.Advance(players.GuestTTL + time.Minute)
		if _, tok, err := sf.s.GuestToken(ctx, "code:IDA"); err != nil || tok != "" {
			t.Errorf("a guest unused for longer than GuestTTL: %q, %v; want none", tok, err)
		}

		// A guest who made an account signs in as the account, never by
		// the guest's key.
		if err := sf.s.RememberGuest(ctx, "SHA256:gus gus", "gus", gus.token); err != nil {
			t.Fatal(err)
		}
		if st, body := gus.do("POST", "/api/v1/accounts", map[string]string{"name": "Gus", "password": testPassword}, nil); st != 201 {
			t.Fatalf("Gus signs up: %d %s", st, body)
		}
		if _, tok, err := sf.s.GuestToken(ctx, "SHA256:gus gus"); err != nil || tok != "" {
			t.Errorf("the key of a guest who made an account: %q, %v; want none", tok, err)
		}
	})
}
