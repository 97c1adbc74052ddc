// Package daily tests the daily puzzles in real Chromium (web/e2e): the
// day's page, an attempt by a guest and by an account, on a phone, one
// begun elsewhere, the day turning over, and the replay of a day's game
// once the day is over.
package daily

import (
	"testing"

	"parlour/web/e2e"
)

func TestMain(m *testing.M) { e2e.Main(m) }
