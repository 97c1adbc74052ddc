// Package httpapi is the HTTP door of the server: the API under
// /api/v1/ that programs, the browser and the terminal use, its event
// streams, the editors' helpers under /api/v1/tools/, /healthz and
// /metrics, and the door's own limits (a connection's rate, an address's
// connections and streams, an identity's requests, trusted proxies,
// another site's pages). Each handler reads who asks and the body through
// one adapter (handle.go) and answers what a part of the server says,
// JSON or a refusal in a player's words; the rules live in the parts. It
// mounts the WebSocket door (server/socket) and shares its budgets with
// it. docs/protocol.md and docs/players-api.md are its reference.
package httpapi

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"parlour/game"
	"parlour/invite"
	"parlour/server/analyses"
	"parlour/server/auth"
	"parlour/server/daily"
	"parlour/server/limit"
	"parlour/server/mail"
	"parlour/server/moderation"
	"parlour/server/players"
	"parlour/server/protocol"
	"parlour/server/refuse"
	"parlour/server/relations"
	"parlour/server/seek"
	"parlour/server/social"
	"parlour/server/socket"
	"parlour/server/table"
	"parlour/server/tournament"
	"parlour/store"
)

// Config is what a Handler serves: the parts of the server, built by the
// composition root, and the limits of the door. Tables, Players, Social,
// Daily, Analyses, Auth, Games, Store and Metrics are required.
type Config struct {
	Tables   *table.Service
	Players  *players.Service
	Social   *social.Service
	Daily    *daily.Service
	Analyses *analyses.Cache
	Seeks    *seek.Service
	// Moderation keeps reports and moderators (nil: the server has
	// none, and their routes answer 501).
	Moderation *moderation.Service
	// Mail is the players' e-mail (server/mail).
	Mail  *mail.Service
	Auth  *auth.Auth
	Games *game.Registry
	Store store.Store
	// Metrics is the registry the door registers its own metrics on and
	// serves, every part's, at GET /metrics.
	Metrics *prometheus.Registry
	Limits  limit.Limits
	Logger  *slog.Logger
	// Closing ends when the server shuts down: the sockets and the
	// player streams then close.
	Closing context.Context
	// Forward, when set, wraps the routes: on a node of a cluster, the
	// cluster's middleware that sends a request about a table another
	// node runs to that node.
	Forward func(http.Handler) http.Handler
	// Remote follows the tables other nodes run, for the event streams
	// and the sockets (nil on a single node).
	Remote socket.Remote
	// Ping, when set, says whether the node reaches what it needs beside
	// its store, for GET /readyz: on a node of a cluster, the bus.
	Ping func(context.Context) error
	// HelloWait is how long a new socket has to say hello (default 10
	// s, as docs/protocol.md promises); KeepAlive how often the player
	// stream writes an empty line, and a table's event stream asked with
	// keepalive=1 one after each quiet period that long (default
	// social.StreamKeepAlive).
	// Tests shorten them.
	HelloWait, KeepAlive time.Duration

	// Relations are the follows and blocks.
	Relations *relations.Service

	// Tournaments are the events (nil: the server runs none, and their
	// routes answer 501).
	Tournaments *tournament.Service
}

// Handler serves both doors of the server: the HTTP API under /api/v1/,
// the WebSocket at /api/v1/tables/{id}/socket, and /healthz and /metrics.
type Handler struct {
	tables   *table.Service
	players  *players.Service
	social   *social.Service
	rel      *relations.Service
	daily    *daily.Service
	analyses *analyses.Cache
	seeks    *seek.Service
	// moderation is Config's Moderation; reportsByID and reportsByAddr
	// limit the reports each identity and each address makes.
	moderation                 *moderation.Service
	reportsByID, reportsByAddr *limit.Keyed
	mail                       *mail.Service
	auth                       *auth.Auth
	games                      *game.Registry
	st                         store.Store
	reg                        *prometheus.Registry
	metrics                    *metricSet
	closing                    context.Context

	lim limit.Limits
	log *slog.Logger
	mux *http.ServeMux
	// route serves what the door lets through: the mux, behind the
	// cluster's Forward on a node of a cluster.
	route  http.Handler
	byID   *limit.Keyed
	byAddr *limit.Keyed
	// codeMisses counts each address's invite codes that led nowhere.
	codeMisses *limit.Keyed
	// chatByAddr limits each address's chat messages.
	chatByAddr *limit.Keyed
	// held counts the streams and sockets held open (holdStream).
	held limit.Held
	// newRated counts the rated games new accounts start, per address
	// (server/table/farm.go).
	newRated *limit.Keyed
	// newRatedTurns has one address's starts that newRated counts go
	// one at a time (newRatedTurn).
	newRatedTurns *limit.Turns
	// challengesByAddr counts the challenges each address makes.
	challengesByAddr *limit.Keyed
	// seeksByID and seeksByAddr limit the seeks each identity and each
	// address makes (http_seeks.go).
	seeksByID, seeksByAddr *limit.Keyed
	// relationsByID counts the follows and blocks each identity makes
	// and undoes (http_follows.go).
	relationsByID *limit.Keyed
	// signInByAddr and signInByName limit password checks (http_sessions.go).
	signInByAddr, signInByName *limit.Keyed

	// keepAlive is Config's KeepAlive.
	keepAlive time.Duration

	// door is the WebSocket door, mounted on the socket's route.
	door *socket.Door

	// remote follows the tables other nodes run (nil on a single node).
	remote socket.Remote

	// ping is Config's Ping; notReady says whether the last GET /readyz
	// found the node not ready, so that the log says so once a time.
	ping     func(context.Context) error
	notReady atomic.Bool

	// static serves the browser client, when set (see ServeStatic).
	static http.Handler

	// tournaments is Config's Tournaments (http_tournaments.go).
	tournaments *tournament.Service
}

