// Package lang is the language front of cdp-skill: it parses and validates
// JSON commands (PARSE and VALIDATION errors), lowers them to Starlark source,
// checks recipes statically, resolves load() and formats Starlark errors. It
// knows nothing about the browser.
package lang

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/cdp-skill/cdp-skill/lang/stepopt"
)

// Object is a JSON object that keeps its key order (a batch fill fills in the
// order the agent wrote). It is stepopt's, so option types read it.
type Object = stepopt.Object

// MaxNesting bounds how deeply arrays and objects may nest in a command,
// in a value a recipe passes to a builtin or returns, and in data read
// back from the page: deeper data (or a list that contains itself) is an
// error, never a stack overflow.
const MaxNesting = 200

// ErrTooDeep is wrapped by the errors about data nested too deeply.
var ErrTooDeep = errors.New("data nested too deeply")

// DecodeJSON decodes one JSON value into nil, bool, json.Number, string,
// []any and *Object. Trailing data and nesting deeper than MaxNesting are
// errors.
func DecodeJSON(data []byte) (any, error) { return decodeJSONLimit(data, MaxNesting) }

// MaxCommandNesting bounds how deeply a JSON command nests: its values are
// lowered to Starlark literals, whose parser refuses deep nesting.
const MaxCommandNesting = 32

func decodeJSONLimit(data []byte, limit int) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, 0, limit)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("unexpected data after the JSON value at offset %d", dec.InputOffset())
	}
	return v, nil
}

// decodeValue decodes one value at depth; arrays and objects may nest
// limit levels.
func decodeValue(dec *json.Decoder, depth, limit int) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth >= limit {
			return nil, fmt.Errorf("%w: arrays and objects nested deeper than %d levels at offset %d; flatten them", ErrTooDeep, limit, dec.InputOffset())
		}
		switch t {
		case '{':
			o := &Object{Values: map[string]any{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k := kt.(string)
				v, err := decodeValue(dec, depth+1, limit)
				if err != nil {
					return nil, err
				}
				if _, dup := o.Values[k]; !dup {
					o.Keys = append(o.Keys, k)
				}
				o.Values[k] = v
			}
			_, err := dec.Token()
			return o, err
		case '[':
			list := []any{}
			for dec.More() {
				v, err := decodeValue(dec, depth+1, limit)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			_, err := dec.Token()
			return list, err
		}
	}
	return tok, nil
}

// jsonType names the JSON type of v for error messages.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case *Object:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}
