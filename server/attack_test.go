package server

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
