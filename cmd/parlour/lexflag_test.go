package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHouseLexiconFlag: --house-lexicon NAME=FILE loads each house list
// under its name, in order; a value that is not NAME=FILE, a name no
// table could carry or one already offered, and a file that is missing or
// no word list are refused, naming the problem.
func TestHouseLexiconFlag(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	club := filepath.Join(dir, "club.txt")
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(club, []byte("# our words\nquizl\nCrane\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("don't\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want string // in the error; "" for none
	}{
		{[]string{"--house-lexicon", "club=" + club, "--house-lexicon", "club-2=" + club}, ""},
		{[]string{"--house-lexicon", club}, "is not NAME=FILE"},
		{[]string{"--house-lexicon", "club="}, "is not NAME=FILE"},
		{[]string{"--house-lexicon", "Club=" + club}, "is no name for a word list"},
		{[]string{"--house-lexicon", "2club=" + club}, "is no name for a word list"},
		{[]string{"--house-lexicon", "our club=" + club}, "is no name for a word list"},
		{[]string{"--house-lexicon", "en-large=" + club}, `"en-large" is already offered`},
		{[]string{"--house-lexicon", "club=" + club, "--house-lexicon", "club=" + club}, `"club" is already offered`},
		{[]string{"--house-lexicon", "club=" + filepath.Join(dir, "none.txt")}, "no such file"},
		{[]string{"--house-lexicon", "club=" + bad}, "club (from " + bad + ")"},
	} {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		house := houseLexiconFlag(fs)
		err := fs.Parse(tt.args)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%q: %v", tt.args, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%q: %v, want an error saying %q", tt.args, err, tt.want)
		case tt.want == "":
			if len(*house) != 2 || (*house)[0].Name() != "club" || (*house)[1].Name() != "club-2" || !(*house)[0].Has("crane") || (*house)[0].Len() != 2 {
				t.Errorf("%q loaded %v", tt.args, *house)
			}
		}
	}
}
