package server

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"parlour/server/internal/servertest"
	"parlour/server/moderation"
	"parlour/server/refuse"
	"parlour/server/seek"
	"parlour/server/social"
	"parlour/server/table"
	"parlour/store"
)

// grant gives name the moderator role (or takes it back) as the
// operator's command does, straight in the store.
func grant(t *testing.T, st store.Store, name string, on bool) {
	t.Helper()
	if _, err := moderation.Grant(context.Background(), st, name, on, "", time.Now()); err != nil {
		t.Fatal(err)
	}
}

// expect checks a request's status, and that its body says want.
func expect(t *testing.T, c *client, method, path string, body any, status int, want string) string {
	t.Helper()
	st, got := c.do(method, path, body, nil)
	if st != status || !strings.Contains(got, want) {
		t.Fatalf("%s %s %v: %d %s; want %d saying %q", method, path, body, st, got, status, want)
	}
	return got
}

// TestReports: a player with an account reports another, once per table,
// with a reason of the four; every bad report is refused with what is
// wrong and stores nothing; the report reaches the moderators' queue,
// which only moderators may read or close.
func TestReports(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		base := sf.srv.URL
		ann, bob, cat := signUp(t, base, "Ann"), signUp(t, base, "Bob"), signUp(t, base, "Cat")
		tableID := playNymphabet(t, ann, bob, map[string]any{}, 1)
		gus, nobody := &client{t: t, base: base}, &client{t: t, base: base}
		var id struct{ Token string }
		if st, body := gus.do("POST", "/api/v1/identity", `{"name": "Gus"}`, &id); st != 201 {
			t.Fatalf("guest: %d %s", st, body)
		}
		gus.token = id.Token

		expect(t, nobody, "POST", "/api/v1/reports", `{"name": "Bob", "reason": "chat"}`, 401, "sign in")
		expect(t, gus, "POST", "/api/v1/reports", `{"name": "Bob", "reason": "chat"}`, 401, "only players with an account may report")
		for _, c := range []struct {
			body   string
			status int
			want   string
		}{
			{`{"name": "Bob"}`, 400, "give a reason"},
			{`{"name": "Bob", "reason": ""}`, 400, "give a reason"},
			{`{"name": "Bob", "reason": "rude"}`, 400, `rude`},
			{`{"name": "Bob", "reason": "other"}`, 400, "a few words"},
			{`{"name": "", "reason": "chat"}`, 400, "name the player"},
			{`{"name": "Bob", "reason": "chat", "text": "` + strings.Repeat("x", moderation.MaxReportText+1) + `"}`, 400, "at most"},
			{`{"name": "Bob", "reason": "chat", "table": "../x"}`, 400, "not a table"},
			{`{"name": "Bob", "reason": "chat", "color": "red"}`, 400, "color"},
			{`{"name": "Zed", "reason": "chat"}`, 404, "no player called"},
			{`{"name": "Bob", "reason": "chat", "table": "abcdefghijkmnpqr"}`, 404, "no table"},
			{`{"name": "ANN", "reason": "name"}`, 400, "yourself"},
		} {
			expect(t, ann, "POST", "/api/v1/reports", c.body, c.status, c.want)
		}
		var r moderation.Report
		if st, body := ann.do("POST", "/api/v1/reports", map[string]string{"name": "bob", "reason": "chat", "text": "  called me  names ", "table": tableID}, &r); st != 201 {
			t.Fatalf("report: %d %s", st, body)
		}
		if r.ID == "" || r.Name != "Bob" || r.Reporter != "Ann" || r.Reason != "chat" || r.Text != "called me names" || r.Table != tableID || r.Status != "open" {
			t.Fatalf("the report: %+v", r)
		}
		expect(t, ann, "POST", "/api/v1/reports", map[string]string{"name": "Bob", "reason": "cheating", "table": tableID}, 409, "already reported Bob about table")
		// Another table (none) is another report, a second later: the
		// queue lists the oldest first.
		sf.clock.Advance(time.Second)
		expect(t, ann, "POST", "/api/v1/reports", `{"name": "Bob", "reason": "name", "text": "a rude name"}`, 201, `"reason":"name"`)

		for _, c := range []*client{ann, bob} {
			expect(t, c, "GET", "/api/v1/moderation/reports", nil, 403, "only moderators")
			expect(t, c, "POST", "/api/v1/moderation/reports/"+r.ID+"/close", nil, 403, "only moderators")
		}
		expect(t, gus, "GET", "/api/v1/moderation/reports", nil, 401, "account")
		expect(t, nobody, "GET", "/api/v1/moderation/reports", nil, 401, "sign in")
		expect(t, cat, "GET", "/api/v1/account", nil, 200, `"moderator":false`)

		grant(t, sf.st, "cat", true)
		expect(t, cat, "GET", "/api/v1/account", nil, 200, `"moderator":true`)
		var queue []moderation.Report
		if st, body := cat.do("GET", "/api/v1/moderation/reports", nil, &queue); st != 200 {
			t.Fatalf("queue: %d %s", st, body)
		}
		if len(queue) != 2 || queue[0].ID != r.ID || queue[0].Reporter != "Ann" || queue[0].Name != "Bob" || queue[0].Status != "open" || queue[1].Reason != "name" {
			t.Fatalf("the queue: %+v", queue)
		}
		expect(t, cat, "POST", "/api/v1/moderation/reports/nope/close", nil, 404, "no report")
		expect(t, cat, "POST", "/api/v1/moderation/reports/"+r.ID+"/close", `{"reason": 7}`, 400, "")
		expect(t, cat, "POST", "/api/v1/moderation/reports/"+r.ID+"/close", `{"reason": "warned them"}`, 200, `"closed_by":"Cat"`)
		expect(t, cat, "POST", "/api/v1/moderation/reports/"+r.ID+"/close", nil, 409, "already closed")
		queue = nil
		cat.do("GET", "/api/v1/moderation/reports", nil, &queue)
		if len(queue) != 2 || queue[0].Status != "open" || queue[1].ID != r.ID || queue[1].Status != "closed" {
			t.Fatalf("the queue after closing one: %+v", queue)
		}

		grant(t, sf.st, "cat", false)
		expect(t, cat, "GET", "/api/v1/moderation/reports", nil, 403, "only moderators")
	})
}

// TestReportFloods: each identity, and each address across identities,
// may make only so many reports in a row, refused or not.
func TestReportFloods(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		base := sf.srv.URL
		var cs []*client
		for i := range 3 {
			cs = append(cs, signUp(t, base, fmt.Sprintf("Pl%d", i)))
		}
		for i := range moderation.ReportsBurst {
			want := 201
			if i > 0 {
				want = 409 // the same report again still counts
			}
			expect(t, cs[0], "POST", "/api/v1/reports", `{"name": "Pl2", "reason": "chat"}`, want, "")
		}
		expect(t, cs[0], "POST", "/api/v1/reports", `{"name": "Pl1", "reason": "chat"}`, 429, "too many reports")
		// The address's budget: what P0 spent and P1's own fill it.
		for i := 0; moderation.ReportsBurst+i+1 < moderation.ReportsPerAddrBurst; i++ {
			expect(t, cs[1], "POST", "/api/v1/reports", `{"name": "Pl2", "reason": "cheating"}`, map[bool]int{true: 201, false: 409}[i == 0], "")
		}
		expect(t, cs[2], "POST", "/api/v1/reports", `{"name": "Pl0", "reason": "chat"}`, 201, "")
		expect(t, cs[2], "POST", "/api/v1/reports", `{"name": "Pl1", "reason": "chat"}`, 429, "too many reports")
	})
}

