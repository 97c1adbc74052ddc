package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func TestBenchCommand(t *testing.T) {
	tests := []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"bench", "nymphabet", "--games", "1"}, 0, "strong first vs easy"},
		{[]string{"bench", "--games", "1", "nymphabet"}, 0, "cyclic:"},
		{[]string{"bench", "chess"}, 2, ""},
		{[]string{"bench", "nymphabet", "--games", "0"}, 2, ""},
		{[]string{"bench"}, 2, ""},
		{[]string{"bench", "nymphabet", "--lexicon", "no-such-lexicon"}, 2, ""},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(context.Background(), tt.args, nil, &out, &errb)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tt.code, errb.String())
			}
			if !strings.Contains(out.String(), tt.out) {
				t.Fatalf("output lacks %q:\n%s", tt.out, out.String())
			}
		})
	}
}

func TestBenchJSON(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"bench", "nymphabet", "--games", "1", "--json"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got struct {
		Game     string `json:"game"`
		Matchups []struct {
			Name  string `json:"name"`
			Games int    `json:"games"`
		} `json:"matchups"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	if got.Game != "nymphabet" || len(got.Matchups) == 0 || got.Matchups[0].Games != 1 {
		t.Fatalf("got %+v", got)
	}
}
