package builtins

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/lang"
)

// Record is the Starlark value of an action's output: a read-only mapping
// whose fields are also attributes, so recipes can write r.navigated or
// r["navigated"]. A field the output's type has but this output omits (an
// empty one) reads as None; a name the type does not have is an error
// listing the real ones (r.naviagted is a typo, not a None). A record
// built from data of no fixed shape (a map, a dict, page data) reads any
// missing name as None.
type Record struct {
	keys   []string
	values map[string]starlark.Value
	// fields are the names the output's type can have (nil: unknown).
	fields []string
}

var (
	_ starlark.HasAttrs   = (*Record)(nil)
	_ starlark.Mapping    = (*Record)(nil)
	_ starlark.Iterable   = (*Record)(nil)
	_ starlark.Sequence   = (*Record)(nil)
	_ starlark.Comparable = (*Record)(nil)
)

func (r *Record) String() string {
	var b strings.Builder
	b.WriteString("record(")
	for i, k := range r.keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s = %s", k, r.values[k].String())
	}
	b.WriteString(")")
	return b.String()
}

// Type implements starlark.Value.
func (r *Record) Type() string { return "record" }

// Freeze implements starlark.Value.
func (r *Record) Freeze() {
	for _, v := range r.values {
		v.Freeze()
	}
}

// Truth is true for a non-empty record.
func (r *Record) Truth() starlark.Bool { return len(r.keys) > 0 }

// Hash implements starlark.Value; records are unhashable.
func (r *Record) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: record") }

// Attr returns a field, or None for a field the record does not have.
func (r *Record) Attr(name string) (starlark.Value, error) {
	switch name {
	case "get":
		return starlark.NewBuiltin("get", r.get), nil
	case "keys":
		return starlark.NewBuiltin("keys", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			l := make([]starlark.Value, len(r.keys))
			for i, k := range r.keys {
				l[i] = starlark.String(k)
			}
			return starlark.NewList(l), nil
		}), nil
	}
	if v, ok := r.values[name]; ok {
		return v, nil
	}
	if r.fields == nil || slices.Contains(r.fields, name) {
		return starlark.None, nil
	}
	return nil, r.noAttr(name)
}

// noAttr is the error for a name the record's type does not have.
func (r *Record) noAttr(name string) error {
	names := append(slices.Clone(r.fields), "get", "keys")
	sort.Strings(names)
	// The interpreter adds "(did you mean .x?)" from AttrNames.
	return starlark.NoSuchAttrError(fmt.Sprintf("record has no attribute %q; its attributes: %s", name, strings.Join(names, ", ")))
}

func (r *Record) get(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var key string
	var def starlark.Value = starlark.None
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &key, &def); err != nil {
		return nil, err
	}
	if v, ok := r.values[key]; ok {
		return v, nil
	}
	return def, nil
}

// AttrNames lists the fields (all the type's fields when it is known).
func (r *Record) AttrNames() []string {
	names := append([]string(nil), r.keys...)
	for _, f := range r.fields {
		if _, ok := r.values[f]; !ok {
			names = append(names, f)
		}
	}
	sort.Strings(names)
	return names
}

// Get implements starlark.Mapping.
func (r *Record) Get(k starlark.Value) (starlark.Value, bool, error) {
	s, ok := k.(starlark.String)
	if !ok {
		return nil, false, fmt.Errorf("record keys are strings, not %s", k.Type())
	}
	v, found := r.values[string(s)]
	return v, found, nil
}

// Len implements starlark.Sequence (the number of fields).
func (r *Record) Len() int { return len(r.keys) }

// Iterate iterates over the field names.
func (r *Record) Iterate() starlark.Iterator {
	l := make([]starlark.Value, len(r.keys))
	for i, k := range r.keys {
		l[i] = starlark.String(k)
	}
	return starlark.NewList(l).Iterate()
}

// CompareSameType compares records field by field for == and !=.
func (r *Record) CompareSameType(op syntaxToken, y starlark.Value, depth int) (bool, error) {
	return compareRecords(op, r, y.(*Record), depth)
}

// ToStarlark converts a JSON-shaped Go value (as produced by encoding/json,
// or any value that marshals to JSON) into Starlark: objects become records.
func ToStarlark(v any) (starlark.Value, error) { return toStarlark(v, 0) }

func toStarlark(v any, depth int) (starlark.Value, error) {
	if depth > lang.MaxNesting {
		return nil, fmt.Errorf("%w: more than %d levels of arrays and objects", lang.ErrTooDeep, lang.MaxNesting)
	}
	switch x := v.(type) {
	case nil:
		return starlark.None, nil
	case starlark.Value:
		return x, nil
	case bool:
		return starlark.Bool(x), nil
	case string:
		return starlark.String(x), nil
	case int:
		return starlark.MakeInt(x), nil
	case int64:
		return starlark.MakeInt64(x), nil
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return starlark.MakeInt64(int64(x)), nil
		}
		return starlark.Float(x), nil
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return starlark.MakeInt64(i), nil
		}
		f, err := x.Float64()
		if err != nil {
			return nil, err
		}
		return starlark.Float(f), nil
	case []any:
		l := make([]starlark.Value, len(x))
		for i, e := range x {
			sv, err := toStarlark(e, depth+1)
			if err != nil {
				return nil, err
			}
			l[i] = sv
		}
		return starlark.NewList(l), nil
	case Shaped:
		sv, err := toStarlark(x.Value, depth)
		if rec, ok := sv.(*Record); ok && err == nil {
			rec.fields = x.Fields
		}
		return sv, err
	case *lang.Object:
		rec := &Record{values: map[string]starlark.Value{}}
		for _, k := range x.Keys {
			sv, err := toStarlark(x.Values[k], depth+1)
			if err != nil {
				return nil, err
			}
			rec.keys = append(rec.keys, k)
			rec.values[k] = sv
		}
		return rec, nil
	}
	// Structs, maps and typed slices: go through JSON, keeping key order.
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("convert %T to Starlark: %w", v, err)
	}
	decoded, err := lang.DecodeJSON(data)
	if err != nil {
		return nil, err
	}
	sv, err := toStarlark(decoded, depth)
	if rec, ok := sv.(*Record); ok && err == nil {
		rec.fields = fieldsOf(v)
	}
	return sv, err
}

// FromStarlark converts a Starlark value into a JSON-shaped Go value: dicts
// and records become *lang.Object (key order kept), lists and tuples []any,
// numbers json.Number. Functions and other non-data values are an error,
// and so is a value nested deeper than lang.MaxNesting.
func FromStarlark(v starlark.Value) (any, error) { return lang.ToPlain(v, lang.JSONNumbers) }

func decodeJSON(raw []byte) (any, error) { return lang.DecodeJSON(raw) }

// With returns a copy of r with key set to v (added last when new).
func (r *Record) With(key string, v starlark.Value) *Record {
	out := &Record{keys: append([]string(nil), r.keys...), values: make(map[string]starlark.Value, len(r.values)+1)}
	if r.fields != nil {
		out.fields = append(slices.Clone(r.fields), key)
	}
	for k, val := range r.values {
		out.values[k] = val
	}
	if _, ok := out.values[key]; !ok {
		out.keys = append(out.keys, key)
	}
	out.values[key] = v
	return out
}
