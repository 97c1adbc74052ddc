package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestErrors(t *testing.T) {
	for _, c := range []struct {
		name   string
		status int
		body   string
		want   string
	}{
		{"refusal", 409, `{"error": "it is not your turn: waiting for Ann"}`, "it is not your turn: waiting for Ann"},
		{"no such path", 404, `404 page not found`, "is it a Parlour server of this version?"},
		{"bare 500", 500, ``, "the server answered 500 Internal Server Error"},
		{"not JSON", 200, `<html>`, "is it another version?"},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(c.status)
				w.Write([]byte(c.body))
			}))
			defer srv.Close()
			cl, _ := New(srv.URL, "Ann")
			_, err := cl.Get(context.Background(), "tok", "t1")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one saying %q", err, c.want)
			}
			var e *Error
			if c.status >= 300 && (!errors.As(err, &e) || e.Status != c.status) {
				t.Errorf("error %#v does not carry status %d", err, c.status)
			}
		})
	}
}

// TestStreamResumes: after the stream ends it comes back asking from the
// last version passed on, and passes on nothing older than that; an
// update at that version is news all the same (a seat's player who came
// back, a chat line), and is passed on.
func TestStreamResumes(t *testing.T) {
	var froms []string
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/events") {
			w.Write([]byte(`{"version": 1, "seat": -1, "table": {"status": "playing"}}`))
			return
		}
		froms = append(froms, r.URL.Query().Get("from"))
		n++
		switch n {
		case 1:
			w.Write([]byte(`{"version": 2, "seat": -1, "table": {"status": "playing"}}` + "\n" + `{"version": 3, "seat": -1, "table": {"status": "playing"}}` + "\n"))
		default:
			w.Write([]byte(`{"version": 2, "seat": -1, "table": {"status": "playing"}}` + "\n" + `{"version": 3, "seat": -1, "table": {"status": "playing"}}` + "\n" + `{"version": 5, "seat": -1, "table": {"status": "finished"}}` + "\n"))
		}
	}))
	defer srv.Close()
	cl, _ := New(srv.URL, "Ann")
	out := make(chan Update, 10)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cl.Stream(ctx, "tok", "t1", 1, out, nil)
	close(out)
	var got []int
	for u := range out {
		got = append(got, u.Version)
	}
	if strings.Join(froms, ",") != "1,3" {
		t.Errorf("asked from %v, want 1 then 3", froms)
	}
	if !slices.Equal(got, []int{2, 3, 3, 5}) {
		t.Errorf("passed on versions %v, want [2 3 3 5]", got)
	}
}

// FuzzStream: whatever the event stream sends, one connection of it
// passes on updates in order of version, or says what went wrong, and
// never panics.
func FuzzStream(f *testing.F) {
	f.Add(`{"version": 2, "seat": -1, "table": {"status": "playing"}}` + "\n")
	f.Add(`{"version": 2}` + "\n" + `not json` + "\n")
	f.Add(`{"version": "x"}`)
	f.Add(`{"version": 9, "seat": -1, "table": {"status": "finished"}}`)
	f.Add(`{"version": 4, "seat": 0, "table": {"status": "playing", "seats": [{"seat": 0}], "to_move": [1]}}`)
	var body string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(body))
	}))
	defer srv.Close()
	cl, _ := New(srv.URL, "Ann")
	f.Fuzz(func(t *testing.T, b string) {
		body = b
		out := make(chan Update, 1<<16)
		from := 0
		finished, err := cl.streamOnce(context.Background(), "tok", "t1", &from, true, out)
		close(out)
		last := -1
		for u := range out {
			if u.Version < last {
				t.Fatalf("version %d after %d", u.Version, last)
			}
			last = u.Version
			if u.Table.Status == "finished" && !finished {
				t.Fatal("a finished table passed on, and the stream goes on")
			}
		}
		if finished && err != nil {
			t.Fatalf("finished with an error: %v", err)
		}
	})
}

