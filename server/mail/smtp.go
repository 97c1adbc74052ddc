package mail

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/mail"
	"net/smtp"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// SMTP is where the server hands its mail: an SMTP server the operator
// names with `parlour serve --smtp URL` (ParseSMTP).
type SMTP struct {
	// Addr is the server's host:port.
	Addr string
	// Implicit is TLS from the first byte (smtps://); otherwise the
	// connection is upgraded with STARTTLS whenever the server offers it.
	Implicit bool
	// User and Password sign in (AUTH PLAIN), when User is set. net/smtp
	// sends them only over TLS or to a server on this machine.
	User, Password string
	// From is the address the mail comes from.
	From string
	// TLS, when set, is the TLS configuration (tests trust their own
	// certificate with it); otherwise the system's roots check the
	// server's name.
	TLS *tls.Config
	// Timeout bounds one delivery, connection to QUIT (default 30 s).
	Timeout time.Duration
}

// ParseSMTP reads an SMTP URL: smtp://[user[:password]@]host[:port]?from=ADDRESS
// (port 587 unless given, STARTTLS when offered) or smtps://… (port 465,
// TLS on connect). from is required; nothing else may follow the "?". Its
// errors say what is wrong in the operator's words, without the password.
func ParseSMTP(raw string) (*SMTP, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, errors.New("the SMTP URL is empty: give smtp://user:password@host:587?from=parlour@example.org")
	}
	u, err := url.Parse(raw)
	if err != nil {
		// url's errors quote the whole URL, password and all.
		return nil, errors.New("the SMTP URL does not parse: write it as smtp://user:password@host:587?from=parlour@example.org, escaping @, : and / in the password as %40, %3A and %2F")
	}
	s := &SMTP{}
	port := ""
	switch u.Scheme {
	case "smtp":
		port = "587"
	case "smtps":
		port, s.Implicit = "465", true
	case "":
		return nil, errors.New("the SMTP URL has no scheme: begin it with smtp:// (STARTTLS when the server offers it) or smtps:// (TLS on connect)")
	default:
		return nil, fmt.Errorf("the SMTP URL's scheme is %q: use smtp:// (STARTTLS when the server offers it) or smtps:// (TLS on connect)", u.Scheme)
	}
	if u.Opaque != "" || u.Host == "" {
		return nil, errors.New("the SMTP URL names no host: write smtp://host:587?from=parlour@example.org")
	}
	if u.Path != "" && u.Path != "/" {
		return nil, fmt.Errorf("the SMTP URL has a path (%q): an SMTP server has none, say only the host and port", u.Path)
	}
	if u.Fragment != "" {
		return nil, errors.New("the SMTP URL has a #fragment: remove it")
	}
	host := u.Hostname()
	if host == "" {
		return nil, errors.New("the SMTP URL names no host: write smtp://host:587?from=parlour@example.org")
	}
	if strings.Contains(host, ":") && !strings.HasPrefix(u.Host, "[") {
		return nil, errors.New("the SMTP URL's host is not clear: write an IPv6 address in brackets, as smtp://[::1]:587")
	}
	if strings.ContainsAny(host, "/?#@ %") {
		return nil, fmt.Errorf("the SMTP URL's host %q is not a host name", host)
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("the SMTP URL's port %q is not a port number (1 to 65535)", p)
		}
		port = p
	} else if strings.HasSuffix(u.Host, ":") {
		return nil, errors.New("the SMTP URL's port is empty: give a number after the colon, or no colon")
	}
	s.Addr = net.JoinHostPort(host, port)
	if u.User != nil {
		s.User = u.User.Username()
		s.Password, _ = u.User.Password()
		if s.User == "" {
			return nil, errors.New("the SMTP URL has a password but no user name: write smtp://user:password@host")
		}
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return nil, fmt.Errorf("the SMTP URL's query does not parse: %v", err)
	}
	for k := range q {
		if k != "from" {
			return nil, fmt.Errorf("the SMTP URL has an unknown setting %q: it takes only from=ADDRESS", k)
		}
	}
	switch from := q["from"]; len(from) {
	case 0:
		return nil, errors.New("the SMTP URL says no sender: add ?from=parlour@example.org, the address the mail comes from")
	case 1:
		addr, err := ParseAddress(from[0])
		if err != nil {
			return nil, fmt.Errorf("the SMTP URL's from: %v", err)
		}
		s.From = addr
	default:
		return nil, errors.New("the SMTP URL gives from more than once: give one sender")
	}
	return s, nil
}

