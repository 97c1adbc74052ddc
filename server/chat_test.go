package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"parlour/server/auth"
	"parlour/server/internal/servertest"
	"parlour/server/limit"
	"parlour/server/refuse"
	"parlour/server/table"
)

// chatPage is GET .../chat's answer.
type chatPage struct {
	Chat  []table.ChatLine `json:"chat"`
	Muted []string         `json:"muted"`
	Last  int              `json:"last"`
	More  bool             `json:"more"`
}

func (e *clockEnv) chat(id, token string) chatPage {
	e.t.Helper()
	st, b := e.call("GET", "/api/v1/tables/"+id+"/chat", token, nil)
	if st != 200 {
		e.t.Fatalf("chat: %d %s", st, b)
	}
	var p chatPage
	json.Unmarshal(b, &p)
	return p
}

func texts(lines []table.ChatLine) string {
	var out []string
	for _, l := range lines {
		out = append(out, l.Channel+":"+l.Name+":"+l.Text)
	}
	return strings.Join(out, " | ")
}

// TestChatRefusals: every bad message is a 4xx that names the problem,
// and the chat is as it was.
func TestChatRefusals(t *testing.T) {
	t.Parallel()
	e := newClockEnv(t)
	id, toks := e.table("nymphabet", 2, nil)
	ann := toks[0]
	cat := e.identity("Cat")
	long := strings.Repeat("é", table.MaxChatLen) // 200 characters, 400 bytes
	for _, c := range []struct {
		name   string
		table  string
		token  string
		body   string
		status int
		want   string
	}{
		{"no token", id, "", `{"channel": "spectators", "text": "hi"}`, 401, "chat needs an identity"},
		{"a spectator in the players' chat", id, cat, `{"channel": "players", "text": "psst"}`, 403, "only the players at this table may write in the players' chat"},
		{"a player in the spectators' chat", id, ann, `{"channel": "spectators", "text": "hello"}`, 403, "players may not write in the spectators' chat while the game is on"},
		{"no channel", id, ann, `{"text": "hi"}`, 400, `channel must be "players" or "spectators"`},
		{"an unknown channel", id, ann, `{"channel": "everyone", "text": "hi"}`, 400, `not "everyone"`},
		{"empty", id, ann, `{"channel": "players", "text": "   "}`, 400, "the message is empty"},
		{"over the cap", id, ann, `{"channel": "players", "text": "` + long + `e"}`, 400, "at most 200 characters; this one has 201"},
		{"a line break", id, ann, `{"channel": "players", "text": "a\nb"}`, 400, "control characters"},
		{"a direction control", id, ann, `{"channel": "players", "text": "abc\u202edef"}`, 400, "direction controls"},
		{"an invisible character", id, ann, `{"channel": "players", "text": "a\u200bb"}`, 400, "invisible characters"},
		{"an unknown field", id, ann, `{"channel": "players", "text": "hi", "to": "Ben"}`, 400, `unknown field "to"`},
		{"not UTF-8", id, ann, "{\"channel\": \"players\", \"text\": \"\xff\"}", 400, "UTF-8"},
		{"no such table", "nosuchtable00000", ann, `{"channel": "players", "text": "hi"}`, 404, "there is no table"},
	} {
		req, _ := http.NewRequest("POST", e.srv.URL+"/api/v1/tables/"+c.table+"/chat", strings.NewReader(c.body))
		if c.token != "" {
			req.Header.Set("Authorization", "Bearer "+c.token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var out struct{ Error string }
		json.NewDecoder(res.Body).Decode(&out)
		res.Body.Close()
		if res.StatusCode != c.status || !strings.Contains(out.Error, c.want) {
			t.Errorf("%s: %d %q; want %d saying %q", c.name, res.StatusCode, out.Error, c.status, c.want)
		}
	}
	for _, tok := range []string{ann, cat} {
		if p := e.chat(id, tok); p.Last != 0 || len(p.Chat) != 0 {
			t.Fatalf("refused messages left %+v", p)
		}
	}
	// At the cap, counted in characters, a message goes in; so do emoji
	// joined into one sign, and right-to-left text.
	for _, text := range []string{long, "👩\u200d💻 ok", "שלום"} {
		if st, b := e.call("POST", "/api/v1/tables/"+id+"/chat", ann, map[string]any{"channel": "players", "text": text}); st != 201 {
			t.Errorf("%q: %d %s", text, st, b)
		}
	}
	// A stream that resumes after message 2 starts with message 3 alone.
	if u := e.movesSince(id, ann, 0); len(u.Chat) != 3 {
		t.Errorf("a stream from the start carries %d messages, want 3", len(u.Chat))
	}
	req, _ := http.NewRequest("GET", e.srv.URL+"/api/v1/tables/"+id+"/events?chat=2", nil)
	req.Header.Set("Authorization", "Bearer "+ann)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var u clockUpdate
	json.NewDecoder(res.Body).Decode(&u)
	res.Body.Close()
	if len(u.Chat) != 1 || u.Chat[0].Seq != 3 || u.Chat[0].Text != "שלום" {
		t.Errorf("a stream with chat=2: %+v", u.Chat)
	}
	if st, b := e.call("GET", "/api/v1/tables/"+id+"/events?chat=-2", ann, nil); st != 400 {
		t.Errorf("events?chat=-2: %d %s", st, b)
	}
	for _, bad := range []string{"?since=-1", "?since=x", "?limit=0", "?limit=501"} {
		if st, b := e.call("GET", "/api/v1/tables/"+id+"/chat"+bad, ann, nil); st != 400 {
			t.Errorf("GET chat%s: %d %s", bad, st, b)
		}
	}
	if st, b := e.call("POST", "/api/v1/tables/"+id+"/chat/mute", ann, map[string]any{"channel": "all", "muted": true}); st != 400 {
		t.Errorf("muting an unknown channel: %d %s", st, b)
	}
	if st, b := e.call("POST", "/api/v1/tables/"+id+"/chat/mute", "", map[string]any{"channel": "players", "muted": true}); st != 401 {
		t.Errorf("muting without a token: %d %s", st, b)
	}
}

// TestChatVisibility: players read the players' chat and spectators the
// spectators'; neither reads the other's while the game is on, in chat
// pages, views and streams alike; after the end everybody reads both,
// and the players may write to the spectators. Mutes hold per identity,
// across a restart.
func TestChatVisibility(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		e := newClockEnvOn(t, k)
		id, toks := e.table("nymphabet", 2, nil)
		ann, ben := toks[0], toks[1]
		cat := e.identity("Cat")
		e.clock.Advance(table.GuestSpectatorsDelay) // a new guest waits to write to spectators
		post := func(token, channel, text string) {
			t.Helper()
			if st, b := e.call("POST", "/api/v1/tables/"+id+"/chat", token, map[string]any{"channel": channel, "text": text}); st != 201 {
				t.Fatalf("%s: %d %s", text, st, b)
			}
		}
		// Ben follows the table's events: the chat reaches him live.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", e.srv.URL+"/api/v1/tables/"+id+"/events", nil)
		req.Header.Set("Authorization", "Bearer "+ben)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(res.Body)
		lines.Buffer(nil, 1<<20)
		next := func() clockUpdate {
			t.Helper()
			if !lines.Scan() {
				t.Fatalf("the stream ended: %v", lines.Err())
			}
			var u clockUpdate
			json.Unmarshal(lines.Bytes(), &u)
			return u
		}
		next() // the table as it stands
		post(ann, "players", "good luck")
		post(cat, "spectators", "go Ann")
		if u := next(); texts(u.Chat) != "players:Ann:good luck" {
			t.Errorf("Ben's stream: %q", texts(u.Chat))
		}
		for _, c := range []struct {
			who, token, want string
		}{
			{"Ann", ann, "players:Ann:good luck"},
			{"Ben", ben, "players:Ann:good luck"},
			{"Cat", cat, "spectators:Cat:go Ann"},
			{"an anonymous spectator", "", "spectators:Cat:go Ann"},
		} {
			if got := texts(e.chat(id, c.token).Chat); got != c.want {
				t.Errorf("%s's chat page: %q, want %q", c.who, got, c.want)
			}
			if got := texts(e.view(id, c.token).Chat); got != c.want {
				t.Errorf("%s's view: %q, want %q", c.who, got, c.want)
			}
		}
		// Ben mutes the players' chat: his pages and views leave it out, on
		// every device, until he unmutes it.
		if st, b := e.call("POST", "/api/v1/tables/"+id+"/chat/mute", ben, map[string]any{"channel": "players", "muted": true}); st != 200 || !strings.Contains(string(b), `"muted":["players"]`) {
			t.Fatalf("mute: %d %s", st, b)
		}
		if p := e.chat(id, ben); len(p.Chat) != 0 || len(p.Muted) != 1 {
			t.Errorf("Ben's page with the players' chat muted: %+v", p)
		}
		// A mute that does not say whether is refused, and leaves the
		// mute as it was (it was once read as false: an unmute).
		if st, b := e.call("POST", "/api/v1/tables/"+id+"/chat/mute", ben, map[string]any{"channel": "players"}); st != 400 || !strings.Contains(string(b), "muted") {
			t.Errorf("a mute without muted: %d %s, want 400 naming muted", st, b)
		}
		if p := e.chat(id, ben); len(p.Chat) != 0 || len(p.Muted) != 1 {
			t.Errorf("Ben's page after a mute without muted: %+v", p)
		}
		post(ann, "players", "are you there?")
		cancel()
		res.Body.Close()
		e.stop()
		e.start()
		if p := e.chat(id, ben); len(p.Chat) != 0 || p.Last != 3 {
			t.Errorf("Ben's mute after a restart: %+v", p)
		}
		if got := texts(e.chat(id, ann).Chat); got != "players:Ann:good luck | players:Ann:are you there?" {
			t.Errorf("Ann's chat after a restart: %q", got)
		}
		e.call("POST", "/api/v1/tables/"+id+"/chat/mute", ben, map[string]any{"channel": "players", "muted": false})
		if p := e.chat(id, ben); len(p.Chat) != 2 || len(p.Muted) != 0 {
			t.Errorf("Ben's page after unmuting: %+v", p)
		}
		// The end: everybody reads both channels, and Ann may speak to the
		// spectators.
		if st, b := e.call("POST", "/api/v1/tables/"+id+"/moves", ann, map[string]any{"move": "resign"}); st != 200 {
			t.Fatalf("resign: %d %s", st, b)
		}
		post(ann, "spectators", "well played, all")
		all := "players:Ann:good luck | spectators:Cat:go Ann | players:Ann:are you there? | spectators:Ann:well played, all"
		for _, tok := range []string{ann, cat, ""} {
			if got := texts(e.chat(id, tok).Chat); got != all {
				t.Errorf("after the end: %q, want %q", got, all)
			}
		}
		if p := e.chat(id, cat); p.Last != 4 {
			t.Errorf("last = %d", p.Last)
		}
		st, b := e.call("GET", "/api/v1/tables/"+id+"/chat?since=2&limit=1", "", nil)
		if st != 200 || !bytes.Contains(b, []byte(`"more":true`)) || !bytes.Contains(b, []byte("are you there?")) || bytes.Contains(b, []byte("well played")) {
			t.Errorf("a page from 2, one message: %d %s", st, b)
		}
	})
}

