package buildinfo

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	t.Parallel()
	base := Info{Version: "(devel)", Go: "go1.26.0", Platform: "linux/amd64"}
	tests := []struct {
		name  string
		bi    debug.BuildInfo
		short string
		line  string
	}{
		{
			name: "tagged release",
			bi: debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Version: "v1.2.0"}, Settings: []debug.BuildSetting{
				{Key: "vcs.revision", Value: "df3e33d1a2b3c4d5e6f708192a3b4c5d6e7f8091"},
				{Key: "vcs.time", Value: "2026-12-03T10:15:42Z"},
				{Key: "vcs.modified", Value: "false"},
			}},
			short: "df3e33d1a2b3",
			line:  "parlour v1.2.0 (df3e33d1a2b3, 2026-12-03 10:15 UTC) go1.26.1 linux/amd64",
		},
		{
			name: "work tree with changes",
			bi: debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261203101542-df3e33d1a2b3+dirty"}, Settings: []debug.BuildSetting{
				{Key: "vcs.revision", Value: "df3e33d1a2b3c4d5e6f708192a3b4c5d6e7f8091"},
				{Key: "vcs.modified", Value: "true"},
			}},
			short: "df3e33d1a2b3+dirty",
			line:  "parlour v0.0.0-20261203101542-df3e33d1a2b3+dirty go1.26.0 linux/amd64",
		},
		{
			name:  "go run: nothing stamped",
			bi:    debug.BuildInfo{Main: debug.Module{Version: "(devel)"}},
			short: "",
			line:  "parlour (devel) go1.26.0 linux/amd64",
		},
		{
			name: "a time that does not parse is left out",
			bi: debug.BuildInfo{Settings: []debug.BuildSetting{
				{Key: "vcs.revision", Value: "abc"},
				{Key: "vcs.time", Value: "yesterday"},
			}},
			short: "abc",
			line:  "parlour (devel) (abc) go1.26.0 linux/amd64",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := parse(&tt.bi, base)
			if got := in.Short(); got != tt.short {
				t.Errorf("Short() = %q, want %q", got, tt.short)
			}
			if got := in.String(); got != tt.line {
				t.Errorf("String() = %q, want %q", got, tt.line)
			}
		})
	}
}

func TestParseTime(t *testing.T) {
	t.Parallel()
	in := parse(&debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.time", Value: "2026-12-03T10:15:42Z"}}}, Info{})
	if want := time.Date(2026, 12, 3, 10, 15, 42, 0, time.UTC); !in.Time.Equal(want) {
		t.Errorf("Time = %v, want %v", in.Time, want)
	}
}

func TestRead(t *testing.T) {
	t.Parallel()
	in := Read()
	if in.Version == "" {
		t.Error("Read gave no version; want at least (devel)")
	}
	if in.Platform != runtime.GOOS+"/"+runtime.GOARCH {
		t.Errorf("Platform = %q", in.Platform)
	}
	if !strings.HasPrefix(in.String(), "parlour ") || !strings.Contains(in.String(), in.Go) {
		t.Errorf("String() = %q", in.String())
	}
}
