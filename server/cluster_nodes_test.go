package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"parlour/server/internal/servertest"
	"parlour/server/moderation"
	"parlour/server/players"
	"parlour/server/social"
	"parlour/server/table"
)

// playerStream is a player's event stream (GET /api/v1/stream) on one
// node.
type playerStream struct {
	t     *testing.T
	where string
	lines chan social.StreamEvent
}

func openPlayerStream(t *testing.T, ctx context.Context, n *node, who, token string) *playerStream {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", n.srv.URL+"/api/v1/stream", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 {
		t.Fatalf("%s's stream on node %s: %d", who, n.name, res.StatusCode)
	}
	ps := &playerStream{t: t, where: who + "'s stream on node " + n.name, lines: make(chan social.StreamEvent, 64)}
	go func() {
		defer close(ps.lines)
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			var ev social.StreamEvent
			if len(sc.Bytes()) > 0 && json.Unmarshal(sc.Bytes(), &ev) == nil {
				ps.lines <- ev
			}
		}
	}()
	return ps
}

// next returns the next event of type typ, passing over others.
func (ps *playerStream) next(typ string) social.StreamEvent {
	ps.t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-ps.lines:
			if !ok {
				ps.t.Fatalf("%s ended before a %s", ps.where, typ)
			}
			if ev.Type == typ {
				return ev
			}
		case <-deadline:
			ps.t.Fatalf("%s had no %s", ps.where, typ)
		}
	}
}

// testPassword is the external tests' accounts' password: a fine one,
// since it holds none of the tests' names.
const testPassword = "correct horse staple"

// nodeSignUp signs name up through node n and returns the session.
func nodeSignUp(t *testing.T, n *node, name string) string {
	t.Helper()
	var s players.Session
	if st, body := nodeCall(t, n, "POST", "/api/v1/accounts", "", map[string]string{"name": name, "password": testPassword}, &s); st != 201 {
		t.Fatalf("sign up %s on %s: %d %s", name, n.name, st, body)
	}
	return s.Token
}

