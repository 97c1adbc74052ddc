package tui

import (
	"strings"
	"testing"

	"parlour/tui/client"
)

// FuzzTableID: whatever a player pastes, TableID answers without
// panicking, and an id it answers is stable.
func FuzzTableID(f *testing.F) {
	for _, s := range []string{"k3x9q2m7c8v4r6tw", "http://h/t/abc/join", "/t/", "?#/", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id := client.TableID(s)
		if strings.ContainsAny(id, "/?#") {
			t.Errorf("TableID(%q) = %q holds a separator", s, id)
		}
		if again := client.TableID(id); again != id {
			t.Errorf("TableID(%q) = %q, then %q", s, id, again)
		}
	})
}

// FuzzParseShip: a ship read from the server is written back the same.
func FuzzParseShip(f *testing.F) {
	for _, s := range []string{"B2-B6", "D2-G2", "J10-J9", "A1-A1", "Z99-Z0", "-", "B2-C3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, ok := parseShip(s)
		if !ok {
			return
		}
		back, ok := parseShip(sh.String())
		if !ok || back != sh {
			t.Errorf("%q read as %+v, written %q, read back %+v", s, sh, sh.String(), back)
		}
	})
}
