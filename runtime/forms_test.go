package runtime

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestFormsStepsDriveThePage(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CDP_SKILL_UPLOAD_DIRS", dir)
	photo := filepath.Join(dir, "photo.txt")
	if err := os.WriteFile(photo, []byte("pixels"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[
		{"openTab": "`+base+`forms.html"},
		{"selectOption": {"selector": "#plan", "value": "pro"}},
		{"check": "#agree"},
		{"check": {"label": "Agree"}},
		{"check": {"text": "Dark mode"}},
		{"focus": {"label": "Your name"}},
		{"upload": {"selector": "#file", "files": `+jsonString(photo)+`}},
		{"snapshot": true}
	]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	if got := stepOutput(t, out, 1); jsonString(got["selected"]) != `[{"label":"Pro","value":"pro"}]` || got["multiple"] != false {
		t.Errorf("selectOption output = %s", jsonString(got))
	}
	if got := stepOutput(t, out, 2); got["checked"] != true || got["changed"] != true {
		t.Errorf("check output = %s", jsonString(got))
	}
	if got := stepOutput(t, out, 3); got["checked"] != true || got["changed"] != false {
		t.Errorf("check of a checked box = %s", jsonString(got))
	}
	if got := stepOutput(t, out, 5); got["focused"] != true || jsonString(got["element"]) != `{"name":"Your name","role":"textbox"}` {
		t.Errorf("focus output = %s", jsonString(got))
	}
	if got := stepOutput(t, out, 6); jsonString(got["uploaded"]) != `["photo.txt"]` || got["count"] != 1.0 || strings.Contains(jsonString(got), dir) {
		t.Errorf("upload output = %s", jsonString(got))
	}

	// A second command selects by the ref the snapshot gave, with label
	// naming the option, and reads what the page recorded.
	ref := regexp.MustCompile(`combobox "Plan" \[ref=(s\d+e\d+)\]`).FindStringSubmatch(stepOutput(t, out, 7)["yaml"].(string))
	if ref == nil {
		t.Fatalf("no ref for the select in %s", stepOutput(t, out, 7)["yaml"])
	}
	again := runJSON(t, `{"tab":"`+out.Tab+`","steps":[
		{"selectOption": {"ref": "`+ref[1]+`", "label": "Team"}},
		{"uncheck": {"label": "Agree"}},
		{"pageFunction": "() => new Promise((resolve) => { const tick = () => window.record.file ? resolve(window.record) : setTimeout(tick, 10); tick(); })"}
	]}`)
	mustOK(t, again)
	if got := jsonString(again.Steps[2].Output); got != `{"agree":false,"dark":true,"file":"pixels","focused":"name","plan":"team"}` {
		t.Errorf("the page recorded %s", got)
	}
}

func TestFormsRecipeBranchesOnResults(t *testing.T) {
	base := pagesURL(t)
	src := `open_tab(args["base"] + "forms.html")
r = check("#agree")
again = check(label = "Agree")
s = select_option("#plan", values = ["team"])
f = focus("#name")
result = {"first": r.changed, "again": again.changed, "plan": s.selected[0].value, "focused": f.focused}
`
	out := runRecipe(t, Program{Source: []byte(src), Args: map[string]string{"base": base}})
	mustOK(t, out)
	closeTabAfter(t, out)
	if got := jsonString(out.Result); got != `{"first":true,"again":false,"plan":"team","focused":true}` {
		t.Errorf("result = %s", got)
	}
	lowered := compileForTest(t, `{"tab":"t1","steps":[{"selectOption":{"ref":"s1e4","label":"Pro"}},{"uncheck":"#a"},{"upload":{"label":"Photo","files":["a.png","b.png"]}}]}`)
	mustContain(t, lowered, `select_option(ref = "s1e4", label = "Pro")`, `uncheck("#a")`, `upload(label = "Photo", files = ["a.png", "b.png"])`)
}

func TestFormsStepErrors(t *testing.T) {
	t.Setenv("CDP_SKILL_UPLOAD_DIRS", "")
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab": "`+base+`forms.html"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	for _, c := range []struct{ step, errType, want string }{
		{`{"selectOption": {"selector": "#plan", "value": "gold"}}`, "ElementNotFoundError", `"Team" (value "team")`},
		{`{"selectOption": {"selector": "#plan"}}`, "StepValidationError", "needs an option"},
		{`{"uncheck": {"selector": "#name"}}`, "ElementNotEditableError", "not checkable"},
		{`{"upload": {"selector": "#file", "files": ["/etc/hostname"]}}`, "StepValidationError", "CDP_SKILL_UPLOAD_DIRS"},
		{`{"upload": {"selector": "#file"}}`, "StepValidationError", "needs files"},
	} {
		res := runJSON(t, `{"tab":"`+out.Tab+`","steps":[`+c.step+`]}`)
		if res.OK() || len(res.Steps) != 1 || res.Steps[0].ErrorType != c.errType || !strings.Contains(res.Steps[0].Error, c.want) {
			t.Errorf("%s: %s", c.step, res.JSON())
		}
	}
}

func TestFormsDialogsAreReportedInSteps(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[
		{"openTab": "`+base+`forms.html"},
		{"click": "#confirm"},
		{"click": {"selector": "#confirm", "dialog": "dismiss"}},
		{"dialog": {"accept": true, "promptText": "Ada"}},
		{"click": "#prompt"},
		{"pageFunction": "window.record"}
	]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	if got := jsonString(out.Steps[1].Dialogs); got != `[{"type":"confirm","message":"Really?","action":"accepted"}]` {
		t.Errorf("click that confirms: dialogs = %s", got)
	}
	if got := jsonString(out.Steps[2].Dialogs); got != `[{"type":"confirm","message":"Really?","action":"dismissed"}]` {
		t.Errorf("click with dialog dismiss: dialogs = %s", got)
	}
	if got := jsonString(out.Steps[4].Dialogs); got != `[{"type":"prompt","message":"Name?","action":"accepted","promptText":"Ada"}]` {
		t.Errorf("prompt: dialogs = %s", got)
	}
	if out.Steps[5].Dialogs != nil {
		t.Errorf("a step that opened no dialog reports %s", jsonString(out.Steps[5].Dialogs))
	}
	if got := jsonString(out.Steps[5].Output); got != `{"confirms":[true,false],"name":"Ada"}` {
		t.Errorf("the page recorded %s", got)
	}
	// The JSON the agent reads carries the field.
	if !strings.Contains(string(out.JSON()), `"dialogs":[{"type":"confirm","message":"Really?","action":"dismissed"}]`) {
		t.Errorf("output JSON: %s", out.JSON())
	}
}

func TestFormsAlertOnLoadDoesNotHangTheNextCommand(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab": "`+base+`alert-onload.html"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	again := runJSON(t, `{"tab":"`+out.Tab+`","timeout":10000,"steps":[
		{"pageFunction": "[document.title, window.greeted]"},
		{"click": "#later"},
		{"pageFunction": "() => new Promise((resolve) => { const tick = () => window.afterLater ? resolve(true) : setTimeout(tick, 10); tick(); })"}
	]}`)
	mustOK(t, again)
	if got := jsonString(again.Steps[0].Output); got != `["Welcome",true]` {
		t.Errorf("page after the load alert = %s", got)
	}
	// An alert the click starts on a timer is answered: the script after
	// it runs.
	if jsonString(again.Steps[2].Output) != "true" {
		t.Errorf("timer alert: %s", again.JSON())
	}
}
