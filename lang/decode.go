package lang

import (
	"fmt"
	"reflect"
	"strings"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/lang/stepopt"
)

// OptionsError is a parameter value that does not fit the action's
// declaration: an unknown key of a nested dict, a wrong type, a number out
// of range. Its message names the parameter as the caller spelled it.
type OptionsError struct{ Message string }

func (e *OptionsError) Error() string { return e.Message }

// naming spells parameter names in errors: JSON (click.scrollUntilVisible)
// or Starlark (click: scroll_until_visible).
type naming struct {
	action string
	json   bool
}

func (n naming) param(p Param) string {
	if n.json {
		return n.action + "." + p.Name
	}
	return n.action + ": " + p.Keyword()
}

func (n naming) fail(format string, args ...any) error {
	return &OptionsError{Message: fmt.Sprintf(format, args...)}
}

// HasOptions reports whether the action declares a typed options struct.
func (a *Action) HasOptions() bool { return a.opts != nil }

// DecodeOptions decodes keyword values (keyed by JSON parameter name; None
// means absent) into a new options struct of the action and returns a
// pointer to it. Parameters the struct does not declare (the common
// lifecycle ones) are ignored. It returns nil, nil for an action without
// an options struct.
func (a *Action) DecodeOptions(kw map[string]starlark.Value) (any, error) {
	return a.decode(kw, naming{action: a.Builtin()})
}

func (a *Action) decode(kw map[string]starlark.Value, n naming) (any, error) {
	if a.opts == nil {
		return nil, nil
	}
	v := a.opts.zero()
	for _, f := range a.opts.fields {
		val, ok := kw[f.param.Name]
		if !ok || val == starlark.None {
			continue
		}
		if err := decodeInto(v.Elem().FieldByIndex(f.index), f, val, n.param(f.param), n); err != nil {
			return nil, err
		}
	}
	return v.Interface(), nil
}

// checkJSONOptions decodes a JSON step's parameters the way the builtin
// will, so a nested key or value that does not fit fails validation before
// any step runs.
func (a *Action) checkJSONOptions(key string, o *Object) error {
	if a.opts == nil {
		return nil
	}
	kw := map[string]starlark.Value{}
	for _, k := range o.Keys {
		kw[k] = FromPlain(o.Values[k])
	}
	_, err := a.decode(kw, naming{action: key, json: true})
	return err
}

// checkJSONPositional decodes a JSON step's positional value the way its
// parameter (PositionalIs) is decoded, when it has that parameter's type.
func (a *Action) checkJSONPositional(key string, v any) error {
	if a.opts == nil || a.PositionalIs == "" {
		return nil
	}
	for _, f := range a.opts.fields {
		sv := FromPlain(v)
		if f.param.Name != a.PositionalIs || !starAccepts(f.param.Type, sv) {
			continue
		}
		dst := a.opts.zero().Elem().FieldByIndex(f.index)
		return decodeInto(dst, f, sv, key, naming{action: key, json: true})
	}
	return nil
}

// nonNegative are the parameters that count (limit, times, offset) or
// place a point in the viewport (x, y, radius): none is below 0. A
// negative limit read as "no limit", a negative x clicked off the page.
var nonNegative = map[string]bool{"limit": true, "times": true, "offset": true, "x": true, "y": true, "radius": true}

// checkNonNegative refuses a negative number for a parameter of
// nonNegative.
func checkNonNegative(f optField, v starlark.Value, name string, n naming) error {
	if !nonNegative[f.param.Name] {
		return nil
	}
	neg := false
	switch x := v.(type) {
	case starlark.Int:
		neg = x.Sign() < 0
	case starlark.Float:
		neg = x < 0 // NaN is refused as not finite
	}
	if neg {
		return n.fail("%s must be 0 or more, not %s", name, v.String())
	}
	return nil
}

// decodeInto sets one field from a Starlark value.
func decodeInto(dst reflect.Value, f optField, v starlark.Value, name string, n naming) error {
	if err := checkNonNegative(f, v, name, n); err != nil {
		return err
	}
	if d, ok := decoderAt(dst); ok {
		if !starAccepts(f.param.Type, v) {
			return n.fail("%s must be %s, not %s", name, withArticle(describeType(f.param.Type)), v.Type())
		}
		if err := DecodeValue(d, v); err != nil {
			return n.fail("%s %v", name, err)
		}
		return nil
	}
	switch dst.Type() {
	case hookType:
		if !starAccepts(f.param.Type, v) {
			return n.fail("%s must be %s, not %s", name, withArticle(describeType(f.param.Type)), v.Type())
		}
		h, err := decodeHook(v)
		if err != nil {
			return n.fail("%s %v", name, err)
		}
		dst.Set(reflect.ValueOf(h))
		return nil
	case callableType:
		return decodeCallable(dst, v, name, n)
	}
	if dst.Kind() == reflect.Pointer {
		if f.nested != nil {
			return decodeNested(dst, f, v, name, n)
		}
		p := reflect.New(dst.Type().Elem())
		if err := decodeScalar(p.Elem(), v, name, n); err != nil {
			return err
		}
		dst.Set(p)
		return nil
	}
	return decodeScalar(dst, v, name, n)
}

