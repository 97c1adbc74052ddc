// Command knots prints the largest knot of files in each package its
// patterns name (see package knots):
//
//	go run ./internal/knots/cmd ./server/...
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"

	"parlour/internal/knots"
)

// listed is what go list says of a package.
type listed struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Export     string
	DepOnly    bool
}

func main() {
	log.SetFlags(0)
	patterns := os.Args[1:]
	if len(patterns) == 0 {
		patterns = []string{"./server/..."}
	}
	out, err := exec.Command("go", append([]string{"list", "-export", "-deps", "-json"}, patterns...)...).Output()
	if err != nil {
		log.Fatalf("knots: go list: %v", err)
	}
	exports := map[string]string{}
	var targets []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			log.Fatalf("knots: reading go list: %v", err)
		}
		exports[p.ImportPath] = p.Export
		if !p.DepOnly {
			targets = append(targets, p)
		}
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		f, ok := exports[path]
		if !ok || f == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(f)
	})
	for _, p := range targets {
		var files []*ast.File
		for _, name := range p.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, 0)
			if err != nil {
				log.Fatalf("knots: %v", err)
			}
			files = append(files, f)
		}
		info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
		pkg, err := (&types.Config{Importer: imp}).Check(p.ImportPath, fset, files, info)
		if err != nil {
			log.Fatalf("knots: %s: %v", p.ImportPath, err)
		}
		fmt.Println(knots.Measure(fset, pkg, files, info))
	}
}
