package tui

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestCursorCell: the square under a grid's cursor keeps a shape of its
// own once styles are dropped (TERM=dumb, NO_COLOR), whatever mark the
// square had.
func TestCursorCell(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ cell, want string }{
		{" · ", ">·<"},
		{" A ", ">A<"},
		{"[A]", "[A]"},
		{" - ", ">-<"},
		{warm(" * "), ">*<"},
		{"12 ", "12<"},
		{"[3]", "[3]"},
		{"x", "x"},
	} {
		if got := ansi.Strip(cursorCell(c.cell)); got != c.want {
			t.Errorf("cursorCell(%q) shows %q without styles, want %q", c.cell, got, c.want)
		}
	}
}
