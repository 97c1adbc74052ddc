package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"parlour/lexicon"
)

// lexiconUsage describes a --lexicon flag's value.
const lexiconUsage = "the lexicon: en (default), en-common, en-large, or a word-list file (one word a line)"

// lexiconFlag defines a --lexicon flag on fl, defaulting to the default
// lexicon's name.
func lexiconFlag(fl *flag.FlagSet) *string {
	return fl.String("lexicon", lexicon.DefaultName, lexiconUsage)
}

// loadLexicon returns the lexicon a --lexicon flag names: an embedded
// lexicon (en, en-common, en-large) or the path of a house word list. An
// empty name means the default, en.
func loadLexicon(name string) (*lexicon.Lexicon, error) {
	if name == "" {
		name = lexicon.DefaultName
	}
	return lexicon.Load(name)
}

// houseUsage describes the --house-lexicon flag of serve.
const houseUsage = "add a house word list, offered to tables beside the embedded lexicons: NAME=FILE, the list's name (lower-case letters, digits and -, starting with a letter) and its file, one word a line (docs/lexicon.md); repeat the flag for several"

// houseLexiconFlag defines serve's repeatable --house-lexicon NAME=FILE
// flag on fl: each loads the house word list in FILE under NAME, refusing
// a name that is not one or is taken. It returns the lists loaded.
func houseLexiconFlag(fl *flag.FlagSet) *[]*lexicon.Lexicon {
	var out []*lexicon.Lexicon
	fl.Func("house-lexicon", houseUsage, func(v string) error {
		name, path, ok := strings.Cut(v, "=")
		if !ok || path == "" {
			return fmt.Errorf("%q is not NAME=FILE", v)
		}
		if err := houseName(name); err != nil {
			return err
		}
		if slices.Contains(lexicon.Names(), name) || slices.ContainsFunc(out, func(l *lexicon.Lexicon) bool { return l.Name() == name }) {
			return fmt.Errorf("the word list %q is already offered: give the house list another name", name)
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		l, err := lexicon.Parse(name, f)
		if err != nil {
			return fmt.Errorf("%s (from %s): %w", name, path, err)
		}
		out = append(out, l)
		return nil
	})
	return &out
}

// houseName refuses a house list's name that a table's description, a
// record and a URL could not carry as it is.
func houseName(name string) error {
	ok := name != "" && len(name) <= 32 && name[0] >= 'a' && name[0] <= 'z'
	for _, c := range name {
		ok = ok && (c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-')
	}
	if !ok {
		return fmt.Errorf("%q is no name for a word list: use up to 32 lower-case letters, digits and -, starting with a letter", name)
	}
	return nil
}
