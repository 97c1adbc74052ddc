package mail_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"parlour/account"
	"parlour/game"
	"parlour/internal/smtptest"
	"parlour/server/internal/servertest"
	"parlour/server/mail"
	"parlour/server/refuse"
	"parlour/server/social"
	"parlour/server/table"
	"parlour/store"
	"parlour/store/sqlite"
)

// env is a mail service on a fresh store, sending to a real SMTP server,
// with accounts "ann" (Ann) and "ben" (Ben) whose addresses are
// confirmed and ask for everything.
type env struct {
	s      *mail.Service
	st     *sqlite.Store
	smtp   *smtptest.Server
	mu     sync.Mutex
	online map[string]bool
	now    time.Time
}

func newEnv(t *testing.T) *env { t.Helper(); return newEnvOn(t, nil) }

// newEnvOn is newEnv with the service on wrap(store) when wrap is not
// nil.
func newEnvOn(t *testing.T, wrap func(*sqlite.Store) store.Store) *env {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "p.db"), sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e := &env{st: st, smtp: smtptest.Start(t), online: map[string]bool{}, now: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)}
	cfg, err := mail.ParseSMTP(e.smtp.URL("parlour@example.org"))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []struct{ id, name string }{{"ann", "Ann"}, {"ben", "Ben"}} {
		if _, err := st.CreateAccount(ctx, store.Account{Identity: a.id, Name: a.name, Key: a.id, Hash: "x", Created: e.now},
			store.Credential{Hash: []byte(a.id), Identity: a.id}, &store.Identity{ID: a.id, Name: a.name, Created: e.now}); err != nil {
			t.Fatal(err)
		}
		if err := st.SetEmail(ctx, store.Email{Identity: a.id, Address: a.id + "@example.org", Verified: true, YourMove: true, GameEnd: true, Challenge: true, Updated: e.now}); err != nil {
			t.Fatal(err)
		}
	}
	var on store.Store = st
	if wrap != nil {
		on = wrap(st)
	}
	e.s, err = mail.New(mail.Config{SMTP: cfg, Store: on, Games: game.NewRegistry(servertest.Guess{}),
		BaseURL: func() string { return "https://parlour.example.org" },
		Online: func(id string) bool {
			e.mu.Lock()
			defer e.mu.Unlock()
			return e.online[id]
		},
		Now: func() time.Time { return e.now }, RetryDelay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.s.Close)
	return e
}

// marker has Ben challenge Ann and checks that the next mail is that
// one: every mail queued before it was sent (or not) by then.
func (e *env) marker(t *testing.T, why string) {
	t.Helper()
	e.s.Challenged("ann", "ben", social.Challenge{From: "Ben", Game: "guess", Expires: e.now.Add(time.Hour)})
	if m := e.smtp.Next(t); m.Header.Get("Subject") != "Ben challenges you to Guess" {
		t.Fatalf("%s: the next mail is %q to %v\n%s", why, m.Header.Get("Subject"), m.To, m.Body)
	}
}

// TestYourMove: a player to move who is away is mailed once a turn, with
// the table's link; one who is there, or who is not to move, is not; a
// game's end is mailed with the result in the player's words.
func TestYourMove(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	n := table.GameNote{Table: "t1", Game: "guess", Seats: []string{"ann", "ben"}}
	e.online["ben"] = true
	e.s.Turn(n, []int{0})
	m := e.smtp.Next(t)
	if m.To[0] != "ann@example.org" || m.Header.Get("Subject") != "Your move in Guess against Ben" || !strings.Contains(m.Body, "https://parlour.example.org/t/t1") {
		t.Fatalf("your move: to %v, %q\n%s", m.To, m.Header.Get("Subject"), m.Body)
	}
	e.s.Turn(n, []int{0}) // the same turn heard again
	e.s.Turn(n, []int{1}) // Ben's turn, but Ben is there
	e.marker(t, "a turn told twice, and one of a player who is there")
	e.s.Turn(n, []int{0}) // Ann's turn again, after Ben's: a new turn
	if m := e.smtp.Next(t); m.To[0] != "ann@example.org" || !strings.HasPrefix(m.Header.Get("Subject"), "Your move") {
		t.Fatalf("Ann's next turn: to %v, %q", m.To, m.Header.Get("Subject"))
	}
	e.s.Finished(n, &store.GameEnd{Game: "guess", Seats: []store.SeatEnd{{Identity: "ann", Seat: 0, Result: store.Win}, {Identity: "ben", Seat: 1, Result: store.Loss}}})
	for _, want := range []struct{ to, subject string }{
		{"ann@example.org", "Your game of Guess against Ben ended: you won"},
		{"ben@example.org", "Your game of Guess against Ann ended: you lost"},
	} {
		if m := e.smtp.Next(t); m.To[0] != want.to || m.Header.Get("Subject") != want.subject {
			t.Fatalf("the end: to %v, %q; want %s, %q", m.To, m.Header.Get("Subject"), want.to, want.subject)
		}
	}
}

