package web

import (
	"errors"

	"parlour/game"
)

// decodeStrict decodes the JSON value at the start of body into v, as the
// API decodes its request bodies: through game.DecodeJSON, so that keys
// match field names exactly, in case too, a key given twice in one object
// is refused rather than the last one winning, and unknown fields and
// invalid UTF-8 are refused. more reports, with a nil error, that the
// value was read but something follows it.
func decodeStrict(body []byte, v any) (more bool, err error) {
	if err := game.DecodeJSON(body, v); err != nil {
		if je, ok := errors.AsType[*game.JSONError](err); ok && je.Trailing {
			return true, nil
		}
		return false, err
	}
	return false, nil
}
