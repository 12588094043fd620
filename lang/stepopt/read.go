package stepopt

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// URLOps are the conditions a URLChecks takes, in report order.
var URLOps = []string{"contains", "equals", "startsWith", "endsWith", "matches"}

// URLCheck is one condition on the page URL.
type URLCheck struct {
	Op    string
	Value string
}

// URLChecks is assert's url: {contains | equals | startsWith | endsWith
// | matches: value}, checked in the order given.
type URLChecks []URLCheck

// DecodeOption reads the condition dict.
func (u *URLChecks) DecodeOption(v any) error {
	o, isDict := v.(*Object)
	if !isDict || len(o.Keys) == 0 {
		return fmt.Errorf(`must be a condition such as {"contains": "/done"}, not %s`, shapeOrEmpty(v))
	}
	out := make(URLChecks, 0, len(o.Keys))
	for _, k := range o.Keys {
		if !slices.Contains(URLOps, k) {
			return fmt.Errorf("has no condition %q; use one of %s", k, strings.Join(URLOps, ", "))
		}
		s, isStr := o.Values[k].(string)
		if !isStr {
			return fmt.Errorf("%s must be a string, not %s", k, shape(o.Values[k]))
		}
		out = append(out, URLCheck{Op: k, Value: s})
	}
	*u = out
	return nil
}

// shapeOrEmpty is shape, or "an empty dict".
func shapeOrEmpty(v any) string {
	if o, isDict := v.(*Object); isDict && len(o.Keys) == 0 {
		return "an empty dict"
	}
	return shape(v)
}

// OutputModes are the values a query reports of each element.
var OutputModes = []string{"text", "html", "href", "value", "tag", "name", "role"}

// QueryOutput is query's output: a mode ("text"), a list of modes, or
// {attributes: [...]}.
type QueryOutput struct {
	// Mode is the one mode given as a string.
	Mode string
	// Modes are the modes given as a list.
	Modes []string
	// Attributes are the attributes to read ({attributes: [...]}).
	Attributes []string
}

// DecodeOption reads a mode, a list of modes or {attributes: [...]}.
func (q *QueryOutput) DecodeOption(v any) error {
	switch x := v.(type) {
	case string:
		if err := checkMode(x); err != nil {
			return err
		}
		q.Mode = x
		return nil
	case []any:
		var modes Strings
		if err := modes.DecodeOption(x); err != nil {
			return err
		}
		for _, m := range modes {
			if err := checkMode(m); err != nil {
				return err
			}
		}
		q.Modes = modes
		return nil
	case *Object:
		attrs := func(v any) error { return (*Strings)(&q.Attributes).DecodeOption(v) }
		if err := decodeKeys(x, key{"attributes", attrs}, key{"attrs", attrs}); err != nil {
			return err
		}
		if len(q.Attributes) == 0 {
			return fmt.Errorf(`needs attributes to read: {"attributes": ["href", "title"]}`)
		}
		return nil
	}
	return fmt.Errorf("must be a mode (%s), a list of them, or {attributes: [...]}, not %s", strings.Join(OutputModes, ", "), shape(v))
}

func checkMode(m string) error {
	if !slices.Contains(OutputModes, m) {
		return fmt.Errorf("has no mode %q; use %s, or {attributes: [...]}", m, strings.Join(OutputModes, ", "))
	}
	return nil
}

// Value is the output as the page engine reads it: a string, a list of
// strings, or {attributes: [...]} (nil when none was given).
func (q *QueryOutput) Value() any {
	switch {
	case q.Mode != "":
		return q.Mode
	case q.Modes != nil:
		return q.Modes
	case q.Attributes != nil:
		return map[string]any{"attributes": q.Attributes}
	}
	return nil
}

// DefaultBodyBytes is the body waitForResponse returns for body = true.
const DefaultBodyBytes = 4000

// BodyLimit is waitForResponse's body in bytes: true is
// DefaultBodyBytes, false 0 (no body), a number a positive byte limit.
type BodyLimit int

// DecodeOption reads true, false or a positive whole number.
func (b *BodyLimit) DecodeOption(v any) error {
	switch x := v.(type) {
	case bool:
		*b = 0
		if x {
			*b = DefaultBodyBytes
		}
		return nil
	case int64, float64:
		if n, _ := numberOf(x); n >= 1 && n == math.Trunc(n) {
			*b = BodyLimit(min(n, math.MaxInt32))
			return nil
		}
	}
	return fmt.Errorf("must be true or a positive byte limit, not %s", valueText(v))
}

// valueText writes a plain scalar for a message (its shape for others).
func valueText(v any) string {
	if s, ok := textOf(v); ok {
		if _, isStr := v.(string); isStr {
			return fmt.Sprintf("%q", s)
		}
		return s
	}
	return shape(v)
}
