package game

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Kind is the type of a rule option's value.
type Kind string

// The kinds of rule option.
const (
	Int    Kind = "int"    // a whole number between Min and Max
	Bool   Kind = "bool"   // on or off
	Choice Kind = "choice" // one of Choices
	Text   Kind = "text"   // free text, checked by the option's Check
)

// Option is one rule option of a game, described so that front ends can
// render it and records can validate it.
type Option struct {
	Name string `json:"name"`
	// Label names the option as a player reads it, in a few words
	// ("Strike limit"), so that every front end says it alike.
	Label   string   `json:"label"`
	Kind    Kind     `json:"kind"`
	Default any      `json:"default"` // int, bool or string by Kind
	Min     int      `json:"min,omitempty"`
	Max     int      `json:"max,omitempty"`
	Choices []string `json:"choices,omitempty"`
	// Help explains the option in one line.
	Help string `json:"help"`
	// Check, when set, validates a value beyond its kind (a Text option's
	// syntax, say) and returns an error in a player's words.
	Check func(v any) error `json:"-"`
}

// MarshalJSON writes an option as Option's fields say, except that an Int
// option always carries both bounds: a bound of 0 is a real bound (no
// wrong announcements allowed), and a front end that finds "min" missing
// cannot tell it from no bound at all.
func (o Option) MarshalJSON() ([]byte, error) {
	type plain Option // without this method
	if o.Kind != Int {
		return json.Marshal(plain(o))
	}
	return json.Marshal(struct {
		plain
		Min int `json:"min"`
		Max int `json:"max"`
	}{plain(o), o.Min, o.Max})
}

// Rules are resolved rule options: every option of the game is present,
// holding an int, a bool or a string according to its Kind.
type Rules map[string]any

// Int returns the value of the Int option name.
func (r Rules) Int(name string) int { v, _ := r[name].(int); return v }

// Bool returns the value of the Bool option name.
func (r Rules) Bool(name string) bool { v, _ := r[name].(bool); return v }

// String returns the value of the Choice or Text option name.
func (r Rules) String(name string) string { v, _ := r[name].(string); return v }

// Defaults returns the rules with every option at its default.
func Defaults(opts []Option) Rules {
	r := make(Rules, len(opts))
	for _, o := range opts {
		r[o.Name] = o.Default
	}
	return r
}

// Resolve validates raw rule options against opts and fills in the
// defaults. An unknown option, a value of the wrong type or out of range is
// an error that names the option. raw may be nil.
func Resolve(opts []Option, raw map[string]json.RawMessage) (Rules, error) {
	r := Defaults(opts)
	names := make([]string, 0, len(raw))
	for n := range raw {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		i := slices.IndexFunc(opts, func(o Option) bool { return o.Name == n })
		if i < 0 {
			v, ok, err := decodeTableOption(n, raw[n])
			if !ok {
				return nil, fmt.Errorf("unknown rule option %q (the options are %s)", clip([]byte(n)), optionNames(opts))
			}
			if err != nil {
				return nil, fmt.Errorf("rule option %s: %w", spoken(n), err)
			}
			if v != 0 {
				r[n] = v
			}
			continue
		}
		v, err := opts[i].decode(raw[n])
		if err != nil {
			return nil, fmt.Errorf("rule option %s: %w", spoken(n), err)
		}
		r[n] = v
	}
	return r, nil
}

// optionNames lists the keys of opts and the table's own options, as an
// unknown option's error tells a player which they may give.
func optionNames(opts []Option) string {
	names := make([]string, 0, len(opts)+1)
	for _, o := range opts {
		names = append(names, o.Name)
	}
	return strings.Join(append(names, ClockOption), ", ")
}

// spoken is an option's name as a player reads it ("strike limit" for
// strike_limit): the errors of the rules reach players through the forms.
func spoken(name string) string { return strings.ReplaceAll(name, "_", " ") }

