package server_test

import (
	"encoding/json"
	"strings"
	"testing"

	"parlour/games/quizl"
	"parlour/server/table"
)

// TestSetupDecodedStrictly sends Quizl and Salvo setups through the HTTP
// API whose keys differ from the documented ones only in case, or appear
// twice: each is refused with a 4xx that names the key, the seat keeps no
// setup, and the documented form is then taken.
func TestSetupDecodedStrictly(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	g, err := quizl.RandomSetup(e.lex, 3)
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := json.Marshal(g.Rows())
	grid, pw := string(rows), `"`+g.Password+`"`
	fleet := `["B2-B6","D2-G2","I4-I6","D8-E8","G9-G10"]`
	for _, tc := range []struct {
		game, name, setup, want string
	}{
		{"quizl", "password in capitals", `{"grid":` + grid + `,"PASSWORD":` + pw + `}`, `"PASSWORD"`},
		{"quizl", "grid with a capital", `{"Grid":` + grid + `,"password":` + pw + `}`, `"Grid"`},
		{"quizl", "password twice", `{"grid":` + grid + `,"password":"CRANE","password":` + pw + `}`, `"password" appears twice`},
		{"quizl", "grid twice", `{"grid":["AAAAA"],"grid":` + grid + `,"password":` + pw + `}`, `"grid" appears twice`},
		{"salvo", "fleet in capitals", `{"FLEET":` + fleet + `}`, `"FLEET"`},
		{"salvo", "fleet with a capital", `{"Fleet":` + fleet + `}`, `"Fleet"`},
		{"salvo", "fleet twice", `{"fleet":[],"fleet":` + fleet + `}`, `"fleet" appears twice`},
	} {
		t.Run(tc.game+", "+tc.name, func(t *testing.T) {
			ann := &person{e: e, name: "Ann", gname: tc.game}
			var seated table.Seated
			if st, b := ann.post("/api/v1/tables", map[string]any{"game": tc.game, "seats": []string{"me", "computer:easy"}, "name": "Ann"}, &seated); st != 201 && st != 200 {
				t.Fatalf("create: %d %s", st, b)
			}
			ann.token, ann.table = seated.Token, seated.Table
			body := `{"setup":` + tc.setup + `}`
			st, b := ann.do("POST", "/api/v1/tables/"+ann.table+"/setup", strings.NewReader(body))
			var refusal struct {
				Error string `json:"error"`
			}
			json.Unmarshal(b, &refusal)
			if st < 400 || st >= 500 || !strings.Contains(refusal.Error, tc.want) {
				t.Fatalf("setup %s: %d %s, want a refusal saying %s", body, st, b, tc.want)
			}
			var u wireUpdate
			if err := json.Unmarshal(ann.get("/api/v1/tables/"+ann.table), &u); err != nil {
				t.Fatal(err)
			}
			if u.Table.Status != "setup" {
				t.Fatalf("after a refused setup the table is %q, want still in setup", u.Table.Status)
			}
			good := `{"setup":{"grid":` + grid + `,"password":` + pw + `}}`
			if tc.game == "salvo" {
				good = `{"setup":{"fleet":` + fleet + `}}`
			}
			if st, b := ann.do("POST", "/api/v1/tables/"+ann.table+"/setup", strings.NewReader(good)); st != 200 {
				t.Fatalf("the documented setup %s after the refusal: %d %s", good, st, b)
			}
		})
	}
}
