package runtime

import (
	"regexp"
	"strings"
	"testing"
)

func TestReadStepsJSON(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[
		{"openTab": "`+base+`read.html"},
		{"queryAll": {"heading": "h1", "buttons": {"role": "button", "output": "name"}, "bad": "##"}},
		{"extract": "#orders"},
		{"extract": {"selector": "#steps", "type": "list"}},
		{"inspect": {"selectors": ["td"], "limit": 2}},
		{"getDom": {"selector": "#steps", "outer": false}},
		{"formState": "#signup"},
		{"validate": "#code"},
		{"pageFunction": "() => { console.warn('careful'); console.error('broken'); return 1; }"},
		{"console": {"level": "error"}},
		{"assert": {"url": {"endsWith": "read.html"}, "text": "ORDERS", "caseSensitive": false}}
	]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	q := stepOutput(t, out, 1)
	if got := regexp.MustCompile(`"ref":"s[0-9]+e1"`).ReplaceAllString(jsonString(q["heading"]), `"ref":"s1e1"`); got != `{"results":[{"index":0,"ref":"s1e1","value":"Orders"}],"selector":"h1","showing":1,"total":1}` {
		t.Errorf("queryAll heading: %s", got)
	}
	if got := jsonString(q["buttons"]); !strings.Contains(got, `"name":"Join"`) || !strings.Contains(got, `"name":"Save"`) || !strings.Contains(got, `"total":2`) {
		t.Errorf("queryAll buttons: %s", got)
	}
	if got := jsonString(q["bad"]); !strings.Contains(got, `"errorType":"InvalidSelectorError"`) {
		t.Errorf("queryAll bad entry: %s", got)
	}
	want := `{"headers":["Order","Total","Status"],"rowCount":3,"rows":[["A-1","$12.00","shipped"],["A-2","$7.50","shipped"],["A-3 cancelled","A-3 cancelled","refunded"]],"type":"table","types":["text","text","text"]}`
	if got := jsonString(stepOutput(t, out, 2)); got != want {
		t.Errorf("extract table:\n got %s\nwant %s", got, want)
	}
	want = `{"itemCount":3,"items":["Pick",{"items":["Box","Tape"],"text":"Pack"},"Ship"],"type":"list"}`
	if got := jsonString(stepOutput(t, out, 3)); got != want {
		t.Errorf("extract list:\n got %s\nwant %s", got, want)
	}
	if got := jsonString(stepOutput(t, out, 4)["custom"]); got != `{"td":{"count":7,"values":["A-1","$12.00"]}}` {
		t.Errorf("inspect custom: %s", got)
	}
	if got := stepOutput(t, out, 5); got["html"] != `<li>Pick</li><li>Pack <ul><li>Box</li><li>Tape</li></ul></li><li>Ship</li>` || got["tagName"] != "ul" {
		t.Errorf("getDom: %s", jsonString(got))
	}
	// The password is masked: the real one never reaches the output.
	want = `{"fieldCount":3,"fields":[` +
		`{"disabled":false,"label":"Email","name":"email","required":true,"type":"email","valid":false,"validationMessage":"Please fill out this field.","value":""},` +
		`{"disabled":false,"label":"Code","name":"code","required":false,"type":"text","valid":false,"validationMessage":"Please match the requested format.","value":"12"},` +
		`{"disabled":false,"label":"Password","name":"pw","required":false,"type":"password","valid":true,"value":"••••••••"}],"valid":false}`
	if got := jsonString(stepOutput(t, out, 6)); got != want {
		t.Errorf("formState:\n got %s\nwant %s", got, want)
	}
	if strings.Contains(string(out.JSON()), "hunter2") {
		t.Errorf("the password reached the output: %s", out.JSON())
	}
	if got := stepOutput(t, out, 7); got["valid"] != false || jsonString(got["validity"].(map[string]any)["patternMismatch"]) != "true" {
		t.Errorf("validate: %s", jsonString(got))
	}
	if c := stepOutput(t, out, 9); c["total"] != 1.0 || c["messages"].([]any)[0].(map[string]any)["text"] != "broken" {
		t.Errorf("console: %s", jsonString(c))
	}
	if a := stepOutput(t, out, 10); a["passed"] != true || len(a["assertions"].([]any)) != 2 {
		t.Errorf("assert: %s", jsonString(a))
	}

	// A later command: the box of a ref issued by queryAll, and the
	// element at its centre.
	ref := q["heading"].(map[string]any)["results"].([]any)[0].(map[string]any)["ref"].(string)
	again := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"getBox": "`+ref+`"}, {"getBox": ["`+ref+`", "s9e9"]}]}`)
	mustOK(t, again)
	box := stepOutput(t, again, 0)
	if got := jsonString(box); got != `{"center":{"x":170,"y":30},"height":40,"width":300,"x":20,"y":10}` {
		t.Fatalf("getBox: %s", got)
	}
	if got := jsonString(stepOutput(t, again, 1)["s9e9"]); got != `{"error":"not found"}` {
		t.Errorf("getBox of an unknown ref: %s", got)
	}
	center := box["center"].(map[string]any)
	at := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"elementsAt": {"x": `+jsonString(center["x"])+`, "y": `+jsonString(center["y"])+`}}]}`)
	mustOK(t, at)
	if got := stepOutput(t, at, 0); got["ref"] != ref || got["existing"] != true || got["tag"] != "h1" {
		t.Errorf("elementsAt the heading: %s", jsonString(got))
	}
}

