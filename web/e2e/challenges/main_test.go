// Package challenges tests, in real Chromium (web/e2e), how players find
// each other: challenges, invitations by code, quick pairing and
// tournaments.
package challenges

import (
	"testing"

	"parlour/web/e2e"
)

func TestMain(m *testing.M) { e2e.Main(m) }
