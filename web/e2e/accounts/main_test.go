// Package accounts tests players' accounts in real Chromium (web/e2e):
// signing up, rated games and ratings, settings, keys and mail, guests,
// follows and blocks, moderation and turn notices.
package accounts

import (
	"testing"

	"parlour/web/e2e"
)

func TestMain(m *testing.M) { e2e.Main(m) }
