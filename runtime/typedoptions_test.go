package runtime

import (
	"net/http"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

const typedOptionsHTML = `<!doctype html><title>typed</title>
<button id="inc" onclick="window.count++">inc</button>
<input id="a" oninput="if (!log.includes('a')) log.push('a')">
<input id="b" oninput="if (!log.includes('b')) log.push('b')">
<a class="k" data-k="one" href="#1">one</a><a class="k" data-k="two" href="#2">two</a>
<script>window.count = 0; window.log = [];</script>`

// serveTyped serves the page, /echo (the X-Test request header back) and
// /api/data (which a fulfilled route must keep the request from).
func serveTyped(t *testing.T) (base string, hits func() int) {
	t.Helper()
	n := 0
	mux := http.NewServeMux()
	mux.HandleFunc("/typed.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(typedOptionsHTML))
	})
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("X-Test=" + r.Header.Get("X-Test"))) })
	mux.HandleFunc("/api/data", func(w http.ResponseWriter, r *http.Request) { n++; w.Write([]byte("server")) })
	return browsertest.ServeHandler(t, mux), func() int { return n }
}

// TestTypedOptionBadShapeRunsNoStep: a bad shape of an option that
// decodes into a Go type fails the whole command at validation, so the
// click before it never runs (the page's counter stays 0). Before, the
// click ran and the bad step failed after it (or, for a query output
// mode with no element to apply it to, succeeded doing nothing).
func TestTypedOptionBadShapeRunsNoStep(t *testing.T) {
	base, _ := serveTyped(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+strings.TrimSuffix(base, "/")+`/typed.html"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	tab := `{"tab":"` + out.Tab + `","steps":[{"click":"#inc"},`
	for _, c := range []struct{ step, want string }{
		{`{"screenshot":{"region":{"x":0,"y":0,"w":5}}}`, `screenshot.region has no key "w"`},
		{`{"pdf":{"margin":"1 furlong"}}`, `pdf.margin "1 furlong" is not a length`},
		{`{"cookies":{"set":[{"name":"a","value":1}]}}`, `cookies.set [0] value must be a string, not int`},
		{`{"route":{"url":"/api/data","fulfill":{"status":99}}}`, `route.fulfill status must be an HTTP status`},
		{`{"route":{"url":"/api/data","headers":{"X-Test":[1]}}}`, `route.headers X-Test must be a string, not list`},
		{`{"fill":{"#a":"x","#b":[1]}}`, `fill "#b": a fill value must be text or a number, not list`},
		{`{"pipeline":[{"find":"#a","fill":"x"},"#b"]}`, `pipeline operation 1 is "#b"`},
		{`{"query":{"selector":"#none","output":"txt"}}`, `query.output has no mode "txt"`},
		{`{"assert":{"url":{"has":"typed"}}}`, `assert.url has no condition "has"`},
		{`{"poll":{"fn":""}}`, `poll.fn is empty`},
	} {
		bad := runJSON(t, tab+c.step+`]}`)
		if bad.Error == nil || bad.Error.Type != TypeValidation || !strings.Contains(bad.Error.Message, c.want) || len(bad.Steps) != 0 {
			t.Errorf("%s: want a VALIDATION error %q and no step run, got %s", c.step, c.want, bad.JSON())
		}
	}
	check := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"pageFunction":"() => [window.count, document.querySelector('#a').value]"}]}`)
	mustOK(t, check)
	if got := jsonString(check.Steps[0].Output); got != `[0,""]` {
		t.Errorf("a step ran before the refused one: count and #a = %s", got)
	}
}

