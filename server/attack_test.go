package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestSlowBodyAttack is the slow-body attack of issue 14, run against a
// server of one's choosing (it is skipped unless PARLOUR_ATTACK_URL names
// one): PARLOUR_ATTACK_CONNS connections (300) from this address each
// send the headers of a request with a 100,000-byte body, then one byte
// of it every 2 s, for PARLOUR_ATTACK_FOR (30s). Every 5 s it reports how
// many are still open and how long GET /healthz takes, asked from
// PARLOUR_ATTACK_PROBE_FROM when set (another loopback address, say
// 127.0.0.2: the attacker's own address may well be refused). For example:
//
//	ulimit -n 400; parlour serve --addr localhost:8099 --data /tmp/d &
//	PARLOUR_ATTACK_URL=http://localhost:8099 PARLOUR_ATTACK_CONNS=450 \
//	    PARLOUR_ATTACK_PROBE_FROM=127.0.0.2 go test ./server -run TestSlowBodyAttack -v
func TestSlowBodyAttack(t *testing.T) {
	// Not parallel: it loads a server outside the test and measures its
	// answers, which another test running at once would disturb.
	base := os.Getenv("PARLOUR_ATTACK_URL")
	if base == "" {
		t.Skip("set PARLOUR_ATTACK_URL to attack a server")
	}
	n, _ := strconv.Atoi(os.Getenv("PARLOUR_ATTACK_CONNS"))
	if n <= 0 {
		n = 300
	}
	dur, err := time.ParseDuration(os.Getenv("PARLOUR_ATTACK_FOR"))
	if err != nil {
		dur = 30 * time.Second
	}
	addr := strings.TrimPrefix(base, "http://")
	stop := make(chan struct{})
	var open, dialFailed atomic.Int64
	var mu sync.Mutex
	answers := map[string]int{} // how the server ended each connection
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			c, err := net.DialTimeout("tcp", addr, 5*time.Second)
			if err != nil {
				dialFailed.Add(1)
				return
			}
			defer c.Close()
			fmt.Fprintf(c, "POST /api/v1/identity HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{", addr)
			open.Add(1)
			ended := make(chan string, 1)
			go func() {
				line, err := bufio.NewReader(c).ReadString('\n')
				if err != nil {
					ended <- "closed without an answer"
				} else {
					ended <- strings.TrimSpace(line)
				}
			}()
			tick := time.NewTicker(2 * time.Second)
			defer tick.Stop()
			for {
				select {
				case how := <-ended:
					open.Add(-1)
					mu.Lock()
					answers[how]++
					mu.Unlock()
					return
				case <-stop:
					return
				case <-tick.C:
					c.Write([]byte(" "))
				}
			}
		})
	}
	hc := &http.Client{Timeout: 5 * time.Second}
	if from := os.Getenv("PARLOUR_ATTACK_PROBE_FROM"); from != "" {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
		hc.Transport = &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}
	}
	start := time.Now()
	for time.Since(start) < dur {
		time.Sleep(5 * time.Second)
		t0 := time.Now()
		res, err := hc.Get(base + "/healthz")
		health := ""
		if err != nil {
			health = "failed: " + err.Error()
		} else {
			res.Body.Close()
			health = fmt.Sprintf("%d in %v", res.StatusCode, time.Since(t0).Round(time.Millisecond))
		}
		t.Logf("after %2.0f s: %d of %d connections still open (%d dials failed); /healthz %s",
			time.Since(start).Seconds(), open.Load(), n, dialFailed.Load(), health)
	}
	close(stop)
	wg.Wait()
	t.Logf("how the server ended connections: %v", answers)
}

// attackClient sends the JSON requests of an attack, waiting and trying
// again while the server answers 429 (the attacks count other answers,
// not the rate limits').
type attackClient struct {
	base string
	hc   *http.Client
}

// do sends body (nil: a GET) to path with token, and returns the status
// and the answer decoded into out when it is a success.
func (c *attackClient) do(method, path, token string, body, out any) (int, error) {
	var raw []byte
	if body != nil {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			return 0, err
		}
	}
	for wait := 50 * time.Millisecond; ; wait = min(2*wait, 2*time.Second) {
		req, err := http.NewRequest(method, c.base+path, bytes.NewReader(raw))
		if err != nil {
			return 0, err
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := c.hc.Do(req)
		if err != nil {
			return 0, err
		}
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			return 0, err
		}
		if res.StatusCode == http.StatusTooManyRequests {
			time.Sleep(wait)
			continue
		}
		if res.StatusCode < 300 && out != nil {
			if err := json.Unmarshal(b, out); err != nil {
				return res.StatusCode, fmt.Errorf("%s %s: %w", method, path, err)
			}
		}
		return res.StatusCode, nil
	}
}

