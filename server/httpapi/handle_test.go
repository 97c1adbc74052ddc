package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/server/table"
)

// TestHandle: the adapters read the body first, then who asks, and call
// the endpoint only when both are good; they answer the endpoint's result
// with its status as JSON (nothing for 204), or the first refusal with
// its own status, in a player's words.
func TestHandle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h, ts := newTestHandler(t, generous)
	guest, err := ts.NewIdentity(ctx, "Ann")
	if err != nil {
		t.Fatal(err)
	}
	seat, err := ts.Create(ctx, nil, table.CreateRequest{Game: "guess", Seats: []string{"me", "open"}, Rules: map[string]json.RawMessage{"max": json.RawMessage("100")}})
	if err != nil {
		t.Fatal(err)
	}
	type body struct {
		Say string `json:"say"`
	}
	// echo answers who asked and what they said, or refuses "no".
	echo := func(_ *http.Request, p *auth.Principal, req body) (map[string]string, error) {
		if req.Say == "no" {
			return nil, refuse.Conflict("you said no")
		}
		who := "nobody"
		if p != nil {
			who = p.Identity
		}
		return map[string]string{"who": who, "said": req.Say}, nil
	}
	nothing := func(*http.Request, *auth.Principal) (noContent, error) { return noContent{}, nil }
	// refused is an endpoint that must never run: its request is refused
	// before it.
	refused := func(*http.Request, *auth.Principal) (noContent, error) {
		t.Error("the endpoint ran on a request refused before it")
		return noContent{}, nil
	}
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
		auth    string // the Authorization header, if any
		body    string
		status  int
		want    string // in the answer's body
	}{
		{"a bad body before a missing token", handleJSON(h, bySignedIn, http.StatusCreated, echo), "", `{"say": 1}`, http.StatusBadRequest, "the body is not what was expected"},
		{"an unknown field", handleJSON(h, byAnyone, http.StatusCreated, echo), "", `{"shout": "hi"}`, http.StatusBadRequest, "the body is not what was expected"},
		{"a missing token", handleJSON(h, bySignedIn, http.StatusCreated, echo), "", `{"say": "hi"}`, http.StatusUnauthorized, "sign in first"},
		{"a bad header", handleJSON(h, byToken, http.StatusOK, echo), "Basic x", `{"say": "hi"}`, http.StatusUnauthorized, "Bearer <token>"},
		{"a header nobody reads", handleJSON(h, byAnyone, http.StatusOK, echo), "Basic x", `{"say": "hi"}`, http.StatusOK, `{"said":"hi","who":"nobody"}`},
		{"no token, and none needed", handleJSON(h, byIdentity, http.StatusOK, echo), "", `{"say": "hi"}`, http.StatusOK, `"who":"nobody"`},
		{"an identity", handleJSON(h, bySignedIn, http.StatusCreated, echo), "Bearer " + guest.Token, `{"say": "hi"}`, http.StatusCreated, `"who":"` + guest.ID + `"`},
		{"a seat's token for the whole identity", handleJSON(h, byIdentity, http.StatusOK, echo), "Bearer " + seat.Token, `{"say": "hi"}`, http.StatusForbidden, "that token is a seat's"},
		{"a seat's token at its seat", handleJSON(h, bySeat, http.StatusOK, echo), "Bearer " + seat.Token, `{"say": "hi"}`, http.StatusOK, `"said":"hi"`},
		{"no seat's token", handleJSON(h, bySeat, http.StatusOK, echo), "", `{"say": "hi"}`, http.StatusUnauthorized, "this needs your seat's token"},
		{"the endpoint's refusal", handleJSON(h, byToken, http.StatusOK, echo), "", `{"say": "no"}`, http.StatusConflict, `{"error":"you said no"}`},
		{"a viewer", handleJSON(h, byViewer, http.StatusOK, echo), "Bearer " + guest.Token, `{"say": "hi"}`, http.StatusOK, `"who":"` + guest.ID + `"`},
		{"a viewer without a token", handleJSON(h, byViewer, http.StatusOK, echo), "", `{"say": "hi"}`, http.StatusOK, `"who":"nobody"`},
		{"a viewer with a token never issued", handleJSON(h, byViewer, http.StatusOK, echo), "Bearer nonsense", `{"say": "hi"}`, http.StatusOK, `"who":"nobody"`},
		{"a viewer with a bad header", handleJSON(h, byViewer, http.StatusOK, echo), "Basic x", `{"say": "hi"}`, http.StatusOK, `"who":"nobody"`},
		{"a viewer with a seat's token", handleJSON(h, byViewer, http.StatusOK, echo), "Bearer " + seat.Token, `{"say": "hi"}`, http.StatusOK, `"who":"nobody"`},
		{"no content", handle(h, bySignedIn, http.StatusNoContent, nothing), "Bearer " + guest.Token, "", http.StatusNoContent, ""},
		{"no content, no token", handle(h, bySignedIn, http.StatusNoContent, nothing), "", "", http.StatusUnauthorized, "sign in first"},
		{"no body, sent as {}", handle(h, bySignedIn, http.StatusNoContent, nothing), "Bearer " + guest.Token, " {} \n", http.StatusNoContent, ""},
		{"no body, sent as blanks", handle(h, bySignedIn, http.StatusNoContent, nothing), "Bearer " + guest.Token, " \r\n", http.StatusNoContent, ""},
		{"a body to one that takes none", handle(h, bySignedIn, http.StatusNoContent, refused), "Bearer " + guest.Token, `{"x": 1}`, http.StatusBadRequest, `this request takes no body (send none, or {}): the body is not what was expected: unknown field \"x\"`},
		{"garbage to one that takes none", handle(h, bySignedIn, http.StatusNoContent, refused), "Bearer " + guest.Token, `garbage`, http.StatusBadRequest, "this request takes no body (send none, or {}): the body must be a JSON object"},
		{"a body, and no token", handle(h, bySignedIn, http.StatusNoContent, refused), "", `[1, 2]`, http.StatusBadRequest, "this request takes no body"},
		{"a body that may be left out, left out", handleMaybeJSON(h, byToken, http.StatusOK, echo), "", "", http.StatusOK, `"said":""`},
		{"a body that may be left out, sent", handleMaybeJSON(h, byToken, http.StatusOK, echo), "", `{"say": "hi"}`, http.StatusOK, `"said":"hi"`},
		{"a body that may be left out, wrong", handleMaybeJSON(h, byToken, http.StatusOK, echo), "", `{"shout": "hi"}`, http.StatusBadRequest, `unknown field \"shout\"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(tc.body))
			if tc.auth != "" {
				r.Header.Set("Authorization", tc.auth)
			}
			w := httptest.NewRecorder()
			tc.handler(w, r)
			got := w.Body.String()
			if w.Code != tc.status || !strings.Contains(got, tc.want) || tc.want == "" && got != "" {
				t.Fatalf("answered %d %q, want %d with %q", w.Code, got, tc.status, tc.want)
			}
			switch ct := w.Header().Get("Content-Type"); {
			case tc.status == http.StatusNoContent && ct != "":
				t.Errorf("204 with Content-Type %q", ct)
			case tc.status != http.StatusNoContent && ct != "application/json":
				t.Errorf("Content-Type %q, want application/json", ct)
			}
			if (tc.status == http.StatusUnauthorized) != (w.Header().Get("WWW-Authenticate") != "") {
				t.Errorf("%d with WWW-Authenticate %q", tc.status, w.Header().Get("WWW-Authenticate"))
			}
		})
	}
}