// TestChatOverSocketAndRate: a player chats over the WebSocket and gets
// the message back as stored; the other player's socket gets it in an
// update; an identity that writes too fast is refused with 429.
func TestChatOverSocketAndRate(t *testing.T) {
	t.Parallel()
	e := newClockEnv(t)
	id, toks := e.table("nymphabet", 2, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	dial := func(token string) *websocket.Conn {
		c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(e.srv.URL, "http")+"/api/v1/tables/"+id+"/socket", nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(map[string]any{"type": "hello", "token": token})
		c.Write(ctx, websocket.MessageText, b)
		c.Read(ctx) // the first update
		return c
	}
	// read answers the socket's next message, passing over updates
	// unless asked for one.
	read := func(c *websocket.Conn, updates ...bool) map[string]json.RawMessage {
		for {
			_, b, err := c.Read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]json.RawMessage
			json.Unmarshal(b, &m)
			if string(m["type"]) != `"update"` || len(updates) > 0 {
				return m
			}
		}
	}
	a, b := dial(toks[0]), dial(toks[1])
	defer a.CloseNow()
	defer b.CloseNow()
	a.Write(ctx, websocket.MessageText, []byte(`{"type": "chat", "id": "c1", "channel": "players", "text": "hi Ben"}`))
	if m := read(a); string(m["type"]) != `"ack"` || !bytes.Contains(m["chat"], []byte(`"text":"hi Ben"`)) || string(m["id"]) != `"c1"` {
		t.Errorf("Ann's ack: %v", m)
	}
	if m := read(b, true); string(m["type"]) != `"update"` || !bytes.Contains(m["update"], []byte(`"chat":[{"seq":1,"channel":"players","seat":0,"name":"Ann","player":"guest","text":"hi Ben"`)) {
		t.Errorf("Ben's update: %s", m["update"])
	}
	a.Write(ctx, websocket.MessageText, []byte(`{"type": "chat", "channel": "spectators", "text": "hi"}`))
	if m := read(a); string(m["type"]) != `"error"` || string(m["status"]) != "403" {
		t.Errorf("a player in the spectators' chat over the socket: %v", m)
	}
	a.Write(ctx, websocket.MessageText, []byte(`{"type": "chat", "channel": "nobody", "text": "hi"}`))
	if m := read(a); string(m["type"]) != `"error"` || string(m["status"]) != "400" {
		t.Errorf("an unknown channel over the socket: %v", m)
	}
	// Ann has used one of her five: four more go in, then she must wait.
	refused := 0
	for i := range 6 {
		st, _ := e.call("POST", "/api/v1/tables/"+id+"/chat", toks[0], map[string]any{"channel": "players", "text": "spam " + itoa(i)})
		if st == 429 {
			refused++
		}
	}
	if refused < 1 || refused > 2 {
		t.Errorf("%d of 6 quick messages refused, want 1 or 2", refused)
	}
}

