package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestRulesCommand(t *testing.T) {
	tests := []struct {
		game string
		code int
		want string
	}{
		{"quizl", 0, "Quizl"},
		{"SALVO", 0, "Salvo"},
		{"wordfight", 0, "Word Fight"},
		{"nymphabet", 0, "Nymphabet"},
		{"chess", 2, ""},
		{"index", 2, ""},
		{"../go.mod", 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.game, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(context.Background(), []string{"rules", tt.game}, nil, &out, &errb)
			if code != tt.code {
				t.Fatalf("exit %d, want %d (%s)", code, tt.code, errb.String())
			}
			if !strings.Contains(out.String(), tt.want) {
				t.Fatalf("output lacks %q", tt.want)
			}
			if tt.code != 0 && !strings.Contains(errb.String(), "no game called") {
				t.Fatalf("stderr = %q", errb.String())
			}
		})
	}
}
