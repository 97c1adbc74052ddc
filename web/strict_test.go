package web

import (
	"strings"
	"testing"
)

// TestStrictBodies: the browser's helper endpoints read their bodies as
// strictly as the API does: exact-case keys, no key twice.
func TestStrictBodies(t *testing.T) {
	reg := Handler().(*handler).reg
	fleet := `{"fleet":["B2-B6","D2-G2","I4-I6","D8-E8","G9-G10"]}`
	good := []func() error{
		func() error { _, err := checkSetup(reg, []byte(`{"game":"salvo","setup":`+fleet+`}`)); return err },
		func() error { _, err := randomSetup(reg, []byte(`{"game":"salvo"}`)); return err },
		func() error { _, err := preview([]byte(previewBody(true, nil, "CAT", "A1 across"))); return err },
	}
	for i, f := range good {
		if err := f(); err != nil {
			t.Fatalf("good body %d refused: %v", i, err)
		}
	}
	for _, tc := range []struct {
		name string
		call func() error
		want string
	}{
		{"check, key in capitals", func() error {
			_, err := checkSetup(reg, []byte(`{"GAME":"salvo","setup":`+fleet+`}`))
			return err
		}, `"GAME"`},
		{"check, key twice", func() error {
			_, err := checkSetup(reg, []byte(`{"game":"salvo","game":"quizl","setup":`+fleet+`}`))
			return err
		}, "appears twice"},
		{"check, key twice inside the setup", func() error {
			_, err := checkSetup(reg, []byte(`{"game":"salvo","setup":{"fleet":[],"fleet":["B2-B6"]}}`))
			return err
		}, "appears twice"},
		{"random, key in another case", func() error { _, err := randomSetup(reg, []byte(`{"Game":"salvo"}`)); return err }, `"Game"`},
		{"random, trailing", func() error { _, err := randomSetup(reg, []byte(`{"game":"salvo"} x`)); return err }, "more after"},
		{"preview, key twice", func() error {
			_, err := preview([]byte(`{"word":"CAT","word":"DOG","grid":[],"placement":"A1 across"}`))
			return err
		}, "appears twice"},
		{"preview, key in capitals", func() error { _, err := preview([]byte(`{"WORD":"CAT"}`)); return err }, `"WORD"`},
	} {
		if err := tc.call(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %s", tc.name, err, tc.want)
		}
	}
}
