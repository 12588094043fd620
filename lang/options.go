package lang

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/lang/stepopt"
)

// An action declares its parameters once, as the fields of a typed options
// struct (Action.Options). Validation, lowering, the builtin's decoding, the
// parameter reference, `cdp-skill help STEP` and the MCP schema all read
// this declaration. Field tags:
//
//	step:"jsonName[,target]"  the JSON (camelCase) name; target marks a key naming the element
//	type:"bool|dict"          accepted types, when the Go type does not say them (required on stepopt types and starlark.Callable)
//	default:"100"             the value when absent (set on value fields; on a pointer field, where nil means more than the default, it only documents)
//	doc:"…"                   one line for the reference, help and the schema
//	example:"…"               a JSON value for the parameter in the reference (default: made from its type)
//
// An embedded struct contributes its fields; on the embedding, keys:"a b"
// keeps only those keys of it and docs:"key=…;key=…" rewords some of them.
// A *struct field takes a dict of that struct's keys (camelCase or
// snake_case; any other key is an error); when its type also lists bool,
// True gives the struct with its defaults and False leaves it nil.
// A time.Duration takes milliseconds or a duration string ("2s").

// optField is one declared parameter of an options struct.
type optField struct {
	index  []int
	param  Param
	nested *optSpec
}

// optSpec is the parsed declaration of an options struct.
type optSpec struct {
	typ    reflect.Type
	fields []optField
}

var (
	durationType  = reflect.TypeOf(time.Duration(0))
	starValueType = reflect.TypeOf((*starlark.Value)(nil)).Elem()
	decoderType   = reflect.TypeOf((*stepopt.Decoder)(nil)).Elem()
)

// parseOptions reads the declaration of an options struct type.
func parseOptions(t reflect.Type) (*optSpec, error) {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("options must be a struct, not %s", t)
	}
	s := &optSpec{typ: t}
	if err := s.collect(t, nil, nil, nil); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *optSpec) collect(t reflect.Type, prefix []int, only map[string]bool, docs map[string]string) error {
	for i := range t.NumField() {
		sf := t.Field(i)
		index := append(slices.Clone(prefix), i)
		if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
			keep, err := keySet(sf.Tag.Get("keys"))
			if err != nil {
				return err
			}
			if err := s.collect(sf.Type, index, keep, docOverrides(sf.Tag.Get("docs"))); err != nil {
				return err
			}
			continue
		}
		name, flags, _ := strings.Cut(sf.Tag.Get("step"), ",")
		if name == "" || name == "-" || (only != nil && !only[name]) {
			continue
		}
		f, err := declaredField(sf, name, flags == "target")
		if err != nil {
			return fmt.Errorf("%s.%s: %w", t.Name(), sf.Name, err)
		}
		f.index = index
		if d, ok := docs[name]; ok {
			f.param.Doc = d
		}
		s.fields = append(s.fields, f)
	}
	return nil
}

func keySet(list string) (map[string]bool, error) {
	if list == "" {
		return nil, nil
	}
	out := map[string]bool{}
	for _, k := range strings.Fields(list) {
		out[k] = true
	}
	return out, nil
}

