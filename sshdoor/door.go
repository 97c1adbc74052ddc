// Package sshdoor serves Parlour's terminal client (package tui) over SSH:
// each SSH session runs its own client in-process, which plays at the
// server through the same HTTP API as any other program. A key an
// account added (POST /api/v1/keys) signs the session in to that
// account; any other client plays as a guest, and a guest who comes back
// with the same key and user name is the same guest, with their tables.
package sshdoor

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/wish/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/time/rate"

	"parlour/account"
	"parlour/tui"
	"parlour/tui/client"
)

// Defaults of Config.
const (
	DefaultIdle        = 30 * time.Minute
	DefaultMaxSessions = 200
	DefaultPerAddr     = 4
	// DefaultNewPerMinute new connections a minute from one address,
	// after a burst of DefaultBurst.
	DefaultNewPerMinute = 10
	DefaultBurst        = 5
)

// ErrClosed is what Config.KeySession's error wraps when the key's
// account was closed by a moderator.
var ErrClosed = errors.New("the account was closed by a moderator")

// ErrUnconfirmed is what Config.KeySession's error wraps when an account
// holds the key but its holder has not confirmed it (it was pasted on a
// page, where anyone may paste anyone's public key); the name it returns
// is then that account's, or "" when no password could sign it in (a
// moderator closed it).
var ErrUnconfirmed = errors.New("the key is not confirmed")

// Config configures a door.
type Config struct {
	// API is the base URL of the Parlour HTTP API the sessions' clients
	// talk to (the server's own, on loopback).
	API string
	// PublicURL is the server's address as players reach it (the
	// server's BaseURL), for the links the sessions show, such as a
	// record's; empty: API.
	PublicURL string
	// DataDir keeps the host key.
	DataDir string
	// KeySession returns an account's name and a session token for a
	// public key the client has proved it holds, or an error when no
	// account added it (server.Service.KeySession): one wrapping
	// ErrClosed when the account that added it was closed.
	KeySession func(ctx context.Context, pub gossh.PublicKey) (name, token string, err error)
	// ProveKey adds pub, confirmed, to the account whose session token
	// is token (server.Service.ProveKey): the client proved it holds
	// pub's private half, and the player signed in to the account in the
	// same connection, so the key and the account are one player's. The
	// account's own unconfirmed key is confirmed, and one another
	// account only claimed is taken from it. Required with KeySession.
	ProveKey func(ctx context.Context, token string, pub gossh.PublicKey) error
	// Guest returns the login name and a new identity token of the
	// guest remembered under key (server.Service.GuestToken), or "" and
	// "" when none is. Remember remembers that key plays as the guest
	// whose identity token is token, under the login name
	// (server.Service.RememberGuest); its error wraps store.ErrNotFound
	// when token is not a guest's own (a seat's, an account's, an ended
	// one). The server keeps them in its database, so that a guest comes
	// back through any server of a cluster. Both are required.
	Guest    func(ctx context.Context, key string) (name, token string, err error)
	Remember func(ctx context.Context, key, name, token string) error
	// GuestName, when set, refuses a login name a guest may not play
	// under, one that passes for an account's (auth.Auth.GuestName):
	// the guest then plays under a name the server gives, as under a
	// reserved login, rather than be refused at their first table.
	GuestName func(ctx context.Context, name string) error
	// Idle closes a session in which no key was pressed for this long
	// (0: DefaultIdle).
	Idle time.Duration
	// MaxSessions, PerAddr, NewPerMinute and Burst limit connections
	// (0: the defaults).
	MaxSessions, PerAddr, NewPerMinute, Burst int
	// Hello and Grace drop a connection whose client has said nothing
	// Hello after connecting, or has not authenticated and opened its
	// session Grace after (0: DefaultHello, DefaultGrace). Until then it
	// counts only against limits of its own: twice MaxSessions at once,
	// PerAddr from one address.
	Hello, Grace time.Duration
	Log          *slog.Logger
	// HTTP, when set, returns the HTTP client a session from remote
	// uses (Pipe.Client); nil: a plain one.
	HTTP func(remote net.Addr) *http.Client
}