// TestModeratorsActions: a moderator mutes a player's chat everywhere
// for a time, renames an account (its finished games too), closes one
// (it can no longer sign in; its sessions end), each action logged with
// who, whom and why; bad input and other players are refused; and chat
// refuses the shipped list's words.
func TestModeratorsActions(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		base := sf.srv.URL
		ann, bob, mo := signUp(t, base, "Ann"), signUp(t, base, "Bob"), signUp(t, base, "Moe")
		tableID := playNymphabet(t, ann, bob, map[string]any{}, 1)
		chat := "/api/v1/tables/" + tableID + "/chat"
		expect(t, bob, "POST", chat, `{"channel": "players", "text": "gg"}`, 201, "gg")
		expect(t, ann, "POST", chat, `{"channel": "players", "text": "you K1KE!"}`, 400, "does not allow")
		expect(t, ann, "POST", chat, `{"channel": "players", "text": "a kiked-out engine"}`, 201, "")

		for _, c := range []struct{ path, body string }{
			{"/api/v1/moderation/mutes", `{"name": "Bob", "minutes": 10, "reason": "abuse"}`},
			{"/api/v1/moderation/rename", `{"name": "Bob", "new_name": "Robin"}`},
			{"/api/v1/moderation/close", `{"name": "Bob", "reason": "abuse"}`},
		} {
			expect(t, ann, "POST", c.path, c.body, 403, "only moderators")
		}
		expect(t, ann, "GET", "/api/v1/moderation/log", nil, 403, "only moderators")
		grant(t, sf.st, "Moe", true)

		for _, c := range []struct {
			path, body string
			status     int
			want       string
		}{
			{"/api/v1/moderation/mutes", `{"name": "Bob", "minutes": -1, "reason": "abuse"}`, 400, "from 1 to"},
			{"/api/v1/moderation/mutes", `{"name": "Bob", "minutes": 50000, "reason": "abuse"}`, 400, "from 1 to"},
			{"/api/v1/moderation/mutes", `{"name": "Bob", "minutes": 10}`, 400, "give a reason"},
			{"/api/v1/moderation/mutes", `{"name": "Zed", "minutes": 10, "reason": "abuse"}`, 404, "no player"},
			{"/api/v1/moderation/rename", `{"name": "Bob", "new_name": "Ann"}`, 409, "taken"},
			{"/api/v1/moderation/rename", `{"name": "Bob", "new_name": "a b"}`, 400, "spaces"},
			{"/api/v1/moderation/rename", `{"name": "Zed", "new_name": "Robin"}`, 404, "no player"},
			{"/api/v1/moderation/close", `{"name": "Bob"}`, 400, "give a reason"},
			{"/api/v1/moderation/close", `{"name": "Moe", "reason": "x"}`, 403, "another moderator must close your account"},
			{"/api/v1/moderation/close", `{"name": "Zed", "reason": "x"}`, 404, "no player"},
		} {
			expect(t, mo, "POST", c.path, c.body, c.status, c.want)
		}

		expect(t, mo, "POST", "/api/v1/moderation/mutes", `{"name": "bob", "minutes": 90, "reason": "slurs at table"}`, 200, `"until"`)
		expect(t, bob, "POST", chat, `{"channel": "players", "text": "sorry"}`, 403, "you may write again in 1 hour and 30 minutes")
		sf.clock.Advance(89*time.Minute + 30*time.Second)
		expect(t, bob, "POST", chat, `{"channel": "players", "text": "sorry"}`, 403, "in 1 minute")
		sf.clock.Advance(time.Minute)
		expect(t, bob, "POST", chat, `{"channel": "players", "text": "sorry"}`, 201, "sorry")
		// A week's mute says days, not ten thousand minutes; lifted, Bob
		// writes again.
		expect(t, mo, "POST", "/api/v1/moderation/mutes", `{"name": "bob", "minutes": 10080, "reason": "again"}`, 200, `"until"`)
		expect(t, bob, "POST", chat, `{"channel": "players", "text": "sorry"}`, 403, "you may write again in 7 days")
		expect(t, mo, "POST", "/api/v1/moderation/mutes", `{"name": "bob", "minutes": 0, "reason": "a second chance"}`, 200, `"name":"Bob"`)
		expect(t, bob, "POST", chat, `{"channel": "players", "text": "sorry again"}`, 201, "sorry again")

		expect(t, mo, "POST", "/api/v1/moderation/rename", `{"name": "bob", "new_name": "Robin", "reason": "offensive name"}`, 200, `"old_name":"Bob"`)
		if body := expect(t, ann, "GET", "/api/v1/players/robin", nil, 200, `"name":"Robin"`); strings.Contains(body, `"closed"`) {
			t.Errorf("an open account's profile says closed: %s", body)
		}
		expect(t, ann, "GET", "/api/v1/players/bob", nil, 404, "")
		rec := expect(t, ann, "GET", "/api/v1/tables/"+tableID+"/record", nil, 200, "Robin")
		if strings.Contains(rec, `"Bob"`) {
			t.Errorf("the record still names Bob: %s", rec)
		}
		expect(t, bob, "GET", "/api/v1/account", nil, 200, `"name":"Robin"`)

		pub, keyText := newKey(t, "robin@laptop")
		expect(t, bob, "POST", "/api/v1/keys", map[string]string{"key": keyText, "password": testPassword}, 201, "")
		if _, err := sf.s.ProveKey(context.Background(), bob.token, pub, "added over ssh"); err != nil {
			t.Fatalf("proving the SSH key: %v", err)
		}
		if _, err := sf.s.KeySession(context.Background(), pub); err != nil {
			t.Fatalf("an SSH key's sign-in before closing: %v", err)
		}
		var robins social.Challenge
		if st, body := bob.do("POST", "/api/v1/challenges", `{"to": "Ann", "game": "nymphabet"}`, &robins); st != 201 {
			t.Fatalf("Robin's challenge: %d %s", st, body)
		}
		var robinsTable table.Seated
		if st, body := bob.do("POST", "/api/v1/tables", `{"game": "nymphabet", "seats": ["me", "open"]}`, &robinsTable); st != 201 {
			t.Fatalf("Robin's table: %d %s", st, body)
		}
		expect(t, mo, "POST", "/api/v1/moderation/close", `{"name": "Robin", "reason": "repeated abuse"}`, 200, `"sessions":2`)
		if _, err := sf.s.KeySession(context.Background(), pub); refuse.Status(err) != 403 || !strings.Contains(err.Error(), "closed") {
			t.Errorf("an SSH key's sign-in to a closed account: %v (status %d), want 403 closed", err, refuse.Status(err))
		}
		expect(t, mo, "POST", "/api/v1/moderation/close", `{"name": "Robin", "reason": "again"}`, 409, "already closed")
		// The profile stays, saying so; its games stay too.
		expect(t, ann, "GET", "/api/v1/players/robin", nil, 200, `"closed":true`)
		expect(t, bob, "GET", "/api/v1/account", nil, 401, "")
		expect(t, &client{t: t, base: base}, "POST", "/api/v1/sessions", map[string]string{"name": "Robin", "password": testPassword}, 403, "closed by a moderator")
		// Nobody starts a game with a closed account, which could never
		// move: neither a rematch nor a challenge. What it had waiting
		// ended with the closing (TestClosedAccountLeavesPlay).
		expect(t, ann, "POST", "/api/v1/tables/"+tableID+"/rematch", nil, 409, "Robin's account was closed by a moderator: they play no more games")
		expect(t, ann, "POST", "/api/v1/challenges", `{"to": "Robin", "game": "nymphabet"}`, 409, "Robin's account was closed by a moderator")
		expect(t, ann, "POST", "/api/v1/challenges/"+robins.ID+"/accept", nil, 409, "this challenge was withdrawn")
		expect(t, ann, "POST", "/api/v1/tables/"+robinsTable.Table+"/join", `{}`, 410, "Robin's account was closed by a moderator")
		var after struct{ Table table.Info }
		if st, body := ann.do("GET", "/api/v1/tables/"+tableID, nil, &after); st != 200 || after.Table.Rematch != "" {
			t.Errorf("the finished table after the refused rematch: %d %s", st, body)
		}

		var log []moderation.LogLine
		if st, body := mo.do("GET", "/api/v1/moderation/log", nil, &log); st != 200 {
			t.Fatalf("log: %d %s", st, body)
		}
		var got []string
		for _, l := range log {
			got = append(got, l.Moderator+" "+l.Action+" "+l.Name+" ("+l.Detail+") "+l.Reason)
		}
		want := []string{
			"Moe close Robin () repeated abuse",
			"Moe rename Bob (Bob → Robin) offensive name",
			"Moe mute Bob (lifted) a second chance",
			"Moe mute Bob (for 7 days) again",
			"Moe mute Bob (for 1 hour and 30 minutes) slurs at table",
			"the operator grant Moe () ",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("the log:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}

// TestClosedAccountLeavesPlay: closing an account takes its player out of
// everything still waiting to start a game, so that nobody is paired or
// seated with a player who can never move: its seeks leave the book, its
// tables that have not begun leave the lobby, and its challenges are
// withdrawn, the other player told.
func TestClosedAccountLeavesPlay(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		base := sf.srv.URL
		ann, rob, mo := signUp(t, base, "Ann"), signUp(t, base, "Robin"), signUp(t, base, "Moe")
		grant(t, sf.st, "Moe", true)
		annStream, robStream := openStream(t, base, ann.token), openStream(t, base, rob.token)

		var sk seekAnswer
		if st, body := rob.do("POST", "/api/v1/seeks", `{"game": "nymphabet"}`, &sk); st != 201 || sk.Status != "waiting" {
			t.Fatalf("Robin seeks: %d %s", st, body)
		}
		var open table.Seated
		if st, body := rob.do("POST", "/api/v1/tables", `{"game": "salvo", "seats": ["me", "open"]}`, &open); st != 201 {
			t.Fatalf("Robin's table: %d %s", st, body)
		}
		var ch social.Challenge
		if st, body := rob.do("POST", "/api/v1/challenges", `{"to": "Ann", "game": "quizl"}`, &ch); st != 201 {
			t.Fatalf("Robin's challenge: %d %s", st, body)
		}
		annStream.next("challenge")

		expect(t, mo, "POST", "/api/v1/moderation/close", `{"name": "Robin", "reason": "abuse"}`, 200, `"name":"Robin"`)

		// Robin's own stream ended with the session.
		if last := robStream.last(); last != sessionEndedLine {
			t.Errorf("Robin's stream ended with %q", last)
		}
		var seeks struct{ Seeks []seek.Seek }
		if st, body := ann.do("GET", "/api/v1/seeks", nil, &seeks); st != 200 || len(seeks.Seeks) != 0 {
			t.Errorf("the seeks after Robin's closing: %d %s", st, body)
		}
		var annSeek seekAnswer
		if st, body := ann.do("POST", "/api/v1/seeks", `{"game": "nymphabet"}`, &annSeek); st != 201 || annSeek.Status != "waiting" {
			t.Errorf("Ann's seek, which only Robin's matched: %d %s", st, body)
		}

		var lobby struct{ Tables []table.Info }
		if st, body := ann.do("GET", "/api/v1/tables?status=open", nil, &lobby); st != 200 || len(lobby.Tables) != 0 {
			t.Errorf("the lobby after Robin's closing: %d %s", st, body)
		}
		expect(t, ann, "POST", "/api/v1/tables/"+open.Table+"/join", `{}`, 410, "Robin's account was closed")

		if ev := annStream.next("challengeCanceled"); ev.Challenge == nil || ev.Challenge.ID != ch.ID {
			t.Errorf("Ann's stream: %+v", ev)
		}
		if l := listOf(t, ann); len(l.In) != 0 {
			t.Errorf("Ann's challenges after Robin's closing: %+v", l.In)
		}
		expect(t, ann, "POST", "/api/v1/challenges/"+ch.ID+"/accept", nil, 409, "withdrawn")
	})
}

// TestCloseRefunds: closing a cheater's account with a refund gives its
// opponents back the rating points they lost to it, once: Ann, who lost,
// is back where she started, and her game's line says so; Cat, who beat
// it, keeps her rating. A refund asked again of the closed account gives
// nothing more; bad input changes nothing.
func TestCloseRefunds(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		base := sf.srv.URL
		ann, rob, cat, mo := signUp(t, base, "Ann"), signUp(t, base, "Robin"), signUp(t, base, "Cat"), signUp(t, base, "Moe")
		grant(t, sf.st, "Moe", true)
		lost := playNymphabet(t, ann, rob, map[string]any{"rated": true}, 0)
		playNymphabet(t, cat, rob, map[string]any{"rated": true}, 1)
		rating := func(name string) float64 {
			t.Helper()
			var p struct {
				Ratings map[string]struct{ Rating float64 }
			}
			if st, body := ann.do("GET", "/api/v1/players/"+name, nil, &p); st != 200 {
				t.Fatalf("%s's profile: %d %s", name, st, body)
			}
			return p.Ratings["nymphabet-standard"].Rating
		}
		annBefore, catBefore := rating("Ann"), rating("Cat")
		back := math.Round((1500-annBefore)*10) / 10 // what Ann lost, as shown
		if !(annBefore < 1500 && catBefore > 1500) {
			t.Fatalf("Ann at %v, Cat at %v: the games did not go as meant", annBefore, catBefore)
		}

		for _, bad := range []struct {
			body   string
			status int
			want   string
		}{
			{`{"name": "Robin", "reason": "engine", "refund": "yes"}`, 400, ""},
			{`{"name": "Robin", "refund": true}`, 400, "give a reason"},
			{`{"name": "Zed", "reason": "engine", "refund": true}`, 404, "no player"},
		} {
			expect(t, mo, "POST", "/api/v1/moderation/close", bad.body, bad.status, bad.want)
		}
		expect(t, ann, "POST", "/api/v1/moderation/close", `{"name": "Robin", "reason": "engine", "refund": true}`, 403, "only moderators")
		if r := rating("Ann"); r != annBefore {
			t.Fatalf("Ann's rating after refused refunds: %v, want %v", r, annBefore)
		}

		annStream := openStream(t, base, ann.token)
		var closed moderation.Closed
		if st, body := mo.do("POST", "/api/v1/moderation/close", `{"name": "Robin", "reason": "engine", "refund": true}`, &closed); st != 200 {
			t.Fatalf("close with a refund: %d %s", st, body)
		}
		// Ann is told on her stream.
		if ev := annStream.next("refund"); ev.Refund == nil || *ev.Refund != (social.RefundNews{Pool: "nymphabet-standard", Points: back, Games: 1}) {
			t.Errorf("Ann's stream told %+v; want %v points back", ev.Refund, back)
		}
		if closed.Sessions == 0 || len(closed.Refunds) != 1 || closed.Refunds[0] != (moderation.Refund{Name: "Ann", Pool: "nymphabet-standard", Points: back, Games: 1}) {
			t.Errorf("the closing's answer: %+v; want Ann given back %v", closed, back)
		}
		if r := rating("Ann"); r != 1500 {
			t.Errorf("Ann's rating after the refund: %v, want 1500", r)
		}
		if r := rating("Cat"); r != catBefore {
			t.Errorf("Cat's rating after the refund: %v, want %v as she won", r, catBefore)
		}
		var h struct {
			Games []struct {
				Table  string
				Refund float64
			}
		}
		if st, body := ann.do("GET", "/api/v1/players/Ann/games", nil, &h); st != 200 || len(h.Games) != 1 || h.Games[0].Table != lost || h.Games[0].Refund != back {
			t.Errorf("Ann's history: %d %s", st, body)
		}

		// Asked again, the refund finds nothing; a closing alone is refused.
		expect(t, mo, "POST", "/api/v1/moderation/close", `{"name": "Robin", "reason": "engine", "refund": true}`, 200, `"sessions":0,"refunds":[]`)
		expect(t, mo, "POST", "/api/v1/moderation/close", `{"name": "Robin", "reason": "engine"}`, 409, "already closed")
		if r := rating("Ann"); r != 1500 {
			t.Errorf("Ann's rating after a second refund: %v, want 1500", r)
		}
		var log []moderation.LogLine
		if st, body := mo.do("GET", "/api/v1/moderation/log", nil, &log); st != 200 || len(log) < 3 {
			t.Fatalf("log: %d %s", st, body)
		}
		var got []string
		for _, l := range log[:3] {
			got = append(got, l.Action+" "+l.Name+" ("+l.Detail+") "+l.Reason)
		}
		want := []string{
			"refund Robin (no rating points to give back) engine",
			fmt.Sprintf("refund Robin (gave back %.1f rating points to 1 player for 1 game) engine", back),
			"close Robin () engine",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("the log:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}

// TestMuteChatLine: a moderator mutes the writer of a chat line, a
// table's or an event's, whoever wrote it: a guest (whose name is not
// their own: the other Gus still writes) or an account, everywhere, and
// lifts it the same way; the log names the writer as the line does and
// says which line. A line that is not there, a request that names both a
// player and a line or half a line, and a line nobody wrote are refused
// in words, and change nothing.
func TestMuteChatLine(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		f := newEventFixture(t, &k, "Ann", "Bob", "Moe")
		base := f.srv.URL
		ann, bob, mo := f.players["Ann"], f.players["Bob"], f.players["Moe"]
		guest := func(name string) *client { return newGuest(t, base, name) }
		gus, gus2, ida := guest("Gus"), guest("Gus"), guest("Ida")
		f.clock.Advance(table.GuestSpectatorsDelay) // a new guest waits to write to spectators
		tableID := playNymphabet(t, ann, bob, map[string]any{}, 1)
		chatPath := "/api/v1/tables/" + tableID + "/chat"
		ev := f.create("Ann", `{"kind": "arena", "game": "nymphabet", "clock": `+fastClock+`, "minutes": 60}`)
		roomPath := "/api/v1/tournaments/" + ev.ID + "/chat"
		expect(t, ida, "POST", "/api/v1/tournaments/"+ev.ID+"/join", nil, 200, "")

		expect(t, gus, "POST", chatPath, `{"channel": "spectators", "text": "you all stink"}`, 201, `"seq":1`)
		expect(t, bob, "POST", chatPath, `{"channel": "players", "text": "so do you"}`, 201, `"seq":2`)
		expect(t, ida, "POST", roomPath, `{"text": "rigged event"}`, 200, `"seq":1`)
		// A line the server itself wrote, as the store may hold one: it
		// has no writer to mute.
		if err := f.st.(store.ChatRooms).AppendRoomChat(context.Background(), store.RoomLine{Room: "tournament:" + ev.ID, Seq: 2, Name: "Parlour", Text: "round 1 begins", At: time.Now()}); err != nil {
			t.Fatal(err)
		}
		grant(t, f.st, "Moe", true)

		mutes := "/api/v1/moderation/mutes"
		expect(t, ann, "POST", mutes, map[string]any{"table": tableID, "seq": 1, "minutes": 60, "reason": "abuse"}, 403, "only moderators")
		for _, c := range []struct {
			body   map[string]any
			status int
			want   string
		}{
			{map[string]any{"minutes": 60, "reason": "abuse"}, 400, "say whom to mute"},
			{map[string]any{"name": "Bob", "table": tableID, "seq": 2, "minutes": 60, "reason": "abuse"}, 400, "not both"},
			{map[string]any{"table": tableID, "tournament": ev.ID, "seq": 1, "minutes": 60, "reason": "abuse"}, 400, "table or tournament, not both"},
			{map[string]any{"seq": 1, "minutes": 60, "reason": "abuse"}, 400, "give the table or the tournament"},
			{map[string]any{"table": tableID, "minutes": 60, "reason": "abuse"}, 400, "seq is the line's number"},
			{map[string]any{"table": tableID, "seq": -2, "minutes": 60, "reason": "abuse"}, 400, "seq is the line's number"},
			{map[string]any{"table": "../x", "seq": 1, "minutes": 60, "reason": "abuse"}, 400, "not a table's id"},
			{map[string]any{"table": tableID, "seq": 1, "minutes": 60}, 400, "give a reason"},
			{map[string]any{"table": tableID, "seq": 1, "minutes": -1, "reason": "abuse"}, 400, "from 1 to"},
			{map[string]any{"table": "abcdefghijkmnpqr", "seq": 1, "minutes": 60, "reason": "abuse"}, 404, "there is no table abcdefghijkmnpqr"},
			{map[string]any{"table": tableID, "seq": 9, "minutes": 60, "reason": "abuse"}, 404, "chat has no line 9"},
			{map[string]any{"tournament": ev.ID, "seq": 2, "minutes": 60, "reason": "abuse"}, 400, "written by the server, not a player"},
			{map[string]any{"tournament": "abcdefghijkmnpqr", "seq": 1, "minutes": 60, "reason": "abuse"}, 404, "there is no event abcdefghijkmnpqr"},
			{map[string]any{"tournament": ev.ID, "seq": 9, "minutes": 60, "reason": "abuse"}, 404, "chat has no line 9"},
		} {
			expect(t, mo, "POST", mutes, c.body, c.status, c.want)
		}
		// Nothing changed: everybody still writes, and the log holds the
		// role's grant alone.
		expect(t, gus, "POST", chatPath, `{"channel": "spectators", "text": "still here"}`, 201, "")
		expect(t, ida, "POST", roomPath, `{"text": "still rigged"}`, 200, "")
		var log []moderation.LogLine
		if st, body := mo.do("GET", "/api/v1/moderation/log", nil, &log); st != 200 || len(log) != 1 || log[0].Action != "grant" {
			t.Fatalf("the log after refused mutes: %d %s", st, body)
		}

		// The guest of line 1 is muted, everywhere; the other Gus is not.
		expect(t, mo, "POST", mutes, map[string]any{"table": tableID, "seq": 1, "minutes": 60, "reason": "insults"}, 200, `"name":"Gus","player":"guest","until"`)
		expect(t, gus, "POST", chatPath, `{"channel": "spectators", "text": "hello?"}`, 403, "a moderator muted your chat: you may write again in 1 hour")
		expect(t, gus2, "POST", chatPath, `{"channel": "spectators", "text": "not me"}`, 201, "")
		// An event's line: its guest writer is kept out of the tables too.
		expect(t, mo, "POST", mutes, map[string]any{"tournament": ev.ID, "seq": 1, "minutes": 1440, "reason": "spam"}, 200, `"name":"Ida","player":"guest"`)
		expect(t, ida, "POST", roomPath, `{"text": "hello?"}`, 403, "a moderator muted your chat")
		expect(t, ida, "POST", chatPath, `{"channel": "spectators", "text": "hello?"}`, 403, "a moderator muted your chat")
		// An account's line mutes the account.
		expect(t, mo, "POST", mutes, map[string]any{"table": tableID, "seq": 2, "minutes": 10, "reason": "answered in kind"}, 200, `"name":"Bob","player":"account"`)
		expect(t, bob, "POST", chatPath, `{"channel": "players", "text": "sorry"}`, 403, "a moderator muted your chat")
		// Lifted through the same line.
		expect(t, mo, "POST", mutes, map[string]any{"table": tableID, "seq": 1, "minutes": 0, "reason": "apologised"}, 200, `"name":"Gus","player":"guest"}`)
		expect(t, gus, "POST", chatPath, `{"channel": "spectators", "text": "sorry"}`, 201, "")

		log = nil
		if st, body := mo.do("GET", "/api/v1/moderation/log", nil, &log); st != 200 {
			t.Fatalf("log: %d %s", st, body)
		}
		var got []string
		for _, l := range log {
			got = append(got, l.Moderator+" "+l.Action+" "+l.Name+" ("+l.Detail+") "+l.Reason)
		}
		want := []string{
			"Moe mute Gus (lifted, the writer of line 1 of table " + tableID + ") apologised",
			"Moe mute Bob (for 10 minutes, the writer of line 2 of table " + tableID + ") answered in kind",
			"Moe mute Ida (for 1 day, the writer of line 1 of event " + ev.ID + ") spam",
			"Moe mute Gus (for 1 hour, the writer of line 1 of table " + tableID + ") insults",
			"the operator grant Moe () ",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("the log:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}

// TestReportChatLine: a player reports a line of a table's chat rather
// than a name, and so reports a guest, whose name is nobody's own: the
// report names the line's writer and keeps the line, the moderators'
// queue shows it, and a moderator mutes its writer straight from it,
// and no other guest of that name. A line that is not there, or not one
// the reporter may read, their own, half a line, or a name that is not
// its writer's, is refused in words and stores nothing.
func TestReportChatLine(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		f := newEventFixture(t, &k, "Ann", "Bob", "Cat", "Moe")
		base := f.srv.URL
		ann, bob, cat, mo := f.players["Ann"], f.players["Bob"], f.players["Cat"], f.players["Moe"]
		guest := func(name string) *client { return newGuest(t, base, name) }
		gus, gus2 := guest("Gus"), guest("Gus")
		f.clock.Advance(table.GuestSpectatorsDelay) // a new guest waits to write to spectators
		tableID := playNymphabet(t, ann, bob, map[string]any{}, 1)
		chatPath := "/api/v1/tables/" + tableID + "/chat"
		expect(t, gus, "POST", chatPath, `{"channel": "spectators", "text": "you all stink"}`, 201, `"seq":1`)
		expect(t, cat, "POST", chatPath, `{"channel": "spectators", "text": "stop it"}`, 201, `"seq":2`)
		// A game under way: its players' chat is not the spectators' to
		// read, nor to learn its writers from by reporting it.
		var live table.Seated
		if st, body := ann.do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}}, &live); st != 201 {
			t.Fatalf("create: %d %s", st, body)
		}
		expect(t, bob, "POST", "/api/v1/tables/"+live.Table+"/join", map[string]any{}, 200, "")
		expect(t, bob, "POST", "/api/v1/tables/"+live.Table+"/chat", `{"channel": "players", "text": "gg"}`, 201, `"seq":1`)

		reports := "/api/v1/reports"
		for _, c := range []struct {
			body   map[string]any
			status int
			want   string
		}{
			{map[string]any{"reason": "chat"}, 400, "name the player you report, or the chat line"},
			{map[string]any{"seq": 1, "reason": "chat"}, 400, "give the table it was written at"},
			{map[string]any{"table": tableID, "seq": -1, "reason": "chat"}, 400, "seq is the line's number"},
			{map[string]any{"table": "abcdefghijkmnpqr", "seq": 1, "reason": "chat"}, 404, "there is no table abcdefghijkmnpqr"},
			{map[string]any{"table": tableID, "seq": 9, "reason": "chat"}, 404, "has no line 9 that you can read"},
			{map[string]any{"table": live.Table, "seq": 1, "reason": "chat"}, 404, "has no line 1 that you can read"},
			{map[string]any{"table": tableID, "seq": 2, "reason": "chat"}, 400, "you wrote line 2 of table " + tableID + " yourself"},
			{map[string]any{"name": "Bob", "table": tableID, "seq": 1, "reason": "chat"}, 400, "line 1 of table " + tableID + " was written by Gus, not Bob"},
		} {
			expect(t, cat, "POST", reports, c.body, c.status, c.want)
		}
		grant(t, f.st, "Moe", true)
		var queue []moderation.Report
		if st, body := mo.do("GET", "/api/v1/moderation/reports", nil, &queue); st != 200 || len(queue) != 0 {
			t.Fatalf("the queue after refused reports: %d %s", st, body)
		}

		var r moderation.Report
		if st, body := cat.do("POST", reports, map[string]any{"table": tableID, "seq": 1, "reason": "chat", "text": "rude"}, &r); st != 201 {
			t.Fatalf("report a guest's line: %d %s", st, body)
		}
		if r.Name != "Gus" || r.Reporter != "Cat" || r.Table != tableID || r.Seq != 1 || r.Line == nil || r.Line.Text != "you all stink" || r.Line.Player != "guest" {
			t.Fatalf("the report of a guest's line: %+v (line %+v)", r, r.Line)
		}
		// One report a reporter, a writer and a table: another of the
		// writer's lines there is the same report.
		expect(t, gus, "POST", chatPath, `{"channel": "spectators", "text": "and again"}`, 201, `"seq":3`)
		expect(t, cat, "POST", reports, map[string]any{"name": "gus", "table": tableID, "seq": 3, "reason": "chat"}, 409, "you already reported Gus about table "+tableID)

		queue = nil
		if st, body := mo.do("GET", "/api/v1/moderation/reports", nil, &queue); st != 200 || len(queue) != 1 {
			t.Fatalf("the queue: %d %s", st, body)
		}
		q := queue[0]
		if q.ID != r.ID || q.Name != "Gus" || q.Seq != 1 || q.Line == nil || q.Line.Text != "you all stink" || q.Line.Name != "Gus" || q.Line.Player != "guest" {
			t.Fatalf("the queue's report: %+v (line %+v)", q, q.Line)
		}
		// Straight from the report: its table and seq name the writer.
		expect(t, mo, "POST", "/api/v1/moderation/mutes", map[string]any{"table": q.Table, "seq": q.Seq, "minutes": 60, "reason": "reported insults"}, 200, `"name":"Gus","player":"guest"`)
		expect(t, gus, "POST", chatPath, `{"channel": "spectators", "text": "hello?"}`, 403, "a moderator muted your chat")
		expect(t, gus2, "POST", chatPath, `{"channel": "spectators", "text": "not me"}`, 201, "")
	})
}

// TestReportEventChatLine: a line of an event's chat is reported as a
// table's is, so that a guest in the event can be reported: the report
// names the line's writer and keeps the line, the queue shows it, and a
// moderator mutes its writer by it. A line the event's chat does not
// hold, or the server wrote, the reporter's own, an event that is not
// there, a table and an event at once, and a name that is not the
// writer's are refused in words and store nothing; the same writer is
// reported about an event once.
func TestReportEventChatLine(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		f := newEventFixture(t, &k, "Ann", "Cat", "Moe")
		cat, mo := f.players["Cat"], f.players["Moe"]
		ida := &client{t: t, base: f.srv.URL}
		var id table.Identity
		if st, got := ida.do("POST", "/api/v1/identity", `{"name": "Ida"}`, &id); st != 201 && st != 200 {
			t.Fatalf("a guest identity: %d %s", st, got)
		}
		ida.token = id.Token
		ev := f.create("Ann", `{"kind": "arena", "game": "nymphabet", "clock": `+fastClock+`, "minutes": 60}`)
		roomPath := "/api/v1/tournaments/" + ev.ID + "/chat"
		expect(t, ida, "POST", "/api/v1/tournaments/"+ev.ID+"/join", nil, 200, "")
		expect(t, ida, "POST", roomPath, `{"text": "rigged event, you cheats"}`, 200, `"seq":1`)
		expect(t, cat, "POST", roomPath, `{"text": "calm down"}`, 200, `"seq":2`)
		if err := f.st.(store.ChatRooms).AppendRoomChat(context.Background(), store.RoomLine{Room: "tournament:" + ev.ID, Seq: 3, Name: "Parlour", Text: "round 1 begins", At: time.Now()}); err != nil {
			t.Fatal(err)
		}
		tableID := playNymphabet(t, f.players["Ann"], cat, map[string]any{}, 1)

		reports := "/api/v1/reports"
		for _, c := range []struct {
			body   map[string]any
			status int
			want   string
		}{
			{map[string]any{"tournament": ev.ID, "reason": "chat"}, 400, "seq is the line's number"},
			{map[string]any{"tournament": "../x", "seq": 1, "reason": "chat"}, 400, "not an event's id"},
			{map[string]any{"tournament": ev.ID, "table": tableID, "seq": 1, "reason": "chat"}, 400, "table or tournament, not both"},
			{map[string]any{"tournament": "abcdefghijkmnpqr", "seq": 1, "reason": "chat"}, 404, "there is no event abcdefghijkmnpqr"},
			{map[string]any{"tournament": ev.ID, "seq": 9, "reason": "chat"}, 404, "has no line 9 that you can read"},
			{map[string]any{"tournament": ev.ID, "seq": 3, "reason": "chat"}, 400, "written by the server"},
			{map[string]any{"tournament": ev.ID, "seq": 2, "reason": "chat"}, 400, "you wrote line 2 of event " + ev.ID + " yourself"},
			{map[string]any{"name": "Ann", "tournament": ev.ID, "seq": 1, "reason": "chat"}, 400, "was written by Ida, not Ann"},
		} {
			expect(t, cat, "POST", reports, c.body, c.status, c.want)
		}
		grant(t, f.st, "Moe", true)
		var queue []moderation.Report
		if st, body := mo.do("GET", "/api/v1/moderation/reports", nil, &queue); st != 200 || len(queue) != 0 {
			t.Fatalf("the queue after refused reports: %d %s", st, body)
		}

		var r moderation.Report
		if st, body := cat.do("POST", reports, map[string]any{"tournament": ev.ID, "seq": 1, "reason": "chat", "text": "rude"}, &r); st != 201 {
			t.Fatalf("report a guest's line in an event: %d %s", st, body)
		}
		if r.Name != "Ida" || r.Tournament != ev.ID || r.Table != "" || r.Seq != 1 || r.Line == nil || r.Line.Text != "rigged event, you cheats" || r.Line.Player != "guest" {
			t.Fatalf("the report of an event's line: %+v (line %+v)", r, r.Line)
		}
		// About an event once; about a table, the same writer again.
		expect(t, cat, "POST", reports, map[string]any{"name": "ida", "tournament": ev.ID, "seq": 1, "reason": "other", "text": "again"}, 409, "you already reported Ida about event "+ev.ID)

		if st, body := mo.do("GET", "/api/v1/moderation/reports", nil, &queue); st != 200 || len(queue) != 1 {
			t.Fatalf("the queue: %d %s", st, body)
		}
		q := queue[0]
		if q.ID != r.ID || q.Tournament != ev.ID || q.Seq != 1 || q.Line == nil || q.Line.Text != "rigged event, you cheats" || q.Line.Name != "Ida" || q.Line.Player != "guest" {
			t.Fatalf("the queue's report: %+v (line %+v)", q, q.Line)
		}
		expect(t, mo, "POST", "/api/v1/moderation/mutes", map[string]any{"tournament": q.Tournament, "seq": q.Seq, "minutes": 60, "reason": "reported insults"}, 200, `"name":"Ida","player":"guest"`)
		expect(t, ida, "POST", roomPath, `{"text": "hello?"}`, 403, "a moderator muted your chat")
	})
}

