package server

import (
	"context"
	"net/http"
	"testing"
	"time"

	"parlour/account"
	"parlour/server/auth"
	"parlour/server/internal/servertest"
	"parlour/server/players"
	"parlour/store"
)

// TestUnusedSessionsEnd: an account's session unused for
// players.SessionIdle ends at the next sweep, as a sign-out would; one
// used within it stays, as does one that a connection still holds open
// (its stream, open for the month), and a guest's own token, all the
// guest has, never ends.
func TestUnusedSessionsEnd(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	ctx := context.Background()
	ann, bob, cat := signUp(t, sf.srv.URL, "Ann"), signUp(t, sf.srv.URL, "Bob"), signUp(t, sf.srv.URL, "Cat")
	gus := newGuest(t, sf.srv.URL, "Gus")
	stream := openStream(t, sf.srv.URL, ann.token)
	ps := sf.st.(store.Players)
	for _, c := range []*client{ann, bob, cat, gus} {
		expect(t, c, "GET", "/api/v1/identity/tables", nil, 200, "")
		h := account.HashToken(c.token)
		servertest.Eventually(t, 5*time.Second, "the session's use noted", func() bool {
			cr, err := sf.st.Credential(ctx, h[:])
			return err == nil && !cr.Used.IsZero()
		})
	}
	// Bob comes back a day before his month is out (his use is written
	// as the server would have written it then).
	bh := account.HashToken(bob.token)
	if err := ps.TouchSessions(ctx, [][]byte{bh[:]}, sf.clock.Now().Add(players.SessionIdle-24*time.Hour)); err != nil {
		t.Fatal(err)
	}

	sf.clock.Advance(players.SessionIdle + sessionSweepEvery)
	expect(t, cat, "GET", "/api/v1/account", nil, 401, "its session ended")
	expect(t, bob, "GET", "/api/v1/account", nil, 200, `"name":"Bob"`)
	expect(t, ann, "GET", "/api/v1/account", nil, 200, `"name":"Ann"`)
	expect(t, gus, "GET", "/api/v1/identity/tables", nil, 200, "")
	select {
	case l, ok := <-stream.lines:
		if !ok || l == sessionEndedLine {
			t.Errorf("Ann's stream, which held her session, ended (%q, open %v)", l, ok)
		}
	default:
	}
}

// TestSessionCookieRenewed: each page asks who its cookie signs in as,
// and the answer gives the cookie again for the whole idle time, so that
// a player who comes back within it stays signed in; a program's bearer
// token is given no cookie.
func TestSessionCookieRenewed(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	ann := signUp(t, sf.srv.URL, "Ann")
	for _, c := range []struct {
		name   string
		cookie bool
	}{{"cookie", true}, {"bearer", false}} {
		req, _ := http.NewRequest("GET", sf.srv.URL+"/api/v1/account", nil)
		if c.cookie {
			req.AddCookie(&http.Cookie{Name: auth.SessionCookie, Value: ann.token})
		} else {
			req.Header.Set("Authorization", "Bearer "+ann.token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d", c.name, res.StatusCode)
		}
		got := map[string]*http.Cookie{}
		for _, ck := range res.Cookies() {
			got[ck.Name] = ck
		}
		if !c.cookie {
			if len(got) != 0 {
				t.Errorf("%s: cookies %+v, want none", c.name, res.Cookies())
			}
			continue
		}
		want := int(players.SessionIdle / time.Second)
		if s := got[auth.SessionCookie]; s == nil || s.Value != ann.token || s.MaxAge != want || !s.HttpOnly {
			t.Errorf("%s: the session cookie given again: %+v, want its token for %d s", c.name, s, want)
		}
		if s := got[auth.SignedInCookie]; s == nil || s.Value != "1" || s.MaxAge != want {
			t.Errorf("%s: the signed-in cookie given again: %+v", c.name, s)
		}
	}
}
