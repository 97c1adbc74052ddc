package server

import (
	"context"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"parlour/games"
	"parlour/invite"
	"parlour/server/table"
	"parlour/store/sqlite"
)

// TestInviteCodes gives a two-seat table a code, resolves it as a player
// types it, before and after a restart, refuses bad and unknown codes,
// and lets it expire once the game is over.
func TestInviteCodes(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	ann := &client{t: t, base: srv.URL}
	var sa table.Seated
	if st, body := ann.do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "name": "Ann"}, &sa); st != 201 {
		t.Fatalf("create: %d %s", st, body)
	}
	if _, err := invite.Parse(sa.Code); err != nil || len(sa.Code) != invite.Len {
		t.Fatalf("the new table's code %q: %v", sa.Code, err)
	}
	var u table.Update
	if st, body := ann.do("GET", "/api/v1/tables/"+sa.Table, nil, &u); st != 200 || u.Table.Code != sa.Code {
		t.Fatalf("the table's info: %d %s, want code %s", st, body, sa.Code)
	}
	typed := strings.ToLower(invite.Format(sa.Code)) // "k7m-4px"
	resolve := func(raw string) (int, string, table.Invitation) {
		var in table.Invitation
		st, body := (&client{t: t, base: srv.URL}).do("GET", "/api/v1/invites/"+url.PathEscape(raw), nil, &in)
		return st, body, in
	}
	if st, body, in := resolve(typed); st != 200 || in.Table != sa.Table || in.Code != sa.Code || in.Invite != sa.Invite || in.Info.ID != sa.Table {
		t.Fatalf("resolve %q: %d %s", typed, st, body)
	}
	if st, _, in := resolve(" " + sa.Code[:2] + " " + sa.Code[2:] + " "); st != 200 || in.Table != sa.Table {
		t.Fatalf("resolve with spaces: %d", st)
	}
	unknown := "ABCDEF"
	if unknown == sa.Code {
		unknown = "ABCDEG"
	}
	for _, c := range []struct {
		raw    string
		status int
		want   string
	}{
		{"ABC", 400, "6 characters"},
		{"ABCDEFG", 400, "6 characters"},
		{"K7M0PX", 400, "'0' is not in invite codes (2-9 and A-Z without I, L, O)"},
		{"K7MOPX", 400, "'O' is not in"},
		{"K7M?PX", 400, "'?' is not in"},
		{"k3x9q2m7c8v4r6tw", 400, "6 characters"}, // a table id where a code goes (a random one may hold an I or L first)
		{unknown, 404, "no table has the invite code " + invite.Format(unknown)},
	} {
		if st, body, _ := resolve(c.raw); st != c.status || !strings.Contains(body, c.want) {
			t.Errorf("resolve %q: %d %s, want %d with %q", c.raw, st, body, c.status, c.want)
		}
	}

	// A restart keeps the code.
	srv.Close()
	f.close()
	db, err := sqlite.Open(context.Background(), filepath.Join(f.dir, "parlour.db"), sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(context.Background(), Config{Store: db, Games: games.Registry(), NewBot: games.NewBot, BaseURL: "http://test"})
	if err != nil {
		t.Fatal(err)
	}
	f.db, f.s = db, s
	srv = startServer(t, f, generous)
	ann.base = srv.URL
	if st, body, in := resolve(typed); st != 200 || in.Table != sa.Table || in.Info.Code != sa.Code {
		t.Fatalf("resolve after a restart: %d %s", st, body)
	}

	// Ben joins by the code; Ann resigns; the code has expired.
	ben := &client{t: t, base: srv.URL}
	_, _, in := resolve(typed)
	var bs table.Seated
	if st, body := ben.do("POST", "/api/v1/tables/"+in.Table+"/join", map[string]any{"name": "Ben"}, &bs); st != 200 {
		t.Fatalf("join by code: %d %s", st, body)
	}
	ann.token = sa.Token
	if st, body := ann.do("POST", "/api/v1/tables/"+sa.Table+"/moves", map[string]any{"move": "resign"}, nil); st != 200 {
		t.Fatalf("resign: %d %s", st, body)
	}
	if st, body, _ := resolve(typed); st != 404 || !strings.Contains(body, "is over") {
		t.Fatalf("resolve a finished table's code: %d %s", st, body)
	}
	var end table.Update
	if st, _ := ann.do("GET", "/api/v1/tables/"+sa.Table, nil, &end); st != 200 || end.Table.Code != "" {
		t.Fatalf("a finished table still shows its code %q", end.Table.Code)
	}

	// The rematch has a code of its own, the same for both players.
	var ra, rb table.Seated
	if st, body := ann.do("POST", "/api/v1/tables/"+sa.Table+"/rematch", nil, &ra); st != 200 && st != 201 || len(ra.Code) != invite.Len || ra.Code == sa.Code {
		t.Fatalf("Ann's rematch: %d %s", st, body)
	}
	ben.token = bs.Token
	if st, body := ben.do("POST", "/api/v1/tables/"+sa.Table+"/rematch", nil, &rb); st != 200 && st != 201 || rb.Code != ra.Code || rb.Table != ra.Table {
		t.Fatalf("Ben's rematch: %d %s, want code %s", st, body, ra.Code)
	}
	// A program following the link reads the code too.
	req, _ := http.NewRequest("GET", srv.URL+"/t/"+ra.Table, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	text, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(text), "Invite code: "+invite.Format(ra.Code)) {
		t.Errorf("the invite link's text lacks the code:\n%s", text)
	}
}

