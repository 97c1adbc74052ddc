package server

import (
	"context"
	"strings"
	"testing"

	"parlour/server/internal/servertest"
	"parlour/server/moderation"
	"parlour/store"
)

// TestReopenAccount: a moderator reopens an account another closed, with
// a reason: it signs in again with its own password, it is logged, and
// it can be closed again. A reopening by a player, of an open account,
// of nobody or without a reason is refused and changes nothing. An
// account reopened with no password to give back refuses every password
// and says how to set one.
func TestReopenAccount(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		base := sf.srv.URL
		ann, _, mo := signUp(t, base, "Ann"), signUp(t, base, "Robin"), signUp(t, base, "Moe")
		grant(t, sf.st, "Moe", true)
		nobody := &client{t: t, base: base}
		signIn := func(status int, want string) {
			t.Helper()
			expect(t, nobody, "POST", "/api/v1/sessions", map[string]string{"name": "Robin", "password": testPassword}, status, want)
		}
		expect(t, mo, "POST", "/api/v1/moderation/close", `{"name": "Robin", "reason": "abuse"}`, 200, `"name":"Robin"`)
		signIn(403, "closed by a moderator")

		for _, c := range []struct {
			name   string
			who    *client
			body   string
			status int
			want   string
		}{
			{"a player", ann, `{"name": "Robin", "reason": "appeal"}`, 403, "moderator"},
			{"an open account", mo, `{"name": "Ann", "reason": "appeal"}`, 409, "Ann's account is not closed"},
			{"nobody", mo, `{"name": "Zed", "reason": "appeal"}`, 404, "Zed"},
			{"no reason", mo, `{"name": "Robin"}`, 400, "give a reason"},
			{"an unknown field", mo, `{"name": "Robin", "reason": "appeal", "password": "x"}`, 400, "password"},
		} {
			expect(t, c.who, "POST", "/api/v1/moderation/reopen", c.body, c.status, c.want)
		}
		signIn(403, "closed by a moderator")

		expect(t, mo, "POST", "/api/v1/moderation/reopen", `{"name": "robin", "reason": "the appeal was heard"}`, 200, `{"name":"Robin","password":true}`)
		signIn(200, "")
		expect(t, mo, "POST", "/api/v1/moderation/reopen", `{"name": "Robin", "reason": "again"}`, 409, "not closed")
		var log []moderation.LogLine
		if st, body := mo.do("GET", "/api/v1/moderation/log", nil, &log); st != 200 || len(log) == 0 || log[0].Action != "reopen" || log[0].Name != "Robin" || log[0].Reason != "the appeal was heard" || log[0].Moderator != "Moe" {
			t.Fatalf("the log after the reopening: %d %s", st, body)
		}

		// An account left with no password: none signs in, and the
		// answer says how to set one.
		ctx := context.Background()
		ps := sf.st.(store.Players)
		a, err := ps.AccountByKey(ctx, "robin")
		if err != nil {
			t.Fatal(err)
		}
		if err := ps.Rehash(ctx, a.Identity, a.Hash, store.NoPasswordHash); err != nil {
			t.Fatal(err)
		}
		signIn(401, "reset link")
		if body := expect(t, nobody, "POST", "/api/v1/sessions", map[string]string{"name": "Robin", "password": store.NoPasswordHash}, 401, "no password"); strings.Contains(body, "token") {
			t.Errorf("the marker signed in: %s", body)
		}
	})
}