// TestChatOpensAtTheEnd: a spectator following the table never gets the
// players' chat while the game is on; the update that shows the end
// brings it.
func TestChatOpensAtTheEnd(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		e := newClockEnvOn(t, k)
		id, toks := e.table("nymphabet", 2, nil)
		cat := e.identity("Cat")
		e.clock.Advance(table.GuestSpectatorsDelay) // a new guest waits to write to spectators
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", e.srv.URL+"/api/v1/tables/"+id+"/events", nil)
		req.Header.Set("Authorization", "Bearer "+cat)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		dec := json.NewDecoder(res.Body)
		var u clockUpdate
		dec.Decode(&u)
		e.call("POST", "/api/v1/tables/"+id+"/chat", toks[0], map[string]any{"channel": "players", "text": "my plan"})
		e.call("POST", "/api/v1/tables/"+id+"/chat", cat, map[string]any{"channel": "spectators", "text": "hi all"})
		u = clockUpdate{}
		dec.Decode(&u)
		if texts(u.Chat) != "spectators:Cat:hi all" {
			t.Fatalf("Cat's stream while the game is on: %q", texts(u.Chat))
		}
		e.call("POST", "/api/v1/tables/"+id+"/moves", toks[1], map[string]any{"move": "resign"})
		e.call("POST", "/api/v1/tables/"+id+"/moves", toks[0], map[string]any{"move": "resign"})
		u = clockUpdate{}
		dec.Decode(&u)
		if u.Table.Status != "finished" || texts(u.Chat) != "players:Ann:my plan | spectators:Cat:hi all" {
			t.Errorf("Cat's stream at the end: %s, %q", u.Table.Status, texts(u.Chat))
		}
	})
}