func TestTableID(t *testing.T) {
	for in, want := range map[string]string{
		"k3x9q2m7c8v4r6tw":                         "k3x9q2m7c8v4r6tw",
		"http://localhost:8080/t/k3x9q2m7c8v4r6tw": "k3x9q2m7c8v4r6tw",
		" http://h/t/k3x9q2m7c8v4r6tw/join ":       "k3x9q2m7c8v4r6tw",
		"https://h:1/t/k3x9q2m7c8v4r6tw?x=1#top":   "k3x9q2m7c8v4r6tw",
	} {
		if got := TableID(in); got != want {
			t.Errorf("TableID(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestInviteCode(t *testing.T) {
	for in, want := range map[string]string{
		"k7m-4px":                          "k7m-4px",
		" K7M 4PX ":                        "K7M 4PX",
		"http://h:1/j/k7m-4px":             "k7m-4px",
		"http://h:1/j/K7M4PX?x#y":          "K7M4PX",
		"K7M0PX":                           "K7M0PX", // the server says what is wrong with it
		"k3x9q2m7c8v4r6tw":                 "",
		"http://h/t/k3x9q2m7c8v4r6tw":      "",
		"http://h/t/k3x9q2m7c8v4r6tw/join": "",
	} {
		if got := InviteCode(in); got != want {
			t.Errorf("InviteCode(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzTableID: whatever a player pastes, TableID answers without
// panicking, and an id it answers is stable.
func FuzzTableID(f *testing.F) {
	for _, s := range []string{"k3x9q2m7c8v4r6tw", "http://h/t/abc/join", "/t/", "?#/", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id := TableID(s)
		if strings.ContainsAny(id, "/?#") {
			t.Errorf("TableID(%q) = %q holds a separator", s, id)
		}
		if again := TableID(id); again != id {
			t.Errorf("TableID(%q) = %q, then %q", s, id, again)
		}
	})
}

// TestPlayerStreamSilence: a player stream that says nothing, not even
// its keep-alive, for the silence allowed is taken for dead and opened
// again, with the reason reported; one that keeps saying its keep-alive
// stays open however long it has nothing else to say.
func TestPlayerStreamSilence(t *testing.T) {
	t.Parallel()
	// Two seconds, eight keep-alives' worth: a loaded machine (the whole
	// suite on two cores) has held a keep-alive back for a second, which
	// must not count as silence.
	const silence = 2 * time.Second
	challenge := `{"type": "challenge", "challenge": {"id": "c1", "from": "Ben", "to": "Ann", "game": "quizl", "status": "open"}}` + "\n"
	for _, c := range []struct {
		name string
		// ticks is how many keep-alives, one a tick, the first
		// connection says before its challenge line; with none it says
		// nothing at all.
		ticks     int
		tick      time.Duration
		wantOpens int
		wantLost  string
	}{
		{"silent", 0, 0, 2, "heard nothing from the server"},
		{"keep-alives", 16, silence / 8, 1, ""}, // twice the silence in all
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var opens atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := opens.Add(1)
				w.Header().Set("Content-Type", "application/x-ndjson")
				w.WriteHeader(http.StatusOK)
				w.(http.Flusher).Flush()
				if n == 1 {
					if c.ticks == 0 {
						<-r.Context().Done() // a connection cut without a word
						return
					}
					for range c.ticks {
						time.Sleep(c.tick)
						w.Write([]byte("\n"))
						w.(http.Flusher).Flush()
					}
				}
				w.Write([]byte(challenge))
				w.(http.Flusher).Flush()
				<-r.Context().Done()
			}))
			defer srv.Close()
			cl, _ := New(srv.URL, "Ann")
			cl.silence = silence
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			out, lost := make(chan PlayerEvent, 4), make(chan error, 4)
			done := make(chan struct{})
			go func() {
				defer close(done)
				cl.PlayerStream(ctx, "tok", out, lost)
			}()
			select {
			case ev := <-out:
				if ev.Type != "challenge" || ev.Challenge == nil || ev.Challenge.ID != "c1" {
					t.Errorf("the line passed on: %+v", ev)
				}
			case <-ctx.Done():
				t.Fatal("the challenge never came")
			}
			cancel()
			<-done
			if n := int(opens.Load()); n != c.wantOpens {
				t.Errorf("the stream was opened %d times, want %d", n, c.wantOpens)
			}
			wantReport(t, lost, c.wantLost)
		})
	}
}

// wantReport checks the failures a stream reported on lost, once it has
// ended: one saying want, or none when want is "".
func wantReport(t *testing.T, lost chan error, want string) {
	t.Helper()
	var reports []string
	for len(lost) > 0 {
		if err := <-lost; err != nil {
			reports = append(reports, err.Error())
		}
	}
	switch {
	case want == "" && len(reports) > 0:
		t.Errorf("reported %q for a stream that kept talking", reports)
	case want != "" && (len(reports) != 1 || !strings.Contains(reports[0], want)):
		t.Errorf("reported %q, want one report saying %q", reports, want)
	}
}

// TestStreamSilence: a table's event stream is asked for keep-alives; one
// that says nothing, not even its keep-alive, for the silence allowed is
// taken for dead and opened again from the last version passed on, with
// the reason reported; one that keeps saying its keep-alive while nobody
// moves stays open, and nothing is reported.
func TestStreamSilence(t *testing.T) {
	t.Parallel()
	const silence = 2 * time.Second // see TestPlayerStreamSilence
	update := func(v int) string {
		return fmt.Sprintf(`{"version": %d, "seat": -1, "table": {"status": "playing"}}`+"\n", v)
	}
	for _, c := range []struct {
		name string
		// ticks is how many keep-alives, one a tick, the first
		// connection says after its first update; with none it says
		// nothing more.
		ticks     int
		tick      time.Duration
		wantOpens int
		wantFroms string
		wantLost  string
	}{
		{"silent", 0, 0, 2, "1,2", "heard nothing from the server"},
		{"keep-alives", 16, silence / 8, 1, "1", ""}, // twice the silence in all
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var froms, keepAlives []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if !strings.HasSuffix(r.URL.Path, "/events") {
					w.Write([]byte(update(1)))
					return
				}
				mu.Lock()
				froms = append(froms, r.URL.Query().Get("from"))
				keepAlives = append(keepAlives, r.URL.Query().Get("keepalive"))
				n := len(froms)
				mu.Unlock()
				w.Header().Set("Content-Type", "application/x-ndjson")
				w.WriteHeader(http.StatusOK)
				if n == 1 {
					w.Write([]byte(update(2)))
					w.(http.Flusher).Flush()
					if c.ticks == 0 {
						<-r.Context().Done() // a connection cut without a word
						return
					}
					for range c.ticks {
						time.Sleep(c.tick)
						w.Write([]byte("\n"))
						w.(http.Flusher).Flush()
					}
				}
				w.Write([]byte(update(3)))
				w.(http.Flusher).Flush()
				<-r.Context().Done()
			}))
			defer srv.Close()
			cl, _ := New(srv.URL, "Ann")
			cl.silence = silence
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			out, lost := make(chan Update, 4), make(chan error, 4)
			done := make(chan struct{})
			go func() {
				defer close(done)
				cl.Stream(ctx, "tok", "t1", 1, out, lost)
			}()
			for _, want := range []int{2, 3} {
				select {
				case u := <-out:
					if u.Version != want {
						t.Errorf("passed on version %d, want %d", u.Version, want)
					}
				case <-ctx.Done():
					t.Fatalf("version %d never came", want)
				}
			}
			cancel()
			<-done
			mu.Lock()
			defer mu.Unlock()
			if len(froms) != c.wantOpens || strings.Join(froms, ",") != c.wantFroms {
				t.Errorf("the stream was opened from %q, want from %s", froms, c.wantFroms)
			}
			for _, k := range keepAlives {
				if k != "1" {
					t.Errorf("the stream was asked with keepalive=%q, want 1", k)
				}
			}
			wantReport(t, lost, c.wantLost)
		})
	}
}