// TestClosedAccountWritesNoChat: a closed account's seats at games under
// way keep their tokens, so that the games can end, but its player, kept
// out by a moderator, writes no more in their chats; the opponent still
// does.
func TestClosedAccountWritesNoChat(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		base := sf.srv.URL
		ann, rob, mo := signUp(t, base, "Ann"), signUp(t, base, "Robin"), signUp(t, base, "Moe")
		grant(t, sf.st, "Moe", true)
		var sa, sr table.Seated
		if st, body := ann.do("POST", "/api/v1/tables", `{"game": "nymphabet", "seats": ["me", "open"]}`, &sa); st != 201 {
			t.Fatalf("Ann's table: %d %s", st, body)
		}
		if st, body := rob.do("POST", "/api/v1/tables/"+sa.Table+"/join", `{}`, &sr); st != 200 {
			t.Fatalf("Robin joins: %d %s", st, body)
		}
		seat := &client{t: t, base: base, token: sr.Token}
		chat := "/api/v1/tables/" + sa.Table + "/chat"
		expect(t, seat, "POST", chat, `{"channel": "players", "text": "before"}`, 201, "before")
		expect(t, mo, "POST", "/api/v1/moderation/close", `{"name": "Robin", "reason": "abuse"}`, 200, `"name":"Robin"`)
		expect(t, seat, "POST", chat, `{"channel": "players", "text": "after"}`, 403, "a moderator closed your account")
		expect(t, ann, "POST", chat, `{"channel": "players", "text": "bye"}`, 201, "bye")
		var page table.ChatPage
		if st, body := ann.do("GET", chat, nil, &page); st != 200 || len(page.Chat) != 2 || page.Chat[1].Text != "bye" {
			t.Errorf("the chat: %d %s", st, body)
		}
		// The seat still resigns: the game ends.
		expect(t, seat, "POST", "/api/v1/tables/"+sa.Table+"/moves", `{"move": "resign"}`, 200, "")
	})
}

