package server_test

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// layers says which packages of the server each package of the server may
// import (docs/architecture.md draws them as floors): each stands above
// the packages it imports, so that nothing below knows what is built on
// it. "" is the root, which builds every part and may import them all.
var layers = map[string][]string{
	"refuse":              nil,
	"limit":               nil,
	"auth":                {"refuse"},
	"chat":                {"limit", "refuse"},
	"table":               {"chat", "auth", "limit", "refuse"},
	"protocol":            {"table", "auth", "refuse"},
	"players":             {"table", "auth", "refuse"},
	"analyses":            {"table", "auth", "refuse"},
	"relations":           {"players", "table", "auth", "refuse"},
	"social":              {"relations", "players", "table", "auth", "refuse"},
	"daily":               {"players", "table", "auth", "refuse"},
	"seek":                {"social", "protocol", "table", "auth", "refuse"},
	"moderation":          {"players", "table", "chat", "protocol", "auth", "refuse"},
	"mail":                {"social", "players", "table", "auth", "limit", "refuse"},
	"cluster":             {"social", "players", "analyses", "table", "auth", "refuse"},
	"socket":              {"protocol", "social", "table", "auth", "limit", "refuse"},
	"httpapi":             {"socket", "seek", "tournament", "daily", "mail", "social", "relations", "moderation", "players", "analyses", "table", "chat", "protocol", "auth", "limit", "refuse"},
	"tournament/calendar": {"auth"},
	"tournament":          {"social", "players", "protocol", "table", "chat", "auth", "refuse"},
	"internal/servertest": nil,
}

// below are the packages outside the server that every package of the
// server may use (with the packages under them).
var below = []string{
	"parlour/game", "parlour/lexicon", "parlour/store", "parlour/account",
	"parlour/glicko", "parlour/invite", "parlour/analysis", "parlour/internal/text",
	"parlour/pairing",
}

// allowed reports whether the server's package pkg ("" for the root) may
// import imp, and if not, why not.
func allowed(pkg, imp string) (bool, string) {
	if !strings.HasPrefix(imp, "parlour/") {
		return true, "" // the standard library and modules
	}
	if pkg == "" {
		return true, ""
	}
	if rest, ok := strings.CutPrefix(imp, "parlour/server/"); ok {
		if slices.Contains(layers[pkg], rest) {
			return true, ""
		}
		return false, "server/" + rest + " is not below it"
	}
	switch {
	case imp == "parlour/bus" || strings.HasPrefix(imp, "parlour/bus/"):
		return pkg == "cluster", "only the cluster and the root use the bus"
	case imp == "parlour/games":
		return pkg == "httpapi", "only the HTTP API (the editors' helpers) and the root use the games' registry"
	case strings.HasPrefix(imp, "parlour/games/"):
		return false, "games tell the server their facts through game's interfaces"
	}
	for _, b := range below {
		if imp == b || strings.HasPrefix(imp, b+"/") {
			return true, ""
		}
	}
	return false, "it is not one of the packages below the server"
}

// TestLayers holds the server's packages to the import rules of
// docs/architecture.md: each imports only packages below it, only the
// cluster and the root talk to the bus, no package below the HTTP API
// names a game, and the browser's assets import none of the server.
func TestLayers(t *testing.T) {
	t.Parallel()
	goTool, err := exec.LookPath("go")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the go command is needed to list the server's packages: %v", err)
		}
		t.Skip("no go command to list the server's packages")
	}
	out, err := exec.Command(goTool, "list", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "parlour/server/...", "parlour/web").CombinedOutput()
	if err != nil {
		t.Fatalf("go list parlour/server/...: %v\n%s", err, out)
	}
	seen := 0
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		path, imports := f[0], f[1:]
		if path == "parlour/web" {
			for _, imp := range imports {
				if strings.HasPrefix(imp, "parlour/server") || strings.HasPrefix(imp, "parlour/games") {
					t.Errorf("web imports %s: the browser's assets know nothing of the server or the games", imp)
				}
			}
			continue
		}
		pkg := strings.TrimPrefix(strings.TrimPrefix(path, "parlour/server"), "/")
		if _, ok := layers[pkg]; !ok && pkg != "" {
			t.Errorf("server/%s is in no layer: give it one in this test and in docs/architecture.md", pkg)
			continue
		}
		seen++
		for _, imp := range imports {
			if ok, why := allowed(pkg, imp); !ok {
				t.Errorf("%s imports %s: %s", path, imp, why)
			}
		}
	}
	if seen < 5 {
		t.Fatalf("go list found %d of the server's packages: is this the project?\n%s", seen, out)
	}
}

// TestAllowed checks the rules themselves on imports that must pass and
// imports that must not.
func TestAllowed(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		pkg, imp string
		want     bool
	}{
		{"table", "parlour/server/auth", true},
		{"table", "parlour/server/players", false},
		{"auth", "parlour/server/table", false},
		{"refuse", "parlour/server/limit", false},
		{"social", "parlour/server/players", true},
		{"players", "parlour/server/social", false},
		{"daily", "parlour/server/cluster", false},
		{"moderation", "parlour/server/players", true},
		{"moderation", "parlour/server/social", false},
		{"table", "parlour/server/moderation", false},
		{"table", "parlour/server/chat", true},
		{"chat", "parlour/server/table", false},
		{"chat", "parlour/server/httpapi", false},
		{"chat", "parlour/server/socket", false},
		{"chat", "parlour/server/limit", true},
		{"chat", "parlour/server/auth", false},
		{"cluster", "parlour/bus", true},
		{"table", "parlour/bus/nats", false},
		{"httpapi", "parlour/games", true},
		{"table", "parlour/games", false},
		{"httpapi", "parlour/games/quizl", false},
		{"daily", "parlour/store/sqlite", true},
		{"table", "parlour/tui", false},
		{"table", "net/http", true},
		{"", "parlour/games/quizl", true},
	} {
		if got, _ := allowed(c.pkg, c.imp); got != c.want {
			t.Errorf("server/%s importing %s: allowed %v, want %v", c.pkg, c.imp, got, c.want)
		}
	}
}
