package e2e

import (
	"strings"
	"testing"
)

// TestHomeFirstLoad opens the home page in a fresh browser: everything it
// fetches comes from the server's origin, and the whole first load stays
// within 150 KB on the wire.
func TestHomeFirstLoad(t *testing.T) {
	base := startServer(t)
	b := newBrowser(t)
	p := newPlayer(t, b, "visitor", base)
	p.open("/")
	p.wait("the games", `document.querySelectorAll("#main .card h2").length === 4`)
	got := p.text("#main")
	for _, want := range []string{"Quizl", "Salvo", "Sightless Word Fight", "Nymphabet"} {
		if !strings.Contains(got, want) {
			t.Errorf("home page lacks %q:\n%s", want, got)
		}
	}
	if off := p.offOrigin(); len(off) > 0 {
		t.Errorf("requests left the origin: %v", off)
	}
	n := p.transferred()
	t.Logf("first load of the home page: %d bytes transferred in %d requests", n, len(p.requests))
	if n > 150_000 {
		t.Errorf("first load transferred %d bytes, over 150 KB", n)
	}
	p.shot("home")
}
