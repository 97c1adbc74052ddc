package server

import (
	"strings"
	"testing"
	"time"

	"parlour/server/chat"
	"parlour/server/table"
)

// TestTournamentChat: an event's chat is read by anybody and written by
// players with an account and by the event's own guests; a guest not in
// the event, an empty or overlong line, an unknown event, a mute by
// anybody but the creator and a mute of nobody are each refused and store nothing; the
// creator's mute keeps a writer out until lifted.
func TestTournamentChat(t *testing.T) {
	t.Parallel()
	f := newEventFixture(t, nil, "Ann", "Ben")
	ev := f.create("Ann", `{"kind": "arena", "game": "nymphabet", "clock": `+fastClock+`, "minutes": 60}`)
	path := "/api/v1/tournaments/" + ev.ID + "/chat"
	guest := func(name string) *client { return newGuest(t, f.srv.URL, name) }
	gus, ida := guest("Gus"), guest("Ida")
	if st, got := ida.do("POST", "/api/v1/tournaments/"+ev.ID+"/join", nil, nil); st != 200 {
		t.Fatalf("Ida joins: %d %s", st, got)
	}
	ann, ben := f.players["Ann"], f.players["Ben"]
	var line chat.RoomLine
	if st, got := ben.do("POST", path, map[string]string{"text": "good luck all"}, &line); st != 200 || line.Seq != 1 || line.Name != "Ben" {
		t.Fatalf("Ben writes: %d %s, line %+v", st, got, line)
	}
	if st, got := ida.do("POST", path, map[string]string{"text": "thanks!"}, &line); st != 200 || line.Seq != 2 || line.Player != "guest" {
		t.Fatalf("Ida, a guest in the event, writes: %d %s, line %+v", st, got, line)
	}
	for _, tc := range []struct {
		name   string
		c      *client
		path   string
		body   any
		status int
		says   string
	}{
		{"a guest not in the event", gus, path, map[string]string{"text": "hi"}, 403, "join the event"},
		{"an empty line", ben, path, map[string]string{"text": "  "}, 400, ""},
		{"an overlong line", ben, path, map[string]string{"text": strings.Repeat("a", chat.MaxLen+1)}, 400, ""},
		{"an unknown field", ben, path, `{"text": "hi", "channel": "x"}`, 400, "channel"},
		{"no identity", &client{t: t, base: f.srv.URL}, path, map[string]string{"text": "hi"}, 401, ""},
		{"an unknown event", ben, "/api/v1/tournaments/nosuch/chat", map[string]string{"text": "hi"}, 404, ""},
		{"a mute by another than the creator", ben, path + "/mute", map[string]any{"name": "Ida", "muted": true}, 403, "creator"},
		{"a mute of nobody in the event", ann, path + "/mute", map[string]any{"name": "Zed", "muted": true}, 404, "Zed"},
	} {
		st, got := tc.c.do("POST", tc.path, tc.body, nil)
		if st != tc.status || !strings.Contains(got, tc.says) {
			t.Errorf("%s: %d %s, want %d saying %q", tc.name, st, got, tc.status, tc.says)
		}
	}
	var page chat.RoomPage
	if st, got := (&client{t: t, base: f.srv.URL}).do("GET", path+"?since=0", nil, &page); st != 200 || len(page.Chat) != 2 || page.Last != 2 {
		t.Fatalf("anybody reads the chat: %d %s, page %+v", st, got, page)
	}
	if st, got := gus.do("GET", path+"?since=1", nil, &page); st != 200 || len(page.Chat) != 1 || page.Chat[0].Text != "thanks!" {
		t.Fatalf("reading after line 1: %d %s, page %+v", st, got, page)
	}
	if st, got := gus.do("GET", path+"?since=-1", nil, nil); st != 400 {
		t.Errorf("since=-1: %d %s, want 400", st, got)
	}

	if st, got := ann.do("POST", path+"/mute", map[string]any{"name": "ben", "muted": true}, nil); st != 200 {
		t.Fatalf("Ann mutes Ben: %d %s", st, got)
	}
	if st, got := ben.do("POST", path, map[string]string{"text": "let me speak"}, nil); st != 403 {
		t.Errorf("Ben, muted, writes: %d %s, want 403", st, got)
	}
	// A mute that leaves out whom or whether is refused, and changes
	// nothing: Ben stays muted.
	for _, body := range []map[string]any{{"name": "Ben"}, {"muted": false}} {
		if st, got := ann.do("POST", path+"/mute", body, nil); st != 400 {
			t.Errorf("a mute of %v: %d %s, want 400", body, st, got)
		}
	}
	if st, got := ben.do("POST", path, map[string]string{"text": "let me speak"}, nil); st != 403 {
		t.Errorf("Ben writes after mutes refused: %d %s, want 403", st, got)
	}
	if st, got := ann.do("POST", path+"/mute", map[string]any{"name": "Ben", "muted": false}, nil); st != 200 {
		t.Fatalf("Ann lifts the mute: %d %s", st, got)
	}
	if st, got := ben.do("POST", path, map[string]string{"text": "thank you"}, &line); st != 200 || line.Seq != 3 {
		t.Errorf("Ben writes again: %d %s, line %+v", st, got, line)
	}
	if st, _ := gus.do("GET", path, nil, &page); st != 200 || len(page.Chat) != 3 {
		t.Errorf("after the refusals the chat holds %d lines, want 3", len(page.Chat))
	}
}

