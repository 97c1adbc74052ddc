// Package knots measures how a package's files reach each other: file A
// reaches file B when A names something B declares (a function, a type, a
// method, a field, a variable or a constant). A knot is a set of files
// each of which reaches every other, directly or through the others: the
// files that cannot be understood, or moved to another package, apart. A
// package of one idea may be large; a large knot says its files are one
// piece whatever their names.
package knots

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
)

// Report is what Measure finds of one package.
type Report struct {
	Package string
	// Files counts the package's files (tests left out).
	Files int
	// Largest is the largest knot's files, by name; a package whose files
	// form no knot has none.
	Largest []string
	// Knotted counts the files that are in a knot of two or more.
	Knotted int
}

func (r Report) String() string {
	return fmt.Sprintf("%s: %d files, %d in knots, the largest knot %d files %v", r.Package, r.Files, r.Knotted, len(r.Largest), r.Largest)
}

// Measure finds the knots of pkg, type-checked with info's Uses and Selections
// filled in, whose files are files (parsed with fset).
func Measure(fset *token.FileSet, pkg *types.Package, files []*ast.File, info *types.Info) Report {
	name := func(p token.Pos) string { return filepath.Base(fset.Position(p).Filename) }
	names := make([]string, len(files))
	index := map[string]int{}
	for i, f := range files {
		names[i] = name(f.Pos())
		index[names[i]] = i
	}
	reach := make([]map[int]bool, len(files))
	for i := range reach {
		reach[i] = map[int]bool{}
	}
	edge := func(from token.Pos, obj types.Object) {
		if obj == nil || obj.Pkg() != pkg || !obj.Pos().IsValid() {
			return
		}
		if _, local := obj.(*types.PkgName); local {
			return
		}
		// Only what a file declares at its top level, or a method or a
		// field of such a type, ties two files together: a local
		// variable lives and dies in its own.
		if v, ok := obj.(*types.Var); ok && !v.IsField() && obj.Parent() != pkg.Scope() {
			return
		}
		if obj.Parent() != nil && obj.Parent() != pkg.Scope() {
			return
		}
		a, okA := index[name(from)]
		b, okB := index[name(obj.Pos())]
		if okA && okB && a != b {
			reach[a][b] = true
		}
	}
	for id, obj := range info.Uses {
		edge(id.Pos(), obj)
	}
	for expr, sel := range info.Selections {
		edge(expr.Sel.Pos(), sel.Obj())
	}
	r := Report{Package: pkg.Path(), Files: len(files)}
	for _, scc := range components(len(files), reach) {
		if len(scc) < 2 {
			continue
		}
		r.Knotted += len(scc)
		if len(scc) > len(r.Largest) {
			r.Largest = r.Largest[:0]
			for _, i := range scc {
				r.Largest = append(r.Largest, names[i])
			}
		}
	}
	slices.Sort(r.Largest)
	return r
}

// components returns the strongly connected components of the graph of n
// nodes whose edges are reach (Tarjan's algorithm), largest first.
func components(n int, reach []map[int]bool) [][]int {
	index, low := make([]int, n), make([]int, n)
	on := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	var out [][]int
	next := 0
	var visit func(v int)
	visit = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		on[v] = true
		for w := range reach[v] {
			switch {
			case index[w] < 0:
				visit(w)
				low[v] = min(low[v], low[w])
			case on[w]:
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var scc []int
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				scc = append(scc, w)
				if w == v {
					break
				}
			}
			out = append(out, scc)
		}
	}
	for v := range n {
		if index[v] < 0 {
			visit(v)
		}
	}
	slices.SortStableFunc(out, func(a, b []int) int { return cmp.Compare(len(b), len(a)) })
	return out
}
