package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"parlour/tui/client"
)

// rulesWords says the rules of a table or a challenge of game g that
// differ from the game's defaults, one phrase a rule ("Strike limit: 1",
// "Clock: 5+3"), named by the labels the server gives its options, so
// that a player sees what they join or accept as the browser shows it.
// g may be nil (a game this client does not know): the rules are then
// named by their keys. It says nothing of a value it cannot read.
func rulesWords(g *client.Game, rules map[string]json.RawMessage) []string {
	opts := map[string]client.Option{}
	if g != nil {
		for _, o := range g.Options {
			opts[o.Name] = o
		}
	}
	changed := func(k string) bool {
		v, ok := rules[k]
		if !ok {
			return false
		}
		o, known := opts[k]
		if !known {
			return true
		}
		d, err := json.Marshal(o.Default)
		return err != nil || !sameJSON(v, d)
	}
	var out []string
	board := false // the board's two sides said as one
	if changed("width") || changed("height") {
		w, h := ruleValue(opts["width"], rules["width"]), ruleValue(opts["height"], rules["height"])
		if board = w != "" && h != ""; board {
			out = append(out, fmt.Sprintf("Board: %s x %s", w, h))
		}
	}
	if c := clockRuleWords(rules["clock"]); c != "" {
		out = append(out, "Clock: "+c)
	}
	keys := make([]string, 0, len(rules))
	for k := range rules {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if board && (k == "width" || k == "height") || k == "clock" || !ruleName(k) || !changed(k) {
			continue
		}
		o := opts[k]
		if o.Name == "" {
			o.Name = k
		}
		v := ruleValue(o, rules[k])
		if v == "" {
			continue
		}
		out = append(out, optionLabel(o)+": "+v)
	}
	return out
}

// ruleName reports whether k is named as the API names rules (lower
// case words joined by "_"): a rule by any other name, which no server
// sends, is not said rather than said as a label nobody could read.
func ruleName(k string) bool {
	if k == "" || k[0] == '_' {
		return false
	}
	for _, r := range k {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '_' {
			return false
		}
	}
	return true
}

// rulesLine says rulesWords as one line, "standard" when it says
// nothing: what the lobby, a waiting table, the join view and the help
// show.
func rulesLine(g *client.Game, rules map[string]json.RawMessage) string {
	words := rulesWords(g, rules)
	if len(words) == 0 {
		return "standard"
	}
	return strings.Join(words, "; ")
}

// tableRules reads a table's rules as an update carries them; none from
// what it cannot read.
func tableRules(raw json.RawMessage) map[string]json.RawMessage {
	var rules map[string]json.RawMessage
	if json.Unmarshal(raw, &rules) != nil {
		return nil
	}
	return rules
}

// ruleValue says a rule's value in words: on or off, a number, a choice
// with spaces for underscores, a board's shape as its unusable squares;
// "" for an empty text, or a value it cannot read. raw may be nil: the
// option's default.
func ruleValue(o client.Option, raw json.RawMessage) string {
	var v any = o.Default
	if raw != nil {
		if err := json.Unmarshal(raw, &v); err != nil {
			return ""
		}
	}
	switch v := v.(type) {
	case bool:
		if v {
			return "on"
		}
		return "off"
	case float64:
		return fmt.Sprint(v)
	case string:
		v = strings.TrimSpace(v)
		if v == "" {
			return ""
		}
		if o.Kind == "text" && o.Name == "shape" {
			return plural(strings.Count(v, "#"), "unusable square", "unusable squares")
		}
		if o.Kind == "text" {
			return v
		}
		return strings.ReplaceAll(v, "_", " ")
	}
	return ""
}

// clockRuleWords says a table's clock rule in words ("30 seconds a turn",
// "5+3", "2 days a move"); "" for none, or for one it cannot read.
func clockRuleWords(raw json.RawMessage) string {
	if raw == nil {
		return ""
	}
	var secs int
	if json.Unmarshal(raw, &secs) == nil {
		if secs <= 0 {
			return ""
		}
		return clockWords(secs)
	}
	var c struct {
		Kind      string `json:"kind"`
		Seconds   int    `json:"seconds"`
		Initial   int    `json:"initial"`
		Increment int    `json:"increment"`
		Days      int    `json:"days"`
	}
	if json.Unmarshal(raw, &c) != nil {
		return ""
	}
	switch c.Kind {
	case "turn":
		if c.Seconds > 0 {
			return clockWords(c.Seconds)
		}
	case "fischer":
		if c.Initial%60 == 0 {
			return fmt.Sprintf("%d+%d", c.Initial/60, c.Increment)
		}
		return fmt.Sprintf("%d:%02d+%d", c.Initial/60, c.Initial%60, c.Increment)
	case "correspondence":
		return plural(c.Days, "day", "days") + " a move"
	}
	return ""
}

// sameJSON reports whether two JSON values are equal once decoded.
func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	xs, err1 := json.Marshal(x)
	ys, err2 := json.Marshal(y)
	return err1 == nil && err2 == nil && bytes.Equal(xs, ys)
}
