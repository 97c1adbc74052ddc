package cluster

import (
	"os"
	"testing"

	"parlour/server/internal/servertest"
)

// TestMain gives the tests that keep leases a throwaway PostgreSQL.
func TestMain(m *testing.M) { os.Exit(servertest.Main(m)) }
