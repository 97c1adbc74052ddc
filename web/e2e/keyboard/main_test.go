// Package keyboard tests, in real Chromium (web/e2e), the play screens
// of every game for a player without a mouse or without sight: whole
// games by the keyboard alone, where the focus goes and stays, the moves
// a screen reader speaks, and the accessibility of the screens (axe).
package keyboard

import (
	"testing"

	"parlour/web/e2e"
)

func TestMain(m *testing.M) { e2e.Main(m) }
