// Package tables tests, in real Chromium (web/e2e), what surrounds play
// at a table: the new-table form, the first screens a newcomer meets,
// watching, clocks, sets, aborting and leaving, analysis, the routes and
// the console, forged requests, the socket, and the terminal client
// playing a browser.
package tables

import (
	"testing"

	"parlour/web/e2e"
)

func TestMain(m *testing.M) { e2e.Main(m) }
