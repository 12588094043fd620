package lang

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"go.starlark.net/starlark"
)

// TestToPlainNumberKinds: one converter writes a Starlark value as the
// option types read it (int64, float64) or as data sent on as JSON
// (json.Number of any size, finite); dicts keep their key order in both.
func TestToPlainNumberKinds(t *testing.T) {
	big := starlark.MakeInt64(math.MaxInt64).Add(starlark.MakeInt(1))
	d := starlark.NewDict(2)
	_ = d.SetKey(starlark.String("b"), starlark.MakeInt(1))
	_ = d.SetKey(starlark.String("a"), starlark.Float(2.5))
	for _, c := range []struct {
		in      starlark.Value
		n       Numbers
		want    any
		wantErr string
	}{
		{starlark.MakeInt(3), GoNumbers, int64(3), ""},
		{starlark.MakeInt(3), JSONNumbers, json.Number("3"), ""},
		{starlark.Float(2.5), GoNumbers, 2.5, ""},
		{starlark.Float(2.5), JSONNumbers, json.Number("2.5"), ""},
		{big, JSONNumbers, json.Number("9223372036854775808"), ""},
		{big, GoNumbers, nil, "is too large"},
		{starlark.Float(math.NaN()), JSONNumbers, nil, "cannot be represented in JSON"},
		{starlark.Tuple{starlark.True, starlark.None}, GoNumbers, []any{true, nil}, ""},
		{d, GoNumbers, &Object{Keys: []string{"b", "a"}, Values: map[string]any{"b": int64(1), "a": 2.5}}, ""},
		{d, JSONNumbers, &Object{Keys: []string{"b", "a"}, Values: map[string]any{"b": json.Number("1"), "a": json.Number("2.5")}}, ""},
		{starlark.NewBuiltin("f", nil), GoNumbers, nil, "a builtin_function_or_method cannot be turned into data"},
	} {
		got, err := ToPlain(c.in, c.n)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%v (%d): %v, want error %q", c.in, c.n, err, c.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v (%d) = %#v, %v; want %#v", c.in, c.n, got, err, c.want)
		}
	}
	self := starlark.NewList(nil)
	_ = self.Append(self)
	if _, err := ToPlain(self, GoNumbers); err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Errorf("a list holding itself: %v", err)
	}
}

// TestOptionFieldsAreGoTypes: an options struct may not declare a
// starlark.Value field (the builtin would parse it again at run time);
// a function parameter is a starlark.Callable, a predicate a Hook.
func TestOptionFieldsAreGoTypes(t *testing.T) {
	type bad struct {
		X starlark.Value `step:"x" type:"any"`
	}
	if _, err := parseOptions(reflect.TypeOf(bad{})); err == nil || !strings.Contains(err.Error(), "x is a starlark.Value: give it a Go type") {
		t.Errorf("a starlark.Value field: %v", err)
	}
	type good struct {
		F starlark.Callable `step:"f" type:"any"`
		H Hook              `step:"h"`
	}
	spec, err := parseOptions(reflect.TypeOf(good{}))
	if err != nil {
		t.Fatal(err)
	}
	if p := spec.params(); len(p) != 2 || !p[0].Function || p[1].Type != "hook" || p[1].Function {
		t.Errorf("params = %+v", p)
	}
}
