package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"parlour/games"
	"parlour/server/auth"
	"parlour/server/httpapi"
	"parlour/server/internal/servertest"
	"parlour/server/players"
	"parlour/server/refuse"
	"parlour/server/social"
	"parlour/server/table"
	"parlour/store"
	"parlour/store/sqlite"
)

// stepClock is a Clock that moves only when told; Advance runs the calls
// that fall due.
type stepClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*stepTimer
}

type stepTimer struct {
	at   time.Time
	f    func()
	done bool
	c    *stepClock
}

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *stepClock) AfterFunc(d time.Duration, f func()) table.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &stepTimer{at: c.now.Add(d), f: f, c: c}
	c.timers = append(c.timers, t)
	return t
}

func (t *stepTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := !t.done
	t.done = true
	return was
}

func (c *stepClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []func()
	for _, t := range c.timers {
		if !t.done && !t.at.After(c.now) {
			t.done = true
			due = append(due, t.f)
		}
	}
	c.mu.Unlock()
	for _, f := range due {
		f()
	}
}

// socialFixture is a fixture with the real games and a clock that moves
// when told, served over HTTP with a quick keep-alive.
type socialFixture struct {
	*fixture
	clock *stepClock
	srv   *httptest.Server
	h     *Handler
}

func newSocial(t *testing.T) *socialFixture {
	t.Helper()
	sf := &socialFixture{fixture: &fixture{t: t, dir: t.TempDir()}, clock: &stepClock{now: time.Now()}}
	sf.openSocial()
	t.Cleanup(func() { sf.srv.Close(); sf.close() })
	return sf
}

// newSocialOn is newSocial on a fresh store of kind k.
func newSocialOn(t *testing.T, k servertest.StoreKind) *socialFixture {
	t.Helper()
	sf := &socialFixture{fixture: &fixture{t: t, dir: t.TempDir(), kind: &k, where: k.Fresh(t)}, clock: &stepClock{now: time.Now()}}
	sf.openSocial()
	t.Cleanup(func() { sf.srv.Close(); sf.close() })
	return sf
}

func (sf *socialFixture) openSocial() {
	t := sf.t
	var db store.Store
	var err error
	if sf.kind != nil {
		db, err = sf.kind.Open(context.Background(), sf.where, false)
	} else {
		sf.db, err = sqlite.Open(context.Background(), filepath.Join(sf.dir, "parlour.db"), sqlite.Options{Synchronous: "NORMAL"})
		db = sf.db
	}
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Store: db, Games: games.Registry(), NewBot: games.NewBot, BaseURL: "http://test", Clock: sf.clock}
	if sf.tune != nil {
		sf.tune(&cfg)
	}
	s, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	sf.st, sf.s = db, s
	sf.h = newHandler(s, generous, func(c *httpapi.Config) { c.KeepAlive = 50 * time.Millisecond })
	sf.srv = httptest.NewServer(sf.h)
}

// restart closes the service and its server and opens both again on the
// same data.
// The service closes first: that ends the player streams still open,
// which the server's Close waits for.
func (sf *socialFixture) restart() {
	sf.close()
	sf.srv.Close()
	sf.openSocial()
}

// tables counts the tables in memory (every table under way is).
func (sf *socialFixture) tables() int {
	return sf.s.InMemory()
}

// lineStream reads a player stream line by line.
type lineStream struct {
	t     *testing.T
	lines chan string
	res   *http.Response
}

func openStream(t *testing.T, base, token string) *lineStream {
	t.Helper()
	req, _ := http.NewRequest("GET", base+"/api/v1/stream", nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 {
		t.Fatalf("stream: %d", res.StatusCode)
	}
	if ct := res.Header.Get("Content-Type"); ct != "application/x-ndjson" {
		t.Fatalf("stream content type %q", ct)
	}
	ls := &lineStream{t: t, lines: make(chan string, 100), res: res}
	go func() {
		defer close(ls.lines)
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			ls.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() { res.Body.Close() })
	return ls
}

// next returns the next event of type typ, passing over keep-alives and
// other events.
func (ls *lineStream) next(typ string) social.StreamEvent {
	ls.t.Helper()
	_, ev := ls.scan(typ)
	return ev
}

// scan reads the stream up to the next event of type typ, passing over
// keep-alives, and returns the events before it and the event.
func (ls *lineStream) scan(typ string) (before []social.StreamEvent, ev social.StreamEvent) {
	ls.t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case l, ok := <-ls.lines:
			if !ok {
				ls.t.Fatalf("the stream ended waiting for %s", typ)
			}
			if l == "" {
				continue
			}
			var e social.StreamEvent
			if err := json.Unmarshal([]byte(l), &e); err != nil {
				ls.t.Fatalf("stream line %q: %v", l, err)
			}
			if e.Type == typ {
				return before, e
			}
			before = append(before, e)
		case <-deadline:
			ls.t.Fatalf("no %s on the stream", typ)
		}
	}
}

type challengeList struct {
	In  []social.Challenge `json:"in"`
	Out []social.Challenge `json:"out"`
}

func listOf(t *testing.T, c *client) challengeList {
	t.Helper()
	var l challengeList
	if st, body := c.do("GET", "/api/v1/challenges", nil, &l); st != 200 {
		t.Fatalf("list: %d %s", st, body)
	}
	return l
}

