// Package tournaments tests, in real Chromium (web/e2e), the events:
// making one, joining it, its page as it runs, playing its games from
// the page's links, and its keys.
package tournaments

import (
	"testing"

	"parlour/web/e2e"
)

func TestMain(m *testing.M) { e2e.Main(m) }