// TestClusterPlayersAcrossNodes: what concerns players rather than a
// table crosses the nodes. Ann, on node a, challenges Ben, whose player
// stream is open on node c: the challenge shows there; Ben accepts
// through b, and both streams (Ann's on a, Ben's on c) show the game's
// start, and its end when Ann resigns through a. Ben's "my games" on c
// lists the table, which b owns. Ann's rematch, asked through a, shows
// on Ben's stream on c. Who is online, asked on c, names Ann,
// who only ever spoke to a. A session signed out on a stops working at
// once on b and c, which had it cached.
func TestClusterPlayersAcrossNodes(t *testing.T) {
	// Not parallel: a node finds the others by who answers within
	// bus.GatherWait (200 ms) and keeps that list for 2 s; under the load
	// of tests running at once a node missed that window and a note to it
	// was lost (Ben's stream on c had no challenge).
	nodes := startCluster(t, "a", "b", "c")
	a, b, c := nodes[0], nodes[1], nodes[2]
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	ann, ben := nodeSignUp(t, a, "Ann"), nodeSignUp(t, b, "Ben")
	annStream := openPlayerStream(t, ctx, a, "Ann", ann)
	benStream := openPlayerStream(t, ctx, c, "Ben", ben)

	var ch social.Challenge
	if st, body := nodeCall(t, a, "POST", "/api/v1/challenges", ann, map[string]any{"to": "Ben", "game": "nymphabet"}, &ch); st != 201 {
		t.Fatalf("Ann's challenge through a: %d %s", st, body)
	}
	if ev := benStream.next("challenge"); ev.Challenge == nil || ev.Challenge.ID != ch.ID || ev.Challenge.From != "Ann" {
		t.Fatalf("the challenge on Ben's stream on c: %+v", ev)
	}
	var seated table.Seated
	if st, body := nodeCall(t, b, "POST", "/api/v1/challenges/"+ch.ID+"/accept", ben, nil, &seated); st != 201 {
		t.Fatalf("Ben accepts through b: %d %s", st, body)
	}
	if ev := benStream.next("gameStart"); ev.Table == nil || ev.Table.ID != seated.Table || ev.Table.Seat != seated.Seat {
		t.Fatalf("gameStart on Ben's stream on c: %+v, accepted %+v", ev, seated)
	}
	if ev := annStream.next("gameStart"); ev.Table == nil || ev.Table.ID != seated.Table || ev.Table.Seat != 1-seated.Seat {
		t.Fatalf("gameStart on Ann's stream on a: %+v", ev)
	}
	if metric(t, b, "parlour_cluster_owned_tables") != "1" {
		t.Fatalf("node b, where the challenge was accepted, owns %s tables", metric(t, b, "parlour_cluster_owned_tables"))
	}
	var mine struct{ Tables []table.SeatedTable }
	if st, body := nodeCall(t, c, "GET", "/api/v1/identity/tables", ben, nil, &mine); st != 200 || len(mine.Tables) != 1 || mine.Tables[0].ID != seated.Table {
		t.Errorf("Ben's tables asked on c: %d %s; want the one b owns", st, body)
	}
	// A stream opened now on c opens with the game under way on b.
	if ev := openPlayerStream(t, ctx, c, "Ben", ben).next("gameStart"); ev.Table == nil || ev.Table.ID != seated.Table {
		t.Errorf("a new stream on c opens with %+v, want the game on b", ev)
	}

	var on social.Online
	if st, body := nodeCall(t, c, "GET", "/api/v1/online", ben, nil, &on); st != 200 ||
		!slices.ContainsFunc(on.Players, func(p social.OnlinePlayer) bool { return p.Name == "Ann" }) ||
		!slices.ContainsFunc(on.Players, func(p social.OnlinePlayer) bool { return p.Name == "Ben" }) || on.Count != 2 {
		t.Errorf("who is online, asked on c: %d %s; want Ann and Ben, two in all", st, body)
	}

	// A word each first: a resignation before then aborts the game.
	for i, w := range []string{"apple", "bed"} {
		node, who := a, ann
		if i == seated.Seat {
			node, who = b, ben
		}
		if st, body := nodeCall(t, node, "POST", "/api/v1/tables/"+seated.Table+"/moves", who, map[string]any{"move": w}, nil); st != 200 {
			t.Fatalf("move %s: %d %s", w, st, body)
		}
	}
	if st, body := nodeCall(t, a, "POST", "/api/v1/tables/"+seated.Table+"/moves", ann, map[string]any{"move": "resign"}, nil); st != 200 {
		t.Fatalf("Ann resigns through a: %d %s", st, body)
	}
	if ev := benStream.next("gameFinish"); ev.Table == nil || ev.Table.ID != seated.Table || ev.Table.Result != "win" {
		t.Errorf("gameFinish on Ben's stream on c: %+v", ev)
	}
	if ev := annStream.next("gameFinish"); ev.Table == nil || ev.Table.Result != "loss" {
		t.Errorf("gameFinish on Ann's stream on a: %+v", ev)
	}
	// Ann offers a rematch through a: Ben hears of it on c.
	var again table.Seated
	if st, body := nodeCall(t, a, "POST", "/api/v1/tables/"+seated.Table+"/rematch", ann, nil, &again); st != 200 {
		t.Fatalf("Ann's rematch through a: %d %s", st, body)
	}
	if ev := benStream.next("rematch"); ev.Rematch == nil || ev.Rematch.Table != again.Table || ev.Rematch.Prev != seated.Table || ev.Rematch.From != "Ann" {
		t.Errorf("the rematch on Ben's stream on c: %+v, want table %s from Ann", ev.Rematch, again.Table)
	}

	// Ann's session, used on every node, is signed out on a.
	var sess players.Session
	if st, body := nodeCall(t, a, "POST", "/api/v1/sessions", "", map[string]string{"name": "Ann", "password": testPassword}, &sess); st != 200 && st != 201 {
		t.Fatalf("sign in: %d %s", st, body)
	}
	for _, n := range nodes {
		if st, body := nodeCall(t, n, "GET", "/api/v1/account", sess.Token, nil, nil); st != 200 {
			t.Fatalf("the session on node %s: %d %s", n.name, st, body)
		}
	}
	if st, body := nodeCall(t, a, "DELETE", "/api/v1/sessions", sess.Token, nil, nil); st >= 300 {
		t.Fatalf("sign out on a: %d %s", st, body)
	}
	for _, n := range nodes {
		if st, body := nodeCall(t, n, "GET", "/api/v1/account", sess.Token, nil, nil); st != 401 {
			t.Errorf("the signed-out session on node %s: %d %s, want 401", n.name, st, body)
		}
	}
	if st, body := nodeCall(t, b, "GET", "/api/v1/account", ann, nil, nil); st != 200 {
		t.Errorf("Ann's other session on b after the sign-out: %d %s", st, body)
	}
	for _, n := range nodes {
		if v := metric(t, n, "parlour_cluster_notes_unanswered_total"); v != "0" {
			t.Errorf("node %s counts %s notes unanswered, with every node up", n.name, v)
		}
	}
}