// Door is the SSH server.
type Door struct {
	cfg  Config
	srv  *ssh.Server
	gate *gate
	wg   sync.WaitGroup
	fp   string
	// refusing counts the refused connections being told why; past
	// maxRefusing at once (a flood), the rest are closed unanswered, so
	// that refusals hold few connections open.
	refusing chan struct{}
	// imported hands the guests' file of an older door to the server,
	// once, as the door begins to serve (the server is up by then).
	imported sync.Once

	// closing is closed when Shutdown begins: each session's client
	// quits, giving the player's terminal back, and says why. mu guards
	// shut, which keeps sessions that open after it out of wg, and the
	// listeners Serve serves, which Shutdown closes.
	closing   chan struct{}
	mu        sync.Mutex
	shut      bool
	listeners []net.Listener
}

// shutdownWait is how long Shutdown gives the sessions to quit and say
// why before it closes their connections: a client quits in
// milliseconds; a session still at the password prompt is closed then.
const shutdownWait = 2 * time.Second

// shuttingDown is the line a session gets when the server stops.
const shuttingDown = "The server is shutting down (perhaps to restart): your tables are kept; come back with ssh in a moment."

// maxRefusing is how many refused connections are told why at once.
const maxRefusing = 64

// New makes a door listening on addr (":2222"); Serve or ListenAndServe
// starts it.
func New(addr string, cfg Config) (*Door, error) {
	if cfg.Idle <= 0 {
		cfg.Idle = DefaultIdle
	}
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = DefaultMaxSessions
	}
	if cfg.PerAddr <= 0 {
		cfg.PerAddr = DefaultPerAddr
	}
	if cfg.NewPerMinute <= 0 {
		cfg.NewPerMinute = DefaultNewPerMinute
	}
	if cfg.Burst <= 0 {
		cfg.Burst = DefaultBurst
	}
	if cfg.Hello <= 0 {
		cfg.Hello = DefaultHello
	}
	if cfg.Grace <= 0 {
		cfg.Grace = DefaultGrace
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Guest == nil || cfg.Remember == nil {
		return nil, errors.New("ssh door: Config.Guest and Config.Remember are required")
	}
	if cfg.KeySession != nil && cfg.ProveKey == nil {
		return nil, errors.New("ssh door: Config.ProveKey is required with Config.KeySession")
	}
	key, err := HostKey(cfg.DataDir)
	if err != nil {
		return nil, err
	}
	signer, err := gossh.ParsePrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("ssh door: the host key: %w", err)
	}
	d := &Door{cfg: cfg, gate: newGate(cfg.MaxSessions, cfg.PerAddr, rate.Limit(float64(cfg.NewPerMinute)/60), cfg.Burst),
		fp: gossh.FingerprintSHA256(signer.PublicKey()), refusing: make(chan struct{}, maxRefusing), closing: make(chan struct{})}
	d.srv, err = wish.NewServer(
		wish.WithAddress(addr),
		wish.WithHostKeyPEM(key),
		// Every key is welcome: one an account added signs in, any
		// other plays as a guest. Clients without keys come in by an
		// empty keyboard-interactive exchange.
		wish.WithPublicKeyAuth(func(ssh.Context, ssh.PublicKey) bool { return true }),
		wish.WithKeyboardInteractiveAuth(func(ssh.Context, gossh.KeyboardInteractiveChallenge) bool { return true }),
		// A connection that says nothing at all for twice the idle time
		// is dropped by the transport; sessions close sooner, on keys.
		wish.WithIdleTimeout(2*cfg.Idle),
		wish.WithMiddleware(d.handle),
		func(s *ssh.Server) error {
			s.ConnCallback = d.admit
			s.ChannelHandlers = map[string]ssh.ChannelHandler{"session": d.oneSession(ssh.DefaultSessionHandler)}
			return nil
		},
	)
	if err != nil {
		return nil, fmt.Errorf("ssh door: %w", err)
	}
	return d, nil
}

// HostKeyFingerprint is the SHA256 fingerprint of the door's host key
// ("SHA256:…", as ssh-keygen -lf and ssh's first-connection question
// print it), for the operator to publish so that players can check the
// key on their first connection.
func (d *Door) HostKeyFingerprint() string { return d.fp }

// Serve serves connections on l until Shutdown. It first hands the
// guests' file an older door left in the data directory, if any, to the
// server (Config.Remember).
func (d *Door) Serve(l net.Listener) error {
	d.imported.Do(d.importGuests)
	d.mu.Lock()
	if d.shut {
		d.mu.Unlock()
		l.Close()
		return nil
	}
	d.listeners = append(d.listeners, l)
	d.mu.Unlock()
	err := d.srv.Serve(l)
	d.mu.Lock()
	shut := d.shut
	d.mu.Unlock()
	if errors.Is(err, ssh.ErrServerClosed) || shut && errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}

