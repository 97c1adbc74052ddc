package server

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzDecodeRelay: a request from another node is refused or read as one
// about the table it names, of a known kind; what is read reads back the
// same once encoded again.
func FuzzDecodeRelay(f *testing.F) {
	for _, s := range []string{
		`{"kind":"http","table":"abcdefgh23456789","method":"POST","path":"/api/v1/tables/abcdefgh23456789/moves","body":"e30="}`,
		`{"kind":"http","table":"abcdefgh23456789","method":"GET","path":"/api/v1/tables/zzzzzzzzzzzzzzzz"}`,
		`{"kind":"update","table":"abcdefgh23456789","since":-1,"token":"x"}`,
		`{"kind":"update","table":"abcdefgh23456789","since":4,"chat":-1,"sent":true,"ended":true}`,
		`{"kind":"ping","table":"abcdefgh23456789"}`,
		`{"kind":"http","table":"abcdefgh23456789","method":"TRACE","path":"/api/v1/tables/abcdefgh23456789"}`,
		`{"kind":"nope"}`, `[]`, ``, `{"kind":"update","table":"../x"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		rq, err := decodeRelay(b)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an error without words")
			}
			return
		}
		if !validID(rq.Table) {
			t.Fatalf("read a request about table %q", rq.Table)
		}
		if rq.Kind == "http" {
			if id, _, ok := tablePath(rq.Path); !ok || id != rq.Table {
				t.Fatalf("read a request for %q as about table %s", rq.Path, rq.Table)
			}
		}
		again, _ := json.Marshal(rq)
		rq2, err := decodeRelay(again)
		if err != nil || !reflect.DeepEqual(rq, rq2) {
			t.Fatalf("%+v read back as %+v, %v", rq, rq2, err)
		}
	})
}

// TestDecodeRelayRefuses names what a node refuses from another.
func TestDecodeRelayRefuses(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"not JSON", `{`},
		{"no table", `{"kind":"ping"}`},
		{"a bad table id", `{"kind":"ping","table":"ABC/../x"}`},
		{"unknown kind", `{"kind":"shell","table":"abcdefgh23456789"}`},
		{"another table's path", `{"kind":"http","table":"abcdefgh23456789","method":"GET","path":"/api/v1/tables/zzzzzzzzzzzzzzzz"}`},
		{"a path off the tables", `{"kind":"http","table":"abcdefgh23456789","method":"GET","path":"/api/v1/account"}`},
		{"a method never forwarded", `{"kind":"http","table":"abcdefgh23456789","method":"CONNECT","path":"/api/v1/tables/abcdefgh23456789"}`},
		{"a query in the path", `{"kind":"http","table":"abcdefgh23456789","method":"GET","path":"/api/v1/tables/abcdefgh23456789?x=1"}`},
		{"a version below -1", `{"kind":"update","table":"abcdefgh23456789","since":-2}`},
		{"a chat message below -1", `{"kind":"update","table":"abcdefgh23456789","chat":-2}`},
	} {
		if _, err := decodeRelay([]byte(tc.in)); err == nil {
			t.Errorf("%s: %s was read", tc.name, tc.in)
		}
	}
}
