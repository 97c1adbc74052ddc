package main

import (
	"bytes"
	"context"
	"runtime"
	"strings"
	"testing"
)

// TestVersion: "parlour version", --version and -version print one line
// naming the build; arguments are refused.
func TestVersion(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"version"}, 0, ""},
		{[]string{"--version"}, 0, ""},
		{[]string{"-version"}, 0, ""},
		{[]string{"version", "now"}, 2, `takes no arguments, not "now"`},
		{[]string{"version", "-x"}, 2, "flag provided but not defined"},
	} {
		var out, errOut bytes.Buffer
		code := run(context.Background(), tc.args, strings.NewReader(""), &out, &errOut)
		if code != tc.code || !strings.Contains(errOut.String(), tc.err) {
			t.Errorf("%q: exit %d (want %d), stderr %q (want %q)", tc.args, code, tc.code, errOut.String(), tc.err)
			continue
		}
		if tc.code != 0 {
			if out.Len() > 0 {
				t.Errorf("%q: refused yet printed %q", tc.args, out.String())
			}
			continue
		}
		line := out.String()
		if !strings.HasPrefix(line, "parlour ") || !strings.HasSuffix(line, runtime.GOOS+"/"+runtime.GOARCH+"\n") || strings.Count(line, "\n") != 1 {
			t.Errorf("%q printed %q; want one line naming the build", tc.args, line)
		}
	}
}