// TestClosedAccountStartsNoRematch: a closed account's seat token at a
// finished game, kept as every seat's is, starts no game: its rematch is
// refused as Ann's is, and Ann is offered none to sit down at.
func TestClosedAccountStartsNoRematch(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		base := sf.srv.URL
		ann, rob, mo := signUp(t, base, "Ann"), signUp(t, base, "Robin"), signUp(t, base, "Moe")
		grant(t, sf.st, "Moe", true)
		var sa, sr table.Seated
		if st, body := ann.do("POST", "/api/v1/tables", `{"game": "nymphabet", "seats": ["me", "open"]}`, &sa); st != 201 {
			t.Fatalf("Ann's table: %d %s", st, body)
		}
		if st, body := rob.do("POST", "/api/v1/tables/"+sa.Table+"/join", `{}`, &sr); st != 200 {
			t.Fatalf("Robin joins: %d %s", st, body)
		}
		seat := &client{t: t, base: base, token: sr.Token}
		expect(t, seat, "POST", "/api/v1/tables/"+sa.Table+"/moves", `{"move": "resign"}`, 200, `"finished"`)
		expect(t, mo, "POST", "/api/v1/moderation/close", `{"name": "Robin", "reason": "abuse"}`, 200, `"name":"Robin"`)
		expect(t, seat, "POST", "/api/v1/tables/"+sa.Table+"/rematch", nil, 409, "Robin's account was closed by a moderator")
		expect(t, ann, "POST", "/api/v1/tables/"+sa.Table+"/rematch", nil, 409, "Robin's account was closed by a moderator")
		var after struct{ Table table.Info }
		if st, body := ann.do("GET", "/api/v1/tables/"+sa.Table, nil, &after); st != 200 || after.Table.Rematch != "" {
			t.Errorf("the finished table after the refused rematches: %d %s", st, body)
		}
	})
}

