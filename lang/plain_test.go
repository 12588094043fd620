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