// ListenAndServe listens on the door's address and serves, as Serve.
func (d *Door) ListenAndServe() error {
	l, err := net.Listen("tcp", cmp.Or(d.srv.Addr, ":22"))
	if err != nil {
		return err
	}
	return d.Serve(l)
}

// Shutdown stops accepting connections, has every session's client quit
// (which gives the player's terminal back as it found it) and say why,
// waits a moment for them (shutdownWait, or until ctx is done), then
// closes the connections still open.
func (d *Door) Shutdown(ctx context.Context) error {
	d.mu.Lock()
	first := !d.shut
	d.shut = true
	d.mu.Unlock()
	if first {
		close(d.closing)
		// No new connections. The door closes the listeners it serves
		// itself: the server's Shutdown waits for its listeners in a
		// goroutine of its own, which races with a Serve just begun.
		d.mu.Lock()
		for _, l := range d.listeners {
			l.Close()
		}
		d.mu.Unlock()
		quit := make(chan struct{})
		go func() {
			d.wg.Wait()
			close(quit)
		}()
		select {
		case <-quit:
		case <-ctx.Done():
		case <-time.After(shutdownWait):
		}
	}
	err := d.srv.Close()
	d.wg.Wait()
	// The server closes the listeners it still tracks; one the door
	// closed above and whose Serve has not yet returned is closed twice,
	// which says nothing about the shutdown.
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	return err
}

func (d *Door) admit(ctx ssh.Context, c net.Conn) net.Conn {
	p, why := d.gate.admit(c.RemoteAddr())
	if p == nil {
		d.cfg.Log.Warn("ssh connection refused", "addr", c.RemoteAddr().String(), "why", why)
		select {
		case d.refusing <- struct{}{}:
			refuse(c, d.refusal(why))
			<-d.refusing
		default: // too many at once: closed unanswered
		}
		return nil
	}
	gc := newGatedConn(c, p, d.cfg.Hello, d.cfg.Grace, 2*d.cfg.Idle)
	ctx.SetValue(connKey{}, gc)
	return gc
}

// refusal is the line a refused connection gets, for the reason the gate
// gave.
func (d *Door) refusal(why string) string {
	switch why {
	case whyFull:
		return fmt.Sprintf("Parlour: the server is full (%d sessions); try again in a few minutes.", d.cfg.MaxSessions)
	case whyPerAddr:
		return fmt.Sprintf("Parlour: too many sessions at once from your address (at most %d); close one and try again.", d.cfg.PerAddr)
	case whyRate:
		return fmt.Sprintf("Parlour: too many new connections from your address (%d a minute); try again in a minute.", d.cfg.NewPerMinute)
	case whyPending:
		return "Parlour: too many connections are starting at once; try again in a moment."
	case whyPendingAddr:
		return "Parlour: too many connections from your address are starting at once; try again in a moment."
	}
	return "Parlour: the connection is refused: " + why + "."
}

// refuse says why to a connection it then closes, before the SSH
// handshake: the one place the protocol lets a server speak before it,
// the lines before its version string (RFC 4253, 4.2), which clients must
// read past. OpenSSH's ssh shows them only with -v ("banner line 0: …").
// Anything a client shows unasked (a userauth banner) would cost the
// whole key exchange, which a refusal under a flood must not. The write
// and the wait for the client's own version line are bounded, so that a
// client that reads nothing holds nothing.
func refuse(c net.Conn, line string) {
	c.SetDeadline(time.Now().Add(200 * time.Millisecond))
	io.WriteString(c, line+"\r\n")
	// Closing with the client's version line unread would reset the
	// connection, and the client could lose the line: end the sending
	// side, and read what the client sent until it closes or a moment
	// passes.
	if tc, ok := c.(interface{ CloseWrite() error }); ok {
		tc.CloseWrite()
		c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
		io.Copy(io.Discard, io.LimitReader(c, 4096))
	}
	c.Close()
}

// usage is the one line a session without a terminal gets.
const usage = "Parlour is played in a full-screen terminal: connect with ssh -t (add \"join CODE\" to join a table by its code or link).\n"

