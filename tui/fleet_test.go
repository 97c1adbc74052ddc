package tui

import (
	"testing"
)

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
