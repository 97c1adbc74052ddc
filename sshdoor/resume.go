package sshdoor

import (
	"cmp"
	"crypto/rand"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/charmbracelet/ssh"
)

// A resume code brings a guest who came without a key back to their
// tables: nothing else the client sends stays the same from one
// connection to the next. The door makes one for each keyless session
// and shows it once the guest has a table; `ssh -t HOST resume CODE`
// plays as that guest again. The code plays as the guest, so it is long
// enough that guessing one is hopeless at the rate the door takes
// connections from an address (about 2^49 codes, ten tries a minute).
const (
	codeLen      = 10
	codeAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ" // no 0/O, 1/I/L
	codePrefix   = "code:"                           // its key among the guests'
)

// newCode draws a resume code.
func newCode() string {
	b := make([]byte, codeLen)
	for i := range b {
		b[i] = codeAlphabet[randIndex(len(codeAlphabet))]
	}
	return string(b)
}

// randIndex draws uniformly from [0, n), n at most 256.
func randIndex(n int) int {
	var b [1]byte
	limit := 256 - 256%n
	for {
		rand.Read(b[:])
		if int(b[0]) < limit {
			return int(b[0]) % n
		}
	}
}

// readCode reads a resume code as a player types it: in any case, with
// or without the dash it is shown with, or spaces.
func readCode(s string) (string, error) {
	code := strings.Map(func(r rune) rune {
		switch r {
		case '-', ' ':
			return -1
		}
		return r
	}, strings.ToUpper(s))
	if len(code) != codeLen || strings.Trim(code, codeAlphabet) != "" {
		return "", fmt.Errorf("%q is not a resume code: one is %d letters and digits, such as %s, shown by the session that played as the guest", clip(s), codeLen, showCode("K7XQM2PA9D"))
	}
	return code, nil
}

// showCode writes code as the door shows it, in two halves.
func showCode(code string) string { return code[:codeLen/2] + "-" + code[codeLen/2:] }

// clip shortens what a player typed for quoting in a refusal.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// resumeCommand is the command that brings the guest of code back: ssh to
// the server's public host, at the port the session came in by.
func (d *Door) resumeCommand(sess ssh.Session, code string) string {
	host := "HOST"
	if u, err := url.Parse(cmp.Or(d.cfg.PublicURL, d.cfg.API)); err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	port := ""
	if a, ok := sess.LocalAddr().(*net.TCPAddr); ok && a.Port != 22 {
		port = "-p " + strconv.Itoa(a.Port) + " "
	}
	return "ssh -t " + port + host + " resume " + showCode(code)
}
