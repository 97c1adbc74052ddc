package server

import (
	"strings"
	"testing"

	"parlour/server/internal/servertest"
	"parlour/server/players"
)

// TestFindPlayers: the accounts whose names begin with what was typed,
// in any case, in the order of their names, without closed accounts;
// every bad query is refused with what is wrong.
func TestFindPlayers(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		base := sf.srv.URL
		anyone := &client{t: t, base: base}
		for _, n := range []string{"anna", "Ann", "An-x", "Bob", "Andrea", "Moe"} {
			signUp(t, base, n)
		}
		mo := signUp(t, base, "Cat")
		grant(t, sf.st, "Cat", true)
		expect(t, mo, "POST", "/api/v1/moderation/close", `{"name": "Andrea", "reason": "abuse"}`, 200, "")
		for _, c := range []struct {
			query string
			want  []string
		}{
			{"an", []string{"An-x", "Ann", "anna"}},
			{"AN", []string{"An-x", "Ann", "anna"}},
			{"an&limit=2", []string{"An-x", "Ann"}},
			{"ann", []string{"Ann", "anna"}},
			{"an-", []string{"An-x"}},
			{"+bob+", []string{"Bob"}}, // spaces around
			{"andrea", nil},            // closed
			{"zed", nil},
			{"m", []string{"Moe"}},
			{"c", []string{"Cat"}},
		} {
			var got players.Found
			if st, body := anyone.do("GET", "/api/v1/players?q="+c.query, nil, &got); st != 200 {
				t.Errorf("q=%s: %d %s", c.query, st, body)
				continue
			}
			var names []string
			for _, p := range got.Players {
				names = append(names, p.Name)
			}
			if strings.Join(names, ",") != strings.Join(c.want, ",") {
				t.Errorf("q=%s found %q, want %q", c.query, names, c.want)
			}
		}
		for _, c := range []struct{ query, want string }{
			{"", "?q="},
			{"?q=", "type the start of a name"},
			{"?q=+", "type the start of a name"},
			{"?q=a+b", "only letters a to z"},
			{"?q=%25", "only letters a to z"},
			{"?q=_a", "begins with a letter or a digit"},
			{"?q=" + strings.Repeat("a", 21), "at most 20 characters"},
			{"?q=an&limit=0", "limit must be a number from 1 to 20"},
			{"?q=an&limit=21", "limit must be a number from 1 to 20"},
			{"?q=an&limit=x", "limit must be a number from 1 to 20"},
		} {
			expect(t, anyone, "GET", "/api/v1/players"+c.query, nil, 400, c.want)
		}
	})
}

// TestFindPlayersPastClosed: however many closed accounts come first in
// the order of names, the search still finds the open ones after them.
func TestFindPlayersPastClosed(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		sf := newSocialOn(t, k)
		base := sf.srv.URL
		closed := []string{"Ab1", "Ab2", "Ab3", "Ab4", "Ab5", "Ab6", "Ab7"}
		for _, n := range append(closed, "Abz") {
			signUp(t, base, n)
		}
		mo := signUp(t, base, "Cat")
		grant(t, sf.st, "Cat", true)
		for _, n := range closed {
			expect(t, mo, "POST", "/api/v1/moderation/close", `{"name": "`+n+`", "reason": "spam"}`, 200, "")
		}
		for _, q := range []string{"ab", "ab&limit=1", "ab&limit=2"} {
			var got players.Found
			if st, body := (&client{t: t, base: base}).do("GET", "/api/v1/players?q="+q, nil, &got); st != 200 {
				t.Fatalf("q=%s: %d %s", q, st, body)
			}
			if len(got.Players) != 1 || got.Players[0].Name != "Abz" {
				t.Errorf("q=%s found %v, want Abz", q, got.Players)
			}
		}
	})
}