// TestNewGuestsWaitForSpectatorsChat: a guest made a moment ago writes in
// no spectators' chat until GuestSpectatorsDelay has passed, unless it
// has an account or has played a game; guests cost nothing to make, so
// this is what keeps a flood of fresh ones out of other people's tables.
func TestNewGuestsWaitForSpectatorsChat(t *testing.T) {
	t.Parallel()
	e := newClockEnv(t)
	id, toks := e.table("nymphabet", 2, nil)
	say := func(token, text string) (int, string) {
		st, b := e.call("POST", "/api/v1/tables/"+id+"/chat", token, map[string]any{"channel": "spectators", "text": text})
		return st, string(b)
	}
	cat := e.identity("Cat")
	if st, b := say(cat, "hello"); st != 403 || !strings.Contains(b, "new guest") {
		t.Fatalf("a guest made a moment ago: %d %s, want 403", st, b)
	}
	if got := e.chat(id, cat); len(got.Chat) != 0 {
		t.Fatalf("the refused message was kept: %+v", got.Chat)
	}
	// A player who finished a game may, however new.
	did, dtoks := e.table("nymphabet", 2, nil)
	for i, m := range []string{"apple", "bed", "resign"} {
		if st, b := e.call("POST", "/api/v1/tables/"+did+"/moves", dtoks[i%2], map[string]any{"move": m}); st >= 300 {
			t.Fatalf("%s: %d %s", m, st, b)
		}
	}
	if st, b := say(dtoks[0], "gg, and good luck to you two"); st != 201 {
		t.Fatalf("a new guest who has played: %d %s", st, b)
	}
	// So may an account.
	var acct struct{ Token string }
	st, b := e.call("POST", "/api/v1/accounts", "", map[string]any{"name": "Dora", "password": testPassword})
	json.Unmarshal(b, &acct)
	if st != 201 {
		t.Fatalf("Dora's account: %d %s", st, b)
	}
	if st, b := say(acct.Token, "go Ann"); st != 201 {
		t.Fatalf("a new account: %d %s", st, b)
	}
	e.clock.Advance(table.GuestSpectatorsDelay)
	if st, b := say(cat, "hello"); st != 201 {
		t.Fatalf("the guest after the wait: %d %s", st, b)
	}
	// The players' own chat never waited.
	if st, b := e.call("POST", "/api/v1/tables/"+id+"/chat", toks[0], map[string]any{"channel": "players", "text": "hi"}); st != 201 {
		t.Fatalf("a player: %d %s", st, b)
	}
}