// TestVerifyExpired: a confirmation link older than VerifyTTL is refused
// as expired and changes nothing; a fresh one confirms.
func TestVerifyExpired(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	token, h := account.NewToken()
	pending := store.Email{Identity: "ann", Address: "ann@example.net", YourMove: true, VerifyHash: h[:], VerifySent: e.now.Add(-mail.VerifyTTL - time.Minute), Updated: e.now}
	if err := e.st.SetEmail(ctx, pending); err != nil {
		t.Fatal(err)
	}
	if _, err := e.s.Verify(ctx, token); err == nil || refuse.Status(err) != http.StatusGone || !strings.Contains(err.Error(), "expired") || !strings.Contains(err.Error(), "48 hours") {
		t.Fatalf("an expired link: %v, want 410 saying it expired", err)
	}
	if got, err := e.st.EmailOf(ctx, "ann"); err != nil || got.Verified {
		t.Fatalf("after an expired link: %+v, %v; want still unconfirmed", got, err)
	}
	// Nothing but the confirmation goes to an unconfirmed address.
	e.s.Turn(table.GameNote{Table: "t1", Game: "guess", Seats: []string{"ann", "ben"}}, []int{0})
	e.online["ben"] = true
	e.s.Challenged("ben", "ann", social.Challenge{From: "Ann", Game: "guess"})
	if m := e.smtp.Next(t); m.To[0] != "ben@example.org" {
		t.Fatalf("an unconfirmed address was mailed: %v %q", m.To, m.Header.Get("Subject"))
	}
	pending.VerifySent = e.now.Add(-time.Hour)
	if err := e.st.SetEmail(ctx, pending); err != nil {
		t.Fatal(err)
	}
	if msg, err := e.s.Verify(ctx, token); err != nil || !strings.Contains(msg, "ann@example.net is confirmed") {
		t.Fatalf("a fresh link: %q, %v", msg, err)
	}
}

// racing is a store on which another change lands on an address just
// after the mail service read it by a link's token.
type racing struct {
	*sqlite.Store
	meanwhile func()
}

func (r *racing) EmailByVerifyHash(ctx context.Context, h []byte) (store.Email, error) {
	e, err := r.Store.EmailByVerifyHash(ctx, h)
	r.land()
	return e, err
}

func (r *racing) EmailByUnsubscribeHash(ctx context.Context, h []byte) (store.Email, error) {
	e, err := r.Store.EmailByUnsubscribeHash(ctx, h)
	r.land()
	return e, err
}

func (r *racing) land() {
	if f := r.meanwhile; f != nil {
		r.meanwhile = nil
		f()
	}
}

// TestLinkWhileChanged: a confirmation or unsubscribe link followed while
// its owner changes the address loses neither change: a link to an
// address replaced meanwhile is not known and leaves the new one alone,
// and a confirmation keeps the choice of mail made meanwhile.
func TestLinkWhileChanged(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		unsub  bool // follow an unsubscribe link, else a confirmation link
		change func(e store.Email) store.Email
		status int // the refusal's, or 0
		want   func(before, meanwhile store.Email) store.Email
	}{
		{"a confirmation, the mail chosen meanwhile", false,
			func(e store.Email) store.Email { e.YourMove = false; return e }, 0,
			func(_, m store.Email) store.Email {
				m.Verified, m.VerifyHash, m.VerifySent = true, nil, time.Time{}
				return m
			}},
		{"a confirmation, the address replaced meanwhile", false,
			func(e store.Email) store.Email {
				_, h := account.NewToken()
				e.Address, e.VerifyHash = "ann@example.com", h[:]
				return e
			}, http.StatusNotFound,
			func(_, m store.Email) store.Email { return m }},
		{"an unsubscribe, the address replaced meanwhile", true,
			func(e store.Email) store.Email {
				_, h := account.NewToken()
				e.Address, e.Verified, e.VerifyHash, e.VerifySent = "ann@example.com", false, h[:], e.Updated
				return e
			}, http.StatusNotFound,
			func(_, m store.Email) store.Email { return m }},
		{"an unsubscribe, the mail chosen meanwhile", true,
			func(e store.Email) store.Email { e.GameEnd = false; return e }, 0,
			func(_, m store.Email) store.Email { m.YourMove, m.Challenge = false, false; return m }},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := &racing{}
			e := newEnvOn(t, func(st *sqlite.Store) store.Store { r.Store = st; return r })
			token, h := account.NewToken()
			before := store.Email{Identity: "ann", Address: "ann@example.net", YourMove: true, GameEnd: true, Challenge: true, Updated: e.now}
			if c.unsub {
				before.Verified = true
			} else {
				before.VerifyHash, before.VerifySent = h[:], e.now
			}
			if err := e.st.SetEmail(ctx, before); err != nil {
				t.Fatal(err)
			}
			if c.unsub {
				if err := e.st.AddUnsubscribe(ctx, "ann", h[:], e.now, e.now); err != nil {
					t.Fatal(err)
				}
			}
			meanwhile := c.change(before)
			meanwhile.Updated = e.now.Add(time.Second)
			r.meanwhile = func() {
				if err := e.st.SetEmail(ctx, meanwhile); err != nil {
					t.Error(err)
				}
			}
			var err error
			if c.unsub {
				_, err = e.s.Unsubscribe(ctx, token)
			} else {
				_, err = e.s.Verify(ctx, token)
			}
			if c.status != 0 && refuse.Status(err) != c.status || c.status == 0 && err != nil {
				t.Fatalf("following the link: %v, want status %d", err, c.status)
			}
			got, err := e.st.EmailOf(ctx, "ann")
			want := c.want(before, meanwhile)
			got.Updated, want.Updated = time.Time{}, time.Time{}
			if err != nil || !equalEmail(got, want) {
				t.Fatalf("after the link:\n got %+v, %v\nwant %+v", got, err, want)
			}
		})
	}
}

