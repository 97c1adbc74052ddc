package client

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"parlour/games"
	"parlour/internal/smtptest"
	"parlour/server"
	"parlour/server/limit"
	"parlour/server/mail"
	"parlour/server/moderation"
	"parlour/server/players"
	"parlour/server/seek"
	"parlour/server/social"
	"parlour/server/table"
	"parlour/server/tournament"
	"parlour/store/sqlite"
	"parlour/web"
)

// endpoint is one request the client makes: the method of Client that
// makes it, its HTTP method and path, and the type the client decodes
// the answer into (nil: the answer is not the client's to read, or is
// none; string: a text answer, read as it comes).
type endpoint struct {
	call   string
	method string
	path   string // a regular expression the whole path matches
	into   reflect.Type
	stream bool // an ndjson stream: each line is one answer
}

func typeOf[T any]() reflect.Type { return reflect.TypeFor[T]() }

// endpoints lists every request of the client. TestWireTypes fails on
// a method of Client that is in neither this list nor noRequest, so that
// a new request cannot escape the check.
func endpoints() []endpoint {
	return []endpoint{
		{"Games", "GET", `/api/v1/games`, typeOf[[]Game](), false},
		{"Create", "POST", `/api/v1/tables`, typeOf[Seated](), false},
		{"Resolve", "GET", `/api/v1/invites/[^/]+`, typeOf[invite](), false},
		{"Join", "POST", `/api/v1/tables/[^/]+/join`, typeOf[Seated](), false},
		{"Get", "GET", `/api/v1/tables/[^/]+`, typeOf[Update](), false},
		{"Move", "POST", `/api/v1/tables/[^/]+/moves`, typeOf[Answer](), false},
		{"Setup", "POST", `/api/v1/tables/[^/]+/setup`, typeOf[Answer](), false},
		{"Rematch", "POST", `/api/v1/tables/[^/]+/rematch`, typeOf[Seated](), false},
		{"Record", "GET", `/api/v1/tables/[^/]+/record`, nil, false},                      // kept as it comes (RECORDS.md)
		{"AnalysisText", "GET", `/api/v1/tables/[^/]+/analysis`, typeOf[string](), false}, // text, shown as it comes
		{"Lobby", "GET", `/api/v1/tables`, typeOf[lobby](), false},
		{"Helper", "POST", `/api/v1/tools/[a-z-]+`, nil, false}, // each screen reads its own helper's answer
		{"Replay", "POST", `/api/v1/tools/replay`, typeOf[Replay](), false},
		{"Rules", "GET", `/rules/[a-z]+\.md`, typeOf[string](), false}, // Markdown, shown as it comes
		{"Stream", "GET", `/api/v1/tables/[^/]+/events`, typeOf[Update](), true},
		{"NewIdentity", "POST", `/api/v1/identity`, typeOf[Identity](), false},
		{"SignIn", "POST", `/api/v1/sessions`, typeOf[Session](), false},
		{"AskReset", "POST", `/api/v1/password-reset`, typeOf[resetAsked](), false},
		{"ResetOffered", "GET", `/api/v1/password-reset`, typeOf[resetOffer](), false},
		{"SignUp", "POST", `/api/v1/accounts`, typeOf[Session](), false},
		{"SignOut", "DELETE", `/api/v1/sessions`, nil, false},
		{"EndOtherSessions", "DELETE", `/api/v1/account/sessions`, typeOf[ended](), false},
		{"Keys", "GET", `/api/v1/keys`, typeOf[keyList](), false},
		{"AddKey", "POST", `/api/v1/keys`, typeOf[Key](), false},
		{"DeleteKey", "DELETE", `/api/v1/keys/.+`, nil, false}, // a fingerprint may hold "/", escaped in the request
		{"Settings", "GET", `/api/v1/account/settings`, typeOf[Settings](), false},
		{"SetHidden", "PUT", `/api/v1/account/settings`, typeOf[Settings](), false},
		{"SetGuestChat", "PUT", `/api/v1/account/settings`, typeOf[Settings](), false},
		{"ChangePassword", "PUT", `/api/v1/account/password`, nil, false},
		{"DeleteAccount", "DELETE", `/api/v1/account`, nil, false},
		{"Email", "GET", `/api/v1/account/email`, typeOf[Email](), false},
		{"SetEmail", "PUT", `/api/v1/account/email`, typeOf[Email](), false},
		{"RemoveEmail", "DELETE", `/api/v1/account/email`, nil, false},
		{"Chat", "POST", `/api/v1/tables/[^/]+/chat`, typeOf[ChatLine](), false},
		{"Mute", "POST", `/api/v1/tables/[^/]+/chat/mute`, typeOf[mutedList](), false},
		{"Leave", "POST", `/api/v1/tables/[^/]+/leave`, typeOf[Left](), false},
		{"Abort", "POST", `/api/v1/tables/[^/]+/abort`, nil, false},
		{"Claim", "POST", `/api/v1/tables/[^/]+/claim`, typeOf[Answer](), false},
		{"Online", "GET", `/api/v1/online`, typeOf[Online](), false},
		{"Challenges", "GET", `/api/v1/challenges`, typeOf[challengeLists](), false},
		{"Challenge", "POST", `/api/v1/challenges`, typeOf[Challenge](), false},
		{"Accept", "POST", `/api/v1/challenges/[^/]+/accept`, typeOf[Seated](), false},
		{"Decline", "POST", `/api/v1/challenges/[^/]+/decline`, typeOf[Challenge](), false},
		{"Withdraw", "DELETE", `/api/v1/challenges/[^/]+`, typeOf[Challenge](), false},
		{"YourTables", "GET", `/api/v1/identity/tables`, typeOf[yourTables](), false},
		{"PlayedGames", "GET", `/api/v1/players/[^/]+/games`, typeOf[playedGames](), false},
		{"GamesBefore", "GET", `/api/v1/players/[^/]+/games`, typeOf[playedGames](), false},
		{"OwnGames", "GET", `/api/v1/identity/games`, typeOf[playedGames](), false},
		{"PlayerStream", "GET", `/api/v1/stream`, typeOf[PlayerEvent](), true},
		{"SeekGame", "POST", `/api/v1/seeks`, typeOf[SeekAnswer](), false},
		{"SeekStatus", "GET", `/api/v1/seeks/[^/]+`, typeOf[SeekState](), false},
		{"CancelSeek", "DELETE", `/api/v1/seeks/[^/]+`, nil, false},
		{"Seeks", "GET", `/api/v1/seeks`, typeOf[seekList](), false},
		{"AcceptSeek", "POST", `/api/v1/seeks/[^/]+/accept`, typeOf[SeekAnswer](), false},
		{"TV", "GET", `/api/v1/tv`, typeOf[Featured](), false},
		{"Lexicons", "GET", `/api/v1/lexicons`, typeOf[lexiconList](), false},
		{"Follows", "GET", `/api/v1/follows`, typeOf[followList](), false},
		{"Follow", "POST", `/api/v1/follows`, typeOf[Relation](), false},
		{"Follow", "DELETE", `/api/v1/follows/[^/]+`, nil, false},
		{"Blocks", "GET", `/api/v1/blocks`, typeOf[blockList](), false},
		{"Block", "POST", `/api/v1/blocks`, typeOf[Relation](), false},
		{"Block", "DELETE", `/api/v1/blocks/[^/]+`, nil, false},
		{"Report", "POST", `/api/v1/reports`, typeOf[Report](), false},
		{"ReportLine", "POST", `/api/v1/reports`, typeOf[Report](), false},
		{"Me", "GET", `/api/v1/account`, typeOf[Me](), false},
		{"Reports", "GET", `/api/v1/moderation/reports`, typeOf[[]QueuedReport](), false},
		{"CloseReport", "POST", `/api/v1/moderation/reports/[^/]+/close`, typeOf[QueuedReport](), false},
		{"MutePlayer", "POST", `/api/v1/moderation/mutes`, typeOf[Muted](), false},
		{"MuteLine", "POST", `/api/v1/moderation/mutes`, typeOf[Muted](), false},
		{"Rename", "POST", `/api/v1/moderation/rename`, typeOf[Renamed](), false},
		{"CloseAccount", "POST", `/api/v1/moderation/close`, typeOf[Closed](), false},
		{"ReopenAccount", "POST", `/api/v1/moderation/reopen`, typeOf[Reopened](), false},
		{"ReadTableChat", "GET", `/api/v1/moderation/tables/[^/]+/chat`, typeOf[TableChat](), false},
		{"ModLog", "GET", `/api/v1/moderation/log`, typeOf[[]ModLine](), false},
		{"Tournaments", "GET", `/api/v1/tournaments`, typeOf[tournamentList](), false},
		{"Tournament", "GET", `/api/v1/tournaments/[^/]+`, typeOf[Tournament](), false},
		{"JoinTournament", "POST", `/api/v1/tournaments/[^/]+/join`, typeOf[Tournament](), false},
		{"LeaveTournament", "POST", `/api/v1/tournaments/[^/]+/leave`, typeOf[Tournament](), false},
		{"CreateTournament", "POST", `/api/v1/tournaments`, typeOf[Tournament](), false},
		{"StartTournament", "POST", `/api/v1/tournaments/[^/]+/start`, typeOf[Tournament](), false},
		{"CancelTournament", "POST", `/api/v1/tournaments/[^/]+/cancel`, typeOf[Tournament](), false},
		{"EventChat", "GET", `/api/v1/tournaments/[^/]+/chat`, typeOf[eventChat](), false},
		{"EventSay", "POST", `/api/v1/tournaments/[^/]+/chat`, typeOf[ChatLine](), false},
		{"EventExport", "GET", `/api/v1/tournaments/[^/]+/export`, nil, true}, // records kept as they come (RECORDS.md)
		{"PlayerExport", "GET", `/api/v1/players/[^/]+/games/export`, nil, true},
		{"EventMute", "POST", `/api/v1/tournaments/[^/]+/chat/mute`, typeOf[eventMuted](), false},
		{"Profile", "GET", `/api/v1/players/[^/]+`, typeOf[Profile](), false},
		{"FindPlayers", "GET", `/api/v1/players`, typeOf[found](), false},
		{"PlayerDaily", "GET", `/api/v1/players/[^/]+/daily`, typeOf[map[string]DailyStats](), false},
		{"Pools", "GET", `/api/v1/leaderboards`, typeOf[pools](), false},
		{"Leaderboard", "GET", `/api/v1/leaderboards/[^/]+`, typeOf[leaderboard](), false},
		{"Daily", "GET", `/api/v1/daily/[^/]+`, typeOf[Daily](), false},
		{"StartDaily", "POST", `/api/v1/daily/[^/]+`, typeOf[Seated](), false},
		{"DailyLeaderboard", "GET", `/api/v1/daily/[^/]+/[^/]+/leaderboard`, typeOf[DailyBoard](), false},
	}
}

