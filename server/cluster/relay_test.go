package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"parlour/server/analyses"
	"parlour/server/auth"
)

// FuzzDecodeRelay: a request from another node is refused or read as one
// about the table it names, of a known kind, or as a note about players
// naming no table; what is read reads back the same once encoded again.
func FuzzDecodeRelay(f *testing.F) {
	for _, s := range []string{
		`{"kind":"http","table":"abcdefgh23456789","method":"POST","path":"/api/v1/tables/abcdefgh23456789/moves","body":"e30="}`,
		`{"kind":"http","table":"abcdefgh23456789","method":"GET","path":"/api/v1/tables/zzzzzzzzzzzzzzzz"}`,
		`{"kind":"update","table":"abcdefgh23456789","since":-1,"token":"x"}`,
		`{"kind":"update","table":"abcdefgh23456789","since":4,"chat":-1,"sent":true,"ended":true}`,
		`{"kind":"ping","table":"abcdefgh23456789"}`,
		`{"kind":"here","table":"abcdefgh23456789","token":"x"}`,
		`{"kind":"here","table":"abcdefgh23456789","token":"x","watcher":"zzzzzzzzzzzzzzzz"}`,
		`{"kind":"here","table":"abcdefgh23456789","token":"x","watcher":"zzzzzzzzzzzzzzzz","gone":true}`,
		`{"kind":"http","table":"abcdefgh23456789","method":"TRACE","path":"/api/v1/tables/abcdefgh23456789"}`,
		`{"kind":"nope"}`, `[]`, ``, `{"kind":"update","table":"../x"}`,
		`{"kind":"player","identity":"abcdefgh23456789","event":{"type":"gameStart","table":{"id":"abcdefgh23456789","game":"quizl","seat":1}}}`,
		`{"kind":"forget","hashes":["` + strings.Repeat("A", 43) + `="]}`,
		`{"kind":"online"}`, `{"kind":"seated","identity":"abcdefgh23456789"}`, `{"kind":"probe"}`, `{"kind":"probe","table":"abcdefgh23456789"}`,
		`{"kind":"lobby","status":"open","limit":100}`,
		`{"kind":"closed","identity":"abcdefgh23456789","name":"Robin"}`, `{"kind":"closed","identity":"abcdefgh23456789"}`,
		`{"kind":"renamed","identity":"abcdefgh23456789","name":"Kestrel"}`, `{"kind":"renamed","name":"Kestrel"}`,
		`{"kind":"online","name":"Robin"}`,
		`{"kind":"ping","table":"abcdefgh23456789","hashes":[]}`,
		`{"kind":"event","tournament":"abcdefgh23456789","method":"POST","path":"/api/v1/tournaments/abcdefgh23456789/join","body":"e30="}`,
		`{"kind":"event","tournament":"abcdefgh23456789","method":"GET","path":"/api/v1/tournaments/abcdefgh23456789","query":"version=3"}`,
		`{"kind":"eventOver","tournament":"abcdefgh23456789","table":"zzzzzzzzzzzzzzzz"}`,
		`{"kind":"seeks","method":"POST","path":"/api/v1/seeks","body":"e30="}`,
		`{"kind":"seeks","method":"DELETE","path":"/api/v1/seeks/abcdefgh23456789"}`,
		`{"kind":"holding","identities":["abcdefgh23456789","zzzzzzzzzzzzzzzz"]}`, `{"kind":"waiting","identity":"abcdefgh23456789"}`,
		`{"kind":"started","identity":"abcdefgh23456789","table":"zzzzzzzzzzzzzzzz"}`,
		`{"kind":"book","epoch":3,"body":"W10="}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		rq, err := decodeRelay(b)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an error without words")
			}
			return
		}
		switch {
		case noteKind(rq.Kind) && rq.Kind != "started" && (rq.Table != "" || rq.Tournament != ""):
			t.Fatalf("read a %q note about table %q or event %q", rq.Kind, rq.Table, rq.Tournament)
		case eventKind(rq.Kind) && !auth.ValidID(rq.Tournament):
			t.Fatalf("read a %q request about event %q", rq.Kind, rq.Tournament)
		case rq.Kind == "eventOver" && !auth.ValidID(rq.Table):
			t.Fatalf("read the end of an event's game at table %q", rq.Table)
		case (rq.Kind == "book") != (rq.Epoch > 0) || rq.Kind == "book" && !json.Valid(rq.Body):
			t.Fatalf("read a seek book handed on, or an epoch, wrongly: %+v", rq)
		case (rq.Kind == "holding") != (len(rq.Identities) > 0):
			t.Fatalf("read a note asking who holds a stream, or identities, wrongly: %+v", rq)
		case rq.Kind == "started" && (!auth.ValidID(rq.Table) || !auth.ValidID(rq.Identity) || rq.Tournament != ""):
			t.Fatalf("read a game begun at table %q of %q", rq.Table, rq.Identity)
		case rq.Kind == "seeks" && (!seeksPath(rq.Path) || rq.Table != "" || rq.Identity != ""):
			t.Fatalf("read a request about seeks for %q: %+v", rq.Path, rq)
		case !noteKind(rq.Kind) && !eventKind(rq.Kind) && rq.Kind != "seeks" && (!auth.ValidID(rq.Table) || rq.Tournament != ""):
			t.Fatalf("read a request about table %q", rq.Table)
		case (rq.Watcher != "" || rq.Gone) && (rq.Kind != "here" || !auth.ValidID(rq.Watcher)):
			t.Fatalf("read a watcher's fields, or a watcher gone, wrongly: %+v", rq)
		case rq.Kind == "player" && (rq.Event == nil || !auth.ValidID(rq.Identity)):
			t.Fatalf("read a player's note without an event or an identity: %+v", rq)
		case (rq.Kind == "closed" || rq.Kind == "renamed") != (rq.Name != "") || rq.Name != "" && !auth.ValidID(rq.Identity):
			t.Fatalf("read a note of an account closed or renamed, or a name, wrongly: %+v", rq)
		}
		if rq.Kind == "http" {
			if id, _, ok := tablePath(rq.Path); !ok || id != rq.Table {
				t.Fatalf("read a request for %q as about table %s", rq.Path, rq.Table)
			}
		}
		if rq.Kind == "event" {
			if id, ok := eventPath(rq.Path); !ok || id != rq.Tournament || rq.Table != "" {
				t.Fatalf("read a request for %q as about event %s", rq.Path, rq.Tournament)
			}
		}
		again, _ := json.Marshal(rq)
		rq2, err := decodeRelay(again)
		if err != nil {
			t.Fatalf("%s, once read and encoded again, is refused: %v", again, err)
		}
		if twice, _ := json.Marshal(rq2); !bytes.Equal(again, twice) {
			t.Fatalf("%s read back as %s", again, twice)
		}
	})
}

// TestDecodeRelayRefuses names what a node refuses from another.
func TestDecodeRelayRefuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, in string }{
		{"not JSON", `{`},
		{"no table", `{"kind":"ping"}`},
		{"a bad table id", `{"kind":"ping","table":"ABC/../x"}`},
		{"unknown kind", `{"kind":"shell","table":"abcdefgh23456789"}`},
		{"another table's path", `{"kind":"http","table":"abcdefgh23456789","method":"GET","path":"/api/v1/tables/zzzzzzzzzzzzzzzz"}`},
		{"a path off the tables", `{"kind":"http","table":"abcdefgh23456789","method":"GET","path":"/api/v1/account"}`},
		{"a method never forwarded", `{"kind":"http","table":"abcdefgh23456789","method":"CONNECT","path":"/api/v1/tables/abcdefgh23456789"}`},
		{"a query in the path", `{"kind":"http","table":"abcdefgh23456789","method":"GET","path":"/api/v1/tables/abcdefgh23456789?x=1"}`},
		{"a version below -1", `{"kind":"update","table":"abcdefgh23456789","since":-2}`},
		{"a watcher that is no id", `{"kind":"here","table":"abcdefgh23456789","watcher":"../x"}`},
		{"a watcher gone without its id", `{"kind":"here","table":"abcdefgh23456789","gone":true}`},
		{"a watcher's id on an update", `{"kind":"update","table":"abcdefgh23456789","watcher":"zzzzzzzzzzzzzzzz"}`},
		{"a watcher gone on a ping", `{"kind":"ping","table":"abcdefgh23456789","gone":true}`},
		{"a watcher on a note", `{"kind":"online","watcher":"zzzzzzzzzzzzzzzz"}`},
		{"a chat message below -1", `{"kind":"update","table":"abcdefgh23456789","chat":-2}`},
		{"a note about a table", `{"kind":"online","table":"abcdefgh23456789"}`},
		{"a player's note without an event", `{"kind":"player","identity":"abcdefgh23456789"}`},
		{"a player's note of an unknown event", `{"kind":"player","identity":"abcdefgh23456789","event":{"type":"launch"}}`},
		{"a player's note about nobody", `{"kind":"player","identity":"x","event":{"type":"gameStart"}}`},
		{"a note to forget nothing", `{"kind":"forget"}`},
		{"a note to forget a short hash", `{"kind":"forget","hashes":["AAAA"]}`},
		{"a table's request with credentials", `{"kind":"ping","table":"abcdefgh23456789","hashes":["AAAA"]}`},
		{"a table's request with an event", `{"kind":"update","table":"abcdefgh23456789","event":{"type":"gameStart"}}`},
		{"a lobby of finished tables", `{"kind":"lobby","status":"finished","limit":10}`},
		{"a lobby without a limit", `{"kind":"lobby","status":"open"}`},
		{"a lobby of too many tables", `{"kind":"lobby","status":"open","limit":501}`},
		{"a lobby's limit on another note", `{"kind":"online","limit":5}`},
		{"an event's request about no event", `{"kind":"event","method":"GET","path":"/api/v1/tournaments/abcdefgh23456789"}`},
		{"another event's path", `{"kind":"event","tournament":"abcdefgh23456789","method":"GET","path":"/api/v1/tournaments/zzzzzzzzzzzzzzzz"}`},
		{"an event's export, which any node serves", `{"kind":"event","tournament":"abcdefgh23456789","method":"GET","path":"/api/v1/tournaments/abcdefgh23456789/export"}`},
		{"a table's path as an event's", `{"kind":"event","tournament":"abcdefgh23456789","method":"GET","path":"/api/v1/tables/abcdefgh23456789"}`},
		{"an event's request with a method never forwarded", `{"kind":"event","tournament":"abcdefgh23456789","method":"DELETE","path":"/api/v1/tournaments/abcdefgh23456789"}`},
		{"an event's request with a query in the path", `{"kind":"event","tournament":"abcdefgh23456789","method":"GET","path":"/api/v1/tournaments/abcdefgh23456789?x=1"}`},
		{"an event's request with a token", `{"kind":"event","tournament":"abcdefgh23456789","method":"GET","path":"/api/v1/tournaments/abcdefgh23456789","token":"x"}`},
		{"a game's end at no table", `{"kind":"eventOver","tournament":"abcdefgh23456789"}`},
		{"a game's end with a path", `{"kind":"eventOver","tournament":"abcdefgh23456789","table":"zzzzzzzzzzzzzzzz","path":"/api/v1/tournaments/abcdefgh23456789"}`},
		{"a table's request naming an event", `{"kind":"ping","table":"abcdefgh23456789","tournament":"zzzzzzzzzzzzzzzz"}`},
		{"a note naming an event", `{"kind":"online","tournament":"abcdefgh23456789"}`},
		{"an account closed without a name", `{"kind":"closed","identity":"abcdefgh23456789"}`},
		{"an account closed of nobody", `{"kind":"closed","name":"Robin"}`},
		{"an account renamed without a name", `{"kind":"renamed","identity":"abcdefgh23456789"}`},
		{"an account renamed of nobody", `{"kind":"renamed","name":"Kestrel"}`},
		{"an account renamed to a name too long", `{"kind":"renamed","identity":"abcdefgh23456789","name":"` + strings.Repeat("K", 65) + `"}`},
		{"a name on another note", `{"kind":"online","name":"Robin"}`},
		{"a name on a table's request", `{"kind":"ping","table":"abcdefgh23456789","name":"Robin"}`},
		{"a request about seeks off their path", `{"kind":"seeks","method":"GET","path":"/api/v1/tables/abcdefgh23456789"}`},
		{"a request about seeks with a method never forwarded", `{"kind":"seeks","method":"PUT","path":"/api/v1/seeks"}`},
		{"a request about seeks with a query in the path", `{"kind":"seeks","method":"GET","path":"/api/v1/seeks?game=quizl"}`},
		{"a request about seeks naming a table", `{"kind":"seeks","table":"abcdefgh23456789","method":"GET","path":"/api/v1/seeks"}`},
		{"a request about seeks with a note's identity", `{"kind":"seeks","identity":"abcdefgh23456789","method":"GET","path":"/api/v1/seeks"}`},
		{"a game begun at no table", `{"kind":"started","identity":"abcdefgh23456789"}`},
		{"a game begun of nobody", `{"kind":"started","table":"abcdefgh23456789"}`},
		{"a player's seeks of nobody", `{"kind":"waiting"}`},
		{"who holds a stream, about a table", `{"kind":"holding","table":"abcdefgh23456789","identities":["abcdefgh23456789"]}`},
		{"who holds a stream, of nobody", `{"kind":"holding"}`},
		{"a seek book handed on without a lease", `{"kind":"book","body":"W10="}`},
		{"a seek book handed on without its seeks", `{"kind":"book","epoch":3}`},
		{"a seek book handed on with seeks that are not JSON", `{"kind":"book","epoch":3,"body":"Ww=="}`},
		{"an epoch on another note", `{"kind":"online","epoch":3}`},
		{"an epoch on a table's request", `{"kind":"ping","table":"abcdefgh23456789","epoch":3}`},
		{"an epoch on a request about seeks", `{"kind":"seeks","method":"GET","path":"/api/v1/seeks","epoch":3}`},
		{"an epoch on a request about an event", `{"kind":"eventOver","tournament":"abcdefgh23456789","table":"zzzzzzzzzzzzzzzz","epoch":3}`},
		{"who holds a stream, of a bad identity", `{"kind":"holding","identities":["../x"]}`},
		{"identities on another note", `{"kind":"online","identities":["abcdefgh23456789"]}`},
		{"identities on a table's request", `{"kind":"ping","table":"abcdefgh23456789","identities":["abcdefgh23456789"]}`},
		{"identities on a request about seeks", `{"kind":"seeks","method":"GET","path":"/api/v1/seeks","identities":["abcdefgh23456789"]}`},
		{"a name on an event's request", `{"kind":"eventOver","tournament":"abcdefgh23456789","table":"zzzzzzzzzzzzzzzz","name":"Robin"}`},
	} {
		if _, err := decodeRelay([]byte(tc.in)); err == nil {
			t.Errorf("%s: %s was read", tc.name, tc.in)
		}
	}
}

// TestForwardTime: a forwarded request waits for the owner's answer the
// cluster's forward time, and that much more than a move or setup asked
// to wait, or an analysis, may take.
// TestDecodeRelayPlayerEvents: every line of the player stream that one
// node tells another is read.
func TestDecodeRelayPlayerEvents(t *testing.T) {
	t.Parallel()
	for _, typ := range []string{"challenge", "challengeDeclined", "challengeCanceled", "gameStart", "gameFinish",
		"followOnline", "followPlaying", "keyAdded", "seek", "seekGone", "tournamentGame"} {
		in := `{"kind":"player","identity":"abcdefgh23456789","event":{"type":"` + typ + `"}}`
		if _, err := decodeRelay([]byte(in)); err != nil {
			t.Errorf("a %s note was refused: %v", typ, err)
		}
	}
}

func TestForwardTime(t *testing.T) {
	t.Parallel()
	const id = "abcdefgh23456789"
	c := &Node{maxWait: 50 * time.Second, botTime: 20 * time.Second, fwd: 10 * time.Second}
	for _, tc := range []struct {
		name string
		rq   relayRequest
		want time.Duration
	}{
		{"an update", relayRequest{Kind: "update", Table: id}, 10 * time.Second},
		{"a read", relayRequest{Kind: "http", Table: id, Method: "GET", Path: "/api/v1/tables/" + id}, 10 * time.Second},
		{"a move", relayRequest{Kind: "http", Table: id, Method: "POST", Path: "/api/v1/tables/" + id + "/moves", Body: []byte(`{"move":"x","version":3}`)}, 10 * time.Second},
		{"a move that waits", relayRequest{Kind: "http", Table: id, Method: "POST", Path: "/api/v1/tables/" + id + "/moves", Body: []byte(`{"move":"x","wait":true}`)}, 60 * time.Second},
		{"a setup that waits", relayRequest{Kind: "http", Table: id, Method: "POST", Path: "/api/v1/tables/" + id + "/setup", Body: []byte(`{"auto":true,"wait":true}`)}, 60 * time.Second},
		{"a random setup", relayRequest{Kind: "http", Table: id, Method: "POST", Path: "/api/v1/tables/" + id + "/setup", Body: []byte(`{"auto":true,"computer":"random"}`)}, 10 * time.Second},
		{"a setup the computer makes", relayRequest{Kind: "http", Table: id, Method: "POST", Path: "/api/v1/tables/" + id + "/setup", Body: []byte(`{"auto":true,"computer":"strong"}`)}, 30 * time.Second},
		{"a setup the computer makes, then waits", relayRequest{Kind: "http", Table: id, Method: "POST", Path: "/api/v1/tables/" + id + "/setup", Body: []byte(`{"auto":true,"computer":"easy","wait":true}`)}, 80 * time.Second},
		{"a move naming a computer", relayRequest{Kind: "http", Table: id, Method: "POST", Path: "/api/v1/tables/" + id + "/moves", Body: []byte(`{"move":"x","auto":true,"computer":"strong"}`)}, 10 * time.Second},
		{"a rematch", relayRequest{Kind: "http", Table: id, Method: "POST", Path: "/api/v1/tables/" + id + "/rematch"}, 30 * time.Second},
		{"a move whose body is not JSON", relayRequest{Kind: "http", Table: id, Method: "POST", Path: "/api/v1/tables/" + id + "/moves", Body: []byte(`{"wait":tru`)}, 10 * time.Second},
		{"a chat line saying wait", relayRequest{Kind: "http", Table: id, Method: "POST", Path: "/api/v1/tables/" + id + "/chat", Body: []byte(`{"wait":true}`)}, 10 * time.Second},
		{"an analysis", relayRequest{Kind: "http", Table: id, Method: "GET", Path: "/api/v1/tables/" + id + "/analysis"}, analyses.Timeout + 10*time.Second},
	} {
		if got := c.forwardTime(tc.rq); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestHandOver: a hand-over's time starts at its first wait, not before;
// the waits double from 5 ms up to 100 ms; once its time has passed it
// is over; a wait on an ended context reports false at once.
func TestHandOver(t *testing.T) {
	t.Parallel()
	var h handOver
	if h.over() {
		t.Fatal("a hand-over not yet waited for is over")
	}
	var next []time.Duration // the pause the next wait takes, after each wait
	for i := range 6 {
		before := time.Now()
		if !h.wait(context.Background()) {
			t.Fatal("a wait on a live context reported false")
		}
		if i == 0 && (h.until.Before(before.Add(changingHands)) || h.until.After(time.Now().Add(changingHands))) {
			t.Errorf("the hand-over's time does not start at its first wait: it ends at %v, the wait was from %v", h.until, before)
		}
		next = append(next, h.pause)
		if h.over() {
			t.Fatalf("the hand-over is over after waits of 5 ms and then %v", next)
		}
	}
	want := []time.Duration{10, 20, 40, 80, 100, 100}
	for i := range want {
		want[i] *= time.Millisecond
	}
	if !slices.Equal(next, want) {
		t.Errorf("after a first wait of 5 ms, the next ones: %v, want %v", next, want)
	}
	h.until = time.Now().Add(-time.Millisecond)
	if !h.over() {
		t.Error("a hand-over past its time is not over")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if h.wait(ctx) {
		t.Error("a wait on an ended context reported true")
	}
}

// TestPackSeeks: the seeks a closing node hands on go in JSON lists
// within the size a note may take, every seek once and in order; none
// makes one empty list, so that the lease is handed over all the same.
func TestPackSeeks(t *testing.T) {
	t.Parallel()
	seek := func(n int) json.RawMessage { return json.RawMessage(`"` + strings.Repeat("s", n) + `"`) }
	for _, tc := range []struct {
		name  string
		seeks []json.RawMessage
		max   int
		want  int // lists
	}{
		{"none", nil, 100, 1},
		{"a few", []json.RawMessage{seek(5), seek(5), seek(5)}, 100, 1},
		{"more than a list holds", []json.RawMessage{seek(40), seek(40), seek(40)}, 100, 2},
		{"one alone too long", []json.RawMessage{seek(10), seek(200), seek(10)}, 100, 3},
	} {
		parts := packSeeks(tc.seeks, tc.max)
		if len(parts) != tc.want {
			t.Errorf("%s: %d lists, want %d: %s", tc.name, len(parts), tc.want, parts)
		}
		var all []json.RawMessage
		for _, p := range parts {
			var l []json.RawMessage
			if err := json.Unmarshal(p, &l); err != nil {
				t.Fatalf("%s: %s is not a JSON list: %v", tc.name, p, err)
			}
			if len(p) > tc.max && len(l) > 1 {
				t.Errorf("%s: a list of %d bytes holds %d seeks", tc.name, len(p), len(l))
			}
			all = append(all, l...)
		}
		if len(all) != len(tc.seeks) {
			t.Fatalf("%s: %d seeks packed, want %d", tc.name, len(all), len(tc.seeks))
		}
		for i := range all {
			if string(all[i]) != string(tc.seeks[i]) {
				t.Errorf("%s: seek %d is %s, want %s", tc.name, i, all[i], tc.seeks[i])
			}
		}
	}
}
