package game

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestAppendJSONString holds AppendJSONString to json.Marshal's bytes
// for every byte alone and amid plain text, and for strings that need
// escaping.
func TestAppendJSONString(t *testing.T) {
	cases := []string{"", "plain", "Zoë", "a\u2028b", "<b>&amp;</b>", "tab\there", "\"quoted\"", "back\\slash", "\xff\xfe bad", "日本"}
	for c := range 256 {
		cases = append(cases, string([]byte{byte(c)}), "ab"+string([]byte{byte(c)})+"cd")
	}
	for _, s := range cases {
		checkAppendJSONString(t, s)
	}
}

// FuzzAppendJSONString: any string, names and chat included, encodes as
// json.Marshal encodes it.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "Ann", "<script>", "Zoë\u2028", "\x00\x7f\x80"} {
		f.Add(s)
	}
	f.Fuzz(checkAppendJSONString)
}

func checkAppendJSONString(t *testing.T, s string) {
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := AppendJSONString([]byte("x"), s); !bytes.Equal(got[1:], want) || got[0] != 'x' {
		t.Fatalf("%q: got %s, want %s", s, got, want)
	}
}

// TestAppendJSONSlices holds the slice appenders to json.Marshal's bytes,
// nil and empty slices included.
func TestAppendJSONSlices(t *testing.T) {
	check := func(got []byte, v any) {
		t.Helper()
		want, _ := json.Marshal(v)
		if !bytes.Equal(got, want) {
			t.Errorf("%#v: got %s, want %s", v, got, want)
		}
	}
	for _, ss := range [][]string{nil, {}, {"a", "<b>"}} {
		check(AppendJSONStrings(nil, ss), ss)
	}
	for _, xs := range [][]int{nil, {}, {0, 7, 10, -3, 1 << 40}} {
		check(AppendJSONInts(nil, xs), xs)
	}
	for _, xs := range [][]bool{nil, {}, {true, false}} {
		check(AppendJSONBools(nil, xs), xs)
	}
}

// appendedData is event data that encodes itself.
type appendedData struct{ N int }

func (d appendedData) AppendJSON(b []byte) []byte { return fmt.Appendf(b, `{"N":%d}`, d.N) }

// TestAppendJSONEvents holds AppendJSONEvents to json.Marshal's bytes:
// no events, events with and without recipients and data, data that
// encodes itself and data encoded by reflection, text to escape; and
// data json.Marshal cannot encode is an error.
func TestAppendJSONEvents(t *testing.T) {
	for _, evs := range [][]Event{
		nil,
		{},
		{{Kind: "call", Text: "Ann called 72"}},
		{{To: []Seat{0, 2}, Kind: "revealed", Text: "<R> & \u2028", Data: map[string]any{"b": 1, "a": []int{2}}}},
		{{Kind: "x", Text: "y", Data: appendedData{7}}, {To: []Seat{}, Kind: "", Text: "", Data: struct{}{}}},
	} {
		want, err := json.Marshal(evs)
		if err != nil {
			t.Fatal(err)
		}
		got, err := AppendJSONEvents([]byte("x"), evs)
		if err != nil || !bytes.Equal(got[1:], want) || got[0] != 'x' {
			t.Errorf("%+v: got %s, %v; want %s", evs, got, err, want)
		}
	}
	if _, err := AppendJSONEvents(nil, []Event{{Kind: "bad", Data: func() {}}}); err == nil || !strings.Contains(err.Error(), `"bad" event`) {
		t.Errorf("data json cannot encode: got error %v", err)
	}
}