// ServeStatic makes h serve the browser client with static (web.Handler):
// every path the API does not claim, and the invite link /t/{id} when a
// browser asks for a page. Programs that ask for text still get the
// invite's plain-text description. Call it before serving.
func (h *Handler) ServeStatic(static http.Handler) {
	h.static = static
	h.mux.Handle("/", static)
}

// New returns the HTTP handler of the parts cfg names.
func New(cfg Config) (*Handler, error) {
	lim := cfg.Limits.WithDefaults()
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Closing == nil {
		cfg.Closing = context.Background()
	}
	m, err := newMetrics(cfg.Metrics)
	if err != nil {
		return nil, fmt.Errorf("httpapi: registering metrics: %w", err)
	}
	newRated := lim.NewRatedPerAddr
	if newRated <= 0 {
		newRated = table.NewRatedPerAddr
	}
	h := &Handler{
		tables: cfg.Tables, players: cfg.Players, social: cfg.Social, daily: cfg.Daily, analyses: cfg.Analyses, seeks: cfg.Seeks, mail: cfg.Mail,
		auth: cfg.Auth, games: cfg.Games, st: cfg.Store, reg: cfg.Metrics, metrics: m, closing: cfg.Closing,
		remote: cfg.Remote, ping: cfg.Ping, moderation: cfg.Moderation,
		reportsByID:   limit.NewKeyed(moderation.ReportsPerHour/3600.0, moderation.ReportsBurst),
		reportsByAddr: limit.NewKeyed(moderation.ReportsPerAddrHour/3600.0, moderation.ReportsPerAddrBurst),
		lim:           lim, log: cfg.Logger, mux: http.NewServeMux(),
		byID:             limit.NewKeyed(lim.PerIdentity, lim.PerIdentityBurst),
		byAddr:           limit.NewKeyed(lim.NewGuests, lim.NewGuestsBurst),
		codeMisses:       limit.NewKeyed(table.CodeMisses, table.CodeMissesBurst),
		chatByAddr:       limit.NewKeyed(lim.ChatPerAddr, lim.ChatPerAddrBurst),
		newRated:         limit.NewKeyed(float64(newRated)/(24*60*60.0), float64(newRated)),
		newRatedTurns:    limit.NewTurns(),
		challengesByAddr: limit.NewKeyed(social.ChallengesPerAddr, social.ChallengesPerAddrBurst),
		seeksByID:        limit.NewKeyed(seek.PerIdentity, seek.PerIdentityBurst),
		seeksByAddr:      limit.NewKeyed(seek.PerAddr, seek.PerAddrBurst),
		signInByAddr:     limit.NewKeyed(lim.SignIns, lim.SignInsBurst),
		signInByName:     limit.NewKeyed(lim.SignInsPerName, lim.SignInsPerNameBurst),
		relationsByID:    limit.NewKeyed(relations.ChangesPerIdentity, relations.ChangesBurst),
		rel:              cfg.Relations,
		tournaments:      cfg.Tournaments,
		keepAlive:        cmp.Or(cfg.KeepAlive, social.StreamKeepAlive),
	}
	// The socket shares the API's budgets (an identity's requests, an
	// address's chat and held streams) and answers a message on a table
	// another node runs through the whole of this door.
	h.door, err = socket.New(socket.Config{
		Tables: cfg.Tables, Auth: cfg.Auth, Online: cfg.Social, Limits: lim, PerIdentity: h.byID,
		ChatAllowed: h.chatAllowed, Hold: h.holdStream, ClientAddr: h.clientAddr, Fail: h.fail,
		HTTP: h, Remote: cfg.Remote, Logger: cfg.Logger, Registerer: cfg.Metrics, Closing: cfg.Closing, HelloWait: cfg.HelloWait,
	})
	if err != nil {
		return nil, err
	}
	h.route = h.mux
	if cfg.Forward != nil {
		h.route = cfg.Forward(h.mux)
	}
	// The routes, with whom each hears (caller) and the status of its
	// answer; the endpoints that write their own answers (streams, the
	// socket, cookies, the move) are plain handler funcs.
	ok, created, none := http.StatusOK, http.StatusCreated, http.StatusNoContent
	h.mux.HandleFunc("GET /healthz", h.healthz)
	h.mux.HandleFunc("GET /readyz", h.readyz)
	h.mux.HandleFunc("GET /metrics", h.serveMetrics)
	h.mux.HandleFunc("GET /api/v1/games", h.listGames)
	h.mux.HandleFunc("POST /api/v1/identity", handleJSON(h, byAnyone, created, h.newIdentity))
	h.mux.HandleFunc("GET /api/v1/tables", handle(h, byViewer, ok, h.lobby))
	h.mux.HandleFunc("GET /api/v1/tv", handle(h, byAnyone, ok, h.tv))
	h.mux.HandleFunc("GET /api/v1/lexicons", handle(h, byAnyone, ok, h.lexicons))
	h.mux.HandleFunc("POST /api/v1/tables", handleJSON(h, byIdentity, created, h.create))
	h.mux.HandleFunc("GET /api/v1/tables/{id}", handle(h, byToken, ok, h.view))
	h.mux.HandleFunc("POST /api/v1/tables/{id}/join", handleJSON(h, byIdentity, ok, h.join))
	h.mux.HandleFunc("POST /api/v1/tables/{id}/leave", handle(h, bySeat, ok, h.leave))
	h.mux.HandleFunc("POST /api/v1/tables/{id}/setup", handleJSON(h, bySeat, ok, h.setup))
	h.mux.HandleFunc("POST /api/v1/tables/{id}/moves", h.move)
	h.mux.HandleFunc("GET /api/v1/tables/{id}/events", h.events)
	h.mux.HandleFunc("GET /api/v1/tables/{id}/record", handle(h, byToken, ok, h.record))
	h.mux.HandleFunc("GET /api/v1/tables/{id}/analysis", h.analysis)
	h.mux.HandleFunc("POST /api/v1/tables/{id}/rematch", handle(h, bySeat, ok, h.rematch))
	h.mux.Handle("GET /api/v1/tables/{id}/socket", h.door)
	h.mux.HandleFunc("GET /api/v1/tables/{id}/chat", handle(h, byToken, ok, h.chatPage))
	h.mux.HandleFunc("POST /api/v1/tables/{id}/chat", handleJSON(h, byToken, created, h.chat))
	h.mux.HandleFunc("POST /api/v1/tables/{id}/chat/mute", handleJSON(h, byToken, ok, h.mute))
	h.mux.HandleFunc("POST /api/v1/tables/{id}/claim", handle(h, bySeat, ok, h.claim))
	h.mux.HandleFunc("POST /api/v1/tables/{id}/abort", handle(h, bySeat, ok, h.abort))
	h.mux.HandleFunc("GET /t/{id}", h.invite)
	h.mux.HandleFunc("GET /api/v1/invites/{code}", handle(h, byAnyone, ok, h.invitation))
	h.mux.HandleFunc("POST /api/v1/accounts", h.signUp)
	h.mux.HandleFunc("GET /api/v1/account", h.whoAmI)
	h.mux.HandleFunc("GET /api/v1/identity/tables", handle(h, bySignedIn, ok, h.myTables))
	h.mux.HandleFunc("GET /api/v1/identity/games", handle(h, bySignedIn, ok, h.ownHistory))
	h.mux.HandleFunc("PUT /api/v1/account/password", handleJSON(h, bySignedIn, none, h.changePassword))
	h.mux.HandleFunc("DELETE /api/v1/account", h.deleteAccount)
	h.mux.HandleFunc("POST /api/v1/sessions", h.signIn)
	h.mux.HandleFunc("DELETE /api/v1/sessions", h.signOut)
	h.mux.HandleFunc("DELETE /api/v1/account/sessions", handle(h, bySignedIn, ok, h.endOtherSessions))
	h.mux.HandleFunc("POST /api/v1/keys", handleJSON(h, bySignedIn, created, h.addKey))
	h.mux.HandleFunc("GET /api/v1/keys", handle(h, bySignedIn, ok, h.listKeys))
	h.mux.HandleFunc("DELETE /api/v1/keys/{fingerprint...}", handle(h, bySignedIn, none, h.deleteKey))
	h.mux.HandleFunc("GET /api/v1/account/email", handle(h, bySignedIn, ok, h.emailSettings))
	h.mux.HandleFunc("PUT /api/v1/account/email", handleJSON(h, bySignedIn, ok, h.setEmail))
	h.mux.HandleFunc("DELETE /api/v1/account/email", handle(h, bySignedIn, none, h.deleteEmail))
	h.mux.HandleFunc("GET /api/v1/email/verify", h.verifyEmail)
	h.mux.HandleFunc("GET /api/v1/password-reset", handle(h, byAnyone, ok, h.resetOffered))
	h.mux.HandleFunc("POST /api/v1/password-reset", handleJSON(h, byAnyone, http.StatusAccepted, h.askReset))
	h.mux.HandleFunc("POST /api/v1/password-reset/confirm", handleJSON(h, byAnyone, ok, h.confirmReset))
	h.mux.HandleFunc("GET /api/v1/email/unsubscribe", h.unsubscribeAsk)
	h.mux.HandleFunc("POST /api/v1/email/unsubscribe", h.unsubscribe)
	h.mux.HandleFunc("GET /api/v1/players", handle(h, byAnyone, ok, h.searchPlayers))
	h.mux.HandleFunc("GET /api/v1/players/{name}", handle(h, byViewer, ok, h.profile))
	h.mux.HandleFunc("GET /api/v1/players/{name}/games", handle(h, byViewer, ok, h.history))
	h.mux.HandleFunc("GET /api/v1/players/{name}/games/export", h.exportGames)
	h.mux.HandleFunc("GET /api/v1/leaderboards", h.leaderboards)
	h.mux.HandleFunc("GET /api/v1/leaderboards/{pool}", handle(h, byAnyone, ok, h.leaderboard))
	h.mux.HandleFunc("GET /api/v1/daily/{game}", handle(h, byIdentity, ok, h.dailyToday))
	h.mux.HandleFunc("POST /api/v1/daily/{game}", h.dailyStart)
	h.mux.HandleFunc("GET /api/v1/daily/{game}/{date}/leaderboard", handle(h, byAnyone, ok, h.dailyBoard))
	h.mux.HandleFunc("GET /api/v1/players/{name}/daily", handle(h, byAnyone, ok, h.playerDaily))
	h.mux.HandleFunc("GET /api/v1/online", handle(h, byToken, ok, h.online))
	h.mux.HandleFunc("GET /api/v1/account/settings", handle(h, byIdentity, ok, h.settings))
	h.mux.HandleFunc("PUT /api/v1/account/settings", handleJSON(h, byIdentity, ok, h.setSettings))
	h.mux.HandleFunc("GET /api/v1/challenges", handle(h, bySignedIn, ok, h.listChallenges))
	h.mux.HandleFunc("POST /api/v1/challenges", handleJSON(h, bySignedIn, created, h.challenge))
	h.mux.HandleFunc("POST /api/v1/challenges/{id}/accept", handle(h, bySignedIn, created, h.accept))
	h.mux.HandleFunc("POST /api/v1/challenges/{id}/decline", handle(h, bySignedIn, ok, h.decline))
	h.mux.HandleFunc("DELETE /api/v1/challenges/{id}", handle(h, bySignedIn, ok, h.withdraw))
	h.mux.HandleFunc("GET /api/v1/stream", h.stream)
	h.mux.HandleFunc("GET /api/v1/seeks", handle(h, byIdentity, ok, h.listSeeks))
	h.mux.HandleFunc("POST /api/v1/seeks", h.postSeek)
	h.mux.HandleFunc("GET /api/v1/seeks/{id}", handle(h, bySignedIn, ok, h.mySeek))
	h.mux.HandleFunc("DELETE /api/v1/seeks/{id}", handle(h, bySignedIn, none, h.cancelSeek))
	h.mux.HandleFunc("POST /api/v1/seeks/{id}/accept", handle(h, bySignedIn, created, h.acceptSeek))
	h.tournamentRoutes()
	h.tournamentChatRoutes()
	// Reports and moderation (http_moderation.go).
	h.mux.HandleFunc("POST /api/v1/reports", handleJSON(h, bySignedIn, created, h.report))
	h.mux.HandleFunc("GET /api/v1/moderation/reports", handle(h, bySignedIn, ok, h.reportQueue))
	h.mux.HandleFunc("POST /api/v1/moderation/reports/{id}/close", handleMaybeJSON(h, bySignedIn, ok, h.closeReport))
	h.mux.HandleFunc("POST /api/v1/moderation/mutes", handleJSON(h, bySignedIn, ok, h.modMute))
	h.mux.HandleFunc("POST /api/v1/moderation/rename", handleJSON(h, bySignedIn, ok, h.modRename))
	h.mux.HandleFunc("POST /api/v1/moderation/close", handleJSON(h, bySignedIn, ok, h.modClose))
	h.mux.HandleFunc("POST /api/v1/moderation/reopen", handleJSON(h, bySignedIn, ok, h.modReopen))
	h.mux.HandleFunc("GET /api/v1/moderation/tables/{id}/chat", handle(h, bySignedIn, ok, h.modTableChat))
	h.mux.HandleFunc("GET /api/v1/moderation/log", handle(h, bySignedIn, ok, h.modLog))
	h.mux.HandleFunc("GET /api/v1/follows", handle(h, bySignedIn, ok, h.listFollows))
	h.mux.HandleFunc("POST /api/v1/follows", handleJSON(h, bySignedIn, created, h.follow))
	h.mux.HandleFunc("DELETE /api/v1/follows/{name}", handle(h, bySignedIn, none, h.unfollow))
	h.mux.HandleFunc("GET /api/v1/blocks", handle(h, bySignedIn, ok, h.listBlocks))
	h.mux.HandleFunc("POST /api/v1/blocks", handleJSON(h, bySignedIn, created, h.block))
	h.mux.HandleFunc("DELETE /api/v1/blocks/{name}", handle(h, bySignedIn, none, h.unblock))
	h.mountTools() // POST /api/v1/tools/..., and their old paths (tools.go)
	h.mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		h.fail(w, r, refuse.NotFound("no such endpoint: %s %s", r.Method, refuse.Clip(r.URL.Path)))
	})
	return h, nil
}