// noRequest are the methods of Client that send nothing.
func noRequest(name string) bool {
	return name == "Base" || name == "WithHTTP" || name == "CloseIdleConnections"
}

// serverTypes are the server's Go types of the answers that hold a field
// only in a case a test cannot bring about: a solitaire grid the computer
// failed to make and left to chance, a challenge once accepted (which no
// request of the client's answers). A field of the client's that no
// answer held must at least be one of these types' under its name.
func serverTypes() map[string]reflect.Type {
	return map[string]reflect.Type{
		"Table.solitaire": reflect.TypeFor[table.SolitaireInfo](),
		"Challenge":       reflect.TypeFor[social.Challenge](),
		// An arena's streak takes two wins in a row, and a player who
		// left is in the standings only once they played.
		"Standing": reflect.TypeFor[tournament.Standing](),
		// A leaderboard lists players with five rated games and a
		// settled rating, more than the test plays.
		"Leader": reflect.TypeFor[players.Leader](),
		// A seek's rules, word list and rating range are what the
		// player asked for; the test's quick games ask for none.
		"Seek":      reflect.TypeFor[seek.Seek](),
		"SeekRange": reflect.TypeFor[seek.Range](),
		// The server's own records replay to their end.
		"Replay": reflect.TypeFor[games.ReplayAnswer](),
	}
}

// answer is one answer the server gave: a whole body, or one line of a
// stream.
type answer struct {
	method, path string
	status       int
	body         []byte
}

// recorder is an http.RoundTripper that keeps every answer the server
// gives the client, as the client then reads it.
type recorder struct {
	mu      sync.Mutex
	answers []answer
	// opened hears the path of each stream the server has begun to
	// answer (it subscribed the asker first).
	opened chan string
}

func (r *recorder) add(a answer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.answers = append(r.answers, a)
}

func (r *recorder) all() []answer {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]answer(nil), r.answers...)
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return res, err
	}
	a := answer{method: req.Method, path: req.URL.Path, status: res.StatusCode}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/x-ndjson") {
		res.Body = &lineTap{ReadCloser: res.Body, rec: r, a: a}
		select {
		case r.opened <- req.URL.Path:
		default:
		}
		return res, nil
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	a.body = body
	r.add(a)
	res.Body = io.NopCloser(bytes.NewReader(body))
	return res, nil
}

// lineTap keeps each line of a stream as it is read.
type lineTap struct {
	io.ReadCloser
	rec  *recorder
	a    answer
	part []byte
}

func (l *lineTap) Read(p []byte) (int, error) {
	n, err := l.ReadCloser.Read(p)
	l.part = append(l.part, p[:n]...)
	for {
		i := bytes.IndexByte(l.part, '\n')
		if i < 0 {
			break
		}
		if line := bytes.TrimSpace(l.part[:i]); len(line) > 0 {
			a := l.a
			a.body = append([]byte(nil), line...)
			l.rec.add(a)
		}
		l.part = l.part[i+1:]
	}
	return n, err
}

// laterClock is the system's clock moved on by hand: the test makes a
// player away, and then away for long enough to claim against, without
// waiting.
type laterClock struct{ ahead atomic.Int64 }

func (c *laterClock) Now() time.Time { return time.Now().Add(time.Duration(c.ahead.Load())) }
func (c *laterClock) AfterFunc(d time.Duration, f func()) table.Timer {
	return time.AfterFunc(d, f)
}
func (c *laterClock) advance(d time.Duration) { c.ahead.Add(int64(d)) }

// fields tells, for every struct type of the client's answers, the JSON
// names of its fields (declared) and those a server's answer held
// (seen).
type fields struct {
	declared map[string]map[string]bool
	seen     map[string]map[string]bool
}

// structFields lists a struct's fields by JSON name, with the type that
// declares each (a field of an embedded struct is the embedded type's).
func structFields(t reflect.Type, name string, out map[string]reflect.StructField, owner map[string]string) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct {
			structFields(f.Type, f.Type.Name(), out, owner)
			continue
		}
		if !f.IsExported() || tag == "-" {
			continue
		}
		if tag == "" {
			tag = f.Name
		}
		out[tag], owner[tag] = f, name
	}
}