// TestChatLimitsPerTableAndAddress: many identities cannot flood one
// table (ChatPerTableBurst), nor one address many tables
// (ChatPerAddrBurst), though each stays under its own limit.
func TestChatLimitsPerTableAndAddress(t *testing.T) {
	t.Parallel()
	// The address's bucket refills in real time: at a minute a message,
	// however slowly a loaded machine sends the burst, it stays spent.
	e := &clockEnv{t: t, path: filepath.Join(t.TempDir(), "p.db"), clock: newFakeClock(),
		lim: limit.Limits{ChatPerAddr: 1.0 / 60, ChatPerAddrBurst: limit.ChatPerAddrBurst}}
	e.start()
	t.Cleanup(e.stop)
	var tables []string
	for range 2 {
		id, _ := e.table("nymphabet", 2, nil)
		tables = append(tables, id)
	}
	var guests []string
	for i := range limit.ChatPerAddrBurst + 1 {
		guests = append(guests, e.identity(fmt.Sprintf("G%d", i)))
	}
	e.clock.Advance(table.GuestSpectatorsDelay)
	var got []int
	for i, g := range guests {
		st, b := e.call("POST", "/api/v1/tables/"+tables[i%2]+"/chat", g, map[string]any{"channel": "spectators", "text": "hi"})
		got = append(got, st)
		if st == 429 && !strings.Contains(string(b), "address") {
			t.Fatalf("refusal %s, want it to name the address", b)
		}
	}
	if got[0] != 201 || got[limit.ChatPerAddrBurst-1] != 201 || got[limit.ChatPerAddrBurst] != 429 {
		t.Fatalf("one address, one message each from %d guests: %v; want the last refused", len(guests), got)
	}

	// Per table, whatever the addresses: the service itself counts. The
	// writers are made first, so that the messages go in one quick run
	// of calls that the table's bucket cannot refill in.
	ctx := context.Background()
	id := tables[0]
	var writers []*auth.Principal
	for i := range table.ChatPerTableBurst + 5 {
		p, err := e.svc.Auth().Authenticate(ctx, e.identity(fmt.Sprintf("H%d", i)))
		if err != nil {
			t.Fatal(err)
		}
		writers = append(writers, p)
	}
	e.clock.Advance(table.GuestSpectatorsDelay)
	var refused error
	for _, p := range writers {
		if _, err := e.svc.Chat(ctx, p, id, table.ChatRequest{Channel: "spectators", Text: "hi"}); err != nil {
			refused = err
			break
		}
	}
	if refuse.Status(refused) != 429 || !strings.Contains(refused.Error(), "table") {
		t.Fatalf("a table's chat past its burst: %v, want 429 naming the table", refused)
	}
}

// TestChatRefusedCountsNothingForTheAddress: a spectator whose messages
// are refused (here, written in the players' chat) sends more of them
// than an address may send messages at once. Nothing was sent, so the
// address's budget is whole: another player there writes at once, as
// a muted writer must not silence everyone behind the same address.
func TestChatRefusedCountsNothingForTheAddress(t *testing.T) {
	t.Parallel()
	e := newClockEnv(t)
	id, _ := e.table("nymphabet", 2, nil)
	pest, other := e.identity("Pest"), e.identity("Other")
	e.clock.Advance(table.GuestSpectatorsDelay)
	for range limit.ChatPerAddrBurst + 1 {
		if st, b := e.call("POST", "/api/v1/tables/"+id+"/chat", pest, map[string]any{"channel": "players", "text": "hi"}); st != 403 {
			t.Fatalf("a spectator in the players' chat: %d %s; want 403", st, b)
		}
	}
	if st, b := e.call("POST", "/api/v1/tables/"+id+"/chat", other, map[string]any{"channel": "spectators", "text": "hello"}); st != 201 {
		t.Errorf("another spectator at the same address: %d %s; want 201", st, b)
	}
}
