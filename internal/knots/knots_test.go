package knots

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"
)

// measure type-checks a package made of files (name to source).
func measure(t *testing.T, files map[string]string) Report {
	t.Helper()
	fset := token.NewFileSet()
	var parsed []*ast.File
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		f, err := parser.ParseFile(fset, n, files[n], 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, f)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	pkg, err := (&types.Config{}).Check("p", fset, parsed, info)
	if err != nil {
		t.Fatal(err)
	}
	return Measure(fset, pkg, parsed, info)
}

func TestMeasure(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		files   map[string]string
		largest []string
		knotted int
	}{
		{"one file", map[string]string{"a.go": "package p\nfunc A() { B() }\nfunc B() {}"}, nil, 0},
		{"a chain is no knot", map[string]string{
			"a.go": "package p\nfunc A() { B() }",
			"b.go": "package p\nfunc B() { C() }",
			"c.go": "package p\nfunc C() {}",
		}, nil, 0},
		{"two files calling each other", map[string]string{
			"a.go": "package p\nfunc A() { B() }",
			"b.go": "package p\nfunc B() { A() }",
			"c.go": "package p\nfunc C() { A() }",
		}, []string{"a.go", "b.go"}, 2},
		{"a method and a field tie files", map[string]string{
			"t.go": "package p\ntype T struct{ n int }\nfunc (t T) M() int { return U(t) }",
			"u.go": "package p\nfunc U(t T) int { return t.n + len(V) }",
			"v.go": "package p\nvar V = []int{1}\nfunc W(t T) int { return t.M() }",
		}, []string{"t.go", "u.go", "v.go"}, 3},
		{"locals of the same name tie nothing", map[string]string{
			"a.go": "package p\nfunc A() int { x := 1; return x }",
			"b.go": "package p\nfunc B() int { x := 2; return x + A() }",
		}, nil, 0},
		{"two knots, the larger reported", map[string]string{
			"a.go": "package p\nfunc A() { B() }",
			"b.go": "package p\nfunc B() { A() }",
			"c.go": "package p\nfunc C() { D() }",
			"d.go": "package p\nfunc D() { E() }",
			"e.go": "package p\nfunc E() { C() }",
		}, []string{"c.go", "d.go", "e.go"}, 5},
	} {
		r := measure(t, c.files)
		if !slices.Equal(r.Largest, c.largest) || r.Knotted != c.knotted || r.Files != len(c.files) {
			t.Errorf("%s: %v, want the largest knot %v and %d files knotted", c.name, r, c.largest, c.knotted)
		}
	}
}
