package docs

import (
	"io/fs"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// unfenced returns md without its fenced code blocks, whose brackets are
// not links and whose lines are not headings.
func unfenced(md string) string {
	return regexp.MustCompile("(?s)```.*?```").ReplaceAllString(md, "")
}

// links returns the relative link targets of a Markdown text: not those
// with a scheme (https:, mailto:), nor those inside fenced code.
func links(md string) []string {
	// A link or an image, [text](target) with an optional title.
	link := regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	var out []string
	for _, m := range link.FindAllStringSubmatch(unfenced(md), -1) {
		t := m[1]
		if i := strings.Index(t, ":"); i > 0 && !strings.ContainsAny(t[:i], "/#.") {
			continue // a scheme
		}
		out = append(out, t)
	}
	return out
}

// slug is the anchor a heading gets where the documents are read (GitHub):
// lower case, spaces to hyphens, and every other character that is not a
// letter, digit, hyphen or underscore dropped.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors returns the slugs of a Markdown text's headings.
func anchors(md string) []string {
	var out []string
	for _, line := range strings.Split(unfenced(md), "\n") {
		if h, ok := strings.CutPrefix(line, "#"); ok {
			out = append(out, slug(strings.TrimLeft(h, "#")))
		}
	}
	return out
}

func TestLinksHelpers(t *testing.T) {
	for _, c := range []struct {
		md   string
		want []string
	}{
		{"see [the rules](rules/index.md).", []string{"rules/index.md"}},
		{"[a](a.md) and [b](../b.md#part \"title\")", []string{"a.md", "../b.md#part"}},
		{"[site](https://example.com) [mail](mailto:a@b.c) [top](#top)", []string{"#top"}},
		{"```\n[not](a-link.md)\n```\n[yes](y.md)", []string{"y.md"}},
		{"no links [here] (x.md) or ](y.md", nil},
		{"![shot](screenshots/home.png)", []string{"screenshots/home.png"}},
	} {
		if got := links(c.md); !slices.Equal(got, c.want) {
			t.Errorf("links(%q) = %q, want %q", c.md, got, c.want)
		}
	}
	for _, c := range []struct{ heading, want string }{
		{"Daily puzzles", "daily-puzzles"},
		{" Accounts and sessions ", "accounts-and-sessions"},
		{"The top table's earlier entries", "the-top-tables-earlier-entries"},
		{"1. Slow request bodies (TestSlowBodyAttack)", "1-slow-request-bodies-testslowbodyattack"},
		{"`parlour replay`, and --json", "parlour-replay-and---json"},
	} {
		if got := slug(c.heading); got != c.want {
			t.Errorf("slug(%q) = %q, want %q", c.heading, got, c.want)
		}
	}
	if got, want := anchors("# Title\ntext\n## A part\n```\n# not a heading\n```\n"), []string{"title", "a-part"}; !slices.Equal(got, want) {
		t.Errorf("anchors = %q, want %q", got, want)
	}
}

// TestLinks checks every relative link of the README and of the documents
// under docs/: its file exists, and a #part names a heading of it. Files
// and sections move as documents are rewritten; a reader should not
// follow a link to nothing.
func TestLinks(t *testing.T) {
	root := os.DirFS("..")
	checked := 0
	for _, page := range pages(t, root) {
		b, err := fs.ReadFile(root, page)
		if err != nil {
			t.Fatal(err)
		}
		for _, target := range links(string(b)) {
			file, part, _ := strings.Cut(target, "#")
			p := page
			if file != "" {
				p = path.Join(path.Dir(page), file)
			}
			if strings.HasPrefix(p, "../") {
				t.Errorf("%s: %s leads out of the repository", page, target)
				continue
			}
			checked++
			st, err := fs.Stat(root, p)
			if err != nil {
				t.Errorf("%s: %s leads to nothing (%s)", page, target, p)
				continue
			}
			if part == "" {
				continue
			}
			if st.IsDir() || !strings.HasSuffix(p, ".md") {
				t.Errorf("%s: %s names a part of something that is not a document", page, target)
				continue
			}
			md, err := fs.ReadFile(root, p)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(anchors(string(md)), part) {
				t.Errorf("%s: %s names no heading of %s", page, target, p)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no links found: the pages were not read")
	}
}