// TestTypedOptionsActOnThePage: each typed option, given from JSON, has
// its effect as the page sees it.
func TestTypedOptionsActOnThePage(t *testing.T) {
	base, hits := serveTyped(t)
	page := strings.TrimSuffix(base, "/") + "/typed.html"
	out := runJSON(t, `{"steps":[{"openTab":"`+page+`"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	run := func(steps string) *Output {
		t.Helper()
		o := runJSON(t, `{"tab":"`+out.Tab+`","steps":[`+steps+`]}`)
		mustOK(t, o)
		return o
	}
	last := func(o *Output) string { return jsonString(o.Steps[len(o.Steps)-1].Output) }

	// cookies: set two, the page reads them; get one by a filter dict;
	// clear one by name, the page no longer has it.
	o := run(`{"cookies":{"set":[{"name":"a","value":"1"},{"name":"b","value":"2"}]}},
		{"pageFunction":"() => document.cookie"}`)
	if got := last(o); got != `"a=1; b=2"` {
		t.Errorf("document.cookie after set = %s", got)
	}
	o = run(`{"cookies":{"get":{"name":"b"}}}`)
	if got := jsonString(o.Steps[0].Output); !strings.Contains(got, `"value":"2"`) || strings.Contains(got, `"value":"1"`) {
		t.Errorf("get {name: b} = %s", got)
	}
	o = run(`{"cookies":{"clear":{"name":"a"}}},{"pageFunction":"() => document.cookie"}`)
	if got := last(o); got != `"b=2"` {
		t.Errorf("document.cookie after clear {name: a} = %s", got)
	}

	// route fulfill: fetch sees the status, the headers and the JSON body
	// in the order written; the server never sees the request.
	o = run(`{"route":{"url":"/api/data","fulfill":{"status":201,"json":{"b":1,"a":[2.5,null]},"headers":{"X-N":2}}}},
		{"pageFunction":"async () => { const r = await fetch('/api/data'); return [r.status, r.headers.get('content-type'), r.headers.get('x-n'), await r.text()]; }"}`)
	if got := last(o); got != `[201,"application/json","2","{\"b\":1,\"a\":[2.5,null]}"]` {
		t.Errorf("fulfilled fetch = %s", got)
	}
	if hits() != 0 {
		t.Errorf("the fulfilled request reached the server %d times", hits())
	}
	// route headers: the server receives the header set.
	o = run(`{"route":{"url":"/echo","headers":{"X-Test":7}}},
		{"pageFunction":"async () => (await fetch('/echo')).text()"}`)
	if got := last(o); got != `"X-Test=7"` {
		t.Errorf("echoed header = %s", got)
	}

	// fill batch: the fields are filled in the order written, numbers as
	// text; fields= is the same.
	o = run(`{"fill":{"#b":"two","#a":1}},{"pageFunction":"() => [log, a.value, b.value]"}`)
	if got := last(o); got != `[["b","a"],"1","two"]` {
		t.Errorf("batch fill order and values = %s", got)
	}
	o = run(`{"fill":{"fields":{"#a":2.5,"#b":true}}},{"pageFunction":"() => [a.value, b.value]"}`)
	if got := last(o); got != `["2.5","True"]` {
		t.Errorf("fields= values = %s", got)
	}

	// pipeline steps= run in the page; query output reads attributes;
	// assert url checks; poll's fn resolves; the screenshot region sets
	// the image size.
	o = run(`{"pipeline":{"steps":[{"find":"#a","fill":"piped"}]}},{"pageFunction":"() => a.value"}`)
	if got := last(o); got != `"piped"` {
		t.Errorf("pipeline steps= filled %s", got)
	}
	o = run(`{"query":{"selector":".k","output":{"attributes":["data-k"]}}}`)
	mustContain(t, jsonString(o.Steps[0].Output), `{"data-k":"one"}`, `{"data-k":"two"}`)
	run(`{"click":"#inc"},{"assert":{"url":{"contains":"/typed","endsWith":".html"}}},{"poll":{"fn":"() => window.count === 1"}}`)
	o = run(`{"screenshot":{"region":{"x":0,"y":0,"width":40,"height":30}}}`)
	if s := stepOutput(t, o, 0); jsonString(s["width"]) != "40" || jsonString(s["height"]) != "30" {
		t.Errorf("region screenshot = %s", jsonString(s))
	}
	bad := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"assert":{"url":{"equals":"`+page+`x"}}}]}`)
	if bad.OK() {
		t.Errorf("assert url equals another URL passed: %s", bad.JSON())
	}
}

// TestRecipeArgsKeepTheirStarlarkTypes: recipe's args reach the recipe as
// keyword arguments with the types the JSON wrote (2.5 stays a float, a
// dict keeps its order).
func TestRecipeArgsKeepTheirStarlarkTypes(t *testing.T) {
	recipes := jsonString(`def kinds(n, d, l):
    return [type(n), n, list(d.keys()), type(l), l]
`)
	mustOK(t, runJSON(t, `{"steps":[{"writeSiteProfile":{"domain":"typed.test","content":"# typed","recipes":`+recipes+`}}]}`))
	base, _ := serveTyped(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+strings.TrimSuffix(base, "/")+`/typed.html"},
		{"recipe":{"site":"typed.test","name":"kinds","args":{"n":2.5,"d":{"z":1,"a":2},"l":[1,"x"]}}}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	if got := jsonString(stepOutput(t, out, 1)["result"]); got != `["float",2.5,["z","a"],"list",[1,"x"]]` {
		t.Errorf("recipe saw %s", got)
	}
	bad := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"recipe":{"site":"typed.test","name":"kinds","args":["x"]}}]}`)
	if bad.Error == nil || bad.Error.Type != TypeValidation || !strings.Contains(bad.Error.Message, "recipe.args") {
		t.Errorf("args as a list: %s", bad.JSON())
	}
}
