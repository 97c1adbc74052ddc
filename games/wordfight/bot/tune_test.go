package bot

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

var tuneFlag = flag.String("wordfight.careful", "", "TestSeeds: the careful player's weights, as in rival=1,grids=8 (the rest as tuned)")

// parseCareful returns carefulTuned with the weights s names changed.
func parseCareful(s string) (carefulWeights, error) {
	w := carefulTuned
	if s == "" {
		return w, nil
	}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return w, fmt.Errorf("careful weight %q: want name=value", kv)
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return w, fmt.Errorf("careful weight %q: %w", kv, err)
		}
		ints := map[string]*int{"random": &w.random, "extenders": &w.extenders, "holders": &w.holders,
			"endsmax": &w.endsMax, "grids": &w.grids, "shortlist": &w.shortlist}
		floats := map[string]*float64{"ends": &w.ends, "rival": &w.rival, "strike": &w.strike}
		switch {
		case ints[k] != nil:
			*ints[k] = int(f)
		case floats[k] != nil:
			*floats[k] = f
		default:
			return w, fmt.Errorf("no careful weight %q", k)
		}
	}
	return w, nil
}

func TestParseCareful(t *testing.T) {
	t.Parallel()
	w, err := parseCareful("rival=0.5,grids=3")
	if err != nil || w.rival != 0.5 || w.grids != 3 || w.random != carefulTuned.random {
		t.Errorf("parseCareful: %+v, %v", w, err)
	}
	for _, bad := range []string{"rival", "rival=x", "nerve=1"} {
		if _, err := parseCareful(bad); err == nil {
			t.Errorf("parseCareful(%q): no error", bad)
		}
	}
}