// TestRenameAsAtSignUp: a moderator's rename refuses the names sign-up
// refuses, so that no account is renamed into passing for another
// player, a moderator among them: another account's name in any case,
// and its look-alikes. A look-alike of the account's own name passes for
// nobody else, and is allowed.
func TestRenameAsAtSignUp(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		base := sf.srv.URL
		mo := signUp(t, base, "Moe")
		signUp(t, base, "Cat")
		signUp(t, base, "Gil")
		grant(t, sf.st, "Moe", true)
		grant(t, sf.st, "Cat", true)
		expect(t, &client{t: t, base: base}, "POST", "/api/v1/accounts", map[string]string{"name": "C4t", "password": testPassword}, 409, `looks like \"Cat\"`)

		for _, c := range []struct {
			from, to string
			status   int
			want     string
		}{
			{"Gil", "C4t", 409, `\"C4t\" looks like \"Cat\", another player's`},
			{"Gil", "M0E", 409, `looks like \"Moe\"`},
			{"Gil", "C_at", 409, `looks like \"Cat\"`},
			{"Gil", "cat", 409, "taken"},
			{"Gil", "adm1n", 400, "reserved"},
			// The account's own name, in another case or spelling.
			{"Gil", "G1L", 200, `"name":"G1L"`},
			{"g1l", "Gil", 200, `"old_name":"G1L"`},
		} {
			body := map[string]string{"name": c.from, "new_name": c.to, "reason": "a test"}
			expect(t, mo, "POST", "/api/v1/moderation/rename", body, c.status, c.want)
		}
		expect(t, mo, "GET", "/api/v1/players/gil", nil, 200, `"name":"Gil"`)
		expect(t, mo, "GET", "/api/v1/players/cat", nil, 200, `"name":"Cat"`)
	})
}