// handle runs one session: the client, signed in by the session's key
// when an account added it.
func (d *Door) handle(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		d.mu.Lock()
		if d.shut {
			d.mu.Unlock()
			io.WriteString(sess, shuttingDown+"\r\n")
			sess.Exit(1)
			return
		}
		d.wg.Add(1)
		d.mu.Unlock()
		defer d.wg.Done()
		d.run(sess)
		next(sess)
	}
}

func (d *Door) run(sess ssh.Session) {
	pty, winch, ok := sess.Pty()
	if !ok {
		io.WriteString(sess.Stderr(), usage)
		sess.Exit(2)
		return
	}
	defer func() { go drain(winch) }()
	width, height, refusal := fitWindow(pty.Window.Width, pty.Window.Height)
	if refusal != "" {
		refuseWindow(sess, refusal)
		return
	}
	cmd := sess.Command()
	table, resume := "", ""
	switch {
	case len(cmd) == 0:
	case len(cmd) >= 2 && cmd[0] == "join":
		table = strings.Join(cmd[1:], " ") // a code read aloud may come as "K7M 4PX"
	case len(cmd) == 1 && cmd[0] == "join":
		fmt.Fprintf(sess, "Say which table to join: \"join CODE\", with the code its player gave you.\n")
		sess.Exit(2)
		return
	case len(cmd) >= 2 && cmd[0] == "resume":
		code, err := readCode(strings.Join(cmd[1:], ""))
		if err != nil {
			fmt.Fprintln(sess, err)
			sess.Exit(2)
			return
		}
		resume = code
	case len(cmd) == 1 && cmd[0] == "resume":
		fmt.Fprintf(sess, "Say which guest to come back as: \"resume CODE\", with the code your last session showed.\n")
		sess.Exit(2)
		return
	default:
		fmt.Fprintf(sess, "Parlour knows two commands, \"join CODE\" and \"resume CODE\"; %q is neither.\n", clip(strings.Join(cmd, " ")))
		sess.Exit(2)
		return
	}
	ctx := sess.Context()
	name := sess.User()
	if account.Reserved(name) != "" {
		// A login the server keeps from guests (root, admin, ...) would
		// be refused at the first table: the server names the guest.
		name = ""
	}
	resumeTok := ""
	if resume != "" {
		gname, tok, err := d.cfg.Guest(ctx, codePrefix+resume)
		switch {
		case err != nil:
			d.cfg.Log.Warn("ssh door: looking up a resume code", "err", err)
			fmt.Fprintf(sess, "The server could not look the resume code up just now; nothing changed: try again in a moment.\n")
			sess.Exit(1)
			return
		case tok == "":
			fmt.Fprintf(sess, "No guest has the resume code %s (a code is forgotten %d days after its last use). Connect without it to play as a new guest.\n", showCode(resume), int(GuestTTL/(24*time.Hour)))
			sess.Exit(1)
			return
		}
		name, resumeTok = gname, tok
	}
	hc := d.httpFor(sess.RemoteAddr())
	c, err := client.New(d.cfg.API, name)
	if err == nil {
		c.WithHTTP(hc)
	}
	if err != nil {
		fmt.Fprintln(sess, "the server is misconfigured; sorry")
		d.cfg.Log.Error("ssh door", "err", err)
		sess.Exit(1)
		return
	}
	// The player is at another computer: the client must write nothing
	// to this one's disk.
	cfg := tui.Config{Client: c, Table: table, NoDisk: true, PublicURL: d.cfg.PublicURL, Guide: true}
	// The player is not at the server: their times of day are in the
	// zone their client sent, or in UTC, named as such.
	zone, chosen := sessionZone(sess.Environ())
	cfg.Zone, cfg.ZoneNamed = zone, !chosen
	pub := sess.PublicKey()
	switch {
	case resumeTok != "":
		// The guest asked for comes back, whatever the key would sign
		// in to: they said which player they are.
	case pub == nil:
		// No key: an account's name is signed in by its password, as
		// an SSH server's login is.
		acct, tok, ok, taken, note, err := d.offerPassword(sess, hc, name, nil, "")
		cfg.Note = note
		if err != nil {
			return // the session ended at the prompt
		}
		if ok {
			cfg.Session, cfg.Account, c.Name = tok, acct, acct
		} else if taken {
			c.Name = ""
		}
	case d.cfg.KeySession != nil:
		acct, tok, err := d.cfg.KeySession(ctx, pub)
		switch {
		case err == nil:
			cfg.Session, cfg.Account, c.Name = tok, acct, acct
		case errors.Is(err, ErrClosed):
			// The key is the account's, which a moderator closed: no
			// password would sign it in. Its player is told so, and plays
			// as a guest the server names.
			fmt.Fprintf(sess, "The account this key belongs to was closed by a moderator: you play as a guest.\n")
			c.Name = ""
		default:
			// A key an account holds unconfirmed signs nobody in: its
			// holder confirms it with the account's password, or plays
			// as somebody else.
			holder := ""
			if errors.Is(err, ErrUnconfirmed) {
				holder = acct
			}
			acct, tok, ok, taken, note, err := d.offerPassword(sess, hc, name, pub, holder)
			cfg.Note = note
			if err != nil {
				return
			}
			if ok {
				cfg.Session, cfg.Account, c.Name = tok, acct, acct
			} else if taken {
				// A guest may not take an account's name: the server
				// names the guest.
				c.Name = ""
			}
		}
	}
	if cfg.Session == "" && resumeTok == "" && c.Name != "" && d.cfg.GuestName != nil && d.cfg.GuestName(ctx, c.Name) != nil {
		// A login that passes for an account's name ("B0b" beside
		// Bob's) would be refused at the first table: the server names
		// the guest.
		c.Name = ""
	}
	var played atomic.Bool // the keyless guest has an identity to come back to
	// tokens are the guest identity tokens the connection played under:
	// each is the connection's own (made for it here or by its client),
	// so each is signed out as it ends.
	var tokens tokenSet
	code := cmp.Or(resume, newCode())
	if cfg.Session == "" {
		// A guest with a key comes back as the same guest, under the
		// same name, to their tables; one without, by a resume code.
		key := codePrefix + code
		if pub != nil {
			key = guestKey(gossh.FingerprintSHA256(pub), c.Name)
		}
		switch {
		case resumeTok != "":
			cfg.Identity = resumeTok
		case pub != nil:
			var err error
			if _, cfg.Identity, err = d.cfg.Guest(ctx, key); err != nil {
				d.cfg.Log.Warn("ssh door: looking up a guest's key", "err", err)
				cfg.Note = "The server could not look your key up just now: you play as a new guest."
			}
		}
		tokens.add(cfg.Identity)
		guestName := c.Name
		// remember runs in the client's loop, once a connection (when
		// its guest takes a first seat), and takes a write of the
		// server's: the guest is remembered before the player could
		// come back.
		remember := func(tok string) {
			tokens.add(tok)
			ctx, cancel := context.WithTimeout(ctx, rememberWait)
			defer cancel()
			if err := d.cfg.Remember(ctx, key, guestName, tok); err != nil {
				d.cfg.Log.Warn("ssh door: remembering a guest", "err", err)
				return
			}
			if pub == nil {
				played.Store(true)
			}
		}
		switch {
		case cfg.Identity == "":
		case pub == nil:
			played.Store(true) // resumed by the code, which goes on serving
		case resumeTok != "":
			remember(cfg.Identity) // resumed by code: next time the key does
		}
		cfg.OnIdentity = remember
		if pub == nil {
			cfg.Resume = d.resumeCommand(sess, code)
		} else {
			// No account holds the key confirmed: signing in or up in
			// the session adds it, confirmed, as the password prompt
			// above does.
			cfg.ProveKey = func(ctx context.Context, token string) (string, error) {
				return gossh.FingerprintSHA256(pub), d.proveKey(ctx, token, pub)
			}
		}
	}
	defer hc.CloseIdleConnections()
	in := &lastKey{r: sess}
	in.touch()
	m := tui.New(cfg)
	defer m.Close()
	env := append(sess.Environ(), "TERM="+pty.Term)
	// The program sends itself its first size, the one the session began
	// with, from a goroutine of its own; a resize at the password prompt
	// waits in winch. Read before the program took its first size in, it
	// could be overtaken by it and the screen drawn at the old size until
	// the next resize: winch is read once the first size is in.
	sized := make(chan struct{})
	var sizedOnce sync.Once
	p := tui.NewProgram(m, in, sess, env, width, height,
		tea.WithoutSignalHandler(),
		// The renderer writes to the session, not to a terminal it could
		// ask: it takes the colours and attributes the terminal the
		// client named has (its TERM, COLORTERM, NO_COLOR), as the
		// local client takes them from its own.
		tea.WithColorProfile(colorprofile.Env(env)),
		tea.WithFilter(func(_ tea.Model, msg tea.Msg) tea.Msg {
			switch msg.(type) {
			case tea.SuspendMsg:
				return tea.ResumeMsg{}
			case tea.WindowSizeMsg:
				sizedOnce.Do(func() { close(sized) })
			}
			return clampWindow(msg)
		}))
	stop := make(chan struct{})
	idled := make(chan struct{})
	closed := make(chan struct{})   // the server is shutting down
	resized := make(chan string, 1) // why a window-change closed the session
	go func() {
		tick := time.NewTicker(min(d.cfg.Idle/4, time.Minute))
		defer tick.Stop()
		first := sized
		var wins <-chan ssh.Window // winch, once the program has its first size
		for {
			select {
			case <-first:
				wins, first = winch, nil
			case <-stop:
				return
			case <-ctx.Done():
				p.Quit()
				return
			case <-d.closing:
				close(closed)
				p.Quit()
				return
			case w := <-wins:
				width, height, refusal := fitWindow(w.Width, w.Height)
				if refusal != "" {
					resized <- refusal
					p.Quit()
					return
				}
				p.Send(tea.WindowSizeMsg{Width: width, Height: height})
			case <-tick.C:
				if in.idle() > d.cfg.Idle {
					close(idled)
					p.Quit()
					return
				}
			}
		}
	}()
	_, err = p.Run()
	close(stop)
	p.Kill()
	tokens.add(m.Token())
	for _, tok := range tokens.list() {
		d.endSession(c, tok)
	}
	select {
	case <-idled:
		io.WriteString(sess, d.idleLine())
	case <-closed:
		fmt.Fprintf(sess, "\r\n%s\r\n", shuttingDown)
	default:
	}
	if played.Load() {
		// Left on the player's screen when the client has gone: nothing
		// else brings a guest without a key back to their tables.
		fmt.Fprintf(sess, "\r\nTo come back to your tables as this guest: %s\r\n", cfg.Resume)
	}
	select {
	case refusal := <-resized:
		refuseWindow(sess, refusal)
		return
	default:
	}
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		d.cfg.Log.Warn("ssh session", "addr", sess.RemoteAddr().String(), "err", err)
	}
	sess.Exit(0)
}

