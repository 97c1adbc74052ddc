package main

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"parlour/bus/nats/natstest"
	"parlour/store/postgres/pgtest"
)

// clusterEngines starts a throwaway PostgreSQL and an in-process NATS
// server for a cluster test, both removed when t ends, and returns a new
// database's URL and the NATS server's. Without PostgreSQL the test
// skips (fails under CI).
func clusterEngines(t *testing.T) (pgURL, natsURL string) {
	t.Helper()
	pg, err := pgtest.Start(context.Background(), pgtest.Options{})
	if err != nil {
		if _, missing := pgtest.Bin(); missing != nil {
			pgtest.Missing(t)
		}
		t.Fatal(err)
	}
	t.Cleanup(func() { pg.Close() })
	return pg.NewDatabase(t), natstest.URL(natstest.Run(t, -1))
}

// TestLoadtestCluster runs parlour loadtest against three nodes of a
// cluster at once (--url A,B,C), over HTTP and over sockets: every move is
// accepted, half of them through a node that forwards them to the table's
// owner, and every acknowledged move is found in the records read back
// through the nodes.
func TestLoadtestCluster(t *testing.T) {
	pgURL, natsURL := clusterEngines(t)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var urls []string
	var dones []<-chan int
	for _, name := range []string{"a", "b", "c"} {
		base, _, done := startServe(t, ctx, "--data", t.TempDir(), "--store", pgURL, "--nats", natsURL, "--node", name)
		urls = append(urls, base)
		dones = append(dones, done)
	}
	all := strings.Join(urls, ",")
	accepted := regexp.MustCompile(`sent (\d+), accepted (\d+) .*refused 0, errors 0`)
	forwarded := regexp.MustCompile(`cluster: (\d+) requests forwarded to their table's owner \(([0-9.]+) a move\)`)
	for _, transport := range []string{"http", "ws"} {
		t.Run(transport, func(t *testing.T) {
			var out, errs bytes.Buffer
			code := runLoadtest(ctx, []string{"--url", all, "--transport", transport, "--tables", "6", "--identities", "6", "--conns", "6",
				"--rate", "30", "--duration", "2s"}, nil, &out, &errs)
			t.Logf("%s%s", out.String(), errs.String())
			if code != 0 {
				t.Fatalf("exit %d", code)
			}
			m := accepted.FindSubmatch(out.Bytes())
			if m == nil || string(m[1]) != string(m[2]) || string(m[1]) == "0" {
				t.Fatal("not every move accepted")
			}
			if !bytes.Contains(out.Bytes(), []byte("durability: all")) {
				t.Fatal("no durability check")
			}
			f := forwarded.FindSubmatch(out.Bytes())
			if f == nil {
				t.Fatal("no count of the forwarded requests")
			}
			// Over HTTP every move of the second seat is forwarded (about
			// half of them); over sockets the remote seat's updates are
			// fetched from the owner too.
			if n, _ := strconv.ParseFloat(string(f[2]), 64); n < 0.3 {
				t.Fatalf("%v requests forwarded a move, want about half or more", n)
			}
		})
	}
	// Routed by table, as behind a balancer hashing the table's path: the
	// tables made through another node than their own are handed to it.
	// Over sockets the seats' sockets sit on the node the table goes to.
	for _, transport := range []string{"http", "ws"} {
		t.Run("route table "+transport, func(t *testing.T) {
			routeTable(t, ctx, all, transport)
		})
	}
	if code := runLoadtest(ctx, []string{"--url", all, "--route", "nodes"}, nil, io.Discard, io.Discard); code != 2 {
		t.Errorf("--route nodes: exit %d, want 2", code)
	}
	var out bytes.Buffer
	if code := runLoadtest(ctx, []string{"--url", all, "--tables", "1", "--identities", "4", "--idle-tables", "12"}, nil, &out, io.Discard); code != 0 {
		t.Fatalf("--idle-tables: exit %d\n%s", code, out.String())
	}
	t.Log(out.String())
	// The nodes share this test's process, whose heap each reports whole:
	// only the shape of the report is checked here (docs/performance.md
	// has the figures of nodes in processes of their own).
	if !regexp.MustCompile(`12 idle tables \(10 moves in\) over 3 node\(s\): heap [-+]\d+ bytes a table`).Match(out.Bytes()) ||
		len(regexp.MustCompile(`tables owned`).FindAll(out.Bytes(), -1)) != 3 {
		t.Fatalf("--idle-tables printed %s", out.String())
	}
	stop()
	for _, done := range dones {
		if code := <-done; code != 0 {
			t.Errorf("a node returned %d", code)
		}
	}
}

// routeTable runs the load tool over the nodes at all with --route table:
// every move accepted and durable, and tables made through another node
// than their own handed to it.
func routeTable(t *testing.T, ctx context.Context, all, transport string) {
	accepted := regexp.MustCompile(`sent (\d+), accepted (\d+) .*refused 0, errors 0`)
	var out, errs bytes.Buffer
	code := runLoadtest(ctx, []string{"--url", all, "--route", "table", "--transport", transport, "--tables", "9", "--identities", "6", "--conns", "9",
		"--rate", "60", "--duration", "4s"}, nil, &out, &errs)
	t.Logf("%s%s", out.String(), errs.String())
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if m := accepted.FindSubmatch(out.Bytes()); m == nil || string(m[1]) != string(m[2]) || string(m[1]) == "0" {
		t.Fatal("not every move accepted")
	}
	if !bytes.Contains(out.Bytes(), []byte("durability: all")) {
		t.Fatal("no durability check")
	}
	h := regexp.MustCompile(`(\d+) handed to the node their requests came from`).FindSubmatch(out.Bytes())
	if h == nil || string(h[1]) == "0" {
		t.Fatal("no table was handed to the node its requests came through")
	}
}
