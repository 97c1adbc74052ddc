package e2e

import "testing"

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
