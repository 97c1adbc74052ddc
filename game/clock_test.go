package game

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestClockOption: every game's rules take a clock of "none" or 10 s to
// 7 days, which a record keeps among its rules only when set; anything
// else is refused naming the option.
func TestClockOption(t *testing.T) {
	for _, tc := range []struct {
		raw     string
		want    int // seconds; 0: no clock
		wantErr string
	}{
		{raw: `{}`},
		{raw: `{"clock": "none"}`},
		{raw: `{"clock": " None "}`},
		{raw: `{"clock": 0}`},
		{raw: `{"clock": 10}`, want: 10},
		{raw: `{"clock": 604800, "penalty": 2}`, want: 604800},
		{raw: `{"clock": 9}`, wantErr: "rule option clock: 9 is out of range 10-604800"},
		{raw: `{"clock": 604801}`, wantErr: "out of range"},
		{raw: `{"clock": -5}`, wantErr: "out of range"},
		{raw: `{"clock": 1.5}`, wantErr: "want a whole number"},
		{raw: `{"clock": "60"}`, wantErr: `rule option clock: want "none" or a number of seconds`},
		{raw: `{"clock": true}`, wantErr: "rule option clock"},
	} {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(tc.raw), &raw); err != nil {
			t.Fatal(err)
		}
		r, err := Resolve(testOptions(), raw)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: err = %v, want one containing %q", tc.raw, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.raw, err)
			continue
		}
		if got := r.Int(ClockOption); got != tc.want {
			t.Errorf("%s: clock %d, want %d", tc.raw, got, tc.want)
		}
		nd := NonDefault(testOptions(), r)
		if v, ok := nd[ClockOption]; (tc.want != 0) != ok || ok && v != tc.want {
			t.Errorf("%s: the record keeps %v (%v), want %d", tc.raw, v, ok, tc.want)
		}
	}
}