// TestInviteCodeSolitaire: a table with a computer has a code, for those
// who would watch; a one-seat table has nobody to invite, and no code.
func TestInviteCodeSolitaire(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	var sa table.Seated
	if st, body := (&client{t: t, base: srv.URL}).do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "computer:easy"}}, &sa); st != 201 || sa.Code == "" {
		t.Fatalf("a table with a computer: %d %s, want a code (others may watch)", st, body)
	}
	var solo table.Seated
	if st, body := (&client{t: t, base: srv.URL}).do("POST", "/api/v1/tables", map[string]any{"game": "quizl", "seats": []string{"me"}}, &solo); st != 201 || solo.Code != "" {
		t.Fatalf("solitaire: %d %s, want no code", st, body)
	}
}

// TestPrivateTableHasNoCode: a private table is reached by its link
// alone; a code, short enough to read aloud, could be found by a scan.
func TestPrivateTableHasNoCode(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	ann := &client{t: t, base: srv.URL}
	var sa table.Seated
	if st, body := ann.do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "private": true, "name": "Ann"}, &sa); st != 201 {
		t.Fatalf("create: %d %s", st, body)
	}
	var u table.Update
	if st, body := ann.do("GET", "/api/v1/tables/"+sa.Table, nil, &u); st != 200 || sa.Code != "" || u.Table.Code != "" {
		t.Fatalf("a private table: code %q, info %d %s; want none", sa.Code, st, body)
	}
}

// TestInviteCodeScanIsSlowed: an address that looks up codes that lead
// nowhere is slowed after CodeMissesBurst of them, while codes that lead
// somewhere cost nothing and other addresses are not held up.
func TestInviteCodeScanIsSlowed(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	lim := generous
	lim.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	srv := startServer(t, f, lim)
	ann := &client{t: t, base: srv.URL}
	var sa table.Seated
	if st, body := ann.do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "name": "Ann"}, &sa); st != 201 {
		t.Fatalf("create: %d %s", st, body)
	}
	lookup := func(code, from string) int {
		req, _ := http.NewRequest("GET", srv.URL+"/api/v1/invites/"+code, nil)
		req.Header.Set("X-Forwarded-For", from)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	for range 3 * table.CodeMissesBurst {
		if st := lookup(sa.Code, "203.0.113.9"); st != 200 {
			t.Fatalf("a good code: %d", st)
		}
	}
	miss := "22222A"
	if miss == sa.Code {
		miss = "22222B"
	}
	for i := range table.CodeMissesBurst {
		if st := lookup(miss, "203.0.113.9"); st != 404 {
			t.Fatalf("miss %d: %d, want 404", i+1, st)
		}
	}
	if st := lookup(miss, "203.0.113.9"); st != 429 {
		t.Fatalf("a miss past the burst: %d, want 429", st)
	}
	if st := lookup(sa.Code, "203.0.113.9"); st != 429 {
		t.Fatalf("the scanner's next lookup: %d, want 429 until it waits", st)
	}
	if st := lookup(sa.Code, "198.51.100.4"); st != 200 {
		t.Fatalf("another address: %d, want 200", st)
	}
}