func decodeScalar(dst reflect.Value, v starlark.Value, name string, n naming) error {
	switch {
	case dst.Type() == durationType:
		d, err := ToDuration(v)
		if err != nil {
			return n.fail("%s %v", name, err)
		}
		dst.SetInt(int64(d))
	case dst.Kind() == reflect.String:
		s, ok := starlark.AsString(v)
		if !ok {
			return n.fail("%s must be a string, not %s", name, v.Type())
		}
		dst.SetString(s)
	case dst.Kind() == reflect.Bool:
		b, ok := v.(starlark.Bool)
		if !ok {
			return n.fail("%s must be True or False, not %s", name, v.Type())
		}
		dst.SetBool(bool(b))
	case dst.Kind() == reflect.Int:
		i, err := ToInt(v)
		if err != nil {
			return n.fail("%s %v", name, err)
		}
		dst.SetInt(int64(i))
	case dst.Kind() == reflect.Float64:
		x, err := ToFloat(v)
		if err != nil {
			return n.fail("%s %v", name, err)
		}
		dst.SetFloat(x)
	case dst.Kind() == reflect.Slice && dst.Type().Elem().Kind() == reflect.String:
		l, err := ToStringList(v)
		if err != nil {
			return n.fail("%s %v", name, err)
		}
		dst.Set(reflect.ValueOf(l))
	default:
		return n.fail("%s: cannot decode into %s", name, dst.Type())
	}
	return nil
}

// decodeNested sets a *struct field from a dict of its keys, or from
// True/False when its type lists bool.
func decodeNested(dst reflect.Value, f optField, v starlark.Value, name string, n naming) error {
	orBool := strings.Contains(string(f.param.Type), "bool")
	if b, ok := v.(starlark.Bool); ok && orBool {
		if b {
			dst.Set(f.nested.zero())
		}
		return nil
	}
	items, ok := mappingItems(v)
	if !ok {
		return n.fail("%s must be %s, not %s", name, withArticle(describeType(f.param.Type)), v.Type())
	}
	if len(items) == 0 && orBool {
		return nil // where True turns it on, an empty dict is false, like False
	}
	out := f.nested.zero()
	for _, kv := range items {
		key, isStr := starlark.AsString(kv[0])
		if !isStr {
			return n.fail("%s keys must be strings, not %s", name, kv[0].Type())
		}
		nf, known := f.nested.field(key)
		if !known {
			hint := ""
			if c := closest(key, f.nested.names()); c != "" {
				hint = fmt.Sprintf(" (did you mean %q?)", c)
			}
			return n.fail("%s has no key %q%s; valid: %s", name, key, hint, strings.Join(f.nested.names(), ", "))
		}
		if kv[1] == starlark.None {
			continue
		}
		if err := decodeInto(out.Elem().FieldByIndex(nf.index), nf, kv[1], name+"."+nf.param.Name, n); err != nil {
			return err
		}
	}
	dst.Set(out)
	return nil
}

// mappingItems lists the pairs of a dict or a record.
func mappingItems(v starlark.Value) ([]starlark.Tuple, bool) {
	if m, ok := v.(starlark.IterableMapping); ok {
		return m.Items(), true
	}
	m, isMap := v.(starlark.Mapping)
	it, isIter := v.(starlark.Iterable)
	if !isMap || !isIter {
		return nil, false
	}
	var out []starlark.Tuple
	iter := it.Iterate()
	defer iter.Done()
	var k starlark.Value
	for iter.Next(&k) {
		val, _, err := m.Get(k)
		if err != nil {
			return nil, false
		}
		out = append(out, starlark.Tuple{k, val})
	}
	return out, true
}

// starAccepts reports whether a Starlark value fits the type list t, the
// way typeAccepts does for JSON values.
func starAccepts(t Type, v starlark.Value) bool {
	for _, k := range strings.Split(string(t), "|") {
		switch k {
		case "any":
			return true
		case "string":
			if _, ok := v.(starlark.String); ok {
				return true
			}
		case "hook":
			if _, ok := v.(starlark.String); ok {
				return true
			}
			if _, ok := v.(starlark.Callable); ok {
				return true
			}
		case "int":
			if _, err := ToInt(v); err == nil {
				return true
			}
		case "number":
			if _, ok := starlark.AsFloat(v); ok {
				return true
			}
		case "bool":
			if _, ok := v.(starlark.Bool); ok {
				return true
			}
		case "list":
			switch v.(type) {
			case *starlark.List, starlark.Tuple:
				return true
			}
		case "dict":
			if _, ok := v.(starlark.Mapping); ok {
				return true
			}
		}
	}
	return false
}

// decoderAt is the stepopt.Decoder a field holds: the field's address, or
// for a pointer field a new value it then points to.
func decoderAt(dst reflect.Value) (stepopt.Decoder, bool) {
	if d, ok := dst.Addr().Interface().(stepopt.Decoder); ok {
		return d, true
	}
	if dst.Kind() == reflect.Pointer && dst.Type().Implements(decoderType) {
		p := reflect.New(dst.Type().Elem())
		dst.Set(p)
		return p.Interface().(stepopt.Decoder), true
	}
	return nil, false
}

// DecodeValue decodes a Starlark value into d from its plain value (the
// builtins use it for a positional argument of a union type).
func DecodeValue(d stepopt.Decoder, v starlark.Value) error {
	pv, err := ToPlain(v, GoNumbers)
	if err != nil {
		return err
	}
	return d.DecodeOption(pv)
}
