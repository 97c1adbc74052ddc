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
		{raw: `{"clock": "60"}`, wantErr: `rule option clock: want "none", a number of seconds from 10 to 604800, minutes and seconds a move ("5+3"), days a move ("2d"), or a clock object, got "60"`},
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

// TestClockObject: a clock may be written as an object of its kind; a
// turn clock so written resolves to the seconds records have always
// kept, the others to a Clock that records keep as its object. An
// impossible clock is refused naming what is wrong.
func TestClockObject(t *testing.T) {
	for _, tc := range []struct {
		raw     string
		want    any // what resolved rules hold
		record  string
		wantErr string
	}{
		{raw: `{"kind": "turn", "seconds": 60}`, want: 60, record: `60`},
		{raw: `{"kind": "fischer", "initial": 300, "increment": 3}`, want: Clock{Kind: ClockFischer, Initial: 300, Increment: 3}, record: `{"kind":"fischer","initial":300,"increment":3}`},
		{raw: `{"kind": "fischer", "initial": 60}`, want: Clock{Kind: ClockFischer, Initial: 60}, record: `{"kind":"fischer","initial":60,"increment":0}`},
		{raw: `{"increment": 0, "initial": 86400, "kind": "fischer"}`, want: Clock{Kind: ClockFischer, Initial: 86400}, record: `{"kind":"fischer","initial":86400,"increment":0}`},
		{raw: `{"kind": "correspondence", "days": 2}`, want: Clock{Kind: ClockCorrespondence, Days: 2}, record: `{"kind":"correspondence","days":2}`},
		{raw: `{"kind": "fischer", "initial": 0, "increment": 3}`, wantErr: "rule option clock: a fischer clock's initial (seconds for the whole game): 0 is out of range 10-86400"},
		{raw: `{"kind": "fischer", "initial": 300, "increment": -1}`, wantErr: "increment (seconds added for each move): -1 is out of range 0-3600"},
		{raw: `{"kind": "fischer", "initial": 1e12}`, wantErr: "want a whole number"},
		{raw: `{"kind": "fischer", "initial": 99999999999999999999999}`, wantErr: "want a whole number"},
		{raw: `{"kind": "fischer", "initial": 86401}`, wantErr: "out of range"},
		{raw: `{"kind": "fischer", "increment": 3}`, wantErr: `a fischer clock needs "initial"`},
		{raw: `{"kind": "fischer", "initial": "300"}`, wantErr: "want a whole number"},
		{raw: `{"kind": "fischer", "initial": 300, "days": 2}`, wantErr: `a fischer clock has no "days" (it takes initial and increment)`},
		{raw: `{"kind": "correspondence", "days": 0}`, wantErr: "days a move): 0 is out of range 1-14"},
		{raw: `{"kind": "correspondence", "days": 15}`, wantErr: "out of range 1-14"},
		{raw: `{"kind": "correspondence", "days": 1.5}`, wantErr: "want a whole number"},
		{raw: `{"kind": "turn", "seconds": 5}`, wantErr: "out of range 10-604800"},
		{raw: `{"kind": "turn"}`, wantErr: `a turn clock needs "seconds"`},
		{raw: `{"kind": "blitz", "initial": 60}`, wantErr: `"blitz" is no kind of clock`},
		{raw: `{"kind": "Fischer", "initial": 60}`, wantErr: `"Fischer" is no kind of clock`},
		{raw: `{"initial": 60}`, wantErr: `a clock object needs a "kind"`},
		{raw: `{"kind": 3}`, wantErr: `a clock object needs a "kind"`},
		{raw: `{"kind": "fischer", "initial": 60, "initial": 70}`, wantErr: "twice"},
		{raw: `{}`, wantErr: `needs a "kind"`},
	} {
		raw := map[string]json.RawMessage{ClockOption: json.RawMessage(tc.raw)}
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
		if got := r[ClockOption]; got != tc.want {
			t.Errorf("%s: rules hold %#v, want %#v", tc.raw, got, tc.want)
		}
		b, err := json.Marshal(NonDefault(testOptions(), r)[ClockOption])
		if err != nil || string(b) != tc.record {
			t.Errorf("%s: the record keeps %s (%v), want %s", tc.raw, b, err, tc.record)
		}
		// What the record keeps reads back as the same clock.
		again, err := Resolve(testOptions(), map[string]json.RawMessage{ClockOption: b})
		if err != nil || again[ClockOption] != tc.want {
			t.Errorf("%s: the record's %s reads back as %#v, %v", tc.raw, b, again[ClockOption], err)
		}
	}
}