type connKey struct{}

// ConnContext gives each connection its own rate limit; pass it as
// http.Server.ConnContext.
func (h *Handler) ConnContext(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, limit.NewBucket(h.lim.PerConn, h.lim.PerConnBurst))
}

// statusWriter remembers the status a handler wrote.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// ServeHTTP applies the connection's rate limit and serves the request. A
// request with a body must send all of it within limit.Limits.BodyTimeout: a
// client trickling a large body byte by byte is cut off (408, and the
// connection closed), rather than holding its connection for as long as
// it likes. (Once the body has all come, net/http lifts the deadline
// itself, to watch for the client going away: a request that then waits
// is not cut off.)
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	if r.Body != nil && r.Body != http.NoBody {
		http.NewResponseController(w).SetReadDeadline(start.Add(h.lim.BodyTimeout))
	}
	sw := &statusWriter{ResponseWriter: w}
	if !h.refused(sw, r, start) {
		h.route.ServeHTTP(sw, r)
	}
	h.metrics.request(sw.status)
	switch {
	case sw.status >= 500:
		h.log.Warn("request failed", "method", r.Method, "path", r.URL.Path, "status", sw.status, "took", time.Since(start))
	case h.log.Enabled(r.Context(), slog.LevelDebug):
		// Checked first: building the arguments costs allocations on
		// every request even when the line is not written.
		h.log.Debug("request", "method", r.Method, "path", r.URL.Path, "status", sw.status, "took", time.Since(start))
	}
}