func TestReadSubmitFailureAndFix(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[
		{"openTab": "`+base+`read.html"},
		{"fill": {"selector": "#code", "value": "1234"}},
		{"submit": "#signup"}
	]}`)
	closeTabAfter(t, out)
	// Spec §11.12: an invalid form is not submitted, and the step says
	// why in its output ({submitted, valid, errors}) and a warning.
	mustOK(t, out)
	step := out.Steps[2]
	if got := jsonString(step.Output); !strings.Contains(got, `"submitted":false,"valid":false,"errors":[{"field":"email","label":"Email","message":"Please fill out this field."}]`) {
		t.Errorf("submit output: %s", got)
	}
	if w := strings.Join(step.Warning, " "); !strings.Contains(w, `email ("Email"): Please fill out this field.`) || !strings.Contains(w, "submit again") {
		t.Errorf("submit warning: %q", w)
	}
	if got := jsonString(runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"pageFunction":"window.sent || null"}]}`).Steps[0].Output); got != "null" {
		t.Errorf("the invalid form was submitted: %s", got)
	}
	rec := runRecipe(t, Program{Tab: out.Tab, Source: []byte(`r = submit("#signup")
result = [r.submitted, r.valid, [e["field"] for e in r.errors]]`)})
	mustOK(t, rec)
	if got := jsonString(rec.Result); got != `[false,false,["email"]]` {
		t.Errorf("a recipe's submit of an invalid form: %s", got)
	}
	fixed := runJSON(t, `{"tab":"`+out.Tab+`","steps":[
		{"fill": {"selector": "#email", "value": "a@b.co"}},
		{"submit": "#signup button"},
		{"pageFunction": "() => window.sent"}
	]}`)
	mustOK(t, fixed)
	// The page's handler calls preventDefault: submit says so and warns.
	if got := jsonString(stepOutput(t, fixed, 1)); got != `{"prevented":true,"submitted":false,"valid":true}` {
		t.Errorf("submit: %s", got)
	}
	wantWarn := `the page's submit handler cancelled the submission of form#signup (preventDefault) and nothing navigated: the page handles the form in script, so check its outcome (snapshot, assert or wait)`
	if got := fixed.Steps[1].Warning; len(got) != 1 || got[0] != wantWarn {
		t.Errorf("submit warning: %q", got)
	}
	if got := jsonString(fixed.Steps[2].Output); got != `{"code":"1234","email":"a@b.co","pw":"hunter2"}` {
		t.Errorf("the page's handler saw %s", got)
	}
}

