// Package challenges tests, in real Chromium (web/e2e), how players find
// each other for a game: challenges, invitations by code and quick
// pairing (the events are web/e2e/tournaments').
package challenges

import (
	"testing"

	"parlour/web/e2e"
)

func TestMain(m *testing.M) { e2e.Main(m) }
