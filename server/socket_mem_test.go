package server_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"parlour/server"
	"parlour/server/internal/servertest"
	"parlour/server/limit"
	"parlour/server/table"
)

// idleSocketMemory opens n spectator sockets onto 100 Quizl tables, each
// past its hello and first update, and returns the heap (after
// collection) and goroutine stack bytes the server holds per socket,
// measured before the first opens and after the last. The clients are
// bare TCP connections that speak the handshake by hand and run no
// goroutine, so that nearly all of the growth is the server's (a client
// holds a connection and a 4 KiB buffer). With signedIn, each socket
// says hello with an identity token of its own, made (and cached) before
// the first measure, as a signed-in player's socket does: what it adds
// is the watch that ends the socket with its session.
func idleSocketMemory(tb testing.TB, n int, signedIn bool) (heap, stack, goroutines float64) {
	tb.Helper()
	ctx := context.Background()
	s, db, _ := openService(tb, filepath.Join(tb.TempDir(), "p.db"))
	defer db.Close()
	defer s.Close()
	h := server.NewHandler(s, limit.Limits{ConnsPerAddr: 1 << 16})
	srv := httptest.NewServer(h)
	defer srv.Close()
	defer h.CloseSockets("measured")
	var ids []string
	for range 100 {
		a, err := s.Create(ctx, nil, table.CreateRequest{Game: "quizl", Seats: []string{"me", "open"}})
		if err != nil {
			tb.Fatal(err)
		}
		ids = append(ids, a.Table)
	}
	mem := func() (heap, stack uint64, goroutines int) {
		settle()
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc, ms.StackInuse, runtime.NumGoroutine()
	}
	addr := strings.TrimPrefix(srv.URL, "http://")
	tokens := make([]string, n)
	for i := range tokens {
		if !signedIn {
			break
		}
		id, err := s.NewIdentity(ctx, "")
		if err != nil {
			tb.Fatal(err)
		}
		tokens[i] = id.Token
	}
	h0, s0, g0 := mem()
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := range n {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			tb.Fatal(err)
		}
		conns = append(conns, c)
		if err := idleSocket(c, addr, ids[i%len(ids)], tokens[i]); err != nil {
			tb.Fatalf("socket %d: %v", i, err)
		}
	}
	h1, s1, g1 := mem()
	writeIdleHeapProfile(tb, "")
	per := func(a, b int64) float64 { return float64(b-a) / float64(n) }
	return per(int64(h0), int64(h1)), per(int64(s0), int64(s1)), per(int64(g0), int64(g1))
}

// settle waits, for up to 2 s, until the number of goroutines holds
// still for 100 ms: those of earlier sockets, tests or runs, closed but
// not yet gone, would count against the measurement, and those of the
// last sockets opened must have reached their wait.
func settle() {
	last := runtime.NumGoroutine()
	for range 40 {
		time.Sleep(50 * time.Millisecond)
		n := runtime.NumGoroutine()
		if n == last {
			time.Sleep(50 * time.Millisecond)
			if runtime.NumGoroutine() == n {
				return
			}
		}
		last = runtime.NumGoroutine()
	}
}

// idleSocket upgrades c to a socket onto table id as a spectator, says
// hello (with token, when not ""), and reads the first update.
func idleSocket(c net.Conn, addr, id, token string) error {
	c.SetDeadline(time.Now().Add(10 * time.Second))
	defer c.SetDeadline(time.Time{})
	fmt.Fprintf(c, "GET /api/v1/tables/%s/socket HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", id, addr)
	r := bufio.NewReaderSize(c, 4096)
	status, err := r.ReadString('\n')
	if err != nil {
		return fmt.Errorf("reading the upgrade's answer: %w", err)
	}
	if !strings.Contains(status, " 101 ") {
		return fmt.Errorf("upgrade answered %q", status)
	}
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return fmt.Errorf("reading the upgrade's headers: %w", err)
		}
		if line == "\r\n" {
			break
		}
	}
	// A masked text frame (mask 0) holding the hello.
	hello := `{"type":"hello"}`
	if token != "" {
		hello = `{"type":"hello","token":"` + token + `"}`
	}
	if _, err := c.Write(append([]byte{0x81, 0x80 | byte(len(hello)), 0, 0, 0, 0}, hello...)); err != nil {
		return fmt.Errorf("saying hello: %w", err)
	}
	// The first update: a frame header, then its payload.
	hdr := make([]byte, 4)
	if _, err := io.ReadFull(r, hdr[:2]); err != nil {
		return fmt.Errorf("reading the first update: %w", err)
	}
	size := int(hdr[1] & 0x7f)
	if size == 127 {
		return errors.New("the first update is over 64 KiB, more than an idle table's should be")
	}
	if size == 126 {
		if _, err := io.ReadFull(r, hdr[2:4]); err != nil {
			return fmt.Errorf("reading the first update: %w", err)
		}
		size = int(hdr[2])<<8 | int(hdr[3])
	}
	if _, err := io.CopyN(io.Discard, r, int64(size)); err != nil {
		return fmt.Errorf("reading the first update: %w", err)
	}
	return nil
}

// TestIdleSocketMemory keeps what an idle socket costs where
// docs/performance.md reports it: about 6.5 KB of heap and one 4 KiB
// goroutine stack. The socket's goroutine starts once the socket follows
// its table (Door.acceptSocket), and an idle socket's wait takes about
// 3 KiB of it: a few more bytes in a frame on the reader's path
// (socket.serve, serveTable, runPushed, read and the WebSocket library's
// reader), or the hello's work done on this goroutine again, would
// double every idle socket's stack to 8 KiB, which no other test would
// notice. The stack's bound sits between the two, with room for the
// measurement's noise (the race detector's larger frames are not held to
// it), and the heap's bound is the target of 8 KiB.
func TestIdleSocketMemory(t *testing.T) {
	// Not parallel: it measures the heap and the goroutines of the whole process.
	if testing.Short() {
		t.Skip("opens 400 sockets")
	}
	heap, stack, goroutines := idleSocketMemory(t, 400, false)
	t.Logf("per idle socket: %.0f bytes of heap, %.0f of stack, %.2f goroutines", heap, stack, goroutines)
	if goroutines < 0.95 || goroutines > 1.05 {
		t.Errorf("an idle socket holds %.2f goroutines, want one", goroutines)
	}
	const maxHeap, maxStack = 8 << 10, 6 << 10
	if heap > maxHeap {
		t.Errorf("an idle socket holds %.0f bytes of heap, more than %d", heap, maxHeap)
	}
	if !servertest.Race && stack > maxStack {
		t.Errorf("an idle socket holds %.0f bytes of goroutine stack, more than %d: has a frame on an idle socket's path grown past the 4 KiB stack?", stack, maxStack)
	}
}