// TestUpdateCheck: an update whose seat numbers name seats its table does
// not have is refused, saying which; the server's own updates, a
// spectator's included, pass.
func TestUpdateCheck(t *testing.T) {
	t.Parallel()
	good := func() Update {
		return Update{Seat: 1, Table: Table{Seats: []Seat{{Seat: 0}, {Seat: 1}}, ToMove: []int{0},
			Result: &Result{Winners: []int{1}}}, Moves: []Move{{Seat: 0}, {Seat: 1}}}
	}
	for _, c := range []struct {
		name   string
		change func(*Update)
		want   string // in the error; "" for none
	}{
		{"as sent", func(*Update) {}, ""},
		{"a spectator", func(u *Update) { u.Seat = -1 }, ""},
		{"no seats yet", func(u *Update) { *u = Update{Seat: -1} }, ""},
		{"its seat past the table", func(u *Update) { u.Seat = 2 }, "its seat: seat 2, at a table of 2 seats"},
		{"its seat below a spectator's", func(u *Update) { u.Seat = -2 }, "its seat: seat -2"},
		{"a seat out of its place", func(u *Update) { u.Table.Seats[1].Seat = 0 }, "the seat in place 1: seat 0"},
		{"a seat to move past the table", func(u *Update) { u.Table.ToMove = []int{0, 5} }, "the seats to move: seat 5"},
		{"a negative seat to move", func(u *Update) { u.Table.ToMove = []int{-1} }, "the seats to move: seat -1"},
		{"a winner past the table", func(u *Update) { u.Table.Result.Winners = []int{3} }, "the winners: seat 3"},
		{"a move's seat past the table", func(u *Update) { u.Moves[1].Seat = 9 }, "a move: seat 9"},
	} {
		u := good()
		c.change(&u)
		err := u.Check()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: refused: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
}

// TestStreamRefusesAnUnreadableUpdate: an update that fails Check is not
// passed on; the stream stops there with Check's error.
func TestStreamRefusesAnUnreadableUpdate(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"version": 2, "seat": 0, "table": {"status": "playing", "seats": [{"seat": 0}], "to_move": [0]}}` + "\n" +
			`{"version": 3, "seat": 0, "table": {"status": "playing", "seats": [{"seat": 0}], "to_move": [1]}}` + "\n" +
			`{"version": 4, "seat": 0, "table": {"status": "playing", "seats": [{"seat": 0}], "to_move": [0]}}` + "\n"))
	}))
	defer srv.Close()
	cl, _ := New(srv.URL, "Ann")
	out := make(chan Update, 10)
	from := 1
	_, err := cl.streamOnce(context.Background(), "tok", "t1", &from, true, out)
	close(out)
	var got []int
	for u := range out {
		got = append(got, u.Version)
	}
	if err == nil || !strings.Contains(err.Error(), "the seats to move: seat 1, at a table of 1 seat") {
		t.Errorf("the stream ended with %v, want Check's error", err)
	}
	if len(got) != 1 || got[0] != 2 {
		t.Errorf("passed on versions %v, want [2]", got)
	}
}

// TestEventExport: an event's records are counted a line each; the
// {"error"} line a server ends a failed export with is an error, not a
// record, as is a line that is not JSON; a refusal is the server's words.
func TestEventExport(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, body string
		status     int
		n          int
		err        string
	}{
		{"two records", "{\"game\":\"salvo\",\"moves\":[]}\n{\"game\":\"salvo\",\"moves\":[]}\n", 200, 2, ""},
		{"none", "", 200, 0, ""},
		{"a record that says error", "{\"game\":\"quizl\",\"error\":\"x\"}\n", 200, 1, ""},
		{"failed after one", "{\"game\":\"salvo\"}\n{\"error\":\"the store went away\"}\n", 200, 1, "the server stopped after 1 record: the store went away"},
		{"not JSON", "{\"game\":\"salvo\"}\nnot json\n", 200, 1, "record 2 of the event is not JSON"},
		{"refused", `{"error":"there is no event nope"}`, 404, 0, "there is no event nope"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/api/v1/tournaments/nope/export" {
					http.NotFound(w, r)
					return
				}
				w.Header().Set("Content-Type", "application/x-ndjson")
				w.WriteHeader(c.status)
				fmt.Fprint(w, c.body)
			}))
			defer srv.Close()
			cl, err := New(srv.URL, "Ann")
			if err != nil {
				t.Fatal(err)
			}
			recs, n, err := cl.EventExport(context.Background(), "nope")
			switch {
			case c.err == "" && (err != nil || n != c.n || recs != c.body):
				t.Errorf("EventExport = %d, %v, %q; want %d records, %q", n, err, recs, c.n, c.body)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err) || recs != ""):
				t.Errorf("EventExport = %q, %v; want no records and an error holding %q", recs, err, c.err)
			}
		})
	}
}

// TestConditionalMoveSentAgain: a move conditional on a version, sent on
// a kept-alive connection that the server closes unanswered, is sent
// again on a new one and played; a move without a version is not, since
// the server might have played it.
func TestConditionalMoveSentAgain(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	served := map[string]int{} // requests answered, by connection
	var moves atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n := served[r.RemoteAddr]
		served[r.RemoteAddr]++
		mu.Unlock()
		if n > 0 && r.URL.Path == "/api/v1/tables/t1/moves" {
			// The second request on a connection: close it unanswered,
			// as a server whose keep-alive timer just ran out does.
			c, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				c.Close()
			}
			return
		}
		if r.URL.Path == "/api/v1/tables/t1/moves" {
			moves.Add(1)
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"version": 5, "status": "playing", "to_move": [1], "events": []}`)
	}))
	defer srv.Close()
	for _, tc := range []struct {
		name    string
		version int
		played  bool
	}{
		{"conditional", 4, true},
		{"unconditional", 0, false},
	} {
		c, err := New(srv.URL, "Ann")
		if err != nil {
			t.Fatal(err)
		}
		c.WithHTTP(&http.Client{Transport: &http.Transport{}})
		// A first request leaves its connection kept alive.
		if _, err := c.Move(context.Background(), "tok", "t1", "72", 3, false); err != nil {
			t.Fatalf("%s: the first move: %v", tc.name, err)
		}
		before := moves.Load()
		_, err = c.Move(context.Background(), "tok", "t1", "73", tc.version, false)
		if played := err == nil && moves.Load() == before+1; played != tc.played {
			t.Errorf("%s: the move on the closed connection: %v (moves played %d, before %d), want played %v", tc.name, err, moves.Load(), before, tc.played)
		}
	}
}