func TestChallengeAcceptedEndToEnd(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		ann, bob := signUp(t, sf.srv.URL, "Ann"), signUp(t, sf.srv.URL, "Bob")
		annStream, bobStream := openStream(t, sf.srv.URL, ann.token), openStream(t, sf.srv.URL, bob.token)

		var ch social.Challenge
		if st, body := ann.do("POST", "/api/v1/challenges", `{"to": "BOB", "game": "nymphabet", "rules": {"no_repeats": true}, "rated": true}`, &ch); st != 201 {
			t.Fatalf("challenge: %d %s", st, body)
		}
		if ch.From != "Ann" || ch.To != "Bob" || ch.Status != "open" || !ch.Rated || string(ch.Rules["no_repeats"]) != "true" || ch.Expires.Sub(ch.Created) != social.ChallengeTTL {
			t.Fatalf("challenge %+v", ch)
		}
		for _, ls := range []*lineStream{bobStream, annStream} {
			if ev := ls.next("challenge"); ev.Challenge == nil || ev.Challenge.ID != ch.ID || ev.Challenge.From != "Ann" {
				t.Fatalf("stream shows %+v", ev)
			}
		}
		if l := listOf(t, bob); len(l.In) != 1 || len(l.Out) != 0 || l.In[0].ID != ch.ID {
			t.Fatalf("bob's list %+v", l)
		}
		if l := listOf(t, ann); len(l.Out) != 1 || len(l.In) != 0 {
			t.Fatalf("ann's list %+v", l)
		}

		var seated table.Seated
		if st, body := bob.do("POST", "/api/v1/challenges/"+ch.ID+"/accept", nil, &seated); st != 201 {
			t.Fatalf("accept: %d %s", st, body)
		}
		if seated.Token == "" || seated.Table == "" {
			t.Fatalf("accept answered %+v", seated)
		}
		annStart, bobStart := annStream.next("gameStart"), bobStream.next("gameStart")
		if annStart.Table.ID != seated.Table || bobStart.Table.ID != seated.Table || bobStart.Table.Seat != seated.Seat || annStart.Table.Seat != 1-seated.Seat || !annStart.Table.Rated {
			t.Fatalf("gameStart: ann %+v, bob %+v, accept %+v", annStart.Table, bobStart.Table, seated)
		}
		if l := listOf(t, bob); len(l.In) != 0 {
			t.Fatalf("an accepted challenge still listed: %+v", l)
		}
		v, err := sf.s.View(context.Background(), nil, seated.Table)
		if err != nil {
			t.Fatal(err)
		}
		names := map[int]string{}
		for _, s := range v.Table.Seats {
			names[s.Seat] = s.Name
		}
		if names[seated.Seat] != "Bob" || names[1-seated.Seat] != "Ann" || !v.Table.Rated || !v.Table.Rules.Bool("no_repeats") || v.Table.Status != "playing" {
			t.Fatalf("the table: %+v", v.Table)
		}
		// Ann acts with her own session token: her seat is bound to her
		// identity. Each writes a word (a resignation before then would
		// abort the game), she resigns, and both ratings change.
		bobSeat := &client{t: t, base: sf.srv.URL, token: seated.Token}
		for i, w := range []string{"apple", "bed"} {
			who := ann
			if i == seated.Seat {
				who = bobSeat
			}
			if st, body := who.do("POST", "/api/v1/tables/"+seated.Table+"/moves", map[string]string{"move": w}, nil); st != 200 {
				t.Fatalf("move %s: %d %s", w, st, body)
			}
		}
		if st, body := ann.do("POST", "/api/v1/tables/"+seated.Table+"/moves", `{"move": "resign"}`, nil); st != 200 {
			t.Fatalf("ann resigns with her session token: %d %s", st, body)
		}
		if ev := annStream.next("gameFinish"); ev.Table.ID != seated.Table || ev.Table.Result != "loss" {
			t.Fatalf("ann's gameFinish %+v", ev.Table)
		}
		if ev := bobStream.next("gameFinish"); ev.Table.Result != "win" {
			t.Fatalf("bob's gameFinish %+v", ev.Table)
		}
		for name, up := range map[string]bool{"ann": false, "bob": true} {
			var p players.Profile
			if st, body := ann.do("GET", "/api/v1/players/"+name, nil, &p); st != 200 {
				t.Fatalf("profile: %d %s", st, body)
			}
			r := p.Ratings["nymphabet-standard"]
			if r.Games != 1 || (r.Rating > 1500) != up || r.Rating == 1500 {
				t.Errorf("%s's rating after the game: %+v", name, r)
			}
		}
	})
}

func TestChallengeUnratedRules(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	ann, bob := signUp(t, sf.srv.URL, "Ann"), signUp(t, sf.srv.URL, "Bob")
	var ch social.Challenge
	if st, body := ann.do("POST", "/api/v1/challenges", `{"to": "bob", "game": "salvo", "rules": {"placement": "free"}}`, &ch); st != 201 {
		t.Fatalf("challenge: %d %s", st, body)
	}
	var seated table.Seated
	if st, body := bob.do("POST", "/api/v1/challenges/"+ch.ID+"/accept", nil, &seated); st != 201 {
		t.Fatalf("accept: %d %s", st, body)
	}
	v, _ := sf.s.View(context.Background(), nil, seated.Table)
	if v.Table.Rated || v.Table.Rules.String("placement") != "free" || v.Table.Game != "salvo" {
		t.Fatalf("table %+v", v.Table)
	}
	// The accepter's seat token acts for the seat.
	p := sf.principal(seated.Token)
	if p.Table != seated.Table || p.Seat != seated.Seat {
		t.Fatalf("seat token %+v", p)
	}
}

