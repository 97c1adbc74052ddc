package web

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"parlour/docs"
)

// rulesPage is the page around one rules document: the site's own
// stylesheet and header, so that a rules page opened from a link looks
// like the rest of Parlour. It reads without JavaScript; its one script,
// the header's, folds the links into a menu on a phone and names the
// account signed in, as every other page's header does.
var rulesPage = template.Must(template.New("rules").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>{{.Title}} · Parlour</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/app.css">
<script type="module" src="/static/js/top.js"></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
{{.Header}}
<main id="main" tabindex="-1">
<article class="doc">
{{.Body}}
</article>
<p class="row">{{if .Game}}<a class="button primary" href="/new/{{.Game}}">Open a table of {{.Title}}</a> {{end}}<a href="/rules">All the rules</a> <a href="/">Back to the games</a></p>
</main>
</body>
</html>
`))

// mdLink is a link between rules documents ("quizl.md#scoring").
var mdLink = regexp.MustCompile(`^([a-z]+)\.md(#[A-Za-z0-9_-]*)?$`)

// rulesLinks points links between rules documents at their pages
// (quizl.md becomes /rules/quizl, index.md /rules).
type rulesLinks struct{}

// It also marks a table of rule options (its last column "meaning")
// with the class options, which a narrow screen lays out as rows of
// their own: squeezed into a fourth column, the meanings ran a word a
// line past the screen's edge.
func (rulesLinks) Transform(doc *ast.Document, r text.Reader, _ parser.Context) {
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*east.TableHeader); ok && entering {
			if last := h.LastChild(); last != nil && plain(last, r.Source()) == "meaning" {
				h.Parent().SetAttributeString("class", []byte("options"))
			}
		}
		if l, ok := n.(*ast.Link); ok && entering {
			if m := mdLink.FindSubmatch(l.Destination); m != nil {
				dest := "/rules/" + string(m[1])
				if string(m[1]) == "index" {
					dest = "/rules"
				}
				l.Destination = []byte(dest + string(m[2]))
			}
		}
		return ast.WalkContinue, nil
	})
}

// plain is the text of n's inline children, without their marks.
func plain(n ast.Node, src []byte) string {
	var b strings.Builder
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			b.Write(t.Segment.Value(src))
		}
		return ast.WalkContinue, nil
	})
	return strings.TrimSpace(b.String())
}

// rulesPages renders every docs/rules/*.md as a page, by URL path
// (/rules for index.md, /rules/quizl for quizl.md). header is the site's
// header, as index.html has it. Raw HTML in the documents is not passed
// through: goldmark leaves it out unless told otherwise.
func rulesPages(header string) (map[string]*asset, error) {
	md := goldmark.New(
		goldmark.WithExtensions(extension.Table),
		goldmark.WithParserOptions(parser.WithAutoHeadingID(),
			parser.WithASTTransformers(util.Prioritized(rulesLinks{}, 100))),
	)
	names, err := fs.Glob(docs.Rules, "rules/*.md")
	if err != nil {
		return nil, err
	}
	out := map[string]*asset{}
	for _, p := range names {
		src, err := fs.ReadFile(docs.Rules, p)
		if err != nil {
			return nil, err
		}
		var body bytes.Buffer
		if err := md.Convert(src, &body); err != nil {
			return nil, fmt.Errorf("rendering %s: %w", p, err)
		}
		name := strings.TrimSuffix(path.Base(p), ".md")
		title := "Rules"
		if line, _, _ := strings.Cut(string(src), "\n"); strings.HasPrefix(line, "# ") {
			title = strings.TrimSpace(strings.TrimPrefix(line, "# "))
		}
		url, game := "/rules/"+name, name
		if name == "index" {
			url, game = "/rules", ""
		}
		var page bytes.Buffer
		err = rulesPage.Execute(&page, struct {
			Title, Game  string
			Header, Body template.HTML
		}{title, game, template.HTML(header), template.HTML(body.String())})
		if err != nil {
			return nil, fmt.Errorf("rendering %s: %w", p, err)
		}
		out[url] = newAsset(name+".html", page.Bytes())
	}
	return out, nil
}

// siteHeader cuts the site's header out of index.html, so that the rules
// pages share it rather than copy it. Its Rules link is marked as the
// current page, as main.js marks the link of the screen shown: a rules
// page does not run the router that does it.
func siteHeader(index []byte) (string, error) {
	s := string(index)
	i := strings.Index(s, "<header")
	j := strings.Index(s, "</header>")
	if i < 0 || j < i {
		return "", fmt.Errorf("static/index.html has no <header>")
	}
	const rules = `<a href="/rules">`
	header := s[i : j+len("</header>")]
	if !strings.Contains(header, rules) {
		return "", fmt.Errorf("the header of static/index.html has no %s link", rules)
	}
	return strings.Replace(header, rules, `<a href="/rules" aria-current="page">`, 1), nil
}
