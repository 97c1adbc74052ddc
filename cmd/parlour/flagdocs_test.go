package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEveryFlagDocumented: each flag a command's help lists is named in
// the documents, so that an operator or a player who reads them meets
// every switch the program has, and a flag added without a word fails
// here rather than stay unknown.
func TestEveryFlagDocumented(t *testing.T) {
	t.Parallel()
	var docs bytes.Buffer
	pages, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, filepath.Join("..", "..", "README.md"), filepath.Join("..", "..", "bench", "peers", "colyseus", "README.md"))
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		docs.Write(b)
	}
	text := docs.String()
	flagLine := regexp.MustCompile(`(?m)^\s+-([a-z0-9][a-z0-9-]*)`)
	for name := range commands() {
		var out, errOut bytes.Buffer
		run(context.Background(), []string{name, "-h"}, strings.NewReader(""), &out, &errOut)
		for _, m := range flagLine.FindAllStringSubmatch(out.String()+errOut.String(), -1) {
			named := regexp.MustCompile(`(?:^|[^\w-])--?` + regexp.QuoteMeta(m[1]) + `\b`)
			if !named.MatchString(text) {
				t.Errorf("parlour %s's flag -%s is named in no document (docs/*.md, README.md)", name, m[1])
			}
		}
	}
}
