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

// TestTypedOptionsRefuseBadShapesAtValidation: each option that decodes
// into a stepopt type (or a Hook, or a function) refuses a bad shape when
// the command is validated, before any step runs, with a message naming
// the option and what it takes. Before, each of these was accepted and
// failed (or did nothing) only when its step was reached.
func TestTypedOptionsRefuseBadShapesAtValidation(t *testing.T) {
	for _, c := range []struct{ step, err string }{
		{`{"screenshot":{"region":{"x":0,"y":0,"w":5}}}`, `screenshot.region has no key "w"; valid: x, y, width, height`},
		{`{"screenshot":{"region":{"x":"0"}}}`, `screenshot.region x must be a number, not string`},
		{`{"pdf":{"margin":{"middle":1}}}`, `pdf.margin has no key "middle"; valid: top, bottom, left, right`},
		{`{"pdf":{"margin":"1 furlong"}}`, `pdf.margin "1 furlong" is not a length`},
		{`{"pdf":{"paperWidth":"wide"}}`, `pdf.paperWidth "wide" is not a length`},
		{`{"cookies":{"get":{"domian":"a.test"}}}`, `cookies.get has no key "domian"; valid: url, urls, domain, name, all`},
		{`{"cookies":{"clear":""}}`, `cookies.clear is empty`},
		{`{"cookies":{"set":[{"name":"a","value":1}]}}`, `cookies.set [0] value must be a string, not int`},
		{`{"cookies":{"set":[]}}`, `cookies.set is empty`},
		{`{"route":{"url":"/a","fulfill":{"body":"a","json":1}}}`, `route.fulfill takes one of body, json or file`},
		{`{"route":{"url":"/a","fulfill":{"status":99}}}`, `route.fulfill status must be an HTTP status (100–599)`},
		{`{"route":{"url":"/a","fulfill":{"jsn":[]}}}`, `route.fulfill has no key "jsn"`},
		{`{"route":{"url":"/a","headers":{"X-A":true}}}`, `route.headers X-A must be a string, not bool`},
		{`{"route":{"url":"/a","handler":"abort"}}`, `route.handler must be a Starlark function (recipes only), not string`},
		{`{"assert":{"url":{"has":"/x"}}}`, `assert.url has no condition "has"`},
		{`{"assert":{"url":{"equals":3}}}`, `assert.url equals must be a string, not int`},
		{`{"query":{"selector":"a","output":"txt"}}`, `query.output has no mode "txt"`},
		{`{"query":{"selector":"a","output":{"attributes":[]}}}`, `query.output needs attributes to read`},
		{`{"waitForResponse":{"url":"/a","body":0}}`, `waitForResponse.body must be true or a positive byte limit, not 0`},
		{`{"fill":{"fields":{"#a":"x","#b":[1]}}}`, `fill.fields "#b": a fill value must be text or a number, not list`},
		{`{"fill":{"#a":"x","#b":{"c":1}}}`, `fill "#b": a fill value must be text or a number, not dict`},
		{`{"pipeline":[{"find":"#a","click":true},"#email"]}`, `pipeline operation 1 is "#email", not an operation object`},
		{`{"pipeline":{"steps":[]}}`, `pipeline.steps is empty`},
		{`{"poll":{"fn":""}}`, `poll.fn is empty`},
	} {
		_, err := ParseRequest([]byte(`{"steps":[{"goto":"http://a.test/"},` + c.step + `]}`))
		if err == nil || !strings.Contains(err.Error(), "step 2: "+c.err) {
			t.Errorf("%s: %v, want %q", c.step, err, c.err)
		}
	}
	for _, good := range []string{
		`{"screenshot":{"region":{"x":0,"y":0,"width":10,"height":10}}}`,
		`{"pdf":{"margin":{"top":"1cm","left":0.5},"paperWidth":8.5,"paperHeight":"297mm"}}`,
		`{"cookies":{"get":true,"clear":"a.test","set":{"name":"a","value":"1"}}}`,
		`{"route":{"url":"/a","fulfill":{"status":201,"json":{"b":1},"headers":{"X-N":2}}}}`,
		`{"assert":{"url":{"contains":"/a","matches":"a$"}}}`,
		`{"query":{"selector":"a","output":["text","href"]}}`,
		`{"waitForResponse":{"url":"/a","body":true}}`,
		`{"fill":{"#a":"x","#b":2,"#c":true}}`,
		`{"pipeline":[{"find":"#a","click":true}]}`,
		`{"poll":{"fn":"() => true"}}`,
	} {
		if _, err := ParseRequest([]byte(`{"steps":[` + good + `]}`)); err != nil {
			t.Errorf("%s: %v", good, err)
		}
	}
}
