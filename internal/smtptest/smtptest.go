// Package smtptest runs a real SMTP server on loopback for tests: the
// server's mail, or a terminal test's server's, goes to it over the
// network as to any other, and the test reads what arrived.
package smtptest

import (
	"bytes"
	"crypto/tls"
	"errors"
	"io"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Server is a real SMTP server on loopback (github.com/emersion/go-smtp,
// the well-kept Go SMTP server library), started by a test: the server's
// mail goes to it over the network as to any other, and the test reads
// what arrived. It signs in User with Password (AUTH PLAIN; net/smtp
// sends a password in the clear only to this machine).
type Server struct {
	// Addr is the server's host:port.
	Addr string
	srv  *smtp.Server
	got  chan Mail

	mu sync.Mutex
	// fail is how many deliveries still to refuse (451).
	fail int
}

// Mail is a message the test's SMTP server received.
type Mail struct {
	From   string
	To     []string
	Header mail.Header
	// Body is the body, quoted-printable decoded.
	Body string
	// TLS is whether the message came over TLS.
	TLS bool
}

// The account the test's SMTP server signs in.
const (
	User     = "parlour"
	Password = "s3cret"
)

// Start starts an SMTP server on loopback, closed when t ends.
func Start(t testing.TB) *Server { return StartTLS(t, nil, false) }

// StartTLS starts an SMTP server on loopback that offers STARTTLS
// with tc (none when nil), or speaks TLS from the first byte when
// implicit; closed when t ends.
func StartTLS(t testing.TB, tc *tls.Config, implicit bool) *Server {
	t.Helper()
	s := &Server{got: make(chan Mail, 100)}
	s.srv = smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) { return &smtpSession{s: s, c: c}, nil }))
	s.srv.Domain = "localhost"
	s.srv.AllowInsecureAuth = true
	s.srv.ReadTimeout, s.srv.WriteTimeout = 30*time.Second, 30*time.Second
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.Addr = ln.Addr().String()
	s.srv.TLSConfig = tc
	if implicit {
		ln = tls.NewListener(ln, tc)
	}
	go s.srv.Serve(ln)
	t.Cleanup(func() { s.srv.Close() })
	return s
}

// URL is the server's URL for parlour serve --smtp, mail coming from
// from.
func (s *Server) URL(from string) string {
	return "smtp://" + User + ":" + Password + "@" + s.Addr + "?from=" + url.QueryEscape(from)
}

// FailNext makes the server refuse the next n messages with a passing
// error (451), as a server under load does.
func (s *Server) FailNext(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail = n
}

// Next returns the next message the server received, failing t if none
// comes within a minute.
func (s *Server) Next(t testing.TB) Mail {
	t.Helper()
	select {
	case m := <-s.got:
		return m
	case <-time.After(time.Minute):
		t.Fatal("no mail reached the SMTP server")
		return Mail{}
	}
}

type smtpSession struct {
	s      *Server
	c      *smtp.Conn
	authed bool
	from   string
	to     []string
}

func (x *smtpSession) AuthMechanisms() []string { return []string{sasl.Plain} }

func (x *smtpSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, user, pass string) error {
		if user != User || pass != Password {
			return errors.New("wrong user or password")
		}
		x.authed = true
		return nil
	}), nil
}

func (x *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	if !x.authed {
		return smtp.ErrAuthRequired
	}
	x.from = from
	return nil
}

func (x *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	x.to = append(x.to, to)
	return nil
}

func (x *smtpSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	x.s.mu.Lock()
	fail := x.s.fail > 0
	if fail {
		x.s.fail--
	}
	x.s.mu.Unlock()
	if fail {
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	}
	m, err := mail.ReadMessage(bytes.NewReader(b))
	if err != nil {
		return err
	}
	body, err := io.ReadAll(quotedprintable.NewReader(m.Body))
	if err != nil {
		return err
	}
	_, secure := x.c.TLSConnectionState()
	x.s.got <- Mail{From: x.from, To: x.to, Header: m.Header, Body: string(body), TLS: secure}
	return nil
}

func (x *smtpSession) Reset() { x.from, x.to = "", nil }

func (x *smtpSession) Logout() error { return nil }
