//go:build unix

package loadtest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// benchServerEnv, set in a test binary's environment, makes it serve
// moves for BenchmarkMoveClient instead of running tests: the server runs
// in a process of its own, so that the benchmark's CPU is the client's.
const benchServerEnv = "PARLOUR_LOADTEST_BENCH_SERVER"

// benchAnswer is an answer to a move of the shape and size the server
// sends a scripted player.
const benchAnswer = `{"version":12,"status":"playing","to_move":[1],"events":[{"kind":"call","text":"Ann called 72: a hit, F","data":{"by":0,"square":"72","letter":"F"}}]}`

func TestMain(m *testing.M) {
	if os.Getenv(benchServerEnv) != "" {
		serveMoves()
		return
	}
	os.Exit(m.Run())
}

// serveMoves answers every POST .../moves with benchAnswer, printing its
// URL, until its standard input closes.
func serveMoves() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/moves") || r.Header.Get("Authorization") == "" {
			http.Error(w, "not a move", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, benchAnswer)
	}))
	defer srv.Close()
	fmt.Println(srv.URL)
	io.Copy(io.Discard, os.Stdin)
}

// moveServer starts serveMoves in a process of its own and returns its
// URL.
func moveServer(b *testing.B) string {
	b.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), benchServerEnv+"=1")
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		in.Close()
		cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		b.Fatalf("the move server said %q: %v", line, err)
	}
	return strings.TrimSpace(line)
}

// mover makes one move, as the load tool's players do, on connection k.
type mover func(ctx context.Context, k int) (int, []byte, error)

// BenchmarkMoveClient compares what the load tool's hand-written
// HTTP/1.1 client (moveConn) and net/http's client cost the tool's
// process in CPU a move, at 2,000 moves a second over 8 kept-alive
// connections, against a server in another process answering as the
// server does. The figure is cpu-µs/move (user and system time of this
// process); ns/op is the schedule's, 500µs.
func BenchmarkMoveClient(b *testing.B) {
	base := moveServer(b)
	u, err := url.Parse(base)
	if err != nil {
		b.Fatal(err)
	}
	const conns = 8
	b.Run("moveConn", func(b *testing.B) {
		cs := make([]*moveConn, conns)
		for k := range cs {
			cs[k] = &moveConn{addr: u.Host, host: u.Host}
			defer cs[k].close()
		}
		paced(b, conns, func(ctx context.Context, k int) (int, []byte, error) {
			return cs[k].move(ctx, "abcdefgh", "token-of-a-seat-0123456789", "72")
		})
	})
	b.Run("net/http", func(b *testing.B) {
		hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
			MaxIdleConns: conns, MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns,
		}}
		defer hc.CloseIdleConnections()
		bufs := make([]bytes.Buffer, conns)
		paced(b, conns, func(ctx context.Context, k int) (int, []byte, error) {
			return netHTTPMove(ctx, hc, &bufs[k], base, "abcdefgh", "token-of-a-seat-0123456789", "72")
		})
	})
}

// netHTTPMove makes a move as moveConn.move does, with net/http's client,
// reading the answer into buf.
func netHTTPMove(ctx context.Context, hc *http.Client, buf *bytes.Buffer, base, id, token, move string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", base+"/api/v1/tables/"+id+"/moves", strings.NewReader(`{"move":"`+move+`"}`))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := hc.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	buf.Reset()
	_, err = buf.ReadFrom(res.Body)
	return res.StatusCode, buf.Bytes(), err
}

// paced makes b.N moves with move, due at 2,000 a second, each of conns
// workers making every conns-th, and reports this process's CPU a move.
func paced(b *testing.B, conns int, move mover) {
	const rate = 2000
	b.ReportAllocs()
	ctx := context.Background()
	for k := range conns { // warm up: dial, and make a move on each
		if st, body, err := move(ctx, k); err != nil || st != http.StatusOK {
			b.Fatalf("warming up: %d %s %v", st, body, err)
		}
	}
	interval := time.Second / rate
	var wg sync.WaitGroup
	var bad sync.Map
	b.ResetTimer()
	cpu0 := processCPU(b)
	start := time.Now()
	for k := range conns {
		wg.Go(func() {
			for i := k; i < b.N; i += conns {
				time.Sleep(time.Until(start.Add(time.Duration(i) * interval)))
				var a moveAnswer
				st, body, err := move(ctx, k)
				if err == nil && st == http.StatusOK {
					err = a.parse(body)
				}
				if err != nil || st != http.StatusOK || a.Status != "playing" {
					bad.Store(i, fmt.Sprintf("%d %s %v", st, body, err))
				}
			}
		})
	}
	wg.Wait()
	cpu := processCPU(b) - cpu0
	b.StopTimer()
	bad.Range(func(k, v any) bool {
		b.Fatalf("move %v: %v", k, v)
		return false
	})
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/move")
}

// processCPU returns the user and system CPU time this process has used.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Skipf("no CPU times here: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
