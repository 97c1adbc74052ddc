package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"parlour/games"
	"parlour/internal/loadtest"
	"parlour/server"
	"parlour/server/limit"
	"parlour/store/sqlite"
)

// TestLoadtestFlags: the flags become the configuration they name, and a
// bad one is refused with a word of what is wrong.
func TestLoadtestFlags(t *testing.T) {
	t.Parallel()
	parse := func(args ...string) (loadtest.Config, error) {
		fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var f loadtestFlags
		f.define(fs)
		if err := fs.Parse(args); err != nil {
			return loadtest.Config{}, err
		}
		return f.config()
	}
	c, err := parse()
	if err != nil {
		t.Fatal(err)
	}
	want := loadtest.Config{Servers: []string{"http://localhost:8080"}, Tables: 1000, Rates: []float64{5000}, Duration: 20 * time.Second,
		Identities: 200, Conns: 64, Verify: true, Stagger: true, Route: loadtest.RouteSeats, Transport: loadtest.TransportHTTP, ViewTails: true,
		IdleSettle: 3 * time.Second}
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("defaults %+v, want %+v", c, want)
	}
	c, err = parse("--url", "http://127.0.0.1:1,http://127.0.0.1:2", "--rate", "100, 200", "--server-pid", "7,8", "--transport", "ws",
		"--route", "table", "--new-sockets", "--view-tails=false", "--verify=false", "--stagger=false", "--chat", "3", "--rated",
		"--timeline", "1s", "--idle-sockets", "5", "--idle-tables", "6", "--idle-settle", "70s", "--idle-cpu", "60s", "--tables", "9", "--identities", "10", "--conns", "11", "--duration", "2s")
	if err != nil {
		t.Fatal(err)
	}
	want = loadtest.Config{Servers: []string{"http://127.0.0.1:1", "http://127.0.0.1:2"}, Tables: 9, Rates: []float64{100, 200},
		Duration: 2 * time.Second, Identities: 10, Conns: 11, ServerPIDs: []int{7, 8}, Timeline: time.Second, Route: loadtest.RouteTable,
		Transport: loadtest.TransportWS, NewSockets: true, Rated: true, Chat: 3, IdleSockets: 5, IdleTables: 6, IdleSettle: 70 * time.Second, IdleCPU: time.Minute}
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("got %+v, want %+v", c, want)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--rate", "fast"}, `bad --rate "fast"`},
		{[]string{"--rate", "100,-1"}, `bad --rate "-1"`},
		{[]string{"--server-pid", "12,x"}, "--server-pid must be process ids"},
		{[]string{"--url", "http://10.0.0.1:8080"}, "loopback"},
		{[]string{"--route", "nodes"}, `route must be seats or table, not "nodes"`},
		{[]string{"--identities", "4", "--chat", "5"}, "chat must be from 0 to the identities (4)"},
		{[]string{"--chat", "-1"}, "chat must be from 0"},
		{[]string{"--tables", "0"}, "tables must be 1 or more"},
		{[]string{"--idle-cpu", "1s", "--server-pid", "7"}, "idle CPU must be 2 seconds or more"},
		{[]string{"--idle-cpu", "10s"}, "idle CPU needs the servers' process ids"},
		{[]string{"--idle-tables", "5", "--idle-settle", "-1s"}, "the idle settle must not be negative"},
	} {
		if _, err := parse(tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want an error saying %q", tc.args, err, tc.want)
		}
	}
}

func TestParsePIDs(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want []int
		ok   bool
	}{
		{"", nil, true},
		{"12", []int{12}, true},
		{"12, 13,14", []int{12, 13, 14}, true},
		{"12,", nil, false},
		{"x", nil, false},
		{"0", nil, false},
		{"-3", nil, false},
	} {
		got, err := parsePIDs(c.in)
		if (err == nil) != c.ok || !slices.Equal(got, c.want) {
			t.Errorf("%q: %v, %v; want %v (ok %v)", c.in, got, err, c.want, c.ok)
		}
	}
}

// TestLoadtestPrints runs parlour loadtest, short and slow, against a
// server in the test: it prints the report as it goes and exits 0.
func TestLoadtestPrints(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "p.db"), sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, err := server.New(ctx, server.Config{Store: db, Games: games.Registry()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	srv := httptest.NewServer(server.NewHandler(s, limit.Limits{}))
	defer srv.Close()
	var out, errs bytes.Buffer
	code := runLoadtest(ctx, []string{"--url", srv.URL, "--tables", "2", "--identities", "4", "--conns", "2", "--rate", "20", "--duration", "500ms"}, nil, &out, &errs)
	t.Logf("%s%s", out.String(), errs.String())
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, re := range []string{
		`(?m)^prepared 4 identities and 10 tables in `,
		`(?m)^rate 20/s for 500ms: sent (\d+), accepted \d+ \(\d+/s\), refused 0, errors 0, slots skipped for want of a table 0$`,
		`(?m)^  ack latency from schedule: p50 `,
		`(?m)^durability: all \d+ acknowledged moves found in their tables' records$`,
	} {
		if !regexp.MustCompile(re).Match(out.Bytes()) {
			t.Errorf("no line matching %s", re)
		}
	}
}
