package moderation

import (
	"net/http"
	"testing"
	"unicode/utf8"

	"parlour/server/auth"
	"parlour/server/refuse"
)

// FuzzDecodeReport: a report's body is refused with a 400 that says
// why, or kept with a name, one of the four reasons, text (some for
// "other"), and a table id of the
// right shape or none; a kept report decodes again to itself.
func FuzzDecodeReport(f *testing.F) {
	for _, s := range []string{
		`{"name": "Bob", "reason": "chat", "text": "rude", "table": "abcdefghijkmnpqr"}`,
		`{"name": "Bob", "reason": "other"}`, `{"name": "Bob", "reason": "other", "text": "  spam\nspam "}`,
		`{"name": "Bob"}`, `{"reason": "chat"}`, `{"name": "Bob", "reason": "cheating", "table": "../x"}`,
		`{"name": "Bob", "reason": "name", "extra": 1}`, `{"name": 7}`, `[]`, ``, `{"name": "Bob", "reason": "chat"} {}`,
		`{"name": "\u202eboB", "reason": "chat", "text": "\u0000"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := DecodeReport(b)
		if err != nil {
			if refuse.Status(err) != http.StatusBadRequest || err.Error() == "" {
				t.Fatalf("DecodeReport(%q): %v with status %d", b, err, refuse.Status(err))
			}
			return
		}
		switch r.Reason {
		case ReasonCheating, ReasonChat, ReasonName, ReasonOther:
		default:
			t.Fatalf("DecodeReport(%q) kept reason %q", b, r.Reason)
		}
		if r.Name == "" || !utf8.ValidString(r.Text) || (r.Reason == ReasonOther && r.Text == "") || (r.Table != "" && !auth.ValidID(r.Table)) {
			t.Fatalf("DecodeReport(%q) = %+v", b, r)
		}
		again := r
		if err := again.check(); err != nil || again != r {
			t.Fatalf("DecodeReport(%q) = %+v, which checks as %+v, %v", b, r, again, err)
		}
	})
}
