package e2e

import (
	"fmt"
	"strings"
	"testing"
)

func TestMain(m *testing.M) { Main(m) }

// TestWait waits for what comes true after more than one of its slices, and
// for what a navigation the page starts while the poll runs brings.
func TestWait(t *testing.T) {
	t.Parallel()
	base := StartServer(t)
	p := NewPlayer(t, NewBrowser(t), "Ann", base)
	p.Open("/")
	p.Wait("the front page", `!!document.querySelector("#main")`)
	Eval[bool](p, `(setTimeout(() => { window.late = true }, 4500), true)`)
	p.Wait("a value set after two slices", `window.late === true`)
	Eval[bool](p, `(setTimeout(() => location.assign("/daily"), 1000), true)`)
	p.Wait("the page the navigation opened", `location.pathname === "/daily" && !!document.querySelector("#daily-salvo")`)
	if Eval[bool](p, `window.late === true`) {
		t.Error("the wait ended in the page before the navigation")
	}
}

// errorsOf is a testing.TB that keeps the errors reported to it.
type errorsOf struct {
	testing.TB
	errs []string
}

func (e *errorsOf) Errorf(format string, args ...any) {
	e.errs = append(e.errs, fmt.Sprintf(format, args...))
}

// TestNoSecretsLeavesOutTheCatalogue looks for words a player received:
// the catalogue of games, whose help is prose for everybody, is not
// searched, and the page is.
func TestNoSecretsLeavesOutTheCatalogue(t *testing.T) {
	t.Parallel()
	base := StartServer(t)
	p := NewPlayer(t, NewBrowser(t), "Ann", base)
	p.Open("/")
	p.Wait("the front page", `document.title.includes("Parlour")`)
	if n := Eval[int](p, `fetch("/api/v1/games").then(r => r.text()).then(s => s.split(" times ").length - 1)`); n == 0 {
		t.Fatal(`the catalogue has no " times " for the check to leave out`)
	}
	rec := &errorsOf{TB: t}
	p.t = rec
	p.NoSecrets("on the front page", "TIMES", "PARLOUR")
	p.t = t
	var times, parlour int
	for _, e := range rec.errs {
		switch {
		case strings.Contains(e, `received "TIMES"`):
			times++
		case strings.Contains(e, `received "PARLOUR"`):
			parlour++
		default:
			t.Errorf("the check reported %q", e)
		}
	}
	if times != 0 || parlour == 0 {
		t.Errorf("the check found TIMES %d times and PARLOUR %d times, want 0 and some:\n%s", times, parlour, strings.Join(rec.errs, "\n"))
	}
}