func TestChallengeBadInput(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	base := sf.srv.URL
	ann, bob, cat := signUp(t, base, "Ann"), signUp(t, base, "Bob"), signUp(t, base, "Cat")
	guest := &client{t: t, base: base}
	var id table.Identity
	guest.do("POST", "/api/v1/identity", `{"name": "Gus"}`, &id)
	guest.token = id.Token
	nobody := &client{t: t, base: base}

	var open, taken, declined social.Challenge
	for i, c := range []*social.Challenge{&open, &taken, &declined} {
		// Each on its own terms: the same challenge twice is refused.
		if st, body := ann.do("POST", "/api/v1/challenges", fmt.Sprintf(`{"to": "bob", "game": "nymphabet", "rules": {"clock": %d}}`, 60*(i+1)), c); st != 201 {
			t.Fatalf("challenge: %d %s", st, body)
		}
	}
	if st, body := bob.do("POST", "/api/v1/challenges/"+taken.ID+"/accept", nil, nil); st != 201 {
		t.Fatalf("accept: %d %s", st, body)
	}
	if st, body := bob.do("POST", "/api/v1/challenges/"+declined.ID+"/decline", nil, nil); st != 200 {
		t.Fatalf("decline: %d %s", st, body)
	}
	for _, tc := range []struct {
		name         string
		c            *client
		method, path string
		body         string
		status       int
		says         string
	}{
		{"to yourself", ann, "POST", "/api/v1/challenges", `{"to": "ANN", "game": "nymphabet"}`, 400, "yourself"},
		{"to nobody", ann, "POST", "/api/v1/challenges", `{"to": "Zed", "game": "nymphabet"}`, 404, `there is no player called \"Zed\"`},
		{"to a guest", ann, "POST", "/api/v1/challenges", `{"to": "Gus", "game": "nymphabet"}`, 404, "no player"},
		{"to empty", ann, "POST", "/api/v1/challenges", `{"game": "nymphabet"}`, 400, "whom"},
		{"no such game", ann, "POST", "/api/v1/challenges", `{"to": "bob", "game": "chess"}`, 400, "chess"},
		{"bad rules", ann, "POST", "/api/v1/challenges", `{"to": "bob", "game": "salvo", "rules": {"placement": "sideways"}}`, 400, "placement"},
		{"unknown field", ann, "POST", "/api/v1/challenges", `{"to": "bob", "game": "salvo", "colour": "red"}`, 400, "colour"},
		{"rated, rules changed", ann, "POST", "/api/v1/challenges", `{"to": "bob", "game": "salvo", "rated": true, "rules": {"placement": "free"}}`, 400, "placement"},
		{"rated, bad clock", ann, "POST", "/api/v1/challenges", `{"to": "bob", "game": "salvo", "rules": {"clock": 3}}`, 400, "clock"},
		{"guest challenging", guest, "POST", "/api/v1/challenges", `{"to": "bob", "game": "nymphabet"}`, 403, "accounts"},
		{"nobody challenging", nobody, "POST", "/api/v1/challenges", `{"to": "bob", "game": "nymphabet"}`, 401, "sign in"},
		{"accept your own", ann, "POST", "/api/v1/challenges/" + open.ID + "/accept", "", 403, "yours"},
		{"accept someone else's", cat, "POST", "/api/v1/challenges/" + open.ID + "/accept", "", 404, "no challenge"},
		{"accept twice", bob, "POST", "/api/v1/challenges/" + taken.ID + "/accept", "", 409, "already accepted"},
		{"accept declined", bob, "POST", "/api/v1/challenges/" + declined.ID + "/accept", "", 409, "declined"},
		{"accept nothing", bob, "POST", "/api/v1/challenges/nosuchchallenge/accept", "", 404, "no challenge"},
		{"accept as guest", guest, "POST", "/api/v1/challenges/" + open.ID + "/accept", "", 403, "accounts"},
		{"decline your own", ann, "POST", "/api/v1/challenges/" + open.ID + "/decline", "", 403, "yours"},
		{"decline accepted", bob, "POST", "/api/v1/challenges/" + taken.ID + "/decline", "", 409, "already accepted"},
		{"withdraw theirs", bob, "DELETE", "/api/v1/challenges/" + open.ID, "", 403, "decline it instead"},
		{"withdraw accepted", ann, "DELETE", "/api/v1/challenges/" + taken.ID, "", 409, "already accepted"},
		{"withdraw someone else's", cat, "DELETE", "/api/v1/challenges/" + open.ID, "", 404, "no challenge"},
		{"list as guest", guest, "GET", "/api/v1/challenges", "", 403, "accounts"},
		{"list as nobody", nobody, "GET", "/api/v1/challenges", "", 401, "sign in"},
		{"stream as nobody", nobody, "GET", "/api/v1/stream", "", 401, "sign in"},
	} {
		before := [2]challengeList{listOf(t, ann), listOf(t, bob)}
		tables := sf.tables()
		var body any
		if tc.body != "" {
			body = tc.body
		}
		st, got := tc.c.do(tc.method, tc.path, body, nil)
		if st != tc.status || !strings.Contains(got, tc.says) {
			t.Errorf("%s: got %d %s, want %d saying %q", tc.name, st, strings.TrimSpace(got), tc.status, tc.says)
		}
		after := [2]challengeList{listOf(t, ann), listOf(t, bob)}
		if len(after[0].Out) != len(before[0].Out) || len(after[1].In) != len(before[1].In) {
			t.Errorf("%s changed the challenges: %+v -> %+v", tc.name, before, after)
		}
		if sf.tables() != tables {
			t.Errorf("%s made a table", tc.name)
		}
	}
	// Withdrawn by the challenger, then gone from both lists.
	if st, body := ann.do("DELETE", "/api/v1/challenges/"+open.ID, nil, nil); st != 200 || !strings.Contains(body, `"canceled"`) {
		t.Fatalf("withdraw: %d %s", st, body)
	}
	if l := listOf(t, bob); len(l.In) != 0 {
		t.Fatalf("withdrawn challenge still listed: %+v", l)
	}
	if st, body := bob.do("POST", "/api/v1/challenges/"+open.ID+"/accept", nil, nil); st != 409 || !strings.Contains(body, "withdrawn") {
		t.Fatalf("accepting a withdrawn challenge: %d %s", st, body)
	}
	// Too many waiting.
	for i := 0; i < social.MaxOpenChallenges; i++ {
		if st, body := cat.do("POST", "/api/v1/challenges", fmt.Sprintf(`{"to": "bob", "game": "quizl", "rules": {"clock": %d}}`, 60+i), nil); st != 201 {
			t.Fatalf("challenge %d: %d %s", i, st, body)
		}
	}
	if st, body := cat.do("POST", "/api/v1/challenges", `{"to": "bob", "game": "quizl"}`, nil); st != 429 || !strings.Contains(body, "waiting") {
		t.Fatalf("challenge past the cap: %d %s", st, body)
	}
}

