package builtins

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/lang"
	"github.com/cdp-skill/cdp-skill/lang/stepopt"
)

// exampleValue is a JSON value for p: its declared example, else one made
// from the first type it accepts.
func exampleValue(p lang.Param) string {
	if p.Example != "" {
		return p.Example
	}
	switch strings.Split(string(p.Type), "|")[0] {
	case "int":
		return "3"
	case "number":
		return "1.5"
	case "bool":
		return "true"
	case "list":
		return `["a"]`
	case "dict":
		return `{}`
	case "hook":
		return `"() => true"`
	}
	return `"x"`
}

// TestEveryActionRoundTripsJSONToOptions: for every catalog action, a JSON
// step giving every parameter is validated, lowered to Starlark, run, and
// decoded into the action's options struct, and each parameter arrives
// with the value the JSON gave.
func TestEveryActionRoundTripsJSONToOptions(t *testing.T) {
	for _, a := range lang.Actions() {
		t.Run(a.Name, func(t *testing.T) {
			var parts []string
			for _, p := range a.Params {
				if p.Function {
					continue // a Starlark function: JSON cannot give one
				}
				parts = append(parts, fmt.Sprintf("%q: %s", p.Name, exampleValue(p)))
			}
			if len(parts) == 0 {
				parts = nil
			}
			obj := "{" + strings.Join(parts, ", ") + "}"
			if len(a.Params) == 0 {
				obj = "true"
			}
			req, err := lang.ParseRequest([]byte(`{"tab": "t1", "steps": [{"` + a.Name + `": ` + obj + `}]}`))
			if err != nil {
				t.Fatalf("%s: %v", obj, err)
			}
			src, err := lang.Lower(req)
			if err != nil {
				t.Fatal(err)
			}
			var pos starlark.Tuple
			var kw []starlark.Tuple
			capture := starlark.NewBuiltin(a.Builtin(), func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				pos, kw = args, kwargs
				return starlark.None, nil
			})
			if _, err := starlark.ExecFile(&starlark.Thread{}, "lowered.star", src, starlark.StringDict{a.Builtin(): capture}); err != nil {
				t.Fatalf("%s: %v", src, err)
			}
			args, err := NewArgs(a, pos, kw)
			if err != nil {
				t.Fatalf("%s: %v", src, err)
			}
			var want map[string]any
			json.Unmarshal([]byte(obj), &want)
			got := map[string]any{}
			if a.HasOptions() {
				optionValues(t, reflect.ValueOf(args.Opts).Elem(), got)
			} else if o, ok := args.Params().(*lang.Object); ok {
				for _, k := range o.Keys {
					got[k] = o.Values[k]
				}
			}
			if a.HasOptions() {
				decoded(t, reflect.ValueOf(args.Opts).Elem(), want)
			}
			for k, w := range want {
				if !subset(canonical(t, w), canonical(t, got[k])) {
					t.Errorf("%s: %s arrived as %s (lowered: %s)", a.Name, k, jsonOf(got[k]), strings.TrimSpace(src[strings.LastIndex(strings.TrimSpace(src), "\n")+1:]))
				}
			}
		})
	}
}

// decoded replaces in want the values of the parameters whose type decodes
// itself (a stepopt.Decoder: "Shift" becomes ["Shift"], 200 becomes "200")
// with the decoder's reading of them, as JSON-shaped data.
func decoded(t *testing.T, v reflect.Value, want map[string]any) {
	for i := range v.NumField() {
		sf, fv := v.Type().Field(i), v.Field(i)
		if sf.Anonymous && fv.Kind() == reflect.Struct {
			decoded(t, fv, want)
			continue
		}
		name, _, _ := strings.Cut(sf.Tag.Get("step"), ",")
		w, given := want[name]
		typ := sf.Type
		if typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		d, isDecoder := reflect.New(typ).Interface().(stepopt.Decoder)
		if !given || !isDecoder {
			continue
		}
		if err := d.DecodeOption(plainOf(w)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want[name] = fieldData(t, reflect.ValueOf(d).Elem())
	}
}

// plainOf turns json.Unmarshal's data into the plain values a
// stepopt.Decoder reads: whole numbers int64, objects *stepopt.Object.
func plainOf(v any) any {
	switch x := v.(type) {
	case float64:
		if x == float64(int64(x)) {
			return int64(x)
		}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plainOf(e)
		}
		return out
	case map[string]any:
		o := &stepopt.Object{Values: map[string]any{}}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			o.Set(k, plainOf(x[k]))
		}
		return o
	}
	return v
}

// optionValues collects an options struct's set fields by JSON name, as
// JSON-shaped data.
func optionValues(t *testing.T, v reflect.Value, out map[string]any) {
	for i := range v.NumField() {
		sf, fv := v.Type().Field(i), v.Field(i)
		if sf.Anonymous && fv.Kind() == reflect.Struct {
			optionValues(t, fv, out)
			continue
		}
		name, _, _ := strings.Cut(sf.Tag.Get("step"), ",")
		if name == "" || (fv.Kind() == reflect.Pointer || fv.Kind() == reflect.Interface) && fv.IsNil() {
			continue
		}
		out[name] = fieldData(t, fv)
	}
}

func fieldData(t *testing.T, fv reflect.Value) any {
	switch x := fv.Interface().(type) {
	case lang.Hook:
		return x.JS
	case starlark.Value:
		d, err := FromStarlark(x)
		if err != nil {
			t.Fatal(err)
		}
		return d
	case time.Duration:
		return float64(x) / float64(time.Millisecond)
	case *time.Duration:
		return float64(*x) / float64(time.Millisecond)
	}
	if _, decodes := fv.Interface().(stepopt.Decoder); decodes && fv.Kind() == reflect.Pointer {
		return fv.Elem().Interface()
	}
	if fv.Kind() == reflect.Pointer && fv.Elem().Kind() == reflect.Struct {
		m := map[string]any{}
		optionValues(t, fv.Elem(), m)
		return m
	}
	return fv.Interface()
}

func canonical(t *testing.T, v any) any {
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	json.Unmarshal(data, &out)
	return out
}

// subset reports whether got has want's value; for objects, want's keys
// with their values (got may add defaults), and true stands for an object
// a bool|dict parameter turned into its defaults.
func subset(want, got any) bool {
	if w, ok := want.(map[string]any); ok {
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range w {
			if !subset(v, g[k]) {
				return false
			}
		}
		return true
	}
	if want == true {
		if _, isObj := got.(map[string]any); isObj {
			return true
		}
	}
	return reflect.DeepEqual(want, got)
}

func jsonOf(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}
