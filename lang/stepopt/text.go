package stepopt

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Text is a value a field or an option is given as text: a string, or a
// number or bool written as Starlark prints it (3, 2.5, True).
type Text string

// DecodeOption reads a string, a number or a bool.
func (t *Text) DecodeOption(v any) error {
	s, ok := textOf(v)
	if !ok {
		return fmt.Errorf("must be text or a number, not %s", shape(v))
	}
	*t = Text(s)
	return nil
}

// Texts is a list of values given as text (option values or labels).
type Texts []string

// DecodeOption reads a list of strings or numbers.
func (t *Texts) DecodeOption(v any) error {
	l, isList := v.([]any)
	if !isList {
		return fmt.Errorf("must be a list of option values or labels, not %s", shape(v))
	}
	out := make(Texts, 0, len(l))
	for _, e := range l {
		s, ok := textOf(e)
		if !ok {
			return fmt.Errorf("must hold text or numbers, not %s", shape(e))
		}
		out = append(out, s)
	}
	*t = out
	return nil
}

// textOf writes a plain scalar as Starlark's str() does.
func textOf(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case int64:
		return strconv.FormatInt(x, 10), true
	case float64:
		return floatText(x), true
	case bool:
		if x {
			return "True", true
		}
		return "False", true
	}
	return "", false
}

// floatText writes a float as Starlark does: 2.0, 2.5, 1e+21.
func floatText(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "+inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}