// TestChallengeTwice: the same challenge again while the first waits is
// refused in words (409) and makes nothing, however many come at once;
// once the first is answered it may be made again.
func TestChallengeTwice(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	ann, bob := signUp(t, sf.srv.URL, "Ann"), signUp(t, sf.srv.URL, "Bob")
	var first social.Challenge
	if st, body := ann.do("POST", "/api/v1/challenges", `{"to": "bob", "game": "nymphabet", "rules": {"clock": 60}}`, &first); st != 201 {
		t.Fatalf("challenge: %d %s", st, body)
	}
	st, body := ann.do("POST", "/api/v1/challenges", `{"to": "BOB", "game": "Nymphabet", "rules": {"clock": 60}}`, nil)
	if st != 409 || !strings.Contains(body, "you have already challenged Bob to Nymphabet on these terms") {
		t.Fatalf("the same challenge again: %d %s", st, body)
	}
	// Other terms are another challenge.
	if st, body := ann.do("POST", "/api/v1/challenges", `{"to": "bob", "game": "nymphabet"}`, nil); st != 201 {
		t.Fatalf("a challenge on other terms: %d %s", st, body)
	}
	// A double click: of many at once, one is made.
	codes := make(chan int, 6)
	for range cap(codes) {
		go func() {
			st, _ := ann.do("POST", "/api/v1/challenges", `{"to": "bob", "game": "quizl"}`, nil)
			codes <- st
		}()
	}
	made := 0
	for range cap(codes) {
		switch st := <-codes; st {
		case 201:
			made++
		case 409:
		default:
			t.Errorf("one of many at once: %d", st)
		}
	}
	if made != 1 {
		t.Errorf("%d of %d identical challenges at once were made, want 1", made, cap(codes))
	}
	if l := listOf(t, bob); len(l.In) != 3 {
		t.Errorf("Bob has %d challenges waiting, want 3: %+v", len(l.In), l.In)
	}
	if st, body := bob.do("POST", "/api/v1/challenges/"+first.ID+"/decline", nil, nil); st != 200 {
		t.Fatalf("decline: %d %s", st, body)
	}
	if st, body := ann.do("POST", "/api/v1/challenges", `{"to": "bob", "game": "nymphabet", "rules": {"clock": 60}}`, nil); st != 201 {
		t.Fatalf("the same challenge after a decline: %d %s", st, body)
	}
}

func TestChallengeDeclineAndWithdrawOnStream(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	ann, bob := signUp(t, sf.srv.URL, "Ann"), signUp(t, sf.srv.URL, "Bob")
	annStream := openStream(t, sf.srv.URL, ann.token)
	bobStream := openStream(t, sf.srv.URL, bob.token)
	var a, b social.Challenge
	ann.do("POST", "/api/v1/challenges", `{"to": "bob", "game": "quizl"}`, &a)
	ann.do("POST", "/api/v1/challenges", `{"to": "bob", "game": "nymphabet"}`, &b)
	if st, body := bob.do("POST", "/api/v1/challenges/"+a.ID+"/decline", nil, nil); st != 200 {
		t.Fatalf("decline: %d %s", st, body)
	}
	if ev := annStream.next("challengeDeclined"); ev.Challenge.ID != a.ID || ev.Challenge.Status != "declined" {
		t.Fatalf("declined: %+v", ev.Challenge)
	}
	if st, body := ann.do("DELETE", "/api/v1/challenges/"+b.ID, nil, nil); st != 200 {
		t.Fatalf("withdraw: %d %s", st, body)
	}
	if ev := bobStream.next("challengeCanceled"); ev.Challenge.ID != b.ID || ev.Challenge.Status != "canceled" {
		t.Fatalf("canceled: %+v", ev.Challenge)
	}
}

func TestChallengeExpires(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	ann, bob := signUp(t, sf.srv.URL, "Ann"), signUp(t, sf.srv.URL, "Bob")
	bobStream := openStream(t, sf.srv.URL, bob.token)
	var ch social.Challenge
	ann.do("POST", "/api/v1/challenges", `{"to": "bob", "game": "nymphabet"}`, &ch)
	bobStream.next("challenge")
	sf.clock.Advance(social.ChallengeTTL - time.Second)
	if l := listOf(t, bob); len(l.In) != 1 {
		t.Fatalf("expired early: %+v", l)
	}
	sf.clock.Advance(time.Second)
	if ev := bobStream.next("challengeCanceled"); ev.Challenge.ID != ch.ID || ev.Challenge.Status != "expired" {
		t.Fatalf("expiry on the stream: %+v", ev.Challenge)
	}
	if l := listOf(t, bob); len(l.In) != 0 {
		t.Fatalf("expired challenge listed: %+v", l)
	}
	if st, body := bob.do("POST", "/api/v1/challenges/"+ch.ID+"/accept", nil, nil); st != 410 || !strings.Contains(body, "expired") {
		t.Fatalf("accepting an expired challenge: %d %s", st, body)
	}
	// One whose time passes while the server is down (nothing marks it)
	// is expired all the same.
	ann.do("POST", "/api/v1/challenges", `{"to": "bob", "game": "nymphabet"}`, &ch)
	sf.restart()
	ann.base, bob.base = sf.srv.URL, sf.srv.URL
	sf.clock.Advance(social.ChallengeTTL)
	if l := listOf(t, bob); len(l.In) != 0 {
		t.Fatalf("expired challenge listed after a restart: %+v", l)
	}
	if st, body := bob.do("POST", "/api/v1/challenges/"+ch.ID+"/accept", nil, nil); st != 410 || !strings.Contains(body, "expired") {
		t.Fatalf("accepting a challenge that expired over a restart: %d %s", st, body)
	}
	if st, body := ann.do("DELETE", "/api/v1/challenges/"+ch.ID, nil, nil); st != 410 {
		t.Fatalf("withdrawing an expired challenge: %d %s", st, body)
	}
}

// TestChallengeExpiresAfterARestart: a challenge made before a restart
// still expires with its line on the players' streams once a client
// has listed it (as the browser and the terminal do when their stream
// opens again), so that neither keeps offering Accept; the timer that
// would have said so went with the process.
func TestChallengeExpiresAfterARestart(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	ann, bob := signUp(t, sf.srv.URL, "Ann"), signUp(t, sf.srv.URL, "Bob")
	var ch social.Challenge
	ann.do("POST", "/api/v1/challenges", `{"to": "bob", "game": "nymphabet"}`, &ch)
	sf.restart()
	ann.base, bob.base = sf.srv.URL, sf.srv.URL
	bobStream := openStream(t, sf.srv.URL, bob.token)
	if l := listOf(t, bob); len(l.In) != 1 {
		t.Fatalf("Bob's challenges after the restart: %+v", l)
	}
	listOf(t, bob) // listed twice: one timer, one line
	sf.clock.Advance(social.ChallengeTTL)
	if ev := bobStream.next("challengeCanceled"); ev.Challenge.ID != ch.ID || ev.Challenge.Status != "expired" {
		t.Fatalf("the expiry on Bob's stream: %+v", ev.Challenge)
	}
}

