package builtins

import (
	"strings"
	"testing"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/browser"
)

// TestRecordRefusesUnknownAttributes: a record made from a typed output
// reads a field the output omitted (empty) as None, and refuses a name its
// type does not have, naming the nearest one and listing the real ones; a
// record of data with no fixed shape reads any missing name as None.
func TestRecordRefusesUnknownAttributes(t *testing.T) {
	v, err := ToStarlark(&browser.ClickResult{Clicked: true, Method: "cdp"})
	if err != nil {
		t.Fatal(err)
	}
	th := &starlark.Thread{}
	env := starlark.StringDict{"r": v, "m": mustStar(t, map[string]any{"a": 1})}
	for _, tc := range []struct{ expr, want, err string }{
		{"r.clicked", "True", ""},
		{"r.navigated", "None", ""}, // omitted because false: still a field of the type
		{"r.newUrl", "None", ""},    // from the embedded Effect
		{`r.get("naviagted", 7)`, "7", ""},
		{`hasattr(r, "naviagted")`, "False", ""},
		{`hasattr(r, "navigated")`, "True", ""},
		{"r.naviagted", "", `record has no attribute "naviagted"; its attributes: `},
		{"m.b", "None", ""},
	} {
		got, err := starlark.Eval(th, "t.star", tc.expr, env)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), "clicked") || !strings.Contains(err.Error(), "did you mean .navigated?") {
				t.Errorf("%s: error %v, want %q listing the fields", tc.expr, err, tc.err)
			}
			continue
		}
		if err != nil || got.String() != tc.want {
			t.Errorf("%s = %v (%v), want %s", tc.expr, got, err, tc.want)
		}
	}
	obs := v.(*Record).With("observation", starlark.String("x"))
	if got, err := obs.Attr("observation"); err != nil || got != starlark.String("x") {
		t.Errorf("observation added to a typed record: %v %v", got, err)
	}
}

func mustStar(t *testing.T, v any) starlark.Value {
	t.Helper()
	sv, err := ToStarlark(v)
	if err != nil {
		t.Fatal(err)
	}
	return sv
}