// endSession signs out tok, a token a connection played under, as the
// connection ends: an account's session the door signed in for this
// connection (by its key or its password) or the player did in the
// client, or a guest identity's token made for it. No one else holds it,
// so left behind it would only count among the account's sessions for
// ever (the guest is found again by key or code, with a new token). A
// failure is logged; the token then stays, as a browser's session does
// until it signs out.
func (d *Door) endSession(c *client.Client, tok string) {
	if tok == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), endSessionWait)
	defer cancel()
	var e *client.Error
	if err := c.SignOut(ctx, tok); err != nil && !(errors.As(err, &e) && e.Status == http.StatusUnauthorized) {
		d.cfg.Log.Warn("ssh door: signing out a closed connection's session", "err", err)
	}
}

// endSessionWait and rememberWait bound the sign-out of a connection's
// tokens and the remembering of a guest: the server is in the same
// process, and answers in milliseconds.
const (
	endSessionWait = 3 * time.Second
	rememberWait   = 3 * time.Second
)

// tokenSet is the tokens a connection played under, each once.
type tokenSet struct {
	mu   sync.Mutex
	toks []string
}

func (t *tokenSet) add(tok string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if tok != "" && !slices.Contains(t.toks, tok) {
		t.toks = append(t.toks, tok)
	}
}

func (t *tokenSet) list() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.toks)
}

// idleLine is what a session closed for want of keys reads last.
func (d *Door) idleLine() string {
	return fmt.Sprintf("\r\nNo key pressed for %s: the session is closed. Your tables are kept; come back with ssh.\r\n", d.cfg.Idle)
}

func (d *Door) httpFor(remote net.Addr) *http.Client {
	if d.cfg.HTTP != nil {
		return d.cfg.HTTP(remote)
	}
	return &http.Client{}
}

// lastKey reads a session's input and remembers when it last did.
type lastKey struct {
	r  io.Reader
	mu sync.Mutex
	at time.Time
}

func (l *lastKey) touch() {
	l.mu.Lock()
	l.at = time.Now()
	l.mu.Unlock()
}

func (l *lastKey) idle() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return time.Since(l.at)
}

func (l *lastKey) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	if n > 0 {
		l.touch()
	}
	return n, err
}
