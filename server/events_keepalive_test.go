package server

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"parlour/server/table"
)

// openLines opens a table's event stream at path (query included) for
// token and hands each line it says, keep-alives too, on the channel,
// which closes when the stream ends.
func openLines(t *testing.T, base, path, token string) <-chan string {
	t.Helper()
	req, _ := http.NewRequest("GET", base+path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 {
		t.Fatalf("GET %s: %d", path, res.StatusCode)
	}
	lines := make(chan string, 100)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(nil, 1<<22)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	t.Cleanup(func() { res.Body.Close() })
	return lines
}

// nextLine returns the stream's next line, or fails after a while.
func nextLine(t *testing.T, lines <-chan string, what string) string {
	t.Helper()
	select {
	case l, ok := <-lines:
		if !ok {
			t.Fatalf("the stream ended waiting for %s", what)
		}
		return l
	case <-time.After(20 * time.Second):
		t.Fatalf("no %s in 20 s", what)
	}
	return ""
}

// update reads l as an update, failing on anything else.
func update(t *testing.T, l string) table.Update {
	t.Helper()
	var u table.Update
	if err := json.Unmarshal([]byte(l), &u); err != nil || u.Table.ID == "" {
		t.Fatalf("line %q is not an update (%v)", l, err)
	}
	return u
}

// TestEventsKeepAlive: a table's event stream asked with keepalive=1
// says an empty line while nothing happens (here every 50 ms), between
// whole updates; without it, or with 0, it says updates alone, as it did
// before there were keep-alives; any other value is refused before the
// stream opens.
func TestEventsKeepAlive(t *testing.T) {
	t.Parallel()
	sf := newSocial(t)
	ann, bob := signUp(t, sf.srv.URL, "Ann"), signUp(t, sf.srv.URL, "Bob")
	var sa, sb table.Seated
	if st, body := ann.do("POST", "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}}, &sa); st != 201 {
		t.Fatalf("create: %d %s", st, body)
	}
	if st, body := bob.do("POST", "/api/v1/tables/"+sa.Table+"/join", map[string]any{}, &sb); st != 200 {
		t.Fatalf("join: %d %s", st, body)
	}
	events := "/api/v1/tables/" + sa.Table + "/events"
	// Each word starts at the next letter and holds no later one after
	// it, so that each takes one letter away.
	words := []string{"apple", "bed", "cat", "dog", "egg", "fox", "gum", "hat", "ink", "jam"}
	move := func(token string) {
		t.Helper()
		word := words[0]
		words = words[1:]
		c := &client{t: t, base: sf.srv.URL, token: token}
		if st, body := c.do("POST", "/api/v1/tables/"+sa.Table+"/moves", map[string]any{"move": word}, nil); st != 200 {
			t.Fatalf("move %s: %d %s", word, st, body)
		}
	}

	for _, c := range []struct{ name, query string }{
		{"keepalive=1", "?keepalive=1"},
		{"keepalive=true from 0", "?keepalive=true&from=0"},
	} {
		lines := openLines(t, sf.srv.URL, events+c.query, sa.Token)
		first := update(t, nextLine(t, lines, c.name+": the first update"))
		if l := nextLine(t, lines, c.name+": a keep-alive"); l != "" {
			t.Fatalf("%s: after the first update %q, want a keep-alive", c.name, l)
		}
		move(sa.Token)
		var u table.Update
		for u.Version <= first.Version {
			if l := nextLine(t, lines, c.name+": the move"); l != "" {
				u = update(t, l)
			}
		}
		if l := nextLine(t, lines, c.name+": a keep-alive after the move"); l != "" {
			t.Fatalf("%s: after the move's update %q, want a keep-alive", c.name, l)
		}
		move(sb.Token)
		for l := ""; l == ""; {
			l = nextLine(t, lines, c.name+": Bob's move")
			if l != "" && update(t, l).Version <= u.Version {
				t.Fatalf("%s: %q, want Bob's move", c.name, l)
			}
		}
	}

	for _, query := range []string{"", "?keepalive=0", "?keepalive=false"} {
		lines := openLines(t, sf.srv.URL, events+query, sa.Token)
		first := update(t, nextLine(t, lines, "the first update"))
		// Ten keep-alive periods with nothing said; then the next line is
		// the move's update, with no empty line before it.
		time.Sleep(500 * time.Millisecond)
		move(sa.Token)
		if u := update(t, nextLine(t, lines, "the move's update")); u.Version <= first.Version {
			t.Fatalf("%q: update at version %d after the move, want past %d", query, u.Version, first.Version)
		}
		move(sb.Token)
		nextLine(t, lines, "Bob's move")
	}

	for _, bad := range []string{"yes", "2", "-1", "on", "t", "TRUE", "F"} {
		st, body := ann.do("GET", events+"?keepalive="+bad, nil, nil)
		if st != 400 || !strings.Contains(body, "keepalive must be 1") {
			t.Errorf("keepalive=%s: %d %s, want 400 saying what keepalive takes", bad, st, body)
		}
	}
}