// TestTournamentChatHidesBlocked: Ann blocks Ben, and his lines reach her
// in no event's chat, as at no table: she reads Cat's line without his,
// her page's Last past both, so she does not ask for his again; Cat reads
// both.
func TestTournamentChatHidesBlocked(t *testing.T) {
	t.Parallel()
	f := newEventFixture(t, nil, "Ann", "Ben", "Cat")
	ev := f.create("Cat", `{"kind": "arena", "game": "nymphabet", "clock": `+fastClock+`, "minutes": 60}`)
	path := "/api/v1/tournaments/" + ev.ID + "/chat"
	ann, ben, cat := f.players["Ann"], f.players["Ben"], f.players["Cat"]
	if st, got := ann.do("POST", "/api/v1/blocks", `{"name": "Ben"}`, nil); st != 201 {
		t.Fatalf("Ann blocks Ben: %d %s", st, got)
	}
	for _, w := range []struct {
		c    *client
		text string
	}{{ben, "boo Ann"}, {cat, "hi all"}} {
		if st, got := w.c.do("POST", path, map[string]string{"text": w.text}, nil); st != 200 {
			t.Fatalf("%q: %d %s", w.text, st, got)
		}
	}
	for _, tc := range []struct {
		name string
		c    *client
		want string
	}{
		{"Ann", ann, "Cat:hi all"},
		{"Cat", cat, "Ben:boo Ann | Cat:hi all"},
	} {
		var page chat.RoomPage
		if st, got := tc.c.do("GET", path+"?since=0", nil, &page); st != 200 {
			t.Fatalf("%s reads: %d %s", tc.name, st, got)
		}
		var lines []string
		for _, l := range page.Chat {
			lines = append(lines, l.Name+":"+l.Text)
		}
		if got := strings.Join(lines, " | "); got != tc.want || page.Last != 2 {
			t.Errorf("%s reads %q, last %d; want %q, last 2", tc.name, got, page.Last, tc.want)
		}
	}
}

// TestChatRateAcrossTablesAndEvents: one writer's chat budget is one,
// whether the lines go to an event's chat or a table's: a writer past it
// in an event is refused at a table too, and so cannot double it by
// writing in both.
func TestChatRateAcrossTablesAndEvents(t *testing.T) {
	t.Parallel()
	f := newEventFixture(t, nil, "Ann", "Ben")
	ev := f.create("Ann", `{"kind": "arena", "game": "nymphabet", "clock": `+fastClock+`, "minutes": 60}`)
	ben := f.players["Ben"]
	var sa table.Seated
	if st, got := ben.do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "computer:easy"}}, &sa); st != 201 {
		t.Fatalf("Ben's table: %d %s", st, got)
	}
	path := "/api/v1/tournaments/" + ev.ID + "/chat"
	refused := false
	for i := range chat.Burst + 2 {
		st, got := ben.do("POST", path, map[string]string{"text": "line " + string(rune('a'+i))}, nil)
		if st == 429 {
			if !strings.Contains(got, "too many chat messages") {
				t.Fatalf("the event's refusal: %s; want the writer's limit", got)
			}
			refused = true
			break
		}
		if st != 200 {
			t.Fatalf("line %d in the event: %d %s", i, st, got)
		}
	}
	if !refused {
		t.Fatalf("%d lines in the event, none refused", chat.Burst+2)
	}
	// At his table he is refused at once, but for what his bucket
	// refilled meanwhile (a slow machine's requests take time): a budget
	// of the table's own would take a burst.
	start := time.Now()
	for accepted := 0; ; accepted++ {
		st, got := ben.do("POST", "/api/v1/tables/"+sa.Table+"/chat", map[string]any{"channel": "players", "text": "and here"}, nil)
		if st == 429 {
			if !strings.Contains(got, "too many chat messages") {
				t.Errorf("at his table, past his budget in the event: %s; want the writer's limit", got)
			}
			break
		}
		if st != 200 {
			t.Fatalf("at his table: %d %s", st, got)
		}
		if refilled := int(time.Since(start).Seconds()*chat.Rate) + 1; accepted+1 > refilled {
			t.Fatalf("at his table, past his budget in the event: %d lines taken, more than the %d his bucket refilled", accepted+1, refilled)
		}
	}
}