// refused answers a request the door turns away before any handler sees
// it (the connection's rate limit, another site's page) and reports
// whether it did; it also sends HSTS when the server is set to.
func (h *Handler) refused(w http.ResponseWriter, r *http.Request, now time.Time) bool {
	if h.lim.SecureCookies {
		w.Header().Set("Strict-Transport-Security", "max-age=31536000")
	}
	if b, ok := r.Context().Value(connKey{}).(*limit.Bucket); ok && !b.Allow(now) {
		h.tables.RateLimited()
		h.fail(w, r, refuse.TooMany("too many requests on this connection: slow down"))
		return true
	}
	if err := h.crossSite(r); err != nil {
		h.fail(w, r, err)
		return true
	}
	return false
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	jsonHeader(w, status)
	e := json.NewEncoder(w)
	e.SetEscapeHTML(false)
	e.Encode(v)
}

// writeJSONBytes answers b, JSON already encoded, with status.
func writeJSONBytes(w http.ResponseWriter, status int, b []byte) {
	jsonHeader(w, status)
	w.Write(b)
}

// jsonHeader writes the header of a JSON answer, never to be cached.
func jsonHeader(w http.ResponseWriter, status int) {
	// The two values share one array, set straight into the map (their
	// keys are canonical already): Header.Set takes an allocation for
	// each, and every answer comes this way.
	v := [2]string{"application/json", "no-store"}
	h := w.Header()
	h["Content-Type"] = v[0:1:1]
	h["Cache-Control"] = v[1:2:2]
	w.WriteHeader(status)
}