func TestChallengeSurvivesRestart(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		ann, bob := signUp(t, sf.srv.URL, "Ann"), signUp(t, sf.srv.URL, "Bob")
		var ch social.Challenge
		ann.do("POST", "/api/v1/challenges", `{"to": "bob", "game": "salvo", "rules": {"placement": "free"}}`, &ch)
		sf.restart()
		ann.base, bob.base = sf.srv.URL, sf.srv.URL
		if l := listOf(t, bob); len(l.In) != 1 || l.In[0].ID != ch.ID || string(l.In[0].Rules["placement"]) != `"free"` {
			t.Fatalf("after a restart: %+v", l)
		}
		// A new stream opens with the challenge waiting.
		if ev := openStream(t, sf.srv.URL, bob.token).next("challenge"); ev.Challenge.ID != ch.ID {
			t.Fatalf("stream after restart: %+v", ev)
		}
		var seated table.Seated
		if st, body := bob.do("POST", "/api/v1/challenges/"+ch.ID+"/accept", nil, &seated); st != 201 {
			t.Fatalf("accept after restart: %d %s", st, body)
		}
		// Ann's new stream opens with the game under way, and says it
		// answered her challenge: her stream was away when Bob accepted,
		// and her page still shows the challenge waiting.
		if ev := openStream(t, sf.srv.URL, ann.token).next("gameStart"); ev.Table.ID != seated.Table || ev.Table.Seat != 1-seated.Seat || ev.Table.Challenge != ch.ID {
			t.Fatalf("ann's stream: %+v, want table %s, seat %d, challenge %s", ev.Table, seated.Table, 1-seated.Seat, ch.ID)
		}
	})
}

// TestStreamOpensWithAcceptedChallenge: a challenger whose stream was
// away when the challenge was accepted learns at its next opening that
// the game under way answered it (its gameStart line names the
// challenge, as the one sent at the acceptance did), so that the page
// still showing the challenge waiting takes them to the table: with the
// table in memory, parked unused, and back after a restart.
func TestStreamOpensWithAcceptedChallenge(t *testing.T) {
	t.Parallel()
	sf := &socialFixture{fixture: &fixture{t: t, dir: t.TempDir(), tune: func(c *Config) { c.ParkAfter = 20 * time.Millisecond }}, clock: &stepClock{now: time.Now()}}
	sf.openSocial()
	t.Cleanup(func() { sf.srv.Close(); sf.close() })
	ann, bob := signUp(t, sf.srv.URL, "Ann"), signUp(t, sf.srv.URL, "Bob")
	var ch social.Challenge
	if st, body := ann.do("POST", "/api/v1/challenges", `{"to": "bob", "game": "nymphabet"}`, &ch); st != 201 {
		t.Fatalf("challenge: %d %s", st, body)
	}
	var seated table.Seated
	if st, body := bob.do("POST", "/api/v1/challenges/"+ch.ID+"/accept", nil, &seated); st != 201 {
		t.Fatalf("accept: %d %s", st, body)
	}
	check := func(when string) {
		t.Helper()
		ls := openStream(t, sf.srv.URL, ann.token)
		defer ls.res.Body.Close()
		if ev := ls.next("gameStart"); ev.Table.ID != seated.Table || ev.Table.Challenge != ch.ID {
			t.Errorf("%s, Ann's stream opens with %+v, want table %s answering challenge %s", when, ev.Table, seated.Table, ch.ID)
		}
	}
	check("the table in memory")
	servertest.Eventually(t, 10*time.Second, "the unused table to leave memory", func() bool { return sf.s.Parked() == 1 })
	check("the table parked")
	sf.restart()
	ann.base = sf.srv.URL
	check("after a restart")
}

func TestStreamKeepAlive(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	ann := signUp(t, sf.srv.URL, "Ann")
	ls := openStream(t, sf.srv.URL, ann.token)
	select {
	case l := <-ls.lines:
		if l != "" {
			t.Fatalf("first line %q, want a keep-alive", l)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no keep-alive")
	}
	// The session cookie opens it too.
	req, _ := http.NewRequest("GET", sf.srv.URL+"/api/v1/stream", nil)
	req.AddCookie(&http.Cookie{Name: auth.SessionCookie, Value: ann.token})
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("stream with the cookie: %d", res.StatusCode)
	}
	// A guest's stream opens too (it has no challenges), and counts the
	// guest as online.
	var id table.Identity
	(&client{t: t, base: sf.srv.URL}).do("POST", "/api/v1/identity", `{"name": "Gus"}`, &id)
	if l := <-openStream(t, sf.srv.URL, id.Token).lines; l != "" {
		t.Fatalf("a guest's stream: %q", l)
	}
	if !sf.s.social.IsOnline(id.ID) {
		t.Fatal("a guest with a stream open is not online")
	}
	// The stream ends when the service shuts down.
	sf.s.Close()
	for l := range ls.lines {
		if strings.Contains(l, "shutting down") {
			return
		}
	}
	t.Fatal("the stream ended without saying why")
}

// TestClosedAccountNotOnline: Robin, online and followed by Ann, has his
// account closed by a moderator. He leaves the list of players online
// (he still counts, as a hidden player does, until his last request is
// five minutes old) and shows offline in Ann's follows: nobody is
// offered a game with a player who plays no more.
func TestClosedAccountNotOnline(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	base := sf.srv.URL
	ann, rob, moe := signUp(t, base, "Ann"), signUp(t, base, "Robin"), signUp(t, base, "Moe")
	grant(t, sf.st, "Moe", true)
	expect(t, ann, "POST", "/api/v1/follows", `{"name": "Robin"}`, 201, "Robin")
	rob.do("GET", "/api/v1/identity/tables", nil, nil)
	listed := func() []string {
		t.Helper()
		var o social.Online
		if st, body := ann.do("GET", "/api/v1/online", nil, &o); st != 200 {
			t.Fatalf("online: %d %s", st, body)
		}
		var names []string
		for _, p := range o.Players {
			names = append(names, p.Name)
		}
		return names
	}
	if got := listed(); !slices.Contains(got, "Robin") {
		t.Fatalf("online before the closing: %q, want Robin among them", got)
	}
	expect(t, moe, "POST", "/api/v1/moderation/close", `{"name": "Robin", "reason": "abuse"}`, 200, `"name":"Robin"`)
	if got := listed(); slices.Contains(got, "Robin") {
		t.Errorf("online after the closing: %q, Robin among them", got)
	}
	if l := followsOf(t, ann); len(l) != 1 || l[0].Online {
		t.Errorf("Ann's follows after the closing: %+v, want Robin offline", l)
	}
}

