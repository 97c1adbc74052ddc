package server

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"parlour/server/internal/servertest"
	"parlour/server/players"
	"parlour/server/table"
)

// sessionEndedLine is the last line of a stream whose session ended.
const sessionEndedLine = `{"error":"your session has ended: sign in again","status":401}`

// last reads the stream to its end, within 10 seconds, and returns its
// last line that is not a keep-alive.
func (ls *lineStream) last() string {
	ls.t.Helper()
	deadline := time.After(10 * time.Second)
	var last string
	for {
		select {
		case l, ok := <-ls.lines:
			if !ok {
				return last
			}
			if l != "" {
				last = l
			}
		case <-deadline:
			ls.t.Fatalf("the stream is still open; its last line %q", last)
		}
	}
}

// TestSessionEndEndsConnections: a session that ends (signed out, its
// password changed, its account closed) ends the connections opened with
// it too, as its requests do: a table's socket closes, saying why, and a
// table's event stream and the player stream end with an error line. A
// stolen session's open socket could otherwise go on moving, chatting and
// reading its seat's secrets.
func TestSessionEndEndsConnections(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		end  func(t *testing.T, sf *socialFixture, ann *client)
	}{
		{"signed out", func(t *testing.T, sf *socialFixture, ann *client) {
			expect(t, ann, "DELETE", "/api/v1/sessions", nil, 204, "")
		}},
		{"account closed", func(t *testing.T, sf *socialFixture, ann *client) {
			mo := signUp(t, sf.srv.URL, "Moe")
			grant(t, sf.st, "Moe", true)
			expect(t, mo, "POST", "/api/v1/moderation/close", `{"name": "Ann", "reason": "abuse"}`, 200, `"sessions":1`)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			sf := newSocial(t)
			ann := signUp(t, sf.srv.URL, "Ann")
			var a, b table.Seated
			if st, body := ann.do("POST", "/api/v1/tables", `{"game": "nymphabet", "seats": ["me", "open"]}`, &a); st != 201 {
				t.Fatalf("create: %d %s", st, body)
			}
			guest := &client{t: t, base: sf.srv.URL}
			if st, body := guest.do("POST", "/api/v1/tables/"+a.Table+"/join", `{"name": "Ben"}`, &b); st != 200 {
				t.Fatalf("join: %d %s", st, body)
			}

			ws := wsDial(t, sf.srv, a.Table)
			wsSend(t, ws, fmt.Sprintf(`{"type": "hello", "token": %q}`, ann.token))
			if m := wsRead(t, ws); m.Type != "update" || m.Update.Seat != 0 {
				t.Fatalf("hello answered with %+v", m)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			events := ann.stream(ctx, a.Table, 0)
			<-events
			player := openStream(t, sf.srv.URL, ann.token)
			// A socket that closes stops watching.
			other := wsDial(t, sf.srv, a.Table)
			wsSend(t, other, fmt.Sprintf(`{"type": "hello", "token": %q}`, ann.token))
			wsRead(t, other)
			other.Close(websocket.StatusNormalClosure, "")
			servertest.Eventually(t, 5*time.Second, "the socket, the event stream and the player stream watched", func() bool { return sf.s.auth.Watching() == 3 })

			c.end(t, sf, ann)

			wsClosed(t, ws, websocket.StatusPolicyViolation, "your session has ended: sign in again")
			for range events {
			}
			ann.mu.Lock()
			got := ann.got.String()
			ann.mu.Unlock()
			if !strings.HasSuffix(got, sessionEndedLine) {
				t.Errorf("the table's event stream ended with %q", got[max(0, len(got)-200):])
			}
			if last := player.last(); last != sessionEndedLine {
				t.Errorf("the player stream's last line %q", last)
			}
			// The guest, whose token is their own, plays on.
			if st, body := guest.do("GET", "/api/v1/tables/"+a.Table, nil, nil); st != 200 {
				t.Errorf("the guest's read after: %d %s", st, body)
			}
			servertest.Eventually(t, 5*time.Second, "no connection left watched", func() bool { return sf.s.auth.Watching() == 0 })
		})
	}
}

// TestEndOtherSessions: a player signs out everywhere but here: the
// account's other sessions end, with what was opened with them, and the
// one asking stays; a guest and nobody are refused, changing nothing.
func TestEndOtherSessions(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	base := sf.srv.URL
	here := signUp(t, base, "Ann")
	var others []*client
	for range 2 {
		c := &client{t: t, base: base}
		var s players.Session
		if st, body := c.do("POST", "/api/v1/sessions", map[string]string{"name": "ann", "password": testPassword}, &s); st != 200 && st != 201 {
			t.Fatalf("sign in: %d %s", st, body)
		}
		c.token = s.Token
		others = append(others, c)
	}
	ben := signUp(t, base, "Ben")
	stream := openStream(t, base, others[0].token)

	guest := &client{t: t, base: base}
	var id table.Identity
	guest.do("POST", "/api/v1/identity", `{"name": "Gus"}`, &id)
	guest.token = id.Token
	expect(t, guest, "DELETE", "/api/v1/account/sessions", nil, 403, "guest")
	expect(t, &client{t: t, base: base}, "DELETE", "/api/v1/account/sessions", nil, 401, "sign in first")

	expect(t, here, "DELETE", "/api/v1/account/sessions", nil, 200, `{"ended":2}`)
	for i, c := range others {
		if st, body := c.do("GET", "/api/v1/account", nil, nil); st != 401 {
			t.Errorf("session %d after: %d %s", i, st, body)
		}
	}
	expect(t, here, "GET", "/api/v1/account", nil, 200, `"name":"Ann"`)
	expect(t, ben, "GET", "/api/v1/account", nil, 200, `"name":"Ben"`)
	if last := stream.last(); last != sessionEndedLine {
		t.Errorf("the other session's stream ended with %q", last)
	}
	expect(t, here, "DELETE", "/api/v1/account/sessions", nil, 200, `{"ended":0}`)
}