// fail answers err as {"error": "..."} with its status (refuse.Write);
// an unexpected error is logged and its text withheld.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, table.ErrMoved) && auth.Forwarded(r.Context()) {
		w.Header().Set(table.MovedHeader, "1")
	}
	refuse.Write(w, r, h.log, err)
}

// principal authenticates the request's bearer token, or else its session
// cookie, if any, and applies the identity's rate limit. A request with
// neither has a nil principal.
func (h *Handler) principal(r *http.Request) (*auth.Principal, error) {
	tok, cookie, err := requestToken(r)
	if err != nil || cookie && tok == "" {
		return nil, err
	}
	p, err := h.auth.Authenticate(r.Context(), tok)
	if err != nil {
		if cookie && refuse.Status(err) == http.StatusUnauthorized {
			return nil, refuse.Unauthorized("your session has ended (signed out, the password changed, or left unused too long): sign in again")
		}
		return nil, err
	}
	if !h.byID.Allow(p.Identity) {
		h.tables.RateLimited()
		return nil, refuse.TooMany("too many requests for your identity: slow down")
	}
	h.social.Touch(p.Identity)
	return p, nil
}

// errSessionEnded ends a stream whose session ended under it.
var errSessionEnded = errors.New(auth.SessionEnded)

// sessionEndedLine is the last line of such a stream: its status, as a
// request with the session would now be answered, tells a client not to
// open the stream again with it.
var sessionEndedLine = struct {
	Error  string `json:"error"`
	Status int    `json:"status"`
}{auth.SessionEnded, http.StatusUnauthorized}

