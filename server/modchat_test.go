package server

import (
	"strings"
	"testing"
	"time"

	"parlour/server/internal/servertest"
	"parlour/server/moderation"
	"parlour/server/table"
)

// TestModeratorReadsLiveChat: Robin insults Ann in their game's players'
// chat, which nobody else reads while the game is on, and Ann reports the
// line. A moderator reads the table's whole chat at once, and the reading
// goes in the moderators' log (once, not for each later page); a
// player, a table no report names and a bad since are refused. A
// spectator still reads none of the players' chat.
func TestModeratorReadsLiveChat(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		base := sf.srv.URL
		ann, rob, mo, cat := signUp(t, base, "Ann"), signUp(t, base, "Robin"), signUp(t, base, "Moe"), signUp(t, base, "Cat")
		grant(t, sf.st, "Moe", true)
		var sa, sr, other table.Seated
		if st, body := ann.do("POST", "/api/v1/tables", `{"game": "nymphabet", "seats": ["me", "open"]}`, &sa); st != 201 {
			t.Fatalf("Ann's table: %d %s", st, body)
		}
		if st, body := rob.do("POST", "/api/v1/tables/"+sa.Table+"/join", `{}`, &sr); st != 200 {
			t.Fatalf("Robin joins: %d %s", st, body)
		}
		if st, body := cat.do("POST", "/api/v1/tables", `{"game": "nymphabet", "seats": ["me", "computer:easy"]}`, &other); st != 201 {
			t.Fatalf("Cat's table: %d %s", st, body)
		}
		seat := &client{t: t, base: base, token: sr.Token}
		chat := "/api/v1/tables/" + sa.Table + "/chat"
		expect(t, seat, "POST", chat, `{"channel": "players", "text": "you are a fool"}`, 201, "fool")
		expect(t, ann, "POST", "/api/v1/reports", map[string]any{"reason": "chat", "table": sa.Table, "seq": 1, "text": "insults, now"}, 201, "")

		var spectator table.ChatPage
		if st, body := cat.do("GET", chat, nil, &spectator); st != 200 || len(spectator.Chat) != 0 {
			t.Fatalf("a spectator reads the players' chat: %d %s", st, body)
		}
		read := "/api/v1/moderation/tables/" + sa.Table + "/chat"
		for _, c := range []struct {
			name   string
			who    *client
			path   string
			status int
			want   string
		}{
			{"a player", ann, read, 403, "moderator"},
			{"a table no report names", mo, "/api/v1/moderation/tables/" + other.Table + "/chat", 404, "no report names"},
			{"a bad since", mo, read + "?since=-1", 400, "since"},
		} {
			expect(t, c.who, "GET", c.path, nil, c.status, c.want)
		}

		var page table.ChatPage
		if st, body := mo.do("GET", read, nil, &page); st != 200 || len(page.Chat) != 1 || page.Chat[0].Text != "you are a fool" || page.Chat[0].Channel != "players" {
			t.Fatalf("the moderator reads the live chat: %d %s", st, body)
		}
		expect(t, ann, "POST", chat, `{"channel": "players", "text": "stop it"}`, 201, "")
		if st, body := mo.do("GET", read+"?since=1", nil, &page); st != 200 || len(page.Chat) != 1 || page.Chat[0].Text != "stop it" {
			t.Fatalf("the next page: %d %s", st, body)
		}
		var log []moderation.LogLine
		if st, body := mo.do("GET", "/api/v1/moderation/log", nil, &log); st != 200 {
			t.Fatalf("the log: %d %s", st, body)
		}
		reads := 0
		for _, l := range log {
			if l.Action == "read-chat" {
				reads++
				if l.Moderator != "Moe" || l.Name != "Robin" || !strings.Contains(l.Detail, sa.Table) {
					t.Errorf("the reading's log line: %+v", l)
				}
			}
		}
		if reads != 1 {
			t.Errorf("%d readings logged, want 1: %+v", reads, log)
		}
	})
}

// TestEveryChatReadingLogged: no reading of a reported table's chat goes
// unlogged, wherever it starts: a moderator's reading from a later line
// is logged as one from the first, while the pages a moderator reads of
// a table within moderation.ReadingLogged of their logged reading make
// no more lines, so that paging does not flood the log.
func TestEveryChatReadingLogged(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		base := sf.srv.URL
		ann, rob, moe, mia := signUp(t, base, "Ann"), signUp(t, base, "Robin"), signUp(t, base, "Moe"), signUp(t, base, "Mia")
		grant(t, sf.st, "Moe", true)
		grant(t, sf.st, "Mia", true)
		tableID := playNymphabet(t, ann, rob, map[string]any{}, 1)
		chat := "/api/v1/tables/" + tableID + "/chat"
		expect(t, rob, "POST", chat, `{"channel": "players", "text": "you are a fool"}`, 201, "")
		expect(t, rob, "POST", chat, `{"channel": "players", "text": "a fool"}`, 201, "")
		expect(t, ann, "POST", "/api/v1/reports", map[string]any{"reason": "chat", "table": tableID, "seq": 2}, 201, "")
		read := "/api/v1/moderation/tables/" + tableID + "/chat"

		readings := func() map[string]int {
			var log []moderation.LogLine
			if st, body := moe.do("GET", "/api/v1/moderation/log", nil, &log); st != 200 {
				t.Fatalf("the log: %d %s", st, body)
			}
			n := map[string]int{}
			for _, l := range log {
				if l.Action == "read-chat" {
					n[l.Moderator]++
				}
			}
			return n
		}
		for _, step := range []struct {
			what    string
			who     *client
			name    string
			since   string
			wait    time.Duration
			readsBy int // the moderator's readings logged after the step
		}{
			{"Mia reads from line 1 first", mia, "Mia", "1", 0, 1},
			{"Mia reads it all at once after", mia, "Mia", "0", 0, 1},
			{"Moe's reading is his own", moe, "Moe", "0", 0, 1},
			{"Moe's next page, minutes later", moe, "Moe", "1", moderation.ReadingLogged / 2, 1},
			{"Moe's reading past the window", moe, "Moe", "1", moderation.ReadingLogged/2 + time.Second, 2},
			{"Mia's, past it too", mia, "Mia", "2", 0, 2},
		} {
			sf.clock.Advance(step.wait)
			expect(t, step.who, "GET", read+"?since="+step.since, nil, 200, `"chat"`)
			if got := readings()[step.name]; got != step.readsBy {
				t.Errorf("%s: %d readings of %s's logged, want %d", step.what, got, step.name, step.readsBy)
			}
		}
	})
}