// String is the URL without its password, for the log.
func (s *SMTP) String() string {
	scheme := "smtp"
	if s.Implicit {
		scheme = "smtps"
	}
	u := url.URL{Scheme: scheme, Host: s.Addr, RawQuery: url.Values{"from": {s.From}}.Encode()}
	if s.User != "" {
		u.User = url.User(s.User)
	}
	return u.String()
}

// maxAddress is the longest address SMTP carries (RFC 5321's path limit,
// less the angle brackets).
const maxAddress = 254

// ParseAddress checks an e-mail address a player (or the operator) gave:
// one bare address, local@domain, with a domain of at least two labels.
// It returns the address as it will be used; its errors name the problem
// in the player's words.
func ParseAddress(s string) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "", errors.New("give an e-mail address, such as ann@example.org")
	case len(s) > maxAddress:
		return "", fmt.Errorf("that e-mail address is too long: %d characters, at most %d", len(s), maxAddress)
	case strings.ContainsAny(s, "\r\n\t\x00"):
		return "", errors.New("an e-mail address is one line, without tabs")
	case !strings.Contains(s, "@"):
		return "", fmt.Errorf("%q is not an e-mail address: it has no @", s)
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Name != "" || a.Address != s {
		return "", fmt.Errorf("%q is not an e-mail address: give just the address, such as ann@example.org", s)
	}
	at := strings.LastIndexByte(s, '@')
	local, domain := s[:at], s[at+1:]
	if local == "" || strings.ContainsAny(local, " \"") {
		return "", fmt.Errorf("%q is not an e-mail address: give a plain name before the @", s)
	}
	labels := strings.Split(domain, ".")
	if len(labels) < 2 {
		return "", fmt.Errorf("%q is not an e-mail address: the part after the @ must be a domain such as example.org", s)
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || strings.HasPrefix(l, "-") || strings.HasSuffix(l, "-") {
			return "", fmt.Errorf("%q is not an e-mail address: the domain %q is not a host name", s, domain)
		}
		for _, c := range l {
			if !(c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80) {
				return "", fmt.Errorf("%q is not an e-mail address: the domain %q is not a host name", s, domain)
			}
		}
	}
	return s, nil
}

// send delivers msg to one recipient through s with net/smtp: TLS on
// connect, or STARTTLS when the server offers it; AUTH PLAIN when the URL
// gives a user.
func (s *SMTP) send(to string, msg []byte) (err error) {
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	host, _, _ := net.SplitHostPort(s.Addr)
	tc := s.TLS
	if tc == nil {
		tc = &tls.Config{}
	}
	tc = tc.Clone()
	if tc.ServerName == "" {
		tc.ServerName = host
	}
	d := net.Dialer{Timeout: timeout}
	var conn net.Conn
	if s.Implicit {
		conn, err = tls.DialWithDialer(&d, "tcp", s.Addr, tc)
	} else {
		conn, err = d.Dial("tcp", s.Addr)
	}
	if err != nil {
		return fmt.Errorf("connecting to %s: %w", s.Addr, err)
	}
	conn.SetDeadline(time.Now().Add(timeout))
	c, err := smtp.NewClient(conn, host)
	if err != nil {
		conn.Close()
		return fmt.Errorf("greeting %s: %w", s.Addr, err)
	}
	defer c.Close()
	if err := c.Hello("localhost"); err != nil {
		return fmt.Errorf("EHLO: %w", err)
	}
	if !s.Implicit {
		if ok, _ := c.Extension("STARTTLS"); ok {
			if err := c.StartTLS(tc); err != nil {
				return fmt.Errorf("STARTTLS: %w", err)
			}
		}
	}
	if s.User != "" {
		if err := c.Auth(smtp.PlainAuth("", s.User, s.Password, host)); err != nil {
			return fmt.Errorf("signing in as %s: %w", s.User, err)
		}
	}
	if err := c.Mail(s.From); err != nil {
		return fmt.Errorf("MAIL FROM: %w", err)
	}
	if err := c.Rcpt(to); err != nil {
		return fmt.Errorf("RCPT TO: %w", err)
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("DATA: %w", err)
	}
	if _, err := w.Write(msg); err != nil {
		return fmt.Errorf("writing the message: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("ending the message: %w", err)
	}
	return c.Quit()
}