// TestClockText: a clock may be written as players write it, the same
// as its object; what is almost such a form is refused saying which
// forms there are, and a form out of its kind's bounds saying which.
func TestClockText(t *testing.T) {
	for _, tc := range []struct {
		raw     string
		want    any
		wantErr string
	}{
		{raw: `"5+3"`, want: Clock{Kind: ClockFischer, Initial: 300, Increment: 3}},
		{raw: `" 1+0 "`, want: Clock{Kind: ClockFischer, Initial: 60}},
		{raw: `"1:30+1"`, want: Clock{Kind: ClockFischer, Initial: 90, Increment: 1}},
		{raw: `"0:10+0"`, want: Clock{Kind: ClockFischer, Initial: 10}},
		{raw: `"1440+3600"`, want: Clock{Kind: ClockFischer, Initial: 86400, Increment: 3600}},
		{raw: `"2d"`, want: Clock{Kind: ClockCorrespondence, Days: 2}},
		{raw: `"14D"`, want: Clock{Kind: ClockCorrespondence, Days: 14}},
		{raw: `"0+3"`, wantErr: `rule option clock: "0+3": a fischer clock's initial (seconds for the whole game): 0 is out of range 10-86400`},
		{raw: `"1441+0"`, wantErr: `"1441+0": a fischer clock's initial (seconds for the whole game): 86460 is out of range 10-86400`},
		{raw: `"5+3601"`, wantErr: "increment (seconds added for each move): 3601 is out of range 0-3600"},
		{raw: `"15d"`, wantErr: `"15d": a correspondence clock's days (days a move): 15 is out of range 1-14`},
		{raw: `"0d"`, wantErr: "out of range 1-14"},
		{raw: `"9999999+0"`, wantErr: `minutes and seconds a move ("5+3")`},
		{raw: `"5+"`, wantErr: `got "5+"`},
		{raw: `"+3"`, wantErr: `got "+3"`},
		{raw: `"5+-3"`, wantErr: `got "5+-3"`},
		{raw: `"-5+3"`, wantErr: `got "-5+3"`},
		{raw: `"1:5+0"`, wantErr: `got "1:5+0"`},
		{raw: `"1:60+0"`, wantErr: `got "1:60+0"`},
		{raw: `"5 + 3"`, wantErr: `got "5 + 3"`},
		{raw: `"5+3+1"`, wantErr: `got "5+3+1"`},
		{raw: `"d"`, wantErr: `got "d"`},
		{raw: `"2 days"`, wantErr: `got "2 days"`},
		{raw: `"²+3"`, wantErr: `got "²+3"`},
	} {
		r, err := Resolve(testOptions(), map[string]json.RawMessage{ClockOption: json.RawMessage(tc.raw)})
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
		if got := r[ClockOption]; got != tc.want {
			t.Errorf("%s: rules hold %#v, want %#v", tc.raw, got, tc.want)
		}
		if c, _ := ClockOf(r); c.Kind == ClockFischer && `"`+c.String()+`"` != strings.ReplaceAll(tc.raw, " ", "") {
			t.Errorf("%s: says itself as %q", tc.raw, c.String())
		}
	}
}

// TestClockString: clocks as players read them.
func TestClockString(t *testing.T) {
	for c, want := range map[Clock]string{
		{Kind: ClockFischer, Initial: 300, Increment: 3}: "5+3",
		{Kind: ClockFischer, Initial: 60}:                "1+0",
		{Kind: ClockFischer, Initial: 90, Increment: 1}:  "1:30+1",
		{Kind: ClockCorrespondence, Days: 1}:             "1 day a move",
		{Kind: ClockCorrespondence, Days: 2}:             "2 days a move",
		{Kind: ClockTurn, Seconds: 30}:                   "30 seconds a turn",
	} {
		if got := c.String(); got != want {
			t.Errorf("%#v: %q, want %q", c, got, want)
		}
	}
}

// FuzzDecodeClock: DecodeClock never panics; what it accepts is a clock
// within its kind's bounds that encodes and decodes back to itself.
func FuzzDecodeClock(f *testing.F) {
	for _, s := range []string{`60`, `"none"`, `0`, `{"kind":"fischer","initial":300,"increment":3}`, `{"kind":"correspondence","days":2}`,
		`{"kind":"turn","seconds":60}`, `{"kind":"fischer","initial":-1}`, `{"kind":"x"}`, `{"kind":"fischer","initial":1e400}`, `[1]`, `{"kind":null}`, `"5+3"`, `"1:30+1"`, `"2d"`, `"0+3"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := DecodeClock(b)
		if err != nil {
			if v != nil || err.Error() == "" {
				t.Fatalf("%q: %#v with error %v", b, v, err)
			}
			return
		}
		switch c := v.(type) {
		case int:
			if c != 0 && (c < ClockMin || c > ClockMax) {
				t.Fatalf("%q: %d seconds a turn accepted", b, c)
			}
			return
		case Clock:
			ok := c.Kind == ClockFischer && c.Initial >= ClockMin && c.Initial <= FischerInitialMax && c.Increment >= 0 && c.Increment <= FischerIncrementMax && c.Days == 0 && c.Seconds == 0 ||
				c.Kind == ClockCorrespondence && c.Days >= 1 && c.Days <= CorrespondenceDaysMax && c.Initial == 0 && c.Increment == 0 && c.Seconds == 0
			if !ok {
				t.Fatalf("%q: accepted %#v", b, c)
			}
			j, err := json.Marshal(c)
			if err != nil {
				t.Fatal(err)
			}
			if again, err := DecodeClock(j); err != nil || again != v {
				t.Fatalf("%q: %s decodes to %#v, %v", b, j, again, err)
			}
		default:
			t.Fatalf("%q: decoded to %#v", b, v)
		}
	})
}
