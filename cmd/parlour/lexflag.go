package main

import (
	"flag"

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
