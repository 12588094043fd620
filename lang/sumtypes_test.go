package lang

import (
	"reflect"
	"strings"
	"testing"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/lang/stepopt"
)

// TestUnionParametersDecodeIntoGoTypes: a parameter that takes a string or
// a list (or a number or a string) arrives as its stepopt type from JSON
// and from Starlark alike, and a shape it does not take fails validation,
// before any step runs, naming the parameter.
func TestUnionParametersDecodeIntoGoTypes(t *testing.T) {
	for _, c := range []struct {
		step string
		err  string
	}{
		{`{"network":{"type":"xhr","status":404}}`, ""},
		{`{"network":{"type":["xhr","fetch"],"status":"4xx"}}`, ""},
		{`{"network":{"type":["xhr",3]}}`, `network.type must be a string or a list of strings; found int in the list`},
		{`{"network":{"status":true}}`, `network.status must be`},
		{`{"click":{"selector":"#a","modifiers":{"shift":true}}}`, `click.modifiers must be`},
		{`{"upload":{"selector":"#f","files":[["a"]]}}`, `upload.files must be a string or a list of strings; found list in the list`},
	} {
		_, err := ParseRequest([]byte(`{"steps":[` + c.step + `]}`))
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.step, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: %v, want %q", c.step, err, c.err)
		}
	}
	a, _ := LookupAction("network")
	for _, kw := range []map[string]starlark.Value{
		{"type": starlark.String("xhr"), "status": starlark.MakeInt(404)},
		{"type": starlark.NewList([]starlark.Value{starlark.String("xhr")}), "status": starlark.String("404")},
		{"type": starlark.Tuple{starlark.String("xhr")}, "status": starlark.Float(404)},
	} {
		o, err := a.DecodeOptions(kw)
		if err != nil {
			t.Fatal(err)
		}
		n := o.(*NetworkOptions)
		if !reflect.DeepEqual(n.Type, stepopt.Strings{"xhr"}) || n.Status != "404" {
			t.Errorf("%v: type %v status %q", kw, n.Type, n.Status)
		}
	}
}
