// Package natstest runs a NATS server inside a test, on a loopback port,
// for the tests of the bus and of the cluster. Only tests import it, so
// the NATS server's code stays out of the parlour binary
// (bus/nats.TestServerStaysOut checks).
package natstest

import (
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Run starts a NATS server on 127.0.0.1 at port (-1: a free one), shut
// down when t ends.
func Run(t testing.TB, port int) *server.Server {
	t.Helper()
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: port, NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatalf("making a NATS server: %v", err)
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("the NATS server did not start")
	}
	t.Cleanup(s.Shutdown)
	return s
}

// Port returns the port s listens on.
func Port(s *server.Server) int { return s.Addr().(*net.TCPAddr).Port }

// URL returns the address clients reach s at.
func URL(s *server.Server) string { return fmt.Sprintf("nats://127.0.0.1:%d", Port(s)) }