// TestClusterLobbyAcrossNodes: the lobby, asked on any node, lists the
// public tables every node owns, newest first, and no private one.
func TestClusterLobbyAcrossNodes(t *testing.T) {
	// Not parallel: a node finds the others by who answers within
	// bus.GatherWait (200 ms) and keeps that list for 2 s; under the load
	// of tests running at once a node missed that window and a note to it
	// was lost (TestClusterPlayersAcrossNodes saw it).
	nodes := startCluster(t, "a", "b", "c")
	a, b, c := nodes[0], nodes[1], nodes[2]
	create := func(n *node, private bool) string {
		t.Helper()
		var s table.Seated
		if st, body := nodeCall(t, n, "POST", "/api/v1/tables", "", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "private": private}, &s); st != 201 {
			t.Fatalf("create on %s: %d %s", n.name, st, body)
		}
		return s.Table
	}
	onA := create(a, false)
	create(a, true)
	onB := create(b, false)
	playing := create(b, false)
	if st, body := nodeCall(t, c, "POST", "/api/v1/tables/"+playing+"/join", "", map[string]any{"name": "Ben"}, nil); st != 200 {
		t.Fatalf("join through c: %d %s", st, body)
	}
	lobby := func(n *node, query string) []string {
		t.Helper()
		var l struct{ Tables []table.Info }
		if st, body := nodeCall(t, n, "GET", "/api/v1/tables"+query, "", nil, &l); st != 200 {
			t.Fatalf("the lobby on %s: %d %s", n.name, st, body)
		}
		var ids []string
		for _, ti := range l.Tables {
			ids = append(ids, ti.ID)
		}
		return ids
	}
	for _, n := range nodes {
		if got, want := lobby(n, ""), []string{onB, onA}; !slices.Equal(got, want) {
			t.Errorf("the open tables asked on %s: %q, want %q (b's, then a's)", n.name, got, want)
		}
		if got, want := lobby(n, "?status=playing"), []string{playing}; !slices.Equal(got, want) {
			t.Errorf("the tables at play asked on %s: %q, want %q", n.name, got, want)
		}
	}
	if got := lobby(c, "?limit=1"); len(got) != 1 || got[0] != onB {
		t.Errorf("one open table asked on c: %q, want the newest, %s", got, onB)
	}

	// A spectator on the node that runs the game counts on every node's
	// list of games in play, and the game is featured on every node.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", b.srv.URL+"/api/v1/tables/"+playing+"/events", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if !bufio.NewScanner(res.Body).Scan() {
		t.Fatalf("the spectator's stream ended at once: %d", res.StatusCode)
	}
	for _, n := range nodes {
		var l struct{ Tables []table.Info }
		if st, body := nodeCall(t, n, "GET", "/api/v1/tables?status=playing", "", nil, &l); st != 200 || len(l.Tables) != 1 || l.Tables[0].Spectators == nil || *l.Tables[0].Spectators != 1 {
			t.Errorf("the games in play asked on %s: %d %s, want %s with 1 spectator", n.name, st, body, playing)
		}
		var tv table.Featured
		if st, body := nodeCall(t, n, "GET", "/api/v1/tv", "", nil, &tv); st != 200 || tv.Table.ID != playing || tv.Spectators != 1 {
			t.Errorf("the featured game asked on %s: %d %s, want %s", n.name, st, body, playing)
		}
	}
}

