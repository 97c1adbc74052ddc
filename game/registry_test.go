package game

import (
	"strings"
	"testing"
)

// TestLookupRefusals: a game that is not there is refused naming the
// games that are; no game at all asks for one rather than quoting "".
func TestLookupRefusals(t *testing.T) {
	t.Parallel()
	r := testRegistry()
	if g, err := r.Lookup("nim"); err != nil || g.Name() != "nim" {
		t.Fatalf("Lookup(nim) = %v, %v", g, err)
	}
	for _, tc := range []struct{ name, want string }{
		{"", "say which game: nim"},
		{"chess", `no game called "chess" (there are nim)`},
		{"Nim", `no game called "Nim" (there are nim)`},
	} {
		if _, err := r.Lookup(tc.name); err == nil || err.Error() != tc.want || strings.Contains(err.Error(), `""`) {
			t.Errorf("Lookup(%q) = %v, want %q", tc.name, err, tc.want)
		}
	}
}