func TestReadAssertFailureJSON(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[
		{"openTab": "`+base+`read.html"},
		{"assert": {"url": {"contains": "/nowhere"}, "text": "Orders"}}
	]}`)
	closeTabAfter(t, out)
	if out.OK() || len(out.Errors) != 1 || out.Errors[0].ErrorType != "AssertionError" {
		t.Fatalf("assert failure: %s", out.JSON())
	}
	want := `1 of 2 assertion(s) failed: url does not contain "/nowhere" (actual: "` + base + `read.html")`
	if out.Errors[0].Error != want {
		t.Errorf("message:\n got %s\nwant %s", out.Errors[0].Error, want)
	}
	ctx, _ := out.Steps[1].Context.(map[string]any)
	if a := ctx["assertions"]; !strings.Contains(jsonString(a), `"passed":false`) || !strings.Contains(jsonString(a), `"type":"text"`) {
		t.Errorf("context: %s", jsonString(out.Steps[1].Context))
	}
	bad := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"assert": {"url": {"near": "x"}}}]}`)
	if bad.Error == nil || bad.Error.Type != TypeValidation || len(bad.Steps) != 0 || !strings.Contains(bad.Error.Message, `assert.url has no condition "near"`) {
		t.Errorf("unknown url condition, want it refused before any step runs: %s", bad.JSON())
	}
}

func TestReadRecipeAndLowering(t *testing.T) {
	base := pagesURL(t)
	src := `open_tab(args["base"] + "read.html")
t = extract("#orders", limit = 1)
q = query_all({"h": "h1", "links": {"selector": "a", "output": "href"}})
s = form_state(selector = "#signup")
l = extract(selector = "#steps", type = "list")
a = assert(text = "Orders")
c = console(level = "error")
result = {"first": t.rows[0], "truncated": t.truncated, "h": q.h.total, "link": q.links.results[0].value.endswith("#top"), "fields": s.fieldCount, "items": l.itemCount, "passed": a.passed, "errors": c.total}
`
	out := runRecipe(t, Program{Source: []byte(src), Args: map[string]string{"base": base}})
	mustOK(t, out)
	closeTabAfter(t, out)
	if got := jsonString(out.Result); got != `{"first":["A-1","$12.00","shipped"],"truncated":true,"h":1,"link":true,"fields":3,"items":3,"passed":true,"errors":0}` {
		t.Errorf("result = %s", got)
	}
	lowered := compileForTest(t, `{"tab":"t1","steps":[{"queryAll":{"a":"h1","b":{"role":"button"}}},{"getDom":true},{"elementsAt":[{"x":1,"y":2}]},{"console":{"level":"error"}},{"assert":{"url":{"contains":"x"}}}]}`)
	mustContain(t, lowered, `query_all({"a": "h1", "b": {"role": "button"}})`, `get_dom()`, `elements_at([{"x": 1, "y": 2}])`,
		`console(level = "error")`, `assert(url = {"contains": "x"})`)
}

func TestReadGetBoxShapeFollowsInput(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[
		{"openTab": "`+base+`read.html"},
		{"query": "h1"}
	]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	ref := stepOutput(t, out, 1)["results"].([]any)[0].(map[string]any)["ref"].(string)
	box := `{"center":{"x":170,"y":30},"height":40,"width":300,"x":20,"y":10}`
	keyed := `{"` + ref + `":` + box + `}`
	steps := []struct{ step, want string }{
		{`{"getBox": "` + ref + `"}`, box},
		{`{"getBox": {"ref": "` + ref + `"}}`, box},
		{`{"getBox": ["` + ref + `"]}`, keyed},
		{`{"getBox": ["` + ref + `", "` + ref + `"]}`, keyed},
		{`{"getBox": {"refs": ["` + ref + `"]}}`, keyed},
		{`{"getBox": {"refs": ["` + ref + `", "s9e9"]}}`, `{"` + ref + `":` + box + `,"s9e9":{"error":"not found"}}`},
	}
	for _, s := range steps {
		got := runJSON(t, `{"tab":"`+out.Tab+`","steps":[`+s.step+`]}`)
		mustOK(t, got)
		if g := jsonString(stepOutput(t, got, 0)); g != s.want {
			t.Errorf("%s:\n got %s\nwant %s", s.step, g, s.want)
		}
	}
}
