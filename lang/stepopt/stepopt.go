// Package stepopt holds the Go types of step parameters that take more
// than one shape (a string or a list, a number or a string). The catalog
// (package lang) decodes a parameter into one of them from its plain
// value, so the builtins and the browser receive a Go value, never a
// Starlark one. The package imports neither Starlark nor CDP: the browser
// may take these types in its own option structs.
package stepopt

import (
	"fmt"
	"math"
	"strconv"
)

// Decoder is a parameter type that reads its own shapes. v is the
// parameter's plain value: nil, bool, string, int64, float64, []any or
// *Object. The error says what was wrong, without the parameter's
// name (the caller adds it).
type Decoder interface {
	DecodeOption(v any) error
}

// Strings is a parameter that takes one string or a list of strings
// ("Shift" or ["Control", "Shift"]).
type Strings []string

// DecodeOption reads a string or a list of strings.
func (s *Strings) DecodeOption(v any) error {
	switch x := v.(type) {
	case string:
		*s = Strings{x}
		return nil
	case []any:
		out := make(Strings, 0, len(x))
		for _, e := range x {
			str, ok := e.(string)
			if !ok {
				return fmt.Errorf("must be a string or a list of strings; found %s in the list", shape(e))
			}
			out = append(out, str)
		}
		*s = out
		return nil
	}
	return fmt.Errorf("must be a string or a list of strings, not %s", shape(v))
}

// Status is an HTTP status filter: a code (404) or a class ("4xx"), as
// text.
type Status string

// DecodeOption reads a whole number or a string.
func (s *Status) DecodeOption(v any) error {
	switch x := v.(type) {
	case string:
		*s = Status(x)
		return nil
	case int64:
		*s = Status(strconv.FormatInt(x, 10))
		return nil
	case float64:
		if x == math.Trunc(x) && !math.IsInf(x, 0) {
			*s = Status(strconv.FormatInt(int64(x), 10))
			return nil
		}
	}
	return fmt.Errorf(`must be a status code (404) or a class ("4xx"), not %s`, shape(v))
}

// shape names a plain value's shape for messages.
func shape(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case bool:
		return "bool"
	case string:
		return "string"
	case int64:
		return "int"
	case float64:
		return "float " + strconv.FormatFloat(x, 'g', -1, 64)
	case []any:
		return "list"
	case *Object:
		return "dict"
	}
	return fmt.Sprintf("%T", v)
}
