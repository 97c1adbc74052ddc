package server_test

import (
	"os"
	"testing"

	"parlour/server/internal/servertest"
)

// TestMain runs the package's tests with one throwaway PostgreSQL server
// (servertest.PG()), or, re-run by startChild, is the crash tests' server.
func TestMain(m *testing.M) {
	if spec := os.Getenv(crashServerEnv); spec != "" {
		os.Exit(runChildServer(spec))
	}
	os.Exit(servertest.Main(m))
}