// sessionContext returns r's context, ended with errSessionEnded as its
// cause when the session or identity token r signed in with as p ends
// (auth.Watch: a sign-out, a new password, the account closed), and the
// func that stops watching. A stream open for hours would otherwise go
// on telling a player's news, and a seat's secrets, to a session that
// was ended to stop exactly that. A seat's own token is not watched: it
// lasts as long as its seat.
func (h *Handler) sessionContext(r *http.Request, p *auth.Principal) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(r.Context())
	tok, _, err := requestToken(r)
	if p == nil || p.Table != "" || err != nil || tok == "" {
		return ctx, func() { cancel(nil) }
	}
	stop := h.auth.Watch(ctx, tok, func() { cancel(errSessionEnded) })
	return ctx, func() { stop(); cancel(nil) }
}

// requestToken returns the token r acts with, unchecked: its bearer
// token, or else its session cookie's (cookie then true); "" when it
// gives neither.
func requestToken(r *http.Request) (tok string, cookie bool, err error) {
	header := r.Header.Get("Authorization")
	if header == "" {
		return auth.SessionToken(r), true, nil
	}
	tok, ok := strings.CutPrefix(header, "Bearer ")
	if !ok {
		return "", false, refuse.Unauthorized(`the Authorization header must be "Bearer <token>"`)
	}
	return strings.TrimSpace(tok), false, nil
}

// wholeIdentity authenticates a request for an action of the whole
// identity, not of one table: making or joining a table, signing up, the
// account's settings, keys, challenges, daily attempts and streams. A
// seat's token acts for its seat at its table alone, as documented, so it
// is refused here: one leaked with a table's link must not add an SSH key
// to the account, nor sign its guest up under someone else's password. A
// request with no token has a nil principal, as with principal.
func (h *Handler) wholeIdentity(r *http.Request) (*auth.Principal, error) {
	p, err := h.principal(r)
	if err == nil && p != nil && p.Table != "" {
		return nil, refuse.Forbidden("that token is a seat's: it acts for its seat at table %s alone; send your identity token, your session, or none", p.Table)
	}
	return p, err
}

// guestAllowed applies the per-address limit on new guest identities.
func (h *Handler) guestAllowed(r *http.Request) error {
	if !h.byAddr.Allow(h.clientAddr(r)) {
		h.tables.RateLimited()
		return refuse.TooMany("too many new guests from your address: slow down")
	}
	return nil
}

func (h *Handler) healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintln(w, "ok")
}

func (h *Handler) serveMetrics(w http.ResponseWriter, r *http.Request) {
	h.metricsHandler().ServeHTTP(w, r)
}

// GameInfo describes a game for clients choosing one.
type GameInfo struct {
	Name     string        `json:"name"`
	Title    string        `json:"title"`
	Min      int           `json:"min_players"`
	Max      int           `json:"max_players"`
	HasSetup bool          `json:"has_setup"`
	Options  []game.Option `json:"options"`
	// TableOptions are the options every game's tables take besides
	// the game's own (the clock: game.TableOptions).
	TableOptions []game.Option `json:"table_options"`
	// Words is set for a game that judges words against its table's
	// lexicon: its tables take a "lexicon" (GET /api/v1/lexicons).
	Words bool `json:"words,omitempty"`
	// ModeOption names the option whose choices are rated apart, each a
	// rating pool (Nymphabet's "mode"): a seek or an event takes it as
	// its "mode". Empty for a game of one pool.
	ModeOption string `json:"mode_option,omitempty"`
	// RatedOptions names the game's options a rated table may set away
	// from their defaults, ModeOption among them: a rated table keeps
	// every other option of the game at its default, and checks words
	// against the default word list (its clock is free), so that a form
	// need not offer a rated game the server refuses. Empty for a game
	// rated only as it comes; null for one never rated.
	RatedOptions []string `json:"rated_options"`
}

func (h *Handler) listGames(w http.ResponseWriter, r *http.Request) {
	var out []GameInfo
	for _, n := range h.games.Names() {
		g, _ := h.games.Lookup(n)
		lo, hi := g.Players()
		info := GameInfo{Name: n, Title: g.Title(), Min: lo, Max: hi, HasSetup: g.HasSetup(), Options: g.Options(), TableOptions: game.TableOptions(), Words: game.UsesWords(g)}
		if r, ok := g.(game.Rated); ok {
			info.ModeOption = r.PoolOption()
			info.RatedOptions = append([]string{}, r.RatedOptions()...)
			if info.ModeOption != "" {
				info.RatedOptions = append(info.RatedOptions, info.ModeOption)
			}
		}
		out = append(out, info)
	}
	writeJSON(w, http.StatusOK, out)
}

