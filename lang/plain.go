package lang

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"go.starlark.net/starlark"
)

// Numbers picks how ToPlain writes numbers.
type Numbers int

const (
	// GoNumbers writes int64 and float64: the plain values a
	// stepopt.Decoder reads. An int beyond int64 is an error.
	GoNumbers Numbers = iota
	// JSONNumbers writes json.Number, of any size, for data that is sent
	// on as JSON (to the page, to the output). NaN and infinities are an
	// error.
	JSONNumbers
)

// ToPlain converts a Starlark value into a plain Go value: nil, bool,
// string, a number (see Numbers), []any for a list or tuple, and
// *Object (key order kept) for a dict or any other mapping (records).
// Functions and other non-data values are an error, and so is a value
// nested deeper than MaxNesting (such as a list that contains itself).
func ToPlain(v starlark.Value, n Numbers) (any, error) { return toPlain(v, n, 0) }

func toPlain(v starlark.Value, n Numbers, depth int) (any, error) {
	if depth > MaxNesting {
		return nil, fmt.Errorf("%w: more than %d levels of lists and dicts (does one contain itself?)", ErrTooDeep, MaxNesting)
	}
	switch x := v.(type) {
	case starlark.NoneType:
		return nil, nil
	case starlark.Bool:
		return bool(x), nil
	case starlark.String:
		return string(x), nil
	case starlark.Int:
		return plainInt(x, n)
	case starlark.Float:
		return plainFloat(float64(x), n)
	case *starlark.List, starlark.Tuple:
		return plainList(x.(starlark.Indexable), n, depth)
	}
	if items, ok := mappingItems(v); ok {
		return plainObject(items, n, depth)
	}
	return nil, fmt.Errorf("a %s cannot be turned into data", v.Type())
}

func plainInt(x starlark.Int, n Numbers) (any, error) {
	i, fits := x.Int64()
	switch {
	case n == JSONNumbers:
		return json.Number(x.String()), nil
	case !fits:
		return nil, fmt.Errorf("%s is too large", x)
	}
	return i, nil
}

func plainFloat(f float64, n Numbers) (any, error) {
	if n == GoNumbers {
		return f, nil
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("%s cannot be represented in JSON", starlark.Float(f))
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), nil
}

func plainList(x starlark.Indexable, n Numbers, depth int) (any, error) {
	out := make([]any, x.Len())
	for i := range out {
		e, err := toPlain(x.Index(i), n, depth+1)
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

func plainObject(items []starlark.Tuple, n Numbers, depth int) (any, error) {
	out := &Object{Values: make(map[string]any, len(items))}
	for _, kv := range items {
		k, isStr := kv[0].(starlark.String)
		if !isStr {
			return nil, fmt.Errorf("dict keys must be strings, not %s", kv[0].Type())
		}
		e, err := toPlain(kv[1], n, depth+1)
		if err != nil {
			return nil, err
		}
		out.Set(string(k), e)
	}
	return out, nil
}

// FromPlain converts a plain value back into Starlark: the inverse of
// ToPlain with GoNumbers (an int64 is an int, a float64 a float, an
// *Object a dict in its order). A json.Number (a JSON command's) is an
// int when written as a whole number within int64, a float otherwise. A
// value of another Go type is None.
func FromPlain(v any) starlark.Value {
	switch x := v.(type) {
	case bool:
		return starlark.Bool(x)
	case string:
		return starlark.String(x)
	case int64:
		return starlark.MakeInt64(x)
	case float64:
		return starlark.Float(x)
	case json.Number:
		if i, err := x.Int64(); err == nil && isInt(string(x)) {
			return starlark.MakeInt64(i)
		}
		f, _ := x.Float64()
		return starlark.Float(f)
	case []any:
		l := make([]starlark.Value, len(x))
		for i, e := range x {
			l[i] = FromPlain(e)
		}
		return starlark.NewList(l)
	case *Object:
		d := starlark.NewDict(len(x.Keys))
		for _, k := range x.Keys {
			_ = d.SetKey(starlark.String(k), FromPlain(x.Values[k]))
		}
		return d
	}
	return starlark.None
}