// TestReportNamesATableSeen: a report of a player by name may name a
// table only where the reporter could have seen them: the player sat
// there, or wrote in its chat where the reporter may read it. Such a
// report opens the table's chat to the moderators, so naming another
// table is refused, and nothing is stored.
func TestReportNamesATableSeen(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		base := sf.srv.URL
		ann, bob, eve, dan := signUp(t, base, "Ann"), signUp(t, base, "Bob"), signUp(t, base, "Eve"), signUp(t, base, "Dan")
		cat, gil, mo := signUp(t, base, "Cat"), signUp(t, base, "Gil"), signUp(t, base, "Moe")
		signUp(t, base, "Zoe")
		grant(t, sf.st, "Moe", true)
		private := playNymphabet(t, eve, dan, map[string]any{"private": true}, 1)
		// A game under way: Bob writes in its players' chat, Gil, a
		// spectator, in its spectators'.
		var sa, sb table.Seated
		if st, body := ann.do("POST", "/api/v1/tables", `{"game": "nymphabet", "seats": ["me", "open"]}`, &sa); st != 201 {
			t.Fatalf("Ann's table: %d %s", st, body)
		}
		if st, body := bob.do("POST", "/api/v1/tables/"+sa.Table+"/join", `{}`, &sb); st != 200 {
			t.Fatalf("Bob joins: %d %s", st, body)
		}
		live := sa.Table
		expect(t, &client{t: t, base: base, token: sb.Token}, "POST", "/api/v1/tables/"+live+"/chat", `{"channel": "players", "text": "hurry up"}`, 201, "")
		expect(t, gil, "POST", "/api/v1/tables/"+live+"/chat", `{"channel": "spectators", "text": "what a slow game"}`, 201, "")

		for _, c := range []struct {
			what        string
			by          *client
			name, table string
			status      int
			want        string
		}{
			{"a private table the player never sat at", ann, "Bob", private, 400, "Bob neither sat at table " + private + " nor wrote in its chat"},
			{"a table the player never came near", cat, "Zoe", live, 400, "Zoe neither sat"},
			{"a spectator's line in a chat the player reporting cannot read yet", ann, "Gil", live, 400, "Gil neither sat"},
			{"a player at a private table its link shows", ann, "Eve", private, 201, `"name":"Eve"`},
			{"a player of a game under way, by a spectator", cat, "Bob", live, 201, `"name":"Bob"`},
			{"a spectator's line, by a spectator", cat, "Gil", live, 201, `"name":"Gil"`},
			{"a spectator's line, by a player once the game is over", ann, "Gil", "", 0, ""},
		} {
			if c.status == 0 {
				// Bob resigns: the spectators' chat opens to the players.
				expect(t, &client{t: t, base: base, token: sb.Token}, "POST", "/api/v1/tables/"+live+"/moves", `{"move": "resign"}`, 200, "")
				c.table, c.status, c.want = live, 201, `"name":"Gil"`
			}
			expect(t, c.by, "POST", "/api/v1/reports", map[string]string{"name": c.name, "reason": "chat", "table": c.table}, c.status, c.want)
		}
		var queue []moderation.Report
		if st, body := mo.do("GET", "/api/v1/moderation/reports", nil, &queue); st != 200 {
			t.Fatalf("the queue: %d %s", st, body)
		}
		var got []string
		for _, r := range queue {
			got = append(got, r.Reporter+" on "+r.Name)
		}
		slices.Sort(got) // made at one time by the test's clock: in no order
		if want := []string{"Ann on Eve", "Ann on Gil", "Cat on Bob", "Cat on Gil"}; !slices.Equal(got, want) {
			t.Errorf("the reports stored: %v, want %v", got, want)
		}
	})
}