func newAttackClient(t *testing.T) *attackClient {
	base := os.Getenv("PARLOUR_ATTACK_URL")
	if base == "" {
		t.Skip("set PARLOUR_ATTACK_URL to attack a server")
	}
	return &attackClient{base: strings.TrimRight(base, "/"), hc: &http.Client{Timeout: 30 * time.Second}}
}

// attackView is what the attacks read of GET /api/v1/tables/{id}.
type attackView struct {
	Seat  int `json:"seat"`
	Table struct {
		Seats []struct {
			Name string `json:"name"`
			Kind string `json:"kind"`
		} `json:"seats"`
	} `json:"table"`
}

// TestSeatRaceAttack is the seat race of issue 14 (item 2), run against a
// server of one's choosing (skipped unless PARLOUR_ATTACK_URL names one):
// one guest identity sends 8 joins at once to a fresh four-seat Quizl
// table, PARLOUR_ATTACK_TRIALS times (120), and the attack counts the
// trials where that identity got two seats or more. For example:
//
//	parlour serve --addr 127.0.0.1:8099 --data /tmp/d &
//	PARLOUR_ATTACK_URL=http://127.0.0.1:8099 go test ./server -run TestSeatRaceAttack -v
func TestSeatRaceAttack(t *testing.T) {
	// Not parallel: it loads a server outside the test and measures its
	// answers, which another test running at once would disturb.
	c := newAttackClient(t)
	trials, _ := strconv.Atoi(os.Getenv("PARLOUR_ATTACK_TRIALS"))
	if trials <= 0 {
		trials = 120
	}
	var twin Identity
	if st, err := c.do("POST", "/api/v1/identity", "", map[string]string{"name": "Twin"}, &twin); err != nil || st != http.StatusCreated {
		t.Fatalf("a new identity: %d %v", st, err)
	}
	seatsTaken := map[int]int{} // seats the twin holds -> trials
	answers := map[int]int{}    // join status -> count
	var worst []string
	most := 1
	for trial := range trials {
		var host Seated
		if st, err := c.do("POST", "/api/v1/tables", "", map[string]any{"game": "quizl", "seats": []string{"me", "open", "open", "open"}, "name": "Host", "private": true}, &host); err != nil || st != http.StatusCreated {
			t.Fatalf("trial %d: create: %d %v", trial, st, err)
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		start := make(chan struct{})
		for range 8 {
			wg.Go(func() {
				<-start
				st, err := c.do("POST", "/api/v1/tables/"+host.Table+"/join", twin.Token, map[string]any{}, nil)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					t.Errorf("trial %d: join: %v", trial, err)
				}
				answers[st]++
			})
		}
		close(start)
		wg.Wait()
		var v attackView
		if st, err := c.do("GET", "/api/v1/tables/"+host.Table, "", nil, &v); err != nil || st != http.StatusOK {
			t.Fatalf("trial %d: view: %d %v", trial, st, err)
		}
		n := 0
		var names []string
		for _, s := range v.Table.Seats {
			names = append(names, s.Name)
			if strings.HasPrefix(s.Name, "Twin") {
				n++
			}
		}
		seatsTaken[n]++
		if n > most {
			worst, most = names, n
		}
		// The identity's rate limit (100 a second) would answer some of
		// the next trial's joins 429: stay under it.
		time.Sleep(100 * time.Millisecond)
	}
	twice := 0
	for n, k := range seatsTaken {
		if n > 1 {
			twice += k
		}
	}
	t.Logf("%d trials of 8 joins at once with one identity: %d seated it twice or more; seats held per trial %v; join answers by status %v; the most seats: %q",
		trials, twice, seatsTaken, answers, worst)
}

