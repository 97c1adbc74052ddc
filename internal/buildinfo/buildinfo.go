// Package buildinfo says which build of Parlour is running: the version and
// the commit the Go toolchain stamped into the binary. Operators read it to
// know what a node runs, and a player's bug report can quote it.
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
)

// Info is what the binary knows about its own build. A field the build
// did not record is empty: `go run` stamps no commit, and a binary built
// outside a git checkout has none to stamp.
type Info struct {
	// Version is the main module's version: a tag, a pseudo-version
	// naming the commit, or "(devel)".
	Version string
	// Revision is the commit the binary was built from; Modified says the
	// work tree held changes besides it.
	Revision string
	Modified bool
	// Time is the commit's time (zero when unknown).
	Time time.Time
	// Go is the toolchain's version; Platform is GOOS/GOARCH.
	Go       string
	Platform string
}

// Read reports the running binary's build.
func Read() Info {
	in := Info{Version: "(devel)", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return in
	}
	return parse(bi, in)
}

func parse(bi *debug.BuildInfo, in Info) Info {
	if v := bi.Main.Version; v != "" {
		in.Version = v
	}
	if bi.GoVersion != "" {
		in.Go = bi.GoVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Revision = s.Value
		case "vcs.modified":
			in.Modified = s.Value == "true"
		case "vcs.time":
			if t, err := time.Parse(time.RFC3339, s.Value); err == nil {
				in.Time = t
			}
		}
	}
	return in
}

// Short is the revision cut to twelve characters, git's usual abbreviation,
// with "+dirty" when the tree held changes; "" when no commit was stamped.
func (in Info) Short() string {
	r := in.Revision
	if r == "" {
		return ""
	}
	if len(r) > 12 {
		r = r[:12]
	}
	if in.Modified {
		r += "+dirty"
	}
	return r
}

// String is the one line `parlour version` prints, for example
// "parlour v1.2.0 (df3e33d1a2b3, 2026-12-03 10:15 UTC) go1.26.0 linux/amd64".
// A pseudo-version already names its commit, which is then not repeated.
func (in Info) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "parlour %s", in.Version)
	var about []string
	if s := in.Short(); s != "" && !strings.Contains(in.Version, strings.TrimSuffix(s, "+dirty")) {
		about = append(about, s)
	}
	if !in.Time.IsZero() {
		about = append(about, in.Time.UTC().Format("2006-01-02 15:04 UTC"))
	}
	if len(about) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(about, ", "))
	}
	fmt.Fprintf(&b, " %s %s", in.Go, in.Platform)
	return b.String()
}