// TestModeratorNotOnSelf: a report about a moderator goes to the other
// moderators only, so that the one reported learns neither who reported
// them nor that anyone did; and a moderator does not act on themselves:
// closing a report about them, muting them or lifting their mute,
// renaming or closing their account, reading the chat of a table where
// they are reported, are another moderator's to do.
func TestModeratorNotOnSelf(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		base := sf.srv.URL
		ann, mia, moe := signUp(t, base, "Ann"), signUp(t, base, "Mia"), signUp(t, base, "Moe")
		grant(t, sf.st, "Mia", true)
		grant(t, sf.st, "Moe", true)
		tableID := playNymphabet(t, ann, mia, map[string]any{}, 1)
		chat := "/api/v1/tables/" + tableID + "/chat"
		expect(t, mia, "POST", chat, `{"channel": "players", "text": "you played like a fool"}`, 201, "")
		var r moderation.Report
		if st, body := ann.do("POST", "/api/v1/reports", map[string]string{"name": "Mia", "reason": "chat", "table": tableID}, &r); st != 201 {
			t.Fatalf("Ann reports Mia: %d %s", st, body)
		}
		expect(t, moe, "POST", "/api/v1/moderation/mutes", `{"name": "Mia", "minutes": 60, "reason": "insults"}`, 200, `"until"`)

		if body := expect(t, mia, "GET", "/api/v1/moderation/reports", nil, 200, ""); strings.Contains(body, r.ID) || strings.Contains(body, "Ann") {
			t.Errorf("Mia's queue shows the report about her: %s", body)
		}
		expect(t, moe, "GET", "/api/v1/moderation/reports", nil, 200, `"reporter":"Ann"`)
		for _, c := range []struct {
			what, method, path string
			body               any
			status             int
			want               string
		}{
			{"closing the report", "POST", "/api/v1/moderation/reports/" + r.ID + "/close", `{"reason": "nothing in it"}`, 403, "another moderator must close a report about you"},
			{"lifting her mute", "POST", "/api/v1/moderation/mutes", `{"name": "Mia", "minutes": 0, "reason": "served"}`, 403, "another moderator must mute you or lift your mute"},
			{"lifting it by her line", "POST", "/api/v1/moderation/mutes", map[string]any{"table": tableID, "seq": 1, "minutes": 0, "reason": "served"}, 403, "another moderator must"},
			{"renaming herself", "POST", "/api/v1/moderation/rename", `{"name": "Mia", "new_name": "Mya", "reason": "fresh start"}`, 403, "another moderator must rename your account"},
			{"closing her account", "POST", "/api/v1/moderation/close", `{"name": "mia", "reason": "leaving"}`, 403, "another moderator must close your account"},
			{"reading the chat of the table she is reported at", "GET", "/api/v1/moderation/tables/" + tableID + "/chat", nil, 404, "no report names"},
		} {
			st, body := mia.do(c.method, c.path, c.body, nil)
			if st != c.status || !strings.Contains(body, c.want) {
				t.Errorf("%s: %d %s; want %d saying %q", c.what, st, body, c.status, c.want)
			}
		}
		// Nothing of it happened: Mia stays muted, named and open, the
		// report open, and the log holds only Moe's mute.
		expect(t, mia, "POST", chat, `{"channel": "players", "text": "sorry"}`, 403, "a moderator muted your chat")
		expect(t, mia, "GET", "/api/v1/account", nil, 200, `"name":"Mia"`)
		expect(t, moe, "GET", "/api/v1/moderation/reports", nil, 200, `"status":"open"`)
		var log []moderation.LogLine
		if st, body := moe.do("GET", "/api/v1/moderation/log", nil, &log); st != 200 {
			t.Fatalf("the log: %d %s", st, body)
		}
		if len(log) == 0 || log[0].Moderator != "Moe" || log[0].Action != "mute" {
			t.Errorf("the log's newest line: %+v, want Moe's mute", log)
		}
		// Another moderator may.
		expect(t, moe, "GET", "/api/v1/moderation/tables/"+tableID+"/chat", nil, 200, "fool")
		expect(t, moe, "POST", "/api/v1/moderation/reports/"+r.ID+"/close", `{"reason": "warned"}`, 200, `"closed_by":"Moe"`)
		expect(t, moe, "POST", "/api/v1/moderation/mutes", `{"name": "Mia", "minutes": 0, "reason": "served"}`, 200, `"name":"Mia"`)
	})
}

