package tui

import (
	"strings"
	"testing"
)

// FuzzChatCommands: the chat lines that are commands, /report on a
// table's and /mute or /unmute on an event's, are read from whatever a
// player types without a panic; a line is a command exactly when its
// first word is one, and what it names is a word of the line.
func FuzzChatCommands(f *testing.F) {
	for _, s := range []string{"/report Ben chat called me names", "/REPORT", "/report  Ben", "/mute Ben", "/unmute  Ann ", "/mute", "hello", "", " /report x y", "/mutex Ben", "/report\tBen\tchat"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		name, reason, words, ok := reportCommand(line)
		fields := strings.Fields(line)
		if want := len(fields) > 0 && strings.EqualFold(fields[0], "/report"); ok != want {
			t.Fatalf("reportCommand(%q) ok = %v, want %v", line, ok, want)
		}
		if ok && (strings.ContainsAny(name, " \t\n") || strings.ContainsAny(reason, " \t\n") || !strings.Contains(strings.ToLower(line), reason)) {
			t.Fatalf("reportCommand(%q) = %q, %q, %q", line, name, reason, words)
		}
		mname, _, mok := muteCommand(line)
		cmd, _, _ := strings.Cut(line, " ")
		if isMute := strings.EqualFold(cmd, "/mute") || strings.EqualFold(cmd, "/unmute"); mok != isMute {
			t.Fatalf("muteCommand(%q) ok = %v, want %v", line, mok, isMute)
		}
		if mok && mname != strings.TrimSpace(mname) {
			t.Fatalf("muteCommand(%q) names %q, with spaces about it", line, mname)
		}
	})
}

// TestChatCommands: what the commands read from a line, and the lines
// that are messages.
func TestChatCommands(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		line, name, reason, words string
		ok                        bool
	}{
		{"/report Ben chat called me names", "Ben", "chat", "called me names", true},
		{"/Report ben CHEATING", "ben", "cheating", "", true},
		{"/report Ben", "Ben", "", "", true},
		{"/report", "", "", "", true},
		{"/reported Ben chat", "", "", "", false},
		{"report Ben chat", "", "", "", false},
		{"hello /report Ben chat", "", "", "", false},
	} {
		name, reason, words, ok := reportCommand(c.line)
		if name != c.name || reason != c.reason || words != c.words || ok != c.ok {
			t.Errorf("reportCommand(%q) = %q, %q, %q, %v; want %q, %q, %q, %v", c.line, name, reason, words, ok, c.name, c.reason, c.words, c.ok)
		}
	}
	for _, c := range []struct {
		line, name string
		muted, ok  bool
	}{
		{"/mute Ben", "Ben", true, true},
		{"/UNMUTE  Ben ", "Ben", false, true},
		{"/mute", "", true, true},
		{"/muted Ben", "", false, false},
		{"mute Ben", "", false, false},
	} {
		name, muted, ok := muteCommand(c.line)
		if name != c.name || muted != c.muted || ok != c.ok {
			t.Errorf("muteCommand(%q) = %q, %v, %v; want %q, %v, %v", c.line, name, muted, ok, c.name, c.muted, c.ok)
		}
	}
}