func TestOnline(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	base := sf.srv.URL
	ann, bob, cat := signUp(t, base, "Ann"), signUp(t, base, "Bob"), signUp(t, base, "Cat")
	guest := &client{t: t, base: base}
	var id table.Identity
	guest.do("POST", "/api/v1/identity", `{"name": "Gus"}`, &id)
	guest.token = id.Token
	online := func() social.Online {
		t.Helper()
		var o social.Online
		if st, body := (&client{t: t, base: base}).do("GET", "/api/v1/online", nil, &o); st != 200 {
			t.Fatalf("online: %d %s", st, body)
		}
		return o
	}
	listed := func(o social.Online) string {
		var n []string
		for _, p := range o.Players {
			n = append(n, p.Name)
		}
		return strings.Join(n, ",")
	}
	for _, c := range []*client{ann, bob, cat, guest} {
		c.do("GET", "/api/v1/tables", nil, nil)
		if c.token != "" {
			c.do("GET", "/api/v1/identity/tables", nil, nil)
		}
	}
	if o := online(); o.Count != 4 || listed(o) != "Ann,Bob,Cat" || o.WindowSeconds != 300 {
		t.Fatalf("online: %+v", o)
	}
	// Cat hides: still counted, no longer listed.
	var set players.Settings
	if st, body := cat.do("PUT", "/api/v1/account/settings", `{"hidden": true}`, &set); st != 200 || !set.Hidden {
		t.Fatalf("settings: %d %s", st, body)
	}
	if st, _ := cat.do("GET", "/api/v1/account/settings", nil, &set); st != 200 || !set.Hidden {
		t.Fatalf("settings read back: %+v", set)
	}
	if o := online(); o.Count != 4 || listed(o) != "Ann,Bob" {
		t.Fatalf("online with Cat hidden: %+v", o)
	}
	for _, tc := range []struct {
		name   string
		c      *client
		method string
		body   any
		status int
		says   string
	}{
		{"guest settings", guest, "PUT", `{"hidden": true}`, 403, "accounts"},
		{"nobody's settings", &client{t: t, base: base}, "GET", nil, 401, "signed in"},
		{"bad value", ann, "PUT", `{"hidden": "yes"}`, 400, "hidden"},
		{"unknown setting", ann, "PUT", `{"colour": "red"}`, 400, "colour"},
	} {
		st, got := tc.c.do(tc.method, "/api/v1/account/settings", tc.body, nil)
		if st != tc.status || !strings.Contains(got, tc.says) {
			t.Errorf("%s: %d %s, want %d saying %q", tc.name, st, got, tc.status, tc.says)
		}
	}
	// Ann keeps a stream open; the others go quiet past the window.
	ls := openStream(t, base, ann.token)
	<-ls.lines // a keep-alive: the stream is open
	sf.clock.Advance(social.OnlineWindow + time.Second)
	if o := online(); o.Count != 1 || listed(o) != "Ann" {
		t.Fatalf("online after the window: %+v", o)
	}
	ls.res.Body.Close()
	for range ls.lines {
	}
	// Closing it counts as her last sign of life.
	deadline := time.Now().Add(5 * time.Second)
	for sf.s.social.IsOnline(ann.identityOf(t, sf)) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	sf.clock.Advance(social.OnlineWindow + time.Second)
	if o := online(); o.Count != 0 || len(o.Players) != 0 {
		t.Fatalf("online after everyone left: %+v", o)
	}
}

// identityOf returns the identity c's token stands for.
func (c *client) identityOf(t *testing.T, sf *socialFixture) string {
	return sf.principal(c.token).Identity
}

// TestChallengeAnswersAtOnce: of answers sent at once (two acceptances and
// a withdrawal), exactly one wins, and at most one table opens.
func TestChallengeAnswersAtOnce(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	ann, bob := signUp(t, sf.srv.URL, "Ann"), signUp(t, sf.srv.URL, "Bob")
	for round := 0; round < 5; round++ {
		var ch social.Challenge
		if st, body := ann.do("POST", "/api/v1/challenges", `{"to": "bob", "game": "quizl"}`, &ch); st != 201 {
			t.Fatalf("challenge: %d %s", st, body)
		}
		before := sf.tables()
		var wg sync.WaitGroup
		codes := make([]int, 3)
		for i, a := range []struct {
			c      *client
			method string
			path   string
		}{
			{bob, "POST", "/api/v1/challenges/" + ch.ID + "/accept"},
			{bob, "POST", "/api/v1/challenges/" + ch.ID + "/accept"},
			{ann, "DELETE", "/api/v1/challenges/" + ch.ID},
		} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes[i], _ = a.c.do(a.method, a.path, nil, nil)
			}()
		}
		wg.Wait()
		won := 0
		for _, c := range codes {
			if c < 300 {
				won++
			} else if c != 409 {
				t.Errorf("a losing answer got %d, want 409", c)
			}
		}
		accepted := codes[0] == 201 || codes[1] == 201
		if won != 1 || sf.tables()-before != map[bool]int{true: 1, false: 0}[accepted] {
			t.Fatalf("round %d: answers %v, %d new tables", round, codes, sf.tables()-before)
		}
	}
}

// TestChallengeFromDeletedAccount: deleting an account withdraws its
// challenges, made and received: they leave the lists, cannot be
// accepted, and the other player's stream hears each withdrawn
// ("challengeCanceled"), as when the challenger withdraws one.
func TestChallengeFromDeletedAccount(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	ann, bob := signUp(t, sf.srv.URL, "Ann"), signUp(t, sf.srv.URL, "Bob")
	var ch, back social.Challenge
	ann.do("POST", "/api/v1/challenges", `{"to": "bob", "game": "quizl"}`, &ch)
	bob.do("POST", "/api/v1/challenges", `{"to": "ann", "game": "salvo"}`, &back)
	stream := openStream(t, sf.srv.URL, bob.token)
	if st, body := ann.do("DELETE", "/api/v1/account", `{"password": "`+testPassword+`"}`, nil); st >= 300 {
		t.Fatalf("delete: %d %s", st, body)
	}
	canceled := map[string]string{}
	for range 2 {
		ev := stream.next("challengeCanceled")
		canceled[ev.Challenge.ID] = ev.Challenge.Status
	}
	if canceled[ch.ID] != "canceled" || canceled[back.ID] != "canceled" {
		t.Errorf("Bob's stream withdrew %v; want %s and %s canceled", canceled, ch.ID, back.ID)
	}
	if l := listOf(t, bob); len(l.In) != 0 || len(l.Out) != 0 {
		t.Fatalf("listed: %+v", l)
	}
	tables := sf.tables()
	if st, body := bob.do("POST", "/api/v1/challenges/"+ch.ID+"/accept", nil, nil); st != 409 || !strings.Contains(body, "withdrawn") {
		t.Fatalf("accept: %d %s", st, body)
	}
	if sf.tables() != tables {
		t.Fatal("a table opened")
	}
}