// TestDeletedAccountsLines: a deleted account's chat lines read alike
// everywhere, a table's and an event's, live and stored: its name is
// "deleted player" and its kind "deleted", not a guest's nor an
// account's. Nobody answers for them any more: a mute or a report by
// such a line is refused as naming no player, and changes nothing.
func TestDeletedAccountsLines(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		f := newEventFixture(t, &k, "Ann", "Dee", "Moe")
		ann, dee, mo := f.players["Ann"], f.players["Dee"], f.players["Moe"]
		grant(t, f.st, "Moe", true)
		ev := f.create("Ann", `{"kind": "arena", "game": "nymphabet", "clock": `+fastClock+`, "minutes": 60}`)
		room := "/api/v1/tournaments/" + ev.ID + "/chat"
		expect(t, dee, "POST", "/api/v1/tournaments/"+ev.ID+"/join", nil, 200, "")
		expect(t, dee, "POST", room, `{"text": "see you all"}`, 200, `"player":"account"`)
		tableID := playNymphabet(t, ann, dee, map[string]any{}, 1)
		chat := "/api/v1/tables/" + tableID + "/chat"
		expect(t, dee, "POST", chat, `{"channel": "players", "text": "you cheat"}`, 201, `"player":"account"`)
		expect(t, ann, "POST", "/api/v1/reports", map[string]any{"table": tableID, "seq": 1, "reason": "chat"}, 201, "")
		expect(t, dee, "DELETE", "/api/v1/account", map[string]string{"password": testPassword}, 204, "")

		deleted := `"name":"deleted player","player":"deleted"`
		for _, c := range []struct{ what, path string }{
			{"the table's chat", chat},
			{"the event's chat", room},
			{"the moderators' reading", "/api/v1/moderation/tables/" + tableID + "/chat"},
			{"the queue's reported line", "/api/v1/moderation/reports"},
		} {
			who := ann
			if strings.Contains(c.path, "moderation") {
				who = mo
			}
			if body := expect(t, who, "GET", c.path, nil, 200, ""); !strings.Contains(body, deleted) || strings.Contains(body, `"player":"guest"`) {
				t.Errorf("%s: %s; want its line saying %s", c.what, body, deleted)
			}
		}

		for _, c := range []struct {
			what       string
			by         *client
			path, want string
			body       map[string]any
		}{
			{"a mute by the table's line", mo, "/api/v1/moderation/mutes", "no such player: the writer of line 1 of table " + tableID + " deleted their account",
				map[string]any{"table": tableID, "seq": 1, "minutes": 60, "reason": "insults"}},
			{"a mute by the event's line", mo, "/api/v1/moderation/mutes", "no such player: the writer of line 1 of event " + ev.ID,
				map[string]any{"tournament": ev.ID, "seq": 1, "minutes": 60, "reason": "insults"}},
			{"a report of the event's line", ann, "/api/v1/reports", "no such player",
				map[string]any{"tournament": ev.ID, "seq": 1, "reason": "chat"}},
			{"a report of the table's line", mo, "/api/v1/reports", "no such player",
				map[string]any{"table": tableID, "seq": 1, "reason": "chat"}},
		} {
			if st, body := c.by.do("POST", c.path, c.body, nil); st != 404 || !strings.Contains(body, c.want) {
				t.Errorf("%s: %d %s; want 404 saying %q", c.what, st, body, c.want)
			}
		}
		var log []moderation.LogLine
		if st, body := mo.do("GET", "/api/v1/moderation/log", nil, &log); st != 200 {
			t.Fatalf("the log: %d %s", st, body)
		}
		for _, l := range log {
			if l.Action == "mute" {
				t.Errorf("a mute of a deleted account's line was logged: %+v", l)
			}
		}
		var queue []moderation.Report
		if st, body := mo.do("GET", "/api/v1/moderation/reports", nil, &queue); st != 200 || len(queue) != 1 {
			t.Errorf("the queue after the refused reports: %d %s", st, body)
		}
	})
}