// declare notes every field of the struct types t holds; where names an
// anonymous struct by the field that holds it.
func (fs *fields) declare(t reflect.Type, where string) {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		if t != reflect.TypeFor[json.RawMessage]() {
			fs.declare(t.Elem(), where)
		}
	case reflect.Struct:
		name := t.Name()
		if name == "" {
			name = where
		}
		if t.PkgPath() != "" && t.PkgPath() != reflect.TypeFor[Client]().PkgPath() {
			return // time.Time and the like: not a wire type of the client's
		}
		out, owner := map[string]reflect.StructField{}, map[string]string{}
		structFields(t, name, out, owner)
		for tag, f := range out {
			o := owner[tag]
			if fs.declared[o] == nil {
				fs.declared[o] = map[string]bool{}
			}
			if fs.declared[o][tag] {
				continue
			}
			fs.declared[o][tag] = true
			fs.declare(f.Type, o+"."+tag)
		}
	}
}

// walk notes the fields of v, a server's answer decoded as JSON, that
// type t declares.
func (fs *fields) walk(v any, t reflect.Type, where string) {
	switch t.Kind() {
	case reflect.Pointer:
		fs.walk(v, t.Elem(), where)
	case reflect.Slice, reflect.Array:
		if t == reflect.TypeFor[json.RawMessage]() {
			return
		}
		for _, e := range asSlice(v) {
			fs.walk(e, t.Elem(), where)
		}
	case reflect.Map:
		if m, ok := v.(map[string]any); ok {
			for _, e := range m {
				fs.walk(e, t.Elem(), where)
			}
		}
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		name := t.Name()
		if name == "" {
			name = where
		}
		out, owner := map[string]reflect.StructField{}, map[string]string{}
		structFields(t, name, out, owner)
		for k, e := range m {
			f, ok := out[k]
			if !ok {
				continue // a field the client does not read
			}
			o := owner[k]
			if fs.seen[o] == nil {
				fs.seen[o] = map[string]bool{}
			}
			fs.seen[o][k] = true
			fs.walk(e, f.Type, o+"."+k)
		}
	}
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

// TestWireTypes: a real server in process answers every request the
// client makes, through a recorder; each answer is decoded into the
// client's type for it, and every field of the client's types must have
// come in some answer, under its name. A field renamed on either side
// (the server's JSON or the client's tag) is one no answer holds, and
// fails the test.
func TestWireTypes(t *testing.T) {
	t.Parallel()
	// Every request of the client is listed.
	listed := map[string]bool{}
	for _, e := range endpoints() {
		listed[e.call] = true
	}
	ct := reflect.TypeFor[*Client]()
	for i := range ct.NumMethod() {
		if n := ct.Method(i).Name; !listed[n] && !noRequest(n) {
			t.Errorf("Client.%s is not in endpoints: say which request it makes and into which type it reads the answer", n)
		}
	}

	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "p.db"), sqlite.Options{Synchronous: "NORMAL", CommitInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	clk := &laterClock{}
	box := smtptest.Start(t)
	smtp, err := mail.ParseSMTP(box.URL("parlour@example.org"))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := server.New(context.Background(), server.Config{Store: db, Games: games.Registry(), NewBot: games.NewBot, SMTP: smtp,
		BotTimeout: 20 * time.Second, Clock: clk, WalkAway: time.Minute, MaxWait: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	h := server.NewHandler(svc, limit.Limits{})
	h.ServeStatic(web.Handler()) // the rules pages
	srv := httptest.NewServer(h)
	defer srv.Close()
	defer svc.Close()
	defer h.CloseSockets("test over")

	rec := &recorder{opened: make(chan string, 16)}
	hc := &http.Client{Transport: rec}
	newClient := func(name string) *Client {
		c, err := New(srv.URL, name)
		if err != nil {
			t.Fatal(err)
		}
		return c.WithHTTP(hc)
	}
	ann, ben := newClient("Ann"), newClient("Ben")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}

	// Games, guests and accounts.
	gs, err := ann.Games(ctx)
	must("games", err)
	if len(gs) == 0 {
		t.Fatal("the server lists no games")
	}
	annID, err := ann.NewIdentity(ctx, "Ann")
	must("Ann's identity", err)
	benID, err := ben.NewIdentity(ctx, "Ben")
	must("Ben's identity", err)
	annS, err := ann.SignUp(ctx, annID.Token, "Ann", "correct horse battery")
	must("Ann signs up", err)
	benS, err := ben.SignUp(ctx, benID.Token, "Ben", "correct horse battery")
	must("Ben signs up", err)
	out, err := ann.SignIn(ctx, "Ann", "correct horse battery")
	must("Ann signs in", err)
	must("Ann signs out", ann.SignOut(ctx, out.Token))
	if _, err := ann.SignIn(ctx, "Ann", "correct horse battery"); err != nil {
		t.Fatal(err)
	}
	if n, err := ann.EndOtherSessions(ctx, annS.Token); err != nil || n != 1 {
		t.Errorf("Ann signs out everywhere else: %d, %v; want the one other session", n, err)
	}
	if on, err := ann.ResetOffered(ctx); err != nil || !on {
		t.Errorf("whether reset links are mailed: %v, %v; the server sends mail", on, err)
	}
	if said, err := ann.AskReset(ctx, "Ann"); err != nil || !strings.Contains(said, "confirmed e-mail address") {
		t.Errorf("a password reset link asked for: %q, %v", said, err)
	}

	// An SSH key, used once (as the SSH door records a sign-in).
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	sp, _ := ssh.NewPublicKey(pub)
	k, err := ann.AddKey(ctx, annS.Token, strings.TrimSpace(string(ssh.MarshalAuthorizedKey(sp)))+" ann@here", "correct horse battery")
	must("Ann adds a key", err)
	if k.Confirmed {
		t.Errorf("a key pasted is confirmed: %+v", k)
	}
	must("the key signs in", db.KeyUsed(ctx, k.Fingerprint, time.Now()))
	if ks, err := ann.Keys(ctx, annS.Token); err != nil || len(ks) != 1 || ks[0].Used == nil {
		t.Fatalf("Ann's keys: %+v, %v", ks, err)
	}

	// Cyd's account: a key added and removed, the list of players online
	// left and joined again, an e-mail address given, read back and
	// removed, the password changed, and the account deleted.
	cy := newClient("Cyd")
	cyS, err := cy.SignUp(ctx, "", "Cyd", "correct horse battery")
	must("Cy signs up", err)
	cyPub, _, _ := ed25519.GenerateKey(rand.Reader)
	cySP, _ := ssh.NewPublicKey(cyPub)
	cyKey, err := cy.AddKey(ctx, cyS.Token, strings.TrimSpace(string(ssh.MarshalAuthorizedKey(cySP))), "correct horse battery")
	must("Cy adds a key", err)
	must("Cy removes it", cy.DeleteKey(ctx, cyS.Token, cyKey.Fingerprint))
	if ks, err := cy.Keys(ctx, cyS.Token); err != nil || len(ks) != 0 {
		t.Errorf("Cy's keys after the removal: %+v, %v", ks, err)
	}
	_, err = cy.Settings(ctx, cyS.Token)
	must("Cy's settings", err)
	if st, err := cy.SetHidden(ctx, cyS.Token, true); err != nil || !st.Hidden {
		t.Errorf("Cy hides: %+v, %v", st, err)
	}
	_, err = cy.SetHidden(ctx, cyS.Token, false)
	must("Cy shows again", err)
	if st, err := cy.SetGuestChat(ctx, cyS.Token, false); err != nil || st.GuestChat {
		t.Errorf("Cy keeps guests out of her chat: %+v, %v", st, err)
	}
	if st, err := cy.SetGuestChat(ctx, cyS.Token, true); err != nil || !st.GuestChat {
		t.Errorf("Cy lets guests in again: %+v, %v", st, err)
	}
	em, err := cy.SetEmail(ctx, cyS.Token, Email{Address: "cy@example.org", YourMove: true, Challenge: true}, "correct horse battery")
	must("Cy's address", err)
	if !em.Offered || em.Address != "cy@example.org" || !em.Pending || em.GameEnd {
		t.Errorf("Cy's e-mail settings: %+v", em)
	}
	if m := box.Next(t); len(m.To) != 1 || m.To[0] != "cy@example.org" {
		t.Errorf("the confirmation went to %v", m.To)
	}
	_, err = cy.Email(ctx, cyS.Token)
	must("Cy's e-mail read back", err)
	must("Cy's address removed", cy.RemoveEmail(ctx, cyS.Token))
	must("Cy's new password", cy.ChangePassword(ctx, cyS.Token, "correct horse battery", "a brand new phrase"))
	must("Cy's account deleted", cy.DeleteAccount(ctx, cyS.Token, "a brand new phrase"))
	if _, err := cy.SignIn(ctx, "Cyd", "a brand new phrase"); err == nil {
		t.Error("a deleted account signs in")
	}

	// The player streams.
	annEvents, benEvents := make(chan PlayerEvent, 64), make(chan PlayerEvent, 64)
	streams, stopStreams := context.WithCancel(ctx)
	defer stopStreams()
	annLost := make(chan error, 16)
	go ann.PlayerStream(streams, annS.Token, annEvents, annLost)
	go ben.PlayerStream(streams, benS.Token, benEvents, nil)
	for range 2 {
		select {
		case <-rec.opened:
		case <-ctx.Done():
			t.Fatal("waited for the player streams to open")
		}
	}
	waitEvent := func(what string, ch chan PlayerEvent, ok func(PlayerEvent) bool) PlayerEvent {
		t.Helper()
		for {
			select {
			case ev := <-ch:
				if ok(ev) {
					return ev
				}
			case <-ctx.Done():
				t.Fatalf("waited for %s", what)
			}
		}
	}
	_, err = ann.Online(ctx, annS.Token)
	must("who is online", err)

	// A challenge declined, and one with its own rules accepted. The
	// first proposes a word list and a clock, which come back as sent.
	ch, err := ann.Challenge(ctx, annS.Token, "Ben", Proposal{Game: "nymphabet", Lexicon: "en-common", Rules: map[string]any{"clock": 60}})
	must("Ann challenges Ben", err)
	if ch.Lexicon != "en-common" || string(ch.Rules["clock"]) != "60" || ch.Rated {
		t.Fatalf("the challenge made: %+v", ch)
	}
	_, err = ben.Decline(ctx, benS.Token, ch.ID)
	must("Ben declines", err)
	waitEvent("the decline", annEvents, func(ev PlayerEvent) bool { return ev.Type == "challengeDeclined" })
	// One withdrawn by Ann.
	ch, err = ann.Challenge(ctx, annS.Token, "Ben", Proposal{Game: "salvo"})
	must("Ann challenges Ben again", err)
	gone, err := ann.Withdraw(ctx, annS.Token, ch.ID)
	must("Ann withdraws", err)
	if gone.ID != ch.ID || gone.Status != "canceled" {
		t.Fatalf("the challenge withdrawn: %+v", gone)
	}
	waitEvent("the withdrawal", annEvents, func(ev PlayerEvent) bool { return ev.Type == "challengeCanceled" })
	var ruled Challenge
	must("Ann challenges Ben with rules", ann.do(ctx, http.MethodPost, "/api/v1/challenges", annS.Token,
		map[string]any{"to": "Ben", "game": "quizl", "rated": true, "rules": map[string]any{"set_target": 100}}, &ruled))
	in, _, err := ben.Challenges(ctx, benS.Token)
	must("Ben's challenges", err)
	if len(in) != 1 || len(in[0].Rules) == 0 {
		t.Fatalf("Ben's challenges: %+v", in)
	}
	benSeat, err := ben.Accept(ctx, benS.Token, ruled.ID)
	must("Ben accepts", err)
	start := waitEvent("the game's start", annEvents, func(ev PlayerEvent) bool {
		return ev.Type == "gameStart" && ev.Table != nil && ev.Table.Challenge != ""
	})
	quizl, annTok, benTok := start.Table.ID, annS.Token, benSeat.Token

	// The rated Quizl game: setups, a call, chat, a walk-away claimed.
	_, err = ben.Setup(ctx, benTok, quizl, nil, "easy")
	must("Ben's setup", err)
	_, err = ann.Setup(ctx, annTok, quizl, nil, "easy")
	must("Ann's setup", err)
	u, err := ann.Get(ctx, annTok, quizl)
	must("Ann reads the table", err)
	if u.Table.Status != "playing" {
		t.Fatalf("the Quizl table is %s", u.Table.Status)
	}
	toks := map[int]*struct {
		c   *Client
		tok string
	}{start.Table.Seat: {ann, annTok}, benSeat.Seat: {ben, benTok}}
	// A call each, then one more with "wait", which the other player
	// does not answer in time; a call out of turn is refused.
	first := toks[u.Table.ToMove[0]]
	second := toks[1-u.Table.ToMove[0]]
	// The first follows the table (the second, away later, does not).
	go first.c.Stream(streams, first.tok, quizl, 0, make(chan Update, 64), nil)
	_, err = first.c.Move(ctx, first.tok, quizl, "50", u.Version, false)
	must("the first call", err)
	if _, err := first.c.Move(ctx, first.tok, quizl, "51", 0, false); err == nil {
		t.Fatal("a call out of turn was taken")
	}
	_, err = second.c.Move(ctx, second.tok, quizl, "51", 0, false)
	must("the second call", err)
	if a, err := first.c.Move(ctx, first.tok, quizl, "52", 0, true); err != nil || !a.TimedOut {
		t.Fatalf("a call waiting for the next turn: %+v, %v", a, err)
	}
	_, err = ann.Chat(ctx, annTok, quizl, "players", "good luck")
	must("Ann writes", err)
	_, err = ann.Lobby(ctx, annS.Token, "playing")
	must("the games in play", err)
	_, err = ann.TV(ctx)
	must("the featured game", err)
	_, _, err = ann.Lexicons(ctx)
	must("the word lists", err)
	_, err = ben.Mute(ctx, benTok, quizl, "spectators", true)
	must("Ben mutes the spectators", err)
	_, err = ben.Get(ctx, benTok, quizl)
	must("Ben reads the table", err)
	_, err = ann.YourTables(ctx, annS.Token)
	must("Ann's tables", err)
	_, err = ann.Record(ctx, annTok, quizl)
	must("the record", err)
	var helped json.RawMessage
	must("a helper", ann.Helper(ctx, "/api/v1/tools/random-setup", map[string]any{"game": "quizl"}, &helped))

	// Salvo with a clock and an invite code, rated, then aborted.
	salvo, err := ann.Create(ctx, annS.Token, "salvo", map[string]any{"clock": 60}, []string{"me", "open"}, map[string]any{"rated": true})
	must("the Salvo table", err)
	_, err = ann.Lobby(ctx, annS.Token, "open")
	must("the lobby", err)
	u, err = ann.Get(ctx, salvo.Token, salvo.Table)
	must("the Salvo table's code", err)
	id, err := ben.Resolve(ctx, u.Table.Code)
	must("the code", err)
	benSalvo, err := ben.Join(ctx, benS.Token, id)
	must("Ben joins", err)
	_, err = ann.Setup(ctx, salvo.Token, id, nil, "easy")
	must("Ann's fleet", err)
	_, err = ben.Setup(ctx, benSalvo.Token, id, nil, "easy")
	must("Ben's fleet", err)
	_, err = ann.Get(ctx, salvo.Token, id)
	must("the Salvo table under way", err)
	must("Ann aborts", ann.Abort(ctx, salvo.Token, id))
	_, err = ann.Get(ctx, salvo.Token, id)
	must("the aborted table", err)

	// A Fischer clock and a correspondence clock, shown by tables
	// waiting for their second player.
	fischer, err := ann.Create(ctx, annS.Token, "quizl", map[string]any{"clock": map[string]any{"kind": "fischer", "initial": 300, "increment": 3}}, []string{"me", "open"}, nil)
	must("a table with a Fischer clock", err)
	_, err = ann.Get(ctx, fischer.Token, fischer.Table)
	must("the Fischer table", err)
	corr, err := ann.Create(ctx, annS.Token, "quizl", map[string]any{"clock": map[string]any{"kind": "correspondence", "days": 2}}, []string{"me", "open"}, nil)
	must("a table with a correspondence clock", err)
	_, err = ann.Get(ctx, corr.Token, corr.Table)
	must("the correspondence table", err)

	// The walk-away: the player to move is away, then long enough to
	// claim against; the claimant then resigns, which ends the game.
	clk.advance(time.Second)
	_, err = first.c.Get(ctx, first.tok, quizl)
	must("the table with a player away", err)
	clk.advance(2 * time.Minute)
	_, err = first.c.Claim(ctx, first.tok, quizl)
	must("the claim", err)
	_, err = first.c.Move(ctx, first.tok, quizl, "resign", 0, false)
	must("the resignation", err)
	u, err = first.c.Get(ctx, first.tok, quizl)
	must("the finished table", err)
	if u.Table.Status != "finished" {
		t.Fatalf("the Quizl table is %s, not finished", u.Table.Status)
	}
	waitEvent("the game's finish", annEvents, func(ev PlayerEvent) bool { return ev.Type == "gameFinish" })
	_, err = ann.Rematch(ctx, annTok, quizl)
	must("the rematch", err)
	_, err = ann.Get(ctx, annTok, quizl)
	must("the table after its rematch", err)
	_, err = ann.PlayedGames(ctx, "", "Ann", 20)
	must("Ann's games", err)
	// Ben's too: of the claim, one of the two lists says the server
	// played for its own player, the other for an opponent.
	_, err = ben.PlayedGames(ctx, "", "Ben", 20)
	must("Ben's games", err)
	// A page of one game names the next, which holds the older ones.
	latest, next, err := ann.GamesBefore(ctx, "", "Ann", "", 1)
	must("Ann's latest game", err)
	if len(latest) != 1 || next == "" {
		t.Fatalf("a page of one game: %d games, next %q", len(latest), next)
	}
	older, _, err := ann.GamesBefore(ctx, "", "Ann", next, 20)
	must("Ann's older games", err)
	for _, g := range older {
		if g.Table == latest[0].Table {
			t.Errorf("the older page repeats the latest game %s", g.Table)
		}
	}
	// The archive holds every game the pages do.
	if recs, n, err := ann.PlayerExport(ctx, "", "Ann"); err != nil || n != 1+len(older) || !strings.Contains(recs, `"parlour":1`) {
		t.Errorf("Ann's archive: %d records, %v; the pages hold %d games", n, err, 1+len(older))
	}
	_, err = ann.OwnGames(ctx, annTok, 20)
	must("Ann's own games", err)
	words, err := ann.AnalysisText(ctx, annTok, quizl)
	must("the finished Quizl game's analysis", err)
	if !strings.HasPrefix(words, "Analysis of a Quizl game") {
		t.Errorf("the analysis in words begins %.80q", words)
	}
	rules, err := ben.Rules(ctx, "salvo")
	must("Salvo's rules", err)
	if !strings.HasPrefix(rules, "# Salvo") {
		t.Errorf("Salvo's rules begin %.40q", rules)
	}
	record, err := ben.Record(ctx, "", quizl)
	must("the finished Quizl game's record", err)
	replay, err := ben.Replay(ctx, record)
	must("the finished Quizl game's replay", err)
	if len(replay.Steps) == 0 || len(replay.Start) != len(replay.Players) || replay.Refused != "" {
		t.Errorf("the replay of the finished Quizl game: %d steps, %d views at the start of %d players, refused %q",
			len(replay.Steps), len(replay.Start), len(replay.Players), replay.Refused)
	}

	// Ben follows Ann, who then starts a game: his stream hears of it.
	must("Ben follows Ann", ben.Follow(ctx, benS.Token, "Ann", true))

	// Solitaire, a computer opponent, a table left.
	sol, err := ann.Create(ctx, annS.Token, "quizl", nil, []string{"me"}, map[string]any{"maker": "easy"})
	must("solitaire", err)
	_, err = ann.Get(ctx, sol.Token, sol.Table)
	must("the solitaire table", err)
	// The daily puzzle: read before and after an attempt played to its
	// end, with the day's leaderboard; a game with none.
	_, err = ann.Daily(ctx, annS.Token, "quizl")
	must("today's Quizl", err)
	dq, err := ann.StartDaily(ctx, annS.Token, "quizl")
	must("Ann's daily attempt", err)
	_, err = ann.Get(ctx, annS.Token, dq.Table)
	must("the daily table", err)
	_, err = ann.Move(ctx, annS.Token, dq.Table, "72", 0, false)
	must("Ann's daily call", err)
	_, err = ann.Move(ctx, annS.Token, dq.Table, "resign", 0, false)
	must("Ann's daily resignation", err)
	day, err := ann.Daily(ctx, annS.Token, "quizl")
	must("Ann's daily result", err)
	if gs, err := ann.PlayedGames(ctx, "", "Ann", 1); err != nil || len(gs) != 1 || gs[0].Table != dq.Table || gs[0].Daily != "quizl/"+day.Day {
		t.Errorf("Ann's latest game, her daily: %+v, %v", gs, err)
	}
	_, err = ann.DailyLeaderboard(ctx, "quizl", day.Day)
	must("today's leaderboard", err)
	// Ben's attempt at the daily Salvo is left under way, to be read
	// once its day is over.
	bd, err := ben.StartDaily(ctx, benS.Token, "salvo")
	must("Ben's daily attempt", err)
	if _, err := ann.Daily(ctx, annS.Token, "nymphabet"); err != ErrNoDaily {
		t.Errorf("the daily Nymphabet answered %v, want ErrNoDaily", err)
	}
	text, err := ann.AnalysisText(ctx, "", dq.Table)
	if err == nil || !strings.Contains(err.Error(), "opens to everyone when the day ends") {
		t.Errorf("the analysis of a daily attempt before the day ends: %q, %v", text, err)
	}
	vs, err := ann.Create(ctx, annS.Token, "nymphabet", nil, []string{"me", "computer:easy"}, nil)
	must("against the computer", err)
	_, err = ann.Get(ctx, vs.Token, vs.Table)
	must("the table against the computer", err)
	waitEvent("the followed player's game", benEvents, func(ev PlayerEvent) bool {
		return ev.Type == "followPlaying" && ev.Follow != nil && ev.Follow.Table != nil
	})
	_, err = ben.Follows(ctx, benS.Token)
	must("whom Ben follows", err)
	must("Ben unfollows Ann", ben.Follow(ctx, benS.Token, "Ann", false))
	must("Ben blocks Ann", ben.Block(ctx, benS.Token, "Ann", true))
	_, err = ben.Blocks(ctx, benS.Token)
	must("whom Ben blocks", err)
	must("Ben unblocks Ann", ben.Block(ctx, benS.Token, "Ann", false))
	// Ann reports Ben: a report about Ann would go to the other
	// moderators only, and she is the one this test makes.
	_, err = ann.Report(ctx, annS.Token, "Ben", "chat", "rude", salvo.Table)
	must("Ann reports Ben", err)

	// The moderators: Ann, made one on the server's machine, works the
	// queue, mutes Ben and lifts it, renames Dee and closes Dee's
	// account, and reads the log of it.
	if _, err := moderation.Grant(ctx, db, "Ann", true, "the wire test", time.Now()); err != nil {
		t.Fatal(err)
	}
	if me, err := ann.Me(ctx, annS.Token); err != nil || !me.Moderator || me.Name != "Ann" {
		t.Fatalf("Ann's account: %+v, %v", me, err)
	}
	if me, err := ben.Me(ctx, benS.Token); err != nil || me.Moderator {
		t.Fatalf("Ben's account: %+v, %v", me, err)
	}
	queue, err := ann.Reports(ctx, annS.Token)
	must("the reports", err)
	if len(queue) != 1 || queue[0].Name != "Ben" || queue[0].Reporter != "Ann" || queue[0].Status != "open" {
		t.Fatalf("the queue: %+v", queue)
	}
	_, err = ann.ReadTableChat(ctx, annS.Token, salvo.Table, 0)
	must("the reported table's chat", err)
	_, err = ann.CloseReport(ctx, annS.Token, queue[0].ID, "nothing rude said")
	must("the report closed", err)
	if queue, err = ann.Reports(ctx, annS.Token); err != nil || len(queue) != 1 || queue[0].Status != "closed" || queue[0].ClosedBy != "Ann" {
		t.Fatalf("the queue after closing: %+v, %v", queue, err)
	}
	_, err = ann.MutePlayer(ctx, annS.Token, "Ben", 60, "a test")
	must("Ben muted", err)
	_, err = ann.MutePlayer(ctx, annS.Token, "Ben", 0, "the test is over")
	must("Ben's mute lifted", err)
	dee := newClient("Dee")
	_, err = dee.SignUp(ctx, "", "Dee", "correct horse battery")
	must("Dee signs up", err)
	_, err = ann.Rename(ctx, annS.Token, "Dee", "Dora", "a test")
	must("Dee renamed", err)
	_, err = ann.CloseAccount(ctx, annS.Token, "Dora", "a test", false)
	must("Dora's account closed", err)
	_, err = ann.ReopenAccount(ctx, annS.Token, "Dora", "the test goes on")
	must("Dora's account reopened", err)
	_, err = ann.CloseAccount(ctx, annS.Token, "Dora", "a test", false)
	must("Dora's account closed again", err)
	// Fay beats Eve in a rated game, then is closed for cheating: Eve
	// gets back what she lost.
	eve, fay := newClient("Eve"), newClient("Fay")
	eveS, err := eve.SignUp(ctx, "", "Eve", "correct horse battery")
	must("Eve signs up", err)
	fayS, err := fay.SignUp(ctx, "", "Fay", "correct horse battery")
	must("Fay signs up", err)
	nym, err := eve.Create(ctx, eveS.Token, "nymphabet", nil, []string{"me", "open"}, map[string]any{"rated": true})
	must("Eve's rated table", err)
	faySeat, err := fay.Join(ctx, fayS.Token, nym.Table)
	must("Fay joins", err)
	_, err = eve.Move(ctx, nym.Token, nym.Table, "apple", 0, false)
	must("Eve's word", err)
	_, err = fay.Move(ctx, faySeat.Token, nym.Table, "bed", 0, false)
	must("Fay's word", err)
	_, err = eve.Move(ctx, nym.Token, nym.Table, "resign", 0, false)
	must("Eve resigns", err)
	// The streams opened so far are heard of already: the next one is
	// Eve's.
	for drained := false; !drained; {
		select {
		case <-rec.opened:
		default:
			drained = true
		}
	}
	eveEvents := make(chan PlayerEvent, 64)
	go eve.PlayerStream(streams, eveS.Token, eveEvents, nil)
	select {
	case <-rec.opened:
	case <-ctx.Done():
		t.Fatal("waited for Eve's player stream to open")
	}
	if cl, err := ann.CloseAccount(ctx, annS.Token, "Fay", "cheating", true); err != nil || len(cl.Refunds) != 1 || cl.Refunds[0].Name != "Eve" || cl.Refunds[0].Games != 1 || !(cl.Refunds[0].Points > 0) || cl.Refunds[0].Pool != "nymphabet-standard" {
		t.Errorf("Fay closed for cheating: %+v, %v", cl, err)
	}
	if ev := waitEvent("Eve's refund", eveEvents, func(ev PlayerEvent) bool { return ev.Type == "refund" }); ev.Refund == nil || ev.Refund.Pool != "nymphabet-standard" || ev.Refund.Games != 1 || !(ev.Refund.Points > 0) {
		t.Errorf("Eve's stream told %+v", ev.Refund)
	}
	if p, err := ben.Profile(ctx, "", "Dora"); err != nil || !p.Closed {
		t.Errorf("the closed account's profile: %+v, %v", p, err)
	}
	_, err = ann.ModLog(ctx, annS.Token)
	must("the moderators' log", err)
	open, err := ann.Create(ctx, annS.Token, "nymphabet", nil, []string{"me", "open"}, nil)
	must("an open table", err)
	_, err = ann.Leave(ctx, open.Token, open.Table)
	must("Ann leaves", err)

	// Quick pairing: a seek waits and is read back, another pairs with
	// it, a third is withdrawn, and the computer is asked for instead.
	sk, err := ann.SeekGame(ctx, annS.Token, SeekRequest{Game: "salvo", Clock: 120})
	must("Ann seeks", err)
	if sk.Seek == nil {
		t.Fatalf("Ann's seek answered %+v", sk)
	}
	_, err = ann.SeekStatus(ctx, annS.Token, sk.Seek.ID)
	must("Ann's seek, waiting", err)
	_, err = ben.SeekGame(ctx, benS.Token, SeekRequest{Game: "salvo", Clock: 120})
	must("Ben's seek pairs", err)
	_, err = ann.SeekStatus(ctx, annS.Token, sk.Seek.ID)
	must("Ann's seek, paired", err)
	sk, err = ann.SeekGame(ctx, annS.Token, SeekRequest{Game: "nymphabet"})
	must("Ann seeks again", err)
	must("Ann withdraws it", ann.CancelSeek(ctx, annS.Token, sk.Seek.ID))
	// A seek listed, as the lobby lists them, and accepted from there.
	sk, err = ann.SeekGame(ctx, annS.Token, SeekRequest{Game: "nymphabet", Clock: 60})
	must("Ann seeks a third time", err)
	waiting, err := ben.Seeks(ctx, benS.Token)
	must("the seeks listed", err)
	if !slices.ContainsFunc(waiting, func(s Seek) bool { return s.ID == sk.Seek.ID && s.Player == "Ann" && !s.OutOfRange }) {
		t.Errorf("the seeks listed %+v, without Ann's %s", waiting, sk.Seek.ID)
	}
	// A seek whose rating range leaves the reader out says so (as the
	// browser makes it: the terminal's quick game asks no range).
	var ranged SeekAnswer
	must("Ann seeks Salvo players rated 1600 or more", ann.do(ctx, http.MethodPost, "/api/v1/seeks", annS.Token,
		map[string]any{"game": "salvo", "rating_range": map[string]int{"min": 1600}}, &ranged))
	waiting, err = ben.Seeks(ctx, benS.Token)
	must("the seeks listed again", err)
	if !slices.ContainsFunc(waiting, func(s Seek) bool {
		return s.ID == ranged.Seek.ID && s.OutOfRange && s.RatingRange != nil && s.RatingRange.Min == 1600
	}) {
		t.Errorf("the seeks listed %+v, without Ann's out of Ben's range", waiting)
	}
	must("Ann withdraws it", ann.CancelSeek(ctx, annS.Token, ranged.Seek.ID))
	acc, err := ben.AcceptSeek(ctx, benS.Token, sk.Seek.ID)
	must("Ben accepts it", err)
	if acc.Status != "paired" || acc.Table == nil {
		t.Fatalf("Ben's acceptance answered %+v", acc)
	}
	_, err = ben.Move(ctx, acc.Table.Token, acc.Table.Table, "resign", 0, false)
	must("Ben resigns the accepted game", err)
	_, err = ann.SeekGame(ctx, annS.Token, SeekRequest{Game: "nymphabet", Computer: true})
	must("the computer instead", err)

	// Events: an arena with a password, joined (after a wrong password)
	// and left; a Swiss of one round, joined by both, started, paired
	// (the streams say where), played to its end and so finished.
	var arena, swiss Tournament
	fischer1 := map[string]any{"kind": "fischer", "initial": 60, "increment": 0}
	arena, err = ann.CreateTournament(ctx, annS.Token, NewEvent{Kind: "arena", Game: "nymphabet", Clock: fischer1, Minutes: 30, Password: "owl",
		Description: "a club's evening", Starts: time.Now().Add(time.Hour), Rules: map[string]any{"mode": "cyclic"}})
	must("Ann makes an arena", err)
	if arena.Creator != "Ann" || arena.Description != "a club's evening" || !arena.Password || arena.Name == "" || arena.Mode != "cyclic" {
		t.Errorf("Ann's arena reads %+v", arena)
	}
	if _, err := ben.JoinTournament(ctx, benS.Token, arena.ID, "lark"); err == nil {
		t.Fatal("Ben joined the arena with a wrong password")
	}
	_, err = ben.JoinTournament(ctx, benS.Token, arena.ID, "owl")
	must("Ben joins the arena", err)
	_, err = ben.LeaveTournament(ctx, benS.Token, arena.ID)
	must("Ben leaves the arena", err)
	_, err = ann.Tournaments(ctx, "created")
	must("the events to come", err)
	said, err := ben.EventSay(ctx, benS.Token, arena.ID, "good luck all")
	must("Ben says a word in the arena's chat", err)
	if heard, last, err := ann.EventChat(ctx, "", arena.ID, 0); err != nil || len(heard) != 1 || heard[0].Seq != said.Seq || last != said.Seq {
		t.Errorf("the arena's chat reads %+v, %d, %v; Ben said %+v", heard, last, err, said)
	}
	must("Ann mutes Ben in her arena's chat", ann.EventMute(ctx, annS.Token, arena.ID, "Ben", true))
	must("and lets him write again", ann.EventMute(ctx, annS.Token, arena.ID, "Ben", false))
	// A line of the arena's chat reported, the queue shows it, and its
	// writer is muted by it (and let write again).
	if _, err := ann.ReportLine(ctx, annS.Token, "", arena.ID, said.Seq, "", "chat", "a test"); err != nil {
		t.Fatalf("Ann reports Ben's line: %v", err)
	}
	if queue, err := ann.Reports(ctx, annS.Token); err != nil || len(queue) == 0 || queue[0].Tournament != arena.ID || queue[0].Line == nil || queue[0].Line.Text != "good luck all" {
		t.Fatalf("the queue with a reported line: %+v, %v", queue, err)
	}
	if m, err := ann.MuteLine(ctx, annS.Token, "", arena.ID, said.Seq, 0, "a test"); err != nil || m.Name != "Ben" || m.Player != "account" {
		t.Fatalf("Ben's mute by his line: %+v, %v", m, err)
	}
	// Started, the arena says when it ends.
	started, err := ann.StartTournament(ctx, annS.Token, arena.ID)
	must("Ann starts her arena", err)
	if want := started.Starts.Add(30 * time.Minute); !started.Ends.Equal(want) {
		t.Errorf("the arena started at %v ends at %v, not %v", started.Starts, started.Ends, want)
	}
	// A Swiss of Quizl, three a table, for players of three rated games.
	club, err := ann.CreateTournament(ctx, annS.Token, NewEvent{Kind: "swiss", Game: "quizl", Clock: fischer1, Rounds: 2, Seats: 3, MinRatedGames: 3,
		Starts: time.Now().Add(time.Hour)})
	must("Ann makes a Swiss of three a table", err)
	if club.Seats != 3 || club.MinRatedGames != 3 {
		t.Errorf("the Swiss of three a table reads %+v", club)
	}
	// An account not in it is told its own rated games there: Ben has
	// played the rated game of Quizl above.
	read, err := ben.Tournament(ctx, benS.Token, club.ID)
	must("Ben reads the Swiss", err)
	if read.RatedGames == nil || *read.RatedGames != 1 {
		t.Errorf("Ben is not told his 1 rated game in the Swiss's pool: %s", told(read.RatedGames))
	}
	club, err = ann.CancelTournament(ctx, annS.Token, club.ID)
	must("Ann cancels it", err)
	if club.Status != "cancelled" {
		t.Errorf("the cancelled Swiss reads %+v", club.Status)
	}
	swiss, err = ann.CreateTournament(ctx, annS.Token, NewEvent{Kind: "swiss", Name: "Sunday Swiss", Game: "salvo", Clock: fischer1, Rounds: 1})
	must("Ann makes a Swiss", err)
	_, err = ann.JoinTournament(ctx, annS.Token, swiss.ID, "")
	must("Ann joins the Swiss", err)
	_, err = ben.JoinTournament(ctx, benS.Token, swiss.ID, "")
	must("Ben joins the Swiss", err)
	swiss, err = ann.StartTournament(ctx, annS.Token, swiss.ID)
	must("Ann starts the Swiss", err)
	paired := waitEvent("Ben's pairing", benEvents, func(ev PlayerEvent) bool {
		return ev.Type == "tournamentGame" && ev.Tournament != nil && ev.Tournament.Event == swiss.ID
	})
	_, err = ann.Tournaments(ctx, "started")
	must("the events under way", err)
	swiss, err = ann.Tournament(ctx, annS.Token, swiss.ID)
	must("the Swiss under way", err)
	if mine := slices.IndexFunc(swiss.Standings, func(s Standing) bool { return s.You }); mine < 0 || !strings.EqualFold(swiss.Standings[mine].Name, annS.Name) {
		t.Errorf("Ann's read of the Swiss marks as hers %d of %+v", mine, swiss.Standings)
	}
	if len(swiss.Playing) != 1 || swiss.Playing[0].Table != paired.Tournament.Table {
		t.Fatalf("the Swiss plays %+v; Ben was paired at %+v", swiss.Playing, paired.Tournament)
	}
	// The table in setup says when the fleets are due.
	if u, err := ben.Get(ctx, benS.Token, paired.Tournament.Table); err != nil || u.Table.Status != "setup" || u.Table.SetupBy == nil {
		t.Errorf("the Swiss game's table in setup reads %+v (%v), want the time its setups are due", u.Table, err)
	}
	_, err = ann.Setup(ctx, annS.Token, paired.Tournament.Table, nil, "easy")
	must("Ann places her fleet", err)
	_, err = ben.Setup(ctx, benS.Token, paired.Tournament.Table, nil, "easy")
	must("Ben places his fleet", err)
	_, err = ben.Move(ctx, benS.Token, paired.Tournament.Table, "resign", 0, false)
	must("Ben resigns his Swiss game", err)
	// The table names its event, and the event's round.
	if u, err := ben.Get(ctx, benS.Token, paired.Tournament.Table); err != nil || u.Table.Event == nil || u.Table.Event.ID != swiss.ID || u.Table.Event.Name != "Sunday Swiss" || u.Table.Event.Round != 1 {
		t.Errorf("the Swiss game's table names its event as %+v (%v)", u.Table.Event, err)
	}
	for swiss.Status != "finished" {
		if ctx.Err() != nil {
			t.Fatalf("the Swiss did not finish: %+v", swiss)
		}
		time.Sleep(10 * time.Millisecond)
		swiss, err = ann.Tournament(ctx, annS.Token, swiss.ID)
		must("the Swiss", err)
	}
	_, err = ann.Tournaments(ctx, "finished")
	must("the events finished", err)
	if recs, n, err := ben.EventExport(ctx, swiss.ID); err != nil || n != 1 || !strings.Contains(recs, `"salvo"`) {
		t.Errorf("the Swiss's records: %d, %v:\n%s", n, err, recs)
	}
	// Ben's games name the event of the one he resigned.
	if gs, err := ben.PlayedGames(ctx, "", "Ben", 1); err != nil || len(gs) != 1 || gs[0].Event == nil || gs[0].Event.ID != swiss.ID || gs[0].Event.Round != 1 {
		t.Errorf("Ben's last game: %+v, %v; want the Swiss's, naming it", gs, err)
	}

	// Profiles and leaderboards: Ann's, with her ratings and the Swiss
	// she won.
	prof, err := ben.Profile(ctx, "", "ann")
	must("Ann's profile", err)
	if len(prof.Podiums) == 0 || len(prof.Ratings) == 0 {
		t.Errorf("Ann's profile holds no podium or no rating: %+v", prof)
	}
	if names, err := ben.FindPlayers(ctx, "AN", 5); err != nil || !slices.Contains(names, "Ann") {
		t.Errorf("the players whose names begin with AN: %q, %v", names, err)
	}
	_, err = ben.PlayerDaily(ctx, "ann")
	must("Ann's daily puzzles", err)
	pl, err := ben.Pools(ctx)
	must("the pools", err)
	for _, p := range pl {
		_, err = ben.Leaderboard(ctx, p)
		must("the leaderboard of "+p, err)
	}

	// Ben's daily attempt, the day after: it takes no move but a
	// resignation.
	clk.advance(25 * time.Hour)
	if u, err := ben.Get(ctx, benS.Token, bd.Table); err != nil || !u.Table.DayOver {
		t.Errorf("Ben's daily attempt the day after: day over %v, %v", u.Table.DayOver, err)
	}

	// The server shutting down says so on the player streams.
	svc.Close()
	select {
	case err := <-annLost:
		if err == nil || !strings.Contains(err.Error(), table.ShuttingDown) {
			t.Errorf("the player stream of a server shutting down ends with %v", err)
		}
	case <-ctx.Done():
		t.Fatal("waited for the player stream's last word")
	}
	stopStreams()

	answers := rec.all()
	for _, p := range wireProblems(answers) {
		t.Error(p)
	}
	// The same answers with a field renamed on the server's side, as a
	// server would send them: the check says which.
	renamed := make([]answer, len(answers))
	for i, a := range answers {
		a.body = bytes.ReplaceAll(a.body, []byte(`"to_move":`), []byte(`"toMove":`))
		renamed[i] = a
	}
	if ps := wireProblems(renamed); len(ps) == 0 || !strings.Contains(strings.Join(ps, "\n"), "Table.to_move") {
		t.Errorf("to_move renamed on the server's side, the check says:\n%s", strings.Join(ps, "\n"))
	}
}

// wireProblems decodes each answer into the client's type for its
// request, and says which field of the client's types no answer held,
// which answer the client could not read, and which request the test
// never made.
func wireProblems(answers []answer) []string {
	var problems []string
	fs := &fields{declared: map[string]map[string]bool{}, seen: map[string]map[string]bool{}}
	fs.declare(reflect.TypeFor[errorAnswer](), "")
	for _, e := range endpoints() {
		if e.into != nil {
			fs.declare(e.into, e.call)
		}
		re := regexp.MustCompile("^" + e.path + "$")
		n := 0
		for _, a := range answers {
			if a.method != e.method || !re.MatchString(a.path) {
				continue
			}
			if e.into == reflect.TypeFor[string]() && a.status < 300 {
				n++ // a text answer: its refusals are JSON, checked below
				continue
			}
			var v any
			if len(bytes.TrimSpace(a.body)) > 0 {
				if err := json.Unmarshal(a.body, &v); err != nil {
					problems = append(problems, fmt.Sprintf("%s %s answered something not JSON: %s", a.method, a.path, a.body))
					continue
				}
			}
			if a.status >= 300 {
				fs.walk(v, reflect.TypeFor[errorAnswer](), "")
				continue
			}
			n++
			if e.into == nil || v == nil {
				continue
			}
			into := reflect.New(e.into)
			if err := json.Unmarshal(a.body, into.Interface()); err != nil {
				problems = append(problems, fmt.Sprintf("Client.%s cannot read the answer of %s %s into %s: %v\n%s", e.call, a.method, a.path, e.into, err, a.body))
			}
			fs.walk(v, e.into, e.call)
		}
		if n == 0 {
			problems = append(problems, fmt.Sprintf("the test made no %s %s (Client.%s) the server answered", e.method, e.path, e.call))
		}
	}
	var missing []string
	for typ, names := range fs.declared {
		for name := range names {
			if fs.seen[typ][name] {
				continue
			}
			if st, ok := serverTypes()[typ]; ok {
				out := map[string]reflect.StructField{}
				structFields(st, typ, out, map[string]string{})
				if _, ok := out[name]; ok {
					continue
				}
			}
			missing = append(missing, typ+"."+name)
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		problems = append(problems, fmt.Sprintf("no answer of the server held %s: renamed on one side, or the test does not make the server send it", m))
	}
	return problems
}

// told is a count the server may leave out, as a test's message says it.
func told(n *int) string {
	if n == nil {
		return "none"
	}
	return fmt.Sprint(*n)
}
