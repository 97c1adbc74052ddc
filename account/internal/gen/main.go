// Command gen makes the account package's list of common passwords from
// the frequency-ordered list in the npm package @zxcvbn-ts/language-common
// (MIT licence; see ../../data/common-passwords.NOTICE). It keeps the
// commonest passwords in order, folded to lower case, each once, and
// writes them one a line, gzipped.
//
// To remake the list (npm and Go are all it needs):
//
//	dir=$(mktemp -d)
//	(cd $dir && npm pack @zxcvbn-ts/language-common@4.1.3 && tar xzf zxcvbn-ts-language-common-4.1.3.tgz)
//	go run ./account/internal/gen -in $dir/package/src/passwords.json -out account/data/common-passwords.txt.gz
//
// The output is deterministic: the same input gives the same bytes.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
)

func main() {
	in := flag.String("in", "", "the package's src/passwords.json")
	out := flag.String("out", "account/data/common-passwords.txt.gz", "the file to write")
	n := flag.Int("n", 10000, "how many passwords to keep")
	flag.Parse()
	if err := run(*in, *out, *n); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(in, out string, n int) error {
	if in == "" {
		return errors.New("say where passwords.json is with -in")
	}
	raw, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	var all []string
	if err := json.Unmarshal(raw, &all); err != nil {
		return fmt.Errorf("reading %s: %w", in, err)
	}
	list, err := commonest(all, n)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	data, err := pack(list)
	if err != nil {
		return err
	}
	return os.WriteFile(out, data, 0o644)
}

// commonest returns the first n distinct passwords of all, in order,
// folded to lower case. A password holding a newline could not be stored
// one a line and is refused.
func commonest(all []string, n int) ([]string, error) {
	seen := make(map[string]bool, n)
	var list []string
	for _, p := range all {
		if len(list) == n {
			break
		}
		k := strings.ToLower(p)
		if k == "" || strings.ContainsAny(k, "\r\n") {
			return nil, fmt.Errorf("password %q cannot be stored one a line", p)
		}
		if !seen[k] {
			seen[k] = true
			list = append(list, k)
		}
	}
	if len(list) < n {
		return nil, fmt.Errorf("only %d distinct passwords, want %d", len(list), n)
	}
	return list, nil
}

// pack writes list one a line and gzips it, with no name or time in the
// header so that the output depends on the list alone.
func pack(list []string) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	for _, p := range list {
		zw.Write([]byte(p))
		zw.Write([]byte{'\n'})
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
