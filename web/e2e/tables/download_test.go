package tables

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"parlour/web/e2e"
)

// TestDownloadedRecord: the record the table's page downloads is the
// server's record, indented: every value as the server wrote it,
// the 64-bit seed too (reading it as a JavaScript number rounded it).
func TestDownloadedRecord(t *testing.T) {
	t.Parallel()
	srv := e2e.NewTestServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", srv.Base)
	ben := e2e.NewPlayer(t, b, "Ben", srv.Base)
	id := ann.CreateTable("nymphabet", "A friend")
	ben.Join(ann.InviteLink())
	ben.Wait("the Abort button", `!!document.querySelector("#abort")`)
	e2e.Eval[bool](ben, `(window.confirm = () => true, true)`)
	ben.Click("#abort")
	ben.Wait("the end", `!!document.querySelector("#game-over")`)
	got := ben.Download("#download")

	res, err := http.Get(srv.Base + "/api/v1/tables/" + id + "/record")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	want, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("the server's record: %s, %v", want, err)
	}
	if !bytes.Contains(want, []byte(`"seed":`)) {
		t.Fatalf("the server's record has no seed to check:\n%s", want)
	}
	var gotC, wantC bytes.Buffer
	if err := json.Compact(&gotC, got); err != nil {
		t.Fatalf("the download is not JSON: %v\n%s", err, got)
	}
	if err := json.Compact(&wantC, want); err != nil {
		t.Fatal(err)
	}
	if gotC.String() != wantC.String() {
		t.Errorf("the download differs from the server's record:\n got %s\nwant %s", gotC.String(), wantC.String())
	}
	if !bytes.Contains(got, []byte("\n  \"game\": \"nymphabet\",\n")) {
		t.Errorf("the download is not indented:\n%s", got)
	}
}