// TestStreamEveryGame: the player stream says when any game of yours
// starts and ends, not only one a challenge opened: a table joined by
// invite starts on both streams when its last seat is taken, a game
// against the computer at once, and each ends with every player's result.
func TestStreamEveryGame(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	ann, bob := signUp(t, sf.srv.URL, "Ann"), signUp(t, sf.srv.URL, "Bob")
	annStream, bobStream := openStream(t, sf.srv.URL, ann.token), openStream(t, sf.srv.URL, bob.token)
	tableID := playNymphabet(t, ann, bob, map[string]any{}, 1)
	for _, c := range []struct {
		who    string
		ls     *lineStream
		seat   int
		result string
	}{{"Ann", annStream, 0, "win"}, {"Bob", bobStream, 1, "loss"}} {
		if ev := c.ls.next("gameStart"); ev.Table.ID != tableID || ev.Table.Game != "nymphabet" || ev.Table.Seat != c.seat || ev.Table.Challenge != "" {
			t.Errorf("%s's gameStart: %+v, want table %s seat %d", c.who, ev.Table, tableID, c.seat)
		}
		if ev := c.ls.next("gameFinish"); ev.Table.ID != tableID || ev.Table.Seat != c.seat || ev.Table.Result != c.result {
			t.Errorf("%s's gameFinish: %+v, want table %s seat %d, %s", c.who, ev.Table, tableID, c.seat, c.result)
		}
	}
	var sa table.Seated
	if st, body := ann.do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "computer:easy"}}, &sa); st != 201 {
		t.Fatalf("a table against the computer: %d %s", st, body)
	}
	if ev := annStream.next("gameStart"); ev.Table.ID != sa.Table || ev.Table.Seat != 0 {
		t.Errorf("Ann's gameStart against the computer: %+v, want table %s", ev.Table, sa.Table)
	}
}

// TestChallengeCapsAtOnce: thirty challenges sent at once leave
// MaxOpenChallenges open, not more, since the store keeps the cap in the
// same step as the insert; and one address makes at most
// ChallengesPerAddrBurst challenges at once, whoever makes them.
func TestChallengeCapsAtOnce(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	ann, bob, cat := signUp(t, sf.srv.URL, "Ann"), signUp(t, sf.srv.URL, "Bob"), signUp(t, sf.srv.URL, "Cat")
	var wg sync.WaitGroup
	for i := range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ann.do("POST", "/api/v1/challenges", fmt.Sprintf(`{"to": "bob", "game": "quizl", "rules": {"clock": %d}}`, 60+i), nil)
		}()
	}
	wg.Wait()
	if l := listOf(t, bob); len(l.In) != social.MaxOpenChallenges {
		t.Fatalf("30 challenges at once left %d open, want %d", len(l.In), social.MaxOpenChallenges)
	}
	// Ann's ten and Cat's ten from one address; Dan's next is refused.
	for i := range social.MaxOpenChallenges {
		if st, body := cat.do("POST", "/api/v1/challenges", fmt.Sprintf(`{"to": "ann", "game": "quizl", "rules": {"clock": %d}}`, 60+i), nil); st != 201 {
			t.Fatalf("Cat's challenge %d: %d %s", i, st, body)
		}
	}
	dan := signUp(t, sf.srv.URL, "Dan")
	if st, body := dan.do("POST", "/api/v1/challenges", `{"to": "ann", "game": "quizl"}`, nil); st != 429 || !strings.Contains(body, "your address") {
		t.Fatalf("a 21st challenge from one address: %d %s", st, body)
	}
}

// fillingSocialStore is a fillingStore that also keeps accounts and
// challenges, whose challenge writes take room on the same disk.
type fillingSocialStore struct {
	*fillingStore
	store.Players
	store.Challenges
}

func (f *fillingSocialStore) SettleChallenge(ctx context.Context, id string, st store.ChallengeStatus, tableID string) error {
	if err := f.write(); err != nil {
		return err
	}
	return f.Challenges.SettleChallenge(ctx, id, st, tableID)
}

