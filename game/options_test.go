package game

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func testOptions() []Option {
	return []Option{
		{Name: "penalty", Kind: Int, Default: 1, Min: 0, Max: 5, Help: "points off"},
		{Name: "multiply", Kind: Bool, Default: true, Help: "multiply"},
		{Name: "mode", Kind: Choice, Default: "standard", Choices: []string{"standard", "cyclic"}, Help: "mode"},
		{Name: "shape", Kind: Text, Default: "", Help: "mask", Check: func(v any) error {
			if strings.Trim(v.(string), ".#/") != "" {
				return errors.New("use only . # and /")
			}
			return nil
		}},
	}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		raw     string
		want    Rules
		wantErr string
	}{
		{raw: `{}`, want: Rules{"penalty": 1, "multiply": true, "mode": "standard", "shape": ""}},
		{raw: `{"penalty": 3, "mode": "Cyclic"}`, want: Rules{"penalty": 3, "multiply": true, "mode": "cyclic", "shape": ""}},
		{raw: `{"multiply": false, "shape": "..#/#.."}`, want: Rules{"penalty": 1, "multiply": false, "mode": "standard", "shape": "..#/#.."}},
		{raw: `{"penalty": 6}`, wantErr: "rule option penalty: 6 is out of range 0-5"},
		{raw: `{"penalty": -1}`, wantErr: "out of range"},
		{raw: `{"penalty": 1.5}`, wantErr: "want a whole number"},
		{raw: `{"penalty": "1"}`, wantErr: "want a whole number"},
		{raw: `{"penalty": 99999999999999999999}`, wantErr: "want a whole number"},
		{raw: `{"multiply": 1}`, wantErr: "want true or false"},
		{raw: `{"penalty": null}`, wantErr: "rule option penalty: null is no value"},
		{raw: `{"multiply": null}`, wantErr: "rule option multiply: null is no value"},
		{raw: `{"mode": null}`, wantErr: "rule option mode: null is no value"},
		{raw: `{"clock": null}`, wantErr: "null is no value"},
		{raw: `{"mode": "spiral"}`, wantErr: `"spiral" is not one of standard, cyclic`},
		{raw: `{"mode": 3}`, wantErr: "want one of"},
		{raw: `{"shape": "abc"}`, wantErr: "rule option shape: use only"},
		{raw: `{"colour": "red"}`, wantErr: `unknown rule option "colour" (the options are penalty, multiply, mode, shape, clock)`},
		{raw: `{"` + strings.Repeat("x", 60) + `": 1}`, wantErr: `unknown rule option "` + strings.Repeat("x", 40) + `..." (the options`},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			var raw map[string]json.RawMessage
			if err := json.Unmarshal([]byte(tt.raw), &raw); err != nil {
				t.Fatal(err)
			}
			got, err := Resolve(testOptions(), raw)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("%s = %v, want %v", k, got[k], v)
				}
			}
		})
	}
}

func TestResolveValuesAndNonDefault(t *testing.T) {
	r, err := ResolveValues(testOptions(), map[string]any{"penalty": 4.0, "mode": "cyclic"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Int("penalty") != 4 || r.String("mode") != "cyclic" || !r.Bool("multiply") {
		t.Fatalf("resolved %v", r)
	}
	nd := NonDefault(testOptions(), r)
	if len(nd) != 2 || nd["penalty"] != 4 || nd["mode"] != "cyclic" {
		t.Fatalf("NonDefault = %v", nd)
	}
}

// TestOptionJSON: an Int option says both bounds even when one is 0, so
// that a form can show its range; other kinds carry no bounds.
func TestOptionJSON(t *testing.T) {
	for _, tc := range []struct {
		o    Option
		want string
	}{
		{Option{Name: "wrong", Label: "Wrong", Kind: Int, Default: 0, Min: 0, Max: 5, Help: "h"}, `{"name":"wrong","label":"Wrong","kind":"int","default":0,"help":"h","min":0,"max":5}`},
		{Option{Name: "n", Kind: Int, Default: 3, Min: 1, Max: 9}, `{"name":"n","label":"","kind":"int","default":3,"help":"","min":1,"max":9}`},
		{Option{Name: "b", Kind: Bool, Default: true}, `{"name":"b","label":"","kind":"bool","default":true,"help":""}`},
		{Option{Name: "c", Kind: Choice, Default: "x", Choices: []string{"x", "y"}}, `{"name":"c","label":"","kind":"choice","default":"x","choices":["x","y"],"help":""}`},
	} {
		b, err := json.Marshal(tc.o)
		if err != nil || string(b) != tc.want {
			t.Errorf("%s: %s, %v; want %s", tc.o.Name, b, err, tc.want)
		}
		b, _ = json.Marshal([]Option{tc.o})
		if string(b) != "["+tc.want+"]" {
			t.Errorf("%s in a slice: %s", tc.o.Name, b)
		}
	}
}

// TestResolveSaysNamesInWords: an option's key never reaches a player in
// an error; its name is said with spaces, as the forms label it.
func TestResolveSaysNamesInWords(t *testing.T) {
	opts := []Option{{Name: "strike_limit", Kind: Int, Default: 3, Min: 1, Max: 9}}
	_, err := Resolve(opts, map[string]json.RawMessage{"strike_limit": json.RawMessage("0")})
	if err == nil || strings.Contains(err.Error(), "strike_limit") || !strings.Contains(err.Error(), "rule option strike limit: 0 is out of range 1-9") {
		t.Errorf("Resolve = %v, want the option named in words", err)
	}
}