// RulesChecker is a Game whose rule options must also agree with each
// other (a board's shape with its width and height, say). An Option's
// Check sees one value; CheckRules sees them all, resolved, and answers
// in a player's words what is wrong.
type RulesChecker interface {
	CheckRules(r Rules) error
}

// ResolveFor is Resolve for g's options, followed by g's CheckRules when g
// has one: rules it accepts are rules a play can start with, so a table is
// never made that nobody can play.
func ResolveFor(g Game, raw map[string]json.RawMessage) (Rules, error) {
	r, err := Resolve(g.Options(), raw)
	if err != nil {
		return nil, err
	}
	if c, ok := g.(RulesChecker); ok {
		if err := c.CheckRules(r); err != nil {
			return nil, fmt.Errorf("rule options: %w", err)
		}
	}
	return r, nil
}

// ResolveValues is Resolve for options given as Go values (int, float64
// holding a whole number, bool or string), as a front end's form gives them.
func ResolveValues(opts []Option, vals map[string]any) (Rules, error) {
	raw := make(map[string]json.RawMessage, len(vals))
	for k, v := range vals {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("rule option %s: %w", k, err)
		}
		raw[k] = b
	}
	return Resolve(opts, raw)
}

func (o Option) decode(b json.RawMessage) (any, error) {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		// encoding/json reads null as nothing at all, which would leave
		// a whole number empty and a yes-or-no false.
		return nil, errors.New("null is no value: leave the option out for its default")
	}
	var v any
	switch o.Kind {
	case Int:
		var n json.Number
		d := json.NewDecoder(bytes.NewReader(b))
		d.UseNumber()
		if len(b) == 0 || b[0] == '"' {
			return nil, fmt.Errorf("want a whole number, got %s", clip(b))
		}
		if err := d.Decode(&n); err != nil {
			return nil, fmt.Errorf("want a whole number, got %s", clip(b))
		}
		i, err := n.Int64()
		if err != nil {
			return nil, fmt.Errorf("want a whole number, got %s", clip(b))
		}
		if i < int64(o.Min) || i > int64(o.Max) {
			return nil, fmt.Errorf("%d is out of range %d-%d", i, o.Min, o.Max)
		}
		v = int(i)
	case Bool:
		var x bool
		if err := json.Unmarshal(b, &x); err != nil {
			return nil, fmt.Errorf("want true or false, got %s", clip(b))
		}
		v = x
	case Choice:
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, fmt.Errorf("want one of %s, got %s", strings.Join(o.Choices, ", "), clip(b))
		}
		s = strings.ToLower(strings.TrimSpace(s))
		if !slices.Contains(o.Choices, s) {
			return nil, fmt.Errorf("%q is not one of %s", s, strings.Join(o.Choices, ", "))
		}
		v = s
	case Text:
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, fmt.Errorf("want text, got %s", clip(b))
		}
		v = s
	default:
		return nil, fmt.Errorf("option has unknown kind %q", o.Kind)
	}
	if o.Check != nil {
		if err := o.Check(v); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// LabelOf returns the label of g's rule option or table option called
// name, as players read it, or the name in words ("strike limit") when
// none is labelled so.
func LabelOf(g Game, name string) string {
	for _, o := range append(g.Options(), TableOptions()...) {
		if o.Name == name && o.Label != "" {
			return o.Label
		}
	}
	return strings.ReplaceAll(name, "_", " ")
}

// NonDefault returns the options of r that differ from their defaults, as
// a record writes them.
func NonDefault(opts []Option, r Rules) map[string]any {
	out := map[string]any{}
	for _, o := range opts {
		if v, ok := r[o.Name]; ok && v != o.Default {
			out[o.Name] = v
		}
	}
	for _, o := range TableOptions() {
		if v, ok := r[o.Name]; ok && v != o.Default && !slices.ContainsFunc(opts, func(g Option) bool { return g.Name == o.Name }) {
			out[o.Name] = v
		}
	}
	return out
}

func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "..."
	}
	return string(b)
}