// TestStreamSaysTheServersLastWord: the {"error"} line a server ends an
// event stream with is passed on in its words, not taken for an update
// the client cannot read; one with a status (a session ended) is that
// refusal, which Stream does not try again.
func TestStreamSaysTheServersLastWord(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, line, want string
		status           int
	}{
		{"shutting down", `{"error":"the server is shutting down"}`, "the server ended the event stream: the server is shutting down", 0},
		{"session ended", `{"error":"your session has ended: sign in again","status":401}`, "your session has ended: sign in again", 401},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Write([]byte(`{"version": 2, "seat": 0, "table": {"status": "playing", "seats": [{"seat": 0}], "to_move": [0]}}` + "\n" + c.line + "\n"))
			}))
			defer srv.Close()
			cl, _ := New(srv.URL, "Ann")
			out := make(chan Update, 10)
			from := 1
			_, err := cl.streamOnce(context.Background(), "tok", "t1", &from, true, out)
			var apiErr *Error
			if err == nil || err.Error() != c.want || errors.As(err, &apiErr) != (c.status != 0) || c.status != 0 && apiErr.Status != c.status {
				t.Errorf("the stream ended with %#v, want %q (status %d)", err, c.want, c.status)
			}
			if len(out) != 1 {
				t.Errorf("passed on %d updates, want 1", len(out))
			}
		})
	}
}

// TestPlayerStreamEndsWithTheSession: a player stream whose session
// ended says so, as a refusal, and is not opened again with it.
func TestPlayerStreamEndsWithTheSession(t *testing.T) {
	t.Parallel()
	var opened atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		opened.Add(1)
		w.Header().Set("Content-Type", "application/x-ndjson")
		w.Write([]byte(`{"error":"your session has ended: sign in again","status":401}` + "\n"))
	}))
	defer srv.Close()
	cl, _ := New(srv.URL, "Ann")
	errs := make(chan error, 4)
	cl.PlayerStream(context.Background(), "tok", make(chan PlayerEvent, 4), errs)
	var apiErr *Error
	if err := <-errs; !errors.As(err, &apiErr) || apiErr.Status != 401 || apiErr.Message != "your session has ended: sign in again" {
		t.Errorf("the player stream reported %v", err)
	}
	if n := opened.Load(); n != 1 {
		t.Errorf("the stream was opened %d times", n)
	}
}
