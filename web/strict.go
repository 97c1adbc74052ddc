package web

import (
	"bytes"
	"io"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// decodeStrict decodes the JSON value at the start of body into v, as the
// API decodes its request bodies (see server's decodeBytes): with the
// semantics of encoding/json/v2, through github.com/go-json-experiment/json,
// so that keys match field names exactly, in case too, a key given twice
// in one object is refused rather than the last one winning, and unknown
// fields and invalid UTF-8 are refused. more reports whether anything
// follows the value.
func decodeStrict(body []byte, v any) (more bool, err error) {
	d := jsontext.NewDecoder(bytes.NewReader(body))
	if err := jsonv2.UnmarshalDecode(d, v, jsonv2.RejectUnknownMembers(true)); err != nil {
		return false, err
	}
	_, err = d.ReadToken()
	return err != io.EOF, nil
}