func docOverrides(s string) map[string]string {
	out := map[string]string{}
	for _, part := range strings.Split(s, ";") {
		if k, v, ok := strings.Cut(part, "="); ok {
			out[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return out
}

// declaredField turns one tagged struct field into its parameter.
func declaredField(sf reflect.StructField, name string, target bool) (optField, error) {
	f := optField{param: Param{Name: name, Doc: sf.Tag.Get("doc"), Target: target,
		Default: sf.Tag.Get("default"), Example: sf.Tag.Get("example")}}
	if sf.Type == starValueType {
		return f, fmt.Errorf("%s is a starlark.Value: give it a Go type (a lang/stepopt type for several shapes, lang.Hook for a predicate, starlark.Callable for a function)", name)
	}
	t := Type(sf.Tag.Get("type"))
	decodes := reflect.PointerTo(sf.Type).Implements(decoderType) || sf.Type.Implements(decoderType)
	if t == "" && decodes {
		return f, fmt.Errorf("%s decodes itself: it needs a type tag", sf.Type)
	}
	if t == "" {
		t = goType(sf.Type)
	}
	if t == "" {
		return f, fmt.Errorf("%s needs a type tag", sf.Type)
	}
	f.param.Type = t
	f.param.Function = sf.Type == callableType
	if sf.Type.Kind() == reflect.Pointer && sf.Type.Elem().Kind() == reflect.Struct && !decodes {
		n, err := parseOptions(sf.Type.Elem())
		if err != nil {
			return f, err
		}
		f.nested = n
		f.param.Fields = n.params()
	}
	if f.param.Default != "" && decodes {
		return f, fmt.Errorf("%s decodes itself: a default tag only documents it", sf.Type)
	}
	if f.param.Default != "" && sf.Type.Kind() != reflect.Pointer {
		if err := setDefault(reflect.New(sf.Type).Elem(), f.param.Default); err != nil {
			return f, err
		}
	}
	return f, nil
}

// goType is the catalog Type a Go field type accepts ("" when it cannot
// tell: a starlark.Callable).
func goType(t reflect.Type) Type {
	if t.Kind() == reflect.Pointer {
		if t.Elem().Kind() == reflect.Struct {
			return "dict"
		}
		t = t.Elem()
	}
	switch {
	case t == durationType:
		return "int|string"
	case t == callableType:
		return ""
	case t == hookType:
		return "hook"
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "bool"
	case reflect.Int:
		return "int"
	case reflect.Float64:
		return "number"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.String {
			return "list"
		}
	}
	return ""
}

// setDefault parses a default tag into a value field.
func setDefault(v reflect.Value, def string) error {
	var err error
	switch {
	case v.Type() == durationType:
		var ms float64
		if ms, err = strconv.ParseFloat(def, 64); err == nil {
			v.SetInt(int64(ms * float64(time.Millisecond)))
		}
	case v.Kind() == reflect.String:
		v.SetString(def)
	case v.Kind() == reflect.Bool:
		var b bool
		if b, err = strconv.ParseBool(def); err == nil {
			v.SetBool(b)
		}
	case v.Kind() == reflect.Int:
		var n int
		if n, err = strconv.Atoi(def); err == nil {
			v.SetInt(int64(n))
		}
	case v.Kind() == reflect.Float64:
		var f float64
		if f, err = strconv.ParseFloat(def, 64); err == nil {
			v.SetFloat(f)
		}
	default:
		return fmt.Errorf("default %q on a %s field", def, v.Type())
	}
	if err != nil {
		return fmt.Errorf("default %q: %w", def, err)
	}
	return nil
}

// params lists the declared parameters in field order.
func (s *optSpec) params() []Param {
	out := make([]Param, len(s.fields))
	for i, f := range s.fields {
		out[i] = f.param
	}
	return out
}

// field finds a declared parameter by JSON name or snake_case spelling.
func (s *optSpec) field(key string) (optField, bool) {
	for _, f := range s.fields {
		if f.param.Name == key || SnakeCase(f.param.Name) == key {
			return f, true
		}
	}
	return optField{}, false
}

// zero returns a new struct of the spec's type with its defaults set.
func (s *optSpec) zero() reflect.Value {
	v := reflect.New(s.typ)
	for _, f := range s.fields {
		fv := v.Elem().FieldByIndex(f.index)
		if f.param.Default != "" && fv.Kind() != reflect.Pointer {
			_ = setDefault(fv, f.param.Default) // checked when declared
		}
	}
	return v
}

// names lists the spec's JSON names.
func (s *optSpec) names() []string {
	out := make([]string, len(s.fields))
	for i, f := range s.fields {
		out[i] = f.param.Name
	}
	return out
}