// TestClusterClosedAccountEveryNode: a moderator closes an account
// through one node, and another node takes the player out of what it
// holds: the table where they waited leaves every lobby, and their seek
// leaves that node's book, so that nobody there is paired with them.
func TestClusterClosedAccountEveryNode(t *testing.T) {
	// Not parallel: see TestClusterLobbyAcrossNodes.
	nodes := startCluster(t, "a", "b")
	a, b := nodes[0], nodes[1]
	robin, ann, moe := nodeSignUp(t, a, "Robin"), nodeSignUp(t, b, "Ann"), nodeSignUp(t, a, "Moe")
	if _, err := moderation.Grant(context.Background(), a.st, "Moe", true, "", time.Now()); err != nil {
		t.Fatal(err)
	}
	var waiting table.Seated
	if st, body := nodeCall(t, b, "POST", "/api/v1/tables", robin, map[string]any{"game": "salvo", "seats": []string{"me", "open"}}, &waiting); st != 201 {
		t.Fatalf("Robin's table on b: %d %s", st, body)
	}
	if st, body := nodeCall(t, b, "POST", "/api/v1/seeks", robin, map[string]any{"game": "nymphabet"}, nil); st != 201 {
		t.Fatalf("Robin's seek on b: %d %s", st, body)
	}
	if st, body := nodeCall(t, a, "POST", "/api/v1/moderation/close", moe, map[string]any{"name": "Robin", "reason": "abuse"}, nil); st != 200 {
		t.Fatalf("Moe closes Robin through a: %d %s", st, body)
	}
	for _, n := range nodes {
		var l struct{ Tables []table.Info }
		if st, body := nodeCall(t, n, "GET", "/api/v1/tables", "", nil, &l); st != 200 || len(l.Tables) != 0 {
			t.Errorf("the lobby on %s after Robin's closing: %d %s", n.name, st, body)
		}
	}
	if st, body := nodeCall(t, b, "GET", "/api/v1/tables/"+waiting.Table, "", nil, nil); st != 410 || !strings.Contains(body, "Robin's account was closed by a moderator") {
		t.Errorf("Robin's table on b: %d %s", st, body)
	}
	var seeks struct{ Seeks []json.RawMessage }
	if st, body := nodeCall(t, b, "GET", "/api/v1/seeks", "", nil, &seeks); st != 200 || len(seeks.Seeks) != 0 {
		t.Errorf("the seeks on b: %d %s", st, body)
	}
	var asked struct{ Status string }
	if st, body := nodeCall(t, b, "POST", "/api/v1/seeks", ann, map[string]any{"game": "nymphabet"}, &asked); st != 201 || asked.Status != "waiting" {
		t.Errorf("Ann's seek on b, which only Robin's matched: %d %s", st, body)
	}
}

// TestClusterDeletedAccountEveryNode: a player deletes their account
// through one node, and another node drops the seek they left there, so
// that nobody there is paired with an account that is gone.
func TestClusterDeletedAccountEveryNode(t *testing.T) {
	// Not parallel: see TestClusterLobbyAcrossNodes.
	nodes := startCluster(t, "a", "b")
	a, b := nodes[0], nodes[1]
	robin, ann := nodeSignUp(t, a, "Robin"), nodeSignUp(t, b, "Ann")
	if st, body := nodeCall(t, b, "POST", "/api/v1/seeks", robin, map[string]any{"game": "nymphabet"}, nil); st != 201 {
		t.Fatalf("Robin's seek on b: %d %s", st, body)
	}
	if st, body := nodeCall(t, a, "DELETE", "/api/v1/account", robin, map[string]any{"password": testPassword}, nil); st != 204 {
		t.Fatalf("Robin deletes the account through a: %d %s", st, body)
	}
	var seeks struct{ Seeks []json.RawMessage }
	if st, body := nodeCall(t, b, "GET", "/api/v1/seeks", "", nil, &seeks); st != 200 || len(seeks.Seeks) != 0 {
		t.Errorf("the seeks on b after Robin's deletion: %d %s", st, body)
	}
	var asked struct{ Status string }
	if st, body := nodeCall(t, b, "POST", "/api/v1/seeks", ann, map[string]any{"game": "nymphabet"}, &asked); st != 201 || asked.Status != "waiting" {
		t.Errorf("Ann's seek on b, which only Robin's matched: %d %s", st, body)
	}
}

