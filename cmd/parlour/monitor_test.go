package main

import (
	"slices"
	"strconv"
	"testing"
)

func TestSteadyMonitorEnv(t *testing.T) {
	t.Parallel()
	trace := "schedtrace=" + strconv.Itoa(steadyTrace)
	base := []string{"HOME=/home/p", "PATH=/usr/bin"}
	tests := []struct {
		name    string
		args    []string
		environ []string
		want    []string // nil: not started again
	}{
		{"no command is serve", nil, base, append(slices.Clone(base), "GODEBUG="+trace)},
		{"serve", []string{"serve", "--addr", ":8080"}, base, append(slices.Clone(base), "GODEBUG="+trace)},
		{"on, said so", []string{"serve", "-steady-monitor=true"}, base, append(slices.Clone(base), "GODEBUG="+trace)},
		{"other settings kept", []string{"serve"}, []string{"GODEBUG=madvdontneed=1", "HOME=/home/p"}, []string{"HOME=/home/p", "GODEBUG=madvdontneed=1," + trace}},
		{"empty GODEBUG", []string{"serve"}, []string{"GODEBUG="}, []string{"GODEBUG=" + trace}},
		{"a flag after --", []string{"serve", "--", "--steady-monitor=false"}, nil, []string{"GODEBUG=" + trace}},
		{"off", []string{"serve", "--steady-monitor=false"}, base, nil},
		{"off, one dash", []string{"serve", "-addr", ":1", "-steady-monitor=0"}, base, nil},
		{"a value serve refuses", []string{"serve", "--steady-monitor=sometimes"}, base, nil},
		{"help", []string{"serve", "-h"}, base, nil},
		{"help, long", []string{"serve", "--help"}, base, nil},
		{"another command", []string{"loadtest", "--rate", "10"}, base, nil},
		{"help on serve", []string{"help", "serve"}, base, nil},
		{"schedtrace set", []string{"serve"}, []string{"GODEBUG=schedtrace=1000"}, nil},
		{"schedtrace set off", []string{"serve"}, []string{"GODEBUG=gctrace=1, schedtrace=0"}, nil},
		{"started again", []string{"serve"}, append(slices.Clone(base), "GODEBUG="+trace), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, ok := steadyMonitorEnv(tc.args, tc.environ)
			if ok != (tc.want != nil) || !slices.Equal(got, tc.want) {
				t.Errorf("steadyMonitorEnv(%q, %q) = %q, %v; want %q", tc.args, tc.environ, got, ok, tc.want)
			}
		})
	}
}