// equalEmail reports whether a and b are the same address with the same
// choices and tokens.
func equalEmail(a, b store.Email) bool {
	return a.Identity == b.Identity && a.Address == b.Address && a.Verified == b.Verified &&
		a.YourMove == b.YourMove && a.GameEnd == b.GameEnd && a.Challenge == b.Challenge &&
		bytes.Equal(a.VerifyHash, b.VerifyHash) && a.VerifySent.Equal(b.VerifySent) &&
		bytes.Equal(a.ResetHash, b.ResetHash) && a.ResetSent.Equal(b.ResetSent) && a.Updated.Equal(b.Updated)
}

// selfSigned returns a TLS configuration serving a fresh certificate for
// 127.0.0.1, and one trusting it.
func selfSigned(t *testing.T) (server, client *tls.Config) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test smtp"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}, &tls.Config{RootCAs: pool}
}

// TestTLS: mail goes over TLS when the server offers STARTTLS and with
// smtps:// from the first byte, checking the server's certificate; a
// server whose certificate is not trusted gets no mail, and the failure
// is counted, not passed on.
func TestTLS(t *testing.T) {
	t.Parallel()
	srvTLS, trust := selfSigned(t)
	for _, c := range []struct {
		name     string
		scheme   string
		implicit bool
		trust    *tls.Config
		ok       bool
	}{
		{"STARTTLS", "smtp", false, trust, true},
		{"smtps", "smtps", true, trust, true},
		{"STARTTLS, untrusted", "smtp", false, &tls.Config{}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			box := smtptest.StartTLS(t, srvTLS, c.implicit)
			cfg, err := mail.ParseSMTP(c.scheme + "://" + smtptest.User + ":" + smtptest.Password + "@" + box.Addr + "?from=parlour@example.org")
			if err != nil {
				t.Fatal(err)
			}
			cfg.TLS = c.trust
			st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "p.db"), sqlite.Options{Synchronous: "NORMAL"})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			ctx := context.Background()
			if _, err := st.CreateAccount(ctx, store.Account{Identity: "ann", Name: "Ann", Key: "ann", Hash: "x", Created: time.Now()},
				store.Credential{Hash: []byte("ann"), Identity: "ann"}, &store.Identity{ID: "ann", Name: "Ann", Created: time.Now()}); err != nil {
				t.Fatal(err)
			}
			if err := st.SetEmail(ctx, store.Email{Identity: "ann", Address: "ann@example.org", Verified: true, Challenge: true, Updated: time.Now()}); err != nil {
				t.Fatal(err)
			}
			reg := prometheus.NewRegistry()
			s, err := mail.New(mail.Config{SMTP: cfg, Store: st, Games: game.NewRegistry(servertest.Guess{}), Registerer: reg, Attempts: 2, RetryDelay: time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			s.Challenged("ann", "ben", social.Challenge{From: "Ben", Game: "guess"})
			if !c.ok {
				servertest.Eventually(t, time.Minute, "the failure counted", func() bool { return counter(reg, "parlour_mail_failed_total") == 1 })
				if n := counter(reg, "parlour_mail_retries_total"); n != 1 {
					t.Errorf("retries counted: %v, want 1", n)
				}
				return
			}
			if m := box.Next(t); !m.TLS || m.To[0] != "ann@example.org" {
				t.Fatalf("the mail: TLS %v, to %v", m.TLS, m.To)
			}
		})
	}
}

// counter returns the value of the counter called name in reg.
func counter(reg *prometheus.Registry, name string) float64 {
	mfs, _ := reg.Gather()
	for _, mf := range mfs {
		if mf.GetName() == name && len(mf.Metric) == 1 {
			return mf.Metric[0].GetCounter().GetValue()
		}
	}
	return -1
}