// TestClusterRenamedAccountEveryNode: a moderator renames an account
// through one node, and every node stops showing the old name: its line
// in the chat of a table each node holds (one the player watched), and
// its finished game another node keeps in memory.
func TestClusterRenamedAccountEveryNode(t *testing.T) {
	// Not parallel: see TestClusterLobbyAcrossNodes.
	nodes := startCluster(t, "a", "b")
	a, b := nodes[0], nodes[1]
	robin, ann, moe := nodeSignUp(t, a, "Robin"), nodeSignUp(t, b, "Ann"), nodeSignUp(t, a, "Moe")
	if _, err := moderation.Grant(context.Background(), a.st, "Moe", true, "", time.Now()); err != nil {
		t.Fatal(err)
	}
	var watched []string
	for _, n := range nodes {
		var w table.Seated
		if st, body := nodeCall(t, n, "POST", "/api/v1/tables", ann, map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}}, &w); st != 201 {
			t.Fatalf("Ann's table on %s: %d %s", n.name, st, body)
		}
		if st, body := nodeCall(t, n, "POST", "/api/v1/tables/"+w.Table+"/chat", robin, map[string]any{"channel": "spectators", "text": "good luck"}, nil); st != 201 {
			t.Fatalf("Robin's line at Ann's table on %s: %d %s", n.name, st, body)
		}
		watched = append(watched, w.Table)
	}
	var played table.Seated
	if st, body := nodeCall(t, b, "POST", "/api/v1/tables", robin, map[string]any{"game": "nymphabet", "seats": []string{"me", "computer:easy"}}, &played); st != 201 {
		t.Fatalf("Robin's game on b: %d %s", st, body)
	}
	if st, body := nodeCall(t, b, "POST", "/api/v1/tables/"+played.Table+"/moves", played.Token, map[string]any{"move": "resign"}, nil); st != 200 {
		t.Fatalf("Robin resigns on b: %d %s", st, body)
	}
	if st, body := nodeCall(t, b, "GET", "/api/v1/tables/"+played.Table, "", nil, nil); st != 200 || !strings.Contains(body, `"Robin"`) {
		t.Fatalf("Robin's game on b before the renaming: %d %s", st, body)
	}
	if st, body := nodeCall(t, a, "POST", "/api/v1/moderation/rename", moe, map[string]any{"name": "Robin", "new_name": "Kestrel", "reason": "offensive name"}, nil); st != 200 {
		t.Fatalf("Moe renames Robin through a: %d %s", st, body)
	}
	for i, n := range nodes {
		var page struct{ Chat []table.ChatLine }
		if st, body := nodeCall(t, n, "GET", "/api/v1/tables/"+watched[i]+"/chat", moe, nil, &page); st != 200 || len(page.Chat) != 1 || page.Chat[0].Name != "Kestrel" {
			t.Errorf("the chat of Ann's table on %s after the renaming: %d %s", n.name, st, body)
		}
	}
	for _, path := range []string{"", "/record"} {
		if st, body := nodeCall(t, b, "GET", "/api/v1/tables/"+played.Table+path, "", nil, nil); st != 200 || strings.Contains(body, "Robin") || !strings.Contains(body, "Kestrel") {
			t.Errorf("Robin's game%s on b after the renaming: %d %s", path, st, body)
		}
	}
}

// TestClusterReadyz: a node's GET /readyz says it is ready while its bus
// answers, says which part does not while NATS is gone (so that a load
// balancer leaves the node out), and is ready again once NATS is back;
// /healthz, which says only that the process serves, says ok throughout.
func TestClusterReadyz(t *testing.T) {
	t.Parallel()
	var proxy *freezable
	nodes := startClusterOpts(t, clusterOpts{nats: func(name, url string) string {
		p, via := freezeProxy(t, url)
		proxy = p
		return via
	}}, "a")
	get := func(path string) (int, string) {
		resp, err := http.Get(nodes[0].srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if st, body := get("/readyz"); st != 200 || body != "ready\n" {
		t.Fatalf("readyz with NATS up: %d %q", st, body)
	}
	proxy.kill()
	var st int
	var body string
	servertest.Eventually(t, 20*time.Second, "readyz to say the bus is gone", func() bool {
		st, body = get("/readyz")
		return st == 503
	})
	if body != "not ready: the bus between the nodes does not answer\n" {
		t.Errorf("readyz with NATS gone says %q", body)
	}
	if st, body := get("/healthz"); st != 200 || body != "ok\n" {
		t.Errorf("healthz with NATS gone: %d %q", st, body)
	}
	proxy.restart()
	servertest.Eventually(t, 20*time.Second, "readyz to be ready again", func() bool {
		st, body = get("/readyz")
		return st == 200 && body == "ready\n"
	})
}