func (h *Handler) newIdentity(r *http.Request, _ *auth.Principal, req protocol.IdentityRequest) (table.Identity, error) {
	if err := h.guestAllowed(r); err != nil {
		return table.Identity{}, err
	}
	return h.tables.NewIdentity(r.Context(), req.Name)
}

// lobby serves GET /api/v1/tables[?status=&game=&limit=]: the public
// tables, as the reader who sends a token or session may take the open
// ones (table.Service.LobbyFor); anyone else reads them all.
func (h *Handler) lobby(r *http.Request, p *auth.Principal) (map[string]any, error) {
	limit := 100
	if l := r.URL.Query().Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > 500 {
			return nil, refuse.Bad("limit must be a number from 1 to 500")
		}
		limit = n
	}
	reader := ""
	if p != nil {
		reader = p.Identity
	}
	out, err := h.tables.LobbyFor(r.Context(), reader, store.Status(r.URL.Query().Get("status")), r.URL.Query().Get("game"), limit)
	if err != nil {
		return nil, err
	}
	return map[string]any{"tables": out}, nil
}

func (h *Handler) create(r *http.Request, p *auth.Principal, req table.CreateRequest) (table.Seated, error) {
	if p == nil {
		if err := h.guestAllowed(r); err != nil {
			return table.Seated{}, err
		}
	}
	return h.tables.Create(r.Context(), p, req)
}

func (h *Handler) join(r *http.Request, p *auth.Principal, req table.JoinRequest) (table.Seated, error) {
	if p == nil {
		if err := h.guestAllowed(r); err != nil {
			return table.Seated{}, err
		}
	}
	return h.startRated(r, p, r.PathValue("id"), table.ByJoin, func() (table.Seated, error) {
		return h.tables.Join(r.Context(), p, r.PathValue("id"), req)
	})
}

// seated authenticates a request that must come from a seat holder.
func (h *Handler) seated(r *http.Request) (*auth.Principal, error) {
	p, err := h.principal(r)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, refuse.Unauthorized("this needs your seat's token: Authorization: Bearer <token>")
	}
	return p, nil
}

func (h *Handler) setup(r *http.Request, p *auth.Principal, req table.SetupRequest) (table.SetupResult, error) {
	return h.tables.Setup(r.Context(), p, r.PathValue("id"), req)
}

