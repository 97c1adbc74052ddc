// Package games tests each game's screens in real Chromium (web/e2e):
// setup, play and the end of Quizl, Salvo, Sightless Word Fight and
// Nymphabet, solitaire and practice against the computer, what each seat
// receives and never receives, the wording of every end, and the replay
// of a record (the keyboard and the screen reader are
// web/e2e/keyboard's).
package games

import (
	"testing"

	"parlour/web/e2e"
)

func TestMain(m *testing.M) { e2e.Main(m) }