// TestFullDiskAcceptsNothingHalfMade lets the disk fill after each number
// of writes in turn while Bob accepts Ann's challenge: the acceptance
// either opens the table with both seated and settles the challenge, or
// answers 503 and leaves the challenge open with no table behind it, so
// that Bob can accept it again once there is room.
func TestFullDiskAcceptsNothingHalfMade(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "parlour.db"), sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	fs := &fillingSocialStore{fillingStore: &fillingStore{Store: db, room: -1}, Players: db, Challenges: db}
	s, err := New(ctx, Config{Store: fs, Games: servertest.Registry(), NewBot: servertest.Bots, Lexicon: servertest.Lexicon, BotTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sign := func(name string) *auth.Principal {
		se, err := s.SignUp(ctx, nil, name, testPassword)
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.auth.Authenticate(ctx, se.Token)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	ann, bob := sign("Ann"), sign("Bob")
	tables := func() int {
		return s.InMemory()
	}
	for room := range 4 {
		fs.fill(-1)
		c, err := s.social.Challenge(ctx, ann, social.ChallengeRequest{To: "Bob", Game: "guess"})
		if err != nil {
			t.Fatal(err)
		}
		before, _ := db.Recent(ctx, store.Open, 100)
		inMemory := tables()
		fs.fill(room)
		seated, err := s.social.Accept(ctx, bob, c.ID)
		fs.fill(-1)
		stored, serr := db.Challenge(ctx, c.ID)
		if serr != nil {
			t.Fatal(serr)
		}
		if err != nil {
			wantStatus(t, err, http.StatusServiceUnavailable)
			if !strings.Contains(err.Error(), "nothing changed") {
				t.Errorf("room for %d writes: accept said %q", room, err)
			}
			if stored.Status != store.ChallengeOpen || stored.Table != "" {
				t.Errorf("room for %d writes: a refused acceptance left the challenge %s (table %q)", room, stored.Status, stored.Table)
			}
			if after, _ := db.Recent(ctx, store.Open, 100); len(after) != len(before) || tables() != inMemory {
				t.Errorf("room for %d writes: a refused acceptance left a table", room)
			}
			// With room again, the same challenge is accepted.
			if seated, err = s.social.Accept(ctx, bob, c.ID); err != nil {
				t.Fatalf("room for %d writes: accepting again with room: %v", room, err)
			}
			if stored, serr = db.Challenge(ctx, c.ID); serr != nil {
				t.Fatal(serr)
			}
		}
		if stored.Status != store.ChallengeAccepted || stored.Table != seated.Table {
			t.Errorf("room for %d writes: accepted, the challenge is %s with table %q, want accepted with %s", room, stored.Status, stored.Table, seated.Table)
		}
		if _, err := db.Table(ctx, seated.Table); err != nil {
			t.Errorf("room for %d writes: the accepted challenge's table is not stored: %v", room, err)
		}
		if _, err := s.social.Accept(ctx, bob, c.ID); refuse.Status(err) != http.StatusConflict {
			t.Errorf("room for %d writes: accepting twice: %v, want 409", room, err)
		}
	}
}

// TestStreamRematch: the first player to ask for the next game of a
// finished table makes its table, with every seat taken, so both streams
// say it started ("gameStart"); the other player's also says who asked
// and where their seat waits ("rematch"), so that a player who left the
// end screen still hears of it. Taking the seat sends nothing more. A
// player who blocks the asker, or whom the asker blocks, hears of no
// rematch.
func TestStreamRematch(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	ann, bob := signUp(t, sf.srv.URL, "Ann"), signUp(t, sf.srv.URL, "Bob")
	annStream, bobStream := openStream(t, sf.srv.URL, ann.token), openStream(t, sf.srv.URL, bob.token)
	// upTo reads ls up to the gameStart of table id and returns the
	// lines before it.
	upTo := func(ls *lineStream, id string) []social.StreamEvent {
		t.Helper()
		var lines []social.StreamEvent
		for {
			before, ev := ls.scan("gameStart")
			lines = append(lines, before...)
			if ev.Table.ID == id {
				return lines
			}
			lines = append(lines, ev)
		}
	}
	rematches := func(lines []social.StreamEvent) (out []social.Rematch) {
		for _, e := range lines {
			if e.Type == "rematch" {
				out = append(out, *e.Rematch)
			}
		}
		return out
	}
	// mark makes a table against the computer for Bob: its gameStart
	// marks the place in his stream after what came before.
	mark := func() string {
		t.Helper()
		var m table.Seated
		if st, body := bob.do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "computer:easy"}}, &m); st != 201 {
			t.Fatalf("Bob's table against the computer: %d %s", st, body)
		}
		return m.Table
	}

	first := playNymphabet(t, ann, bob, map[string]any{"rated": true}, 1)
	var sa, sb table.Seated
	if st, body := ann.do("POST", "/api/v1/tables/"+first+"/rematch", map[string]any{}, &sa); st != 200 && st != 201 {
		t.Fatalf("Ann's rematch: %d %s", st, body)
	}
	if got := rematches(upTo(annStream, sa.Table)); len(got) != 0 {
		t.Errorf("Ann heard of her own rematch: %+v", got)
	}
	upTo(bobStream, sa.Table)
	ev := bobStream.next("rematch")
	want := social.Rematch{Table: sa.Table, Prev: first, Game: "nymphabet", Seat: 0, From: "Ann", Rated: true}
	if ev.Rematch == nil || *ev.Rematch != want {
		t.Fatalf("Bob's rematch line: %+v, want %+v", ev.Rematch, want)
	}
	if st, body := bob.do("POST", "/api/v1/tables/"+ev.Rematch.Prev+"/rematch", map[string]any{}, &sb); st != 200 && st != 201 || sb.Table != sa.Table || sb.Seat != ev.Rematch.Seat {
		t.Fatalf("Bob takes the seat the line named: %d %s, seated %+v", st, body, sb)
	}
	if lines := upTo(bobStream, mark()); len(lines) != 0 {
		t.Errorf("Bob's stream after he took his seat: %+v, want nothing", lines)
	}

	// A block keeps a rematch from being made, as it keeps a challenge
	// from being sent: the one who blocks is told to unblock, the one
	// blocked that the other is not taking one.
	for _, c := range []struct {
		name             string
		blocker, blocked *client
		whom             string
		st               int
		want             string
	}{
		{"Bob blocks Ann", bob, ann, "Ann", 403, "Bob is not taking a rematch from you"},
		{"Ann blocks Bob", ann, bob, "Bob", 409, "you have blocked Bob: unblock them before you ask for a rematch"},
	} {
		t.Run(c.name, func(t *testing.T) {
			done := playNymphabet(t, ann, bob, map[string]any{}, 0)
			if st, body := c.blocker.do("POST", "/api/v1/blocks", map[string]any{"name": c.whom}, nil); st != 201 {
				t.Fatalf("block: %d %s", st, body)
			}
			defer func() {
				if st, body := c.blocker.do("DELETE", "/api/v1/blocks/"+c.whom, nil, nil); st != 204 {
					t.Errorf("unblock: %d %s", st, body)
				}
			}()
			if st, body := ann.do("POST", "/api/v1/tables/"+done+"/rematch", map[string]any{}, nil); st != c.st || !strings.Contains(body, c.want) {
				t.Fatalf("Ann's rematch: %d %s, want %d saying %q", st, body, c.st, c.want)
			}
			if got := rematches(upTo(bobStream, mark())); len(got) != 0 {
				t.Errorf("Bob heard of a rematch across a block: %+v", got)
			}
			var info struct{ Table table.Info }
			if st, body := ann.do("GET", "/api/v1/tables/"+done, nil, &info); st != 200 || info.Table.Rematch != "" {
				t.Errorf("the finished table after the refused rematch: %d %s, want no rematch", st, body)
			}
		})
	}
}