// TestFullDiskAttack is the full-disk run of issue 14 (item 3), against a
// server of one's choosing whose data lies on a small file system of its
// own (skipped unless PARLOUR_ATTACK_URL names the server and
// PARLOUR_ATTACK_FILL a directory on that file system, writable here).
// It opens PARLOUR_ATTACK_TABLES (100) two-seat tables with room to spare,
// fills the file system with a file of its own, then makes
// PARLOUR_ATTACK_ROUNDS (100) rounds of a create, a new identity and a
// guest's join of one of those tables, counting the answers of each by
// status and the half-made seats: a seat taken by a join that was
// refused, or whose token the server does not know. With
// PARLOUR_ATTACK_GIVE set, it gives that many bytes of its file back
// before each round, so that the disk fills again between the writes of
// one request. It then removes its file. For example, as root:
//
//	mkdir -p /tmp/fulldisk && mount -t tmpfs -o size=6m tmpfs /tmp/fulldisk
//	parlour serve --addr 127.0.0.1:8099 --data /tmp/fulldisk/d &
//	PARLOUR_ATTACK_URL=http://127.0.0.1:8099 PARLOUR_ATTACK_FILL=/tmp/fulldisk \
//	    go test ./server -run TestFullDiskAttack -v
//	umount /tmp/fulldisk
func TestFullDiskAttack(t *testing.T) {
	// Not parallel: it loads a server outside the test and measures its
	// answers, which another test running at once would disturb.
	c := newAttackClient(t)
	dir := os.Getenv("PARLOUR_ATTACK_FILL")
	if dir == "" {
		t.Skip("set PARLOUR_ATTACK_FILL to a directory on the server's data file system")
	}
	count := func(name string, def int) int {
		if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
			return n
		}
		return def
	}
	nTables, rounds := count("PARLOUR_ATTACK_TABLES", 100), count("PARLOUR_ATTACK_ROUNDS", 100)
	create := map[string]any{"game": "quizl", "seats": []string{"me", "open"}, "name": "Host", "private": true}
	// The tables made on the full disk are in the lobby, so that one
	// stored without its creator's token shows.
	lobbyCreate := map[string]any{"game": "quizl", "seats": []string{"me", "open"}, "name": "Cal"}
	var tables []string
	for i := range nTables {
		var s Seated
		if st, err := c.do("POST", "/api/v1/tables", "", create, &s); err != nil || st != http.StatusCreated {
			t.Fatalf("table %d, before the disk is full: %d %v", i, st, err)
		}
		tables = append(tables, s.Table)
	}
	filler, err := os.CreateTemp(dir, "filler")
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(filler.Name())
	defer filler.Close()
	for _, size := range []int{1 << 16, 512} {
		block := make([]byte, size)
		for {
			if _, err := filler.Write(block); err != nil {
				if !errors.Is(err, syscall.ENOSPC) {
					t.Fatal(err)
				}
				break
			}
		}
	}
	size, err := filler.Seek(0, io.SeekCurrent)
	if err != nil {
		t.Fatal(err)
	}
	give := int64(count("PARLOUR_ATTACK_GIVE", 0))
	answers := map[string]map[int]int{"create": {}, "identity": {}, "join": {}}
	halfMade, tokenless := 0, 0
	for i := range min(rounds, len(tables)) {
		if give > 0 {
			// Room comes back a little at a time: some of a request's
			// writes fit, and the next may not.
			size = max(size-give, 0)
			if err := filler.Truncate(size); err != nil {
				t.Fatal(err)
			}
		}
		var s Seated
		st, err := c.do("POST", "/api/v1/tables", "", lobbyCreate, &s)
		if err != nil {
			t.Fatal(err)
		}
		answers["create"][st]++
		if st == http.StatusCreated {
			if vst, _ := c.do("GET", "/api/v1/tables/"+s.Table, s.Token, nil, nil); vst == http.StatusUnauthorized {
				tokenless++
			}
		}
		if st, err = c.do("POST", "/api/v1/identity", "", map[string]string{"name": "Cy"}, nil); err != nil {
			t.Fatal(err)
		}
		answers["identity"][st]++
		var j Seated
		if st, err = c.do("POST", "/api/v1/tables/"+tables[i]+"/join", "", map[string]string{"name": "Ben"}, &j); err != nil {
			t.Fatal(err)
		}
		answers["join"][st]++
		var v attackView
		if vst, err := c.do("GET", "/api/v1/tables/"+tables[i], "", nil, &v); err != nil || vst != http.StatusOK {
			t.Fatalf("view: %d %v", vst, err)
		}
		taken := len(v.Table.Seats) > 1 && v.Table.Seats[1].Kind != "open"
		switch {
		case taken && st >= 300:
			halfMade++ // a seat, and no token for it
		case taken:
			if vst, _ := c.do("GET", "/api/v1/tables/"+tables[i], j.Token, nil, nil); vst == http.StatusUnauthorized {
				halfMade++
			}
		}
	}
	var lobby struct {
		Tables []struct {
			Seats []struct {
				Name string `json:"name"`
			} `json:"seats"`
		} `json:"tables"`
	}
	if st, err := c.do("GET", "/api/v1/tables?limit=500", "", nil, &lobby); err != nil || st != http.StatusOK {
		t.Fatalf("lobby: %d %v", st, err)
	}
	listed := 0
	for _, tb := range lobby.Tables {
		if len(tb.Seats) > 0 && tb.Seats[0].Name == "Cal" {
			listed++
		}
	}
	t.Logf("on a full disk (%d bytes given back a round), answers by status: create %v, new identity %v, guest join %v",
		give, answers["create"], answers["identity"], answers["join"])
	t.Logf("half-made seats: %d joined (taken, no token), %d created (tables in the lobby %d, creates answered 201 %d), %d created answered 201 whose token is unknown",
		halfMade, listed-answers["create"][http.StatusCreated], listed, answers["create"][http.StatusCreated], tokenless)
}