// move answers POST /api/v1/tables/{id}/moves. It is the request a busy
// server answers most, and so reads its body with protocol.DecodeMoveRequest and
// writes its answer with MoveResult.appendJSON rather than through
// handleJSON's reflection.
func (h *Handler) move(w http.ResponseWriter, r *http.Request) {
	req, err := protocol.DecodeMoveRequest(r.Body, h.lim.MaxBody)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	p, err := h.seated(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	res, err := h.tables.Move(r.Context(), p, r.PathValue("id"), req)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	b, err := res.AppendJSON(make([]byte, 0, 256))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSONBytes(w, http.StatusOK, append(b, '\n'))
}

func (h *Handler) view(r *http.Request, p *auth.Principal) (table.Update, error) {
	return h.tables.View(r.Context(), p, r.PathValue("id"))
}

func (h *Handler) record(r *http.Request, p *auth.Principal) (*game.Record, error) {
	return h.tables.Record(r.Context(), p, r.PathValue("id"))
}

func (h *Handler) rematch(r *http.Request, p *auth.Principal) (table.Seated, error) {
	return h.startRated(r, p, r.PathValue("id"), table.ByRematch, func() (table.Seated, error) {
		return h.tables.Rematch(r.Context(), p, r.PathValue("id"))
	})
}

// parseFrom reads the version a stream resumes from: ?from=N, or the
// Last-Event-ID header; -1 when neither is given.
func parseFrom(r *http.Request) (int, error) {
	name, s := "from", r.URL.Query().Get("from")
	if s == "" {
		// The refusal names the header, not a parameter the client never sent.
		name, s = "Last-Event-ID", r.Header.Get("Last-Event-ID")
	}
	if s == "" {
		return -1, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, refuse.Bad("%s must be a version number (0 or more), not %q", name, refuse.Clip(s))
	}
	return n, nil
}

// CloseSockets closes every WebSocket with reason and refuses new ones;
// call it when shutting down (http.Server.Shutdown does not know about
// upgraded connections).
func (h *Handler) CloseSockets(reason string) { h.door.CloseSockets(reason) }

// elsewhere reports whether another node of the cluster runs table id.
func (h *Handler) elsewhere(ctx context.Context, id string) (bool, error) {
	if h.remote == nil {
		return false, nil
	}
	owner, err := h.tables.Owner(ctx, id)
	return owner != "", err
}

// open opens the follower of r's table that an event stream follows, for
// p, from version from and with the chat messages after number chat (-1:
// every one at hand): a watcher of a table this node runs, or the
// cluster's remote follower of another node's. An error is the stream's
// answer.
func (h *Handler) open(r *http.Request, p *auth.Principal, from, chat int) (table.Follower, error) {
	id := r.PathValue("id")
	elsewhere, err := h.elsewhere(r.Context(), id)
	if err != nil {
		return nil, err
	}
	if elsewhere {
		token := ""
		if p != nil {
			token, _, _ = requestToken(r) // checked already: p signed in with it
		}
		return h.remote.Follow(r.Context(), id, token, from, chat)
	}
	wt, err := h.tables.Watch(r.Context(), p, id, from)
	if err != nil {
		return nil, err
	}
	if chat >= 0 {
		wt.ChatFrom(chat)
	}
	return wt, nil
}

// events streams the asker's view changes of r's table as NDJSON, one
// Update a line, following the table through the follower open gives,
// until the game ends (after its last update), the client goes away, or
// the server shuts down. An error after the headers ends the stream with
// a line of its own, {"error": ...}. Asked with keepalive=1, it writes an
// empty line after each keep-alive period without an update.
func (h *Handler) events(w http.ResponseWriter, r *http.Request) {
	p, err := h.principal(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	from, err := parseFrom(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	chatFrom, err := parseChatFrom(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	keepAlive, err := parseKeepAlive(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	release, err := h.holdStream(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	defer release()
	f, err := h.open(r, p, from, chatFrom)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	defer f.Close()
	if p != nil {
		defer h.social.Hold(p.Identity)() // an open stream counts as online
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	rc.Flush() // the headers, before the first update is ready
	e := json.NewEncoder(w)
	e.SetEscapeHTML(false)
	every := time.Duration(0)
	if keepAlive {
		every = h.keepAlive
	}
	quiet := newQuietLines(w, rc, every)
	defer quiet.stop()
	ctx, unwatch := h.sessionContext(r, p)
	defer unwatch()
	for {
		u, err := f.Next(ctx)
		if err != nil {
			if errors.Is(context.Cause(ctx), errSessionEnded) {
				quiet.send(func() error { return e.Encode(sessionEndedLine) })
				return
			}
			if !errors.Is(err, context.Canceled) {
				quiet.send(func() error { return e.Encode(map[string]string{"error": refuse.Said(h.log, err)}) })
			}
			return
		}
		err = quiet.send(func() error {
			if err := e.Encode(u); err != nil {
				return err
			}
			return rc.Flush()
		})
		if err != nil || u.Table.Status == store.Finished {
			return
		}
	}
}

// invite answers an invite link: what the table is and how to sit down.
// (The browser client, when present, serves its own page here.)
func (h *Handler) invite(w http.ResponseWriter, r *http.Request) {
	if h.static != nil && strings.Contains(r.Header.Get("Accept"), "text/html") {
		h.static.ServeHTTP(w, r)
		return
	}
	// The page is anybody's, but some tables show only to their players
	// (an attempt at today's daily puzzle): one who sends their token or
	// cookie sees theirs. A token that no longer signs in reads the page
	// as anybody.
	p, err := h.principal(r)
	if refuse.Status(err) == http.StatusTooManyRequests {
		refuse.Write(w, r, h.log, err)
		return
	}
	if err != nil {
		p = nil
	}
	u, err := h.tables.View(r.Context(), p, r.PathValue("id"))
	if err != nil {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(refuse.Status(err))
		fmt.Fprintln(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintf(w, "Parlour table %s: %s, %s.\n\n", u.Table.ID, u.Table.Title, u.Table.Status)
	if u.Table.Code != "" {
		fmt.Fprintf(w, "Invite code: %s\n\n", invite.Format(u.Table.Code))
	}
	open := false
	for _, s := range u.Table.Seats {
		fmt.Fprintf(w, "  seat %d: %s (%s)\n", s.Seat, s.Name, s.Kind)
		open = open || s.Kind == "open"
	}
	// Only a table with a seat left is joined; the others are watched or,
	// once over, read: a way to join would only be refused.
	base := strings.TrimRight(h.tables.BaseURL(), "/")
	switch {
	case open:
		fmt.Fprintf(w, "\nTo take an open seat:\n  curl -X POST -d '{\"name\": \"YOUR NAME\"}' %s/api/v1/tables/%s/join\n", base, u.Table.ID)
	case u.Table.Status == store.Finished:
		fmt.Fprintf(w, "\nThe game is over. To read its record:\n  curl %s/api/v1/tables/%s/record\n", base, u.Table.ID)
	default:
		fmt.Fprintf(w, "\nEvery seat is taken. To watch the game:\n  curl -N %s/api/v1/tables/%s/events\n", base, u.Table.ID)
	}
}
