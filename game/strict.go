package game

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// JSONError is a refusal of DecodeJSON, worded for a player: what is
// wrong, without naming what was being read, so that each caller can say
// that ("the body is not what was expected: ...", "a Salvo setup is
// ...: ...").
type JSONError struct {
	// Problem says what is wrong, e.g. `unknown field "MOVE" (field
	// names are lower case, as documented)`.
	Problem string
	// Trailing is set when the value was read whole but something
	// follows it.
	Trailing bool
	// Err is the decoder's own error.
	Err error
}

func (e *JSONError) Error() string { return e.Problem }
func (e *JSONError) Unwrap() error { return e.Err }

// DecodeJSON decodes the one JSON value in b into v, strictly, with the
// semantics of encoding/json/v2 (through github.com/go-json-experiment/json,
// the same code, since v2 needs a GOEXPERIMENT in Go 1.26): keys match
// field names exactly, in case too ({"PASSWORD": ...} is an unknown field,
// not the password); a key given twice in one object, at any depth, is
// refused rather than the last one winning; unknown fields, invalid UTF-8
// and anything after the value are refused. encoding/json does none of
// these, so a player's request could mean something other than what it
// seemed to say. The server's request bodies, the browser's helper
// endpoints and the games' setups are all read through it; its errors are
// a *JSONError.
func DecodeJSON(b []byte, v any) error {
	if err := jsonv2.Unmarshal(b, v, jsonv2.RejectUnknownMembers(true)); err != nil {
		return jsonError(err)
	}
	return nil
}

// jsonError rewords the decoder's error for people.
func jsonError(err error) *JSONError {
	e := &JSONError{Err: err}
	var syn *jsontext.SyntacticError
	var sem *jsonv2.SemanticError
	where := func(p jsontext.Pointer) string {
		if p == "" {
			return ""
		}
		return fmt.Sprintf(" (at %s)", p)
	}
	switch {
	case errors.As(err, &syn):
		switch {
		case errors.Is(syn.Err, jsontext.ErrDuplicateName):
			e.Problem = fmt.Sprintf("the key %q appears twice in one object%s: give each key once", syn.JSONPointer.LastToken(), where(syn.JSONPointer))
		case syn.Err != nil && strings.Contains(syn.Err.Error(), "UTF-8"):
			e.Problem = fmt.Sprintf("a string is not valid UTF-8%s", where(syn.JSONPointer))
		case errors.Is(syn.Err, io.ErrUnexpectedEOF):
			e.Problem = "the JSON ends too early"
		case strings.Contains(syn.Error(), "after top-level value"):
			e.Problem, e.Trailing = "there is more after the JSON value", true
		default:
			e.Problem = fmt.Sprintf("malformed JSON at byte %d: %v", syn.ByteOffset, syn.Err)
		}
	case errors.As(err, &sem):
		field := strings.TrimPrefix(string(sem.JSONPointer), "/")
		switch {
		case errors.Is(sem.Err, jsonv2.ErrUnknownName):
			e.Problem = unknownField(sem.JSONPointer.LastToken(), sem.GoType)
		case field != "" && sem.JSONKind == '0' && errors.Is(sem.Err, strconv.ErrRange):
			// A whole number the field cannot hold: saying it "should be
			// a whole number, not a number" left the sender guessing.
			v := numberWords(sem.JSONValue)
			if strings.HasPrefix(v, "-") {
				e.Problem = fmt.Sprintf("field %q is too far below zero (%s)", field, v)
			} else {
				e.Problem = fmt.Sprintf("field %q is too large a number (%s)", field, v)
			}
		case field != "" && sem.JSONKind == '0' && len(sem.JSONValue) > 0 && strings.HasPrefix(typeWords(sem.GoType), "a whole number"):
			// A fraction, an exponent, or a count below zero.
			e.Problem = fmt.Sprintf("field %q should be %s, not %s", field, typeWords(sem.GoType), numberWords(sem.JSONValue))
		case field != "":
			e.Problem = fmt.Sprintf("field %q should be %s, not %s", field, typeWords(sem.GoType), kindWords(sem.JSONKind))
		default:
			e.Problem = fmt.Sprintf("want %s, not %s", typeWords(sem.GoType), kindWords(sem.JSONKind))
		}
	default:
		e.Problem = err.Error()
	}
	return e
}

// unknownField says that name is not a field of the object read into t,
// and which are: a sender who wrote "fleet" where "setup" holds the fleet
// learns what this object takes, which a note on letter case alone did
// not tell them. The note stays for a name with capitals.
func unknownField(name string, t reflect.Type) string {
	msg := fmt.Sprintf("unknown field %q", name)
	if strings.ToLower(name) != name {
		msg += " (field names are lower case, as documented)"
	}
	if names := fieldNames(t); len(names) > 0 {
		msg += fmt.Sprintf(": here the fields are %s", quoteAll(names))
	}
	return msg
}

// fieldNames lists the JSON names of struct type t's fields, those of
// embedded structs without a name of their own included.
func fieldNames(t reflect.Type) []string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var out []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-" || (!f.IsExported() && !f.Anonymous):
			continue
		case f.Anonymous && name == "":
			out = append(out, fieldNames(f.Type)...)
			continue
		case name == "":
			name = f.Name
		}
		out = append(out, name)
	}
	return out
}

// quoteAll writes names quoted, joined by commas and a last "and".
func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// numberWords quotes a JSON number back to its sender, clipped: a
// number may be as long as the body.
func numberWords(v []byte) string {
	const most = 21
	if len(v) > most {
		return string(v[:most]) + "…"
	}
	return string(v)
}

// kindWords names the kind of a JSON value as typeWords names a Go type:
// the decoder's own names are "number" and "string", and "[" and "{" for
// a list and an object.
func kindWords(k jsontext.Kind) string {
	switch k {
	case '"':
		return "a string"
	case '0':
		return "a number"
	case '[':
		return "a list"
	case '{':
		return "an object"
	case 't', 'f':
		return "true or false"
	case 'n':
		return "null"
	}
	return "something else"
}

// typeWords names a Go type the way the sender of JSON thinks of it.
func typeWords(t interface{ String() string }) string {
	if t == nil {
		return "something else"
	}
	s := t.String()
	switch {
	case s == "string":
		return "a string"
	case s == "bool":
		return "true or false"
	case s == "time.Time", s == "*time.Time":
		return "a time as RFC 3339 writes it (2026-11-24T12:00:41Z)"
	case strings.HasPrefix(s, "uint"), strings.HasPrefix(s, "*uint"):
		return "a whole number of 0 or more"
	case strings.HasPrefix(s, "int"), strings.HasPrefix(s, "*int"), strings.HasPrefix(s, "uint"), strings.HasPrefix(s, "*uint"):
		return "a whole number"
	case strings.HasPrefix(s, "float"), strings.HasPrefix(s, "*float"):
		return "a number"
	case strings.HasPrefix(s, "[]"):
		return "a list"
	case strings.HasPrefix(s, "map"), strings.Contains(s, "."):
		return "an object"
	}
	return s
}
