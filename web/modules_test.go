package web

import (
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// staticImportRe finds a module's static imports and re-exports: `import
// { a } from "./x.js"`, `import "./x.js"`, `export * from "./x.js"`.
// The clause before `from` holds only names, braces, commas and `*`, so
// that `export function` or `export const` never reads as an import.
var staticImportRe = regexp.MustCompile(`(?m)^\s*(?:import|export)\s*(?:[\w$*\s{},]*?\s*from\s*)?["']([^"']+)["']`)

// dynamicImportRe finds a dynamic import of a fixed specifier,
// `import("./x.js")`, wherever it stands in the module.
var dynamicImportRe = regexp.MustCompile(`\bimport\s*\(\s*["']([^"']+)["']`)

// moduleImports lists the modules src imports, statically or dynamically,
// resolved against dir (a module's folder, "static/js"), in the order
// they appear and without repeats. Lines that are only a comment are
// skipped, so that prose about an import is not one.
func moduleImports(dir, src string) []string {
	var code strings.Builder
	for _, line := range strings.SplitAfter(src, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "//") {
			code.WriteString(line)
		}
	}
	var out []string
	for _, re := range []*regexp.Regexp{staticImportRe, dynamicImportRe} {
		for _, m := range re.FindAllStringSubmatch(code.String(), -1) {
			spec := m[1]
			var p string
			switch {
			case strings.HasPrefix(spec, "/"):
				p = strings.TrimPrefix(path.Clean(spec), "/")
			case strings.HasPrefix(spec, "./"), strings.HasPrefix(spec, "../"):
				p = path.Join(dir, spec)
			default:
				continue // a bare specifier: nothing the client serves
			}
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// moduleGraph reads every module under static/js in fsys and answers what
// each imports, by its path in fsys ("static/js/home.js").
func moduleGraph(t *testing.T, fsys fs.FS) map[string][]string {
	t.Helper()
	graph := map[string][]string{}
	err := fs.WalkDir(fsys, "static/js", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".js" {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		graph[p] = moduleImports(path.Dir(p), string(b))
		return nil
	})
	if err != nil {
		t.Fatalf("reading the client's modules: %v", err)
	}
	return graph
}

// importCircles answers every circle of imports in graph, each as the
// path from a module back to itself ("a.js", "b.js", "a.js"). A circle is
// reported once, from its first module in name order; a module the
// graph does not hold is taken to import nothing.
func importCircles(graph map[string][]string) [][]string {
	names := slices.Sorted(maps.Keys(graph))
	var circles [][]string
	seen := map[string]bool{}
	for _, start := range names {
		// Only circles through start that visit no module before it in
		// name order: those were found from that module.
		var walk func(p string, trail []string)
		onTrail := map[string]bool{}
		walk = func(p string, trail []string) {
			for _, next := range graph[p] {
				if next == start {
					c := append(slices.Clone(trail), start)
					key := strings.Join(c, " ")
					if !seen[key] {
						seen[key] = true
						circles = append(circles, c)
					}
					continue
				}
				if next < start || onTrail[next] {
					continue
				}
				onTrail[next] = true
				walk(next, append(trail, next))
				onTrail[next] = false
			}
		}
		onTrail[start] = true
		walk(start, []string{start})
	}
	return circles
}

// TestImportCircles checks the circle finder itself on small graphs, so
// that TestModulesImportNoCircle cannot pass by finding nothing.
func TestImportCircles(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		graph map[string][]string
		want  [][]string
	}{
		{"none", map[string][]string{"a": {"b", "c"}, "b": {"c"}, "c": nil}, nil},
		{"self", map[string][]string{"a": {"a"}}, [][]string{{"a", "a"}}},
		{"two", map[string][]string{"main": {"page"}, "page": {"dom", "main"}, "dom": nil}, [][]string{{"main", "page", "main"}}},
		{"three, found from its first module", map[string][]string{"c": {"a"}, "a": {"b"}, "b": {"c"}}, [][]string{{"a", "b", "c", "a"}}},
		{"two circles through one module", map[string][]string{"a": {"b", "c"}, "b": {"a"}, "c": {"a"}}, [][]string{{"a", "b", "a"}, {"a", "c", "a"}}},
		{"an import of a missing module", map[string][]string{"a": {"gone"}}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := importCircles(c.graph); !slices.EqualFunc(got, c.want, slices.Equal) {
				t.Errorf("importCircles(%v) = %v, want %v", c.graph, got, c.want)
			}
		})
	}
}

// TestModuleImports checks the import reader on the forms the client
// writes, and on lines that only look like imports.
func TestModuleImports(t *testing.T) {
	t.Parallel()
	src := `// x.js: what it does; a comment that says import("./comment.js") is no import.
import { h, append } from "./dom.js";
import {
  call,
  signedIn,
} from './api.js';
import * as nav from "./nav.js";
import "./side.js";
export { go } from "./nav.js";
export function f() { return import("../up.js").then(m => m.x); }
export const from = "./not.js";
const routes = [[/^\/$/, () => import("./home.js").then(m => m.home)]];
import("/static/js/abs.js");
`
	want := []string{"static/js/dom.js", "static/js/api.js", "static/js/nav.js", "static/js/side.js", "static/up.js", "static/js/home.js", "static/js/abs.js"}
	if got := moduleImports("static/js", src); !slices.Equal(got, want) {
		t.Errorf("moduleImports = %v, want %v", got, want)
	}
}

// TestModulesImportNoCircle: the client's modules import each other in no
// circle. A page that imports the router while the router imports the
// page runs before the module it needs has finished loading, so which
// names are ready depends on which module the browser reached first; and
// a circle ties every module on it to every other. Pages move between
// screens through nav.js, which the router listens to, never by importing
// main.js.
func TestModulesImportNoCircle(t *testing.T) {
	t.Parallel()
	graph := moduleGraph(t, static)
	if len(graph) < 2 || len(graph["static/js/main.js"]) == 0 {
		t.Fatalf("the client's modules read as %v: main.js and what it imports are missing", graph)
	}
	for _, c := range importCircles(graph) {
		for i := range c {
			c[i] = strings.TrimPrefix(c[i], "static/js/")
		}
		t.Errorf("the modules import each other in a circle: %s", strings.Join(c, " → "))
	}
	for _, m := range slices.Sorted(maps.Keys(graph)) {
		imports := graph[m]
		for _, p := range imports {
			if _, ok := graph[p]; !ok {
				t.Errorf("%s imports %s, which is no module of the client", m, p)
			}
		}
		if slices.Contains(imports, "static/js/main.js") {
			t.Errorf("%s imports main.js, the page's entry point: move between screens with nav.js's go", m)
		}
	}
}
