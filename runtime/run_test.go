package runtime

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/browser/chrome"
)

func TestJSONNavigatesAndContinuesInSameTab(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[
		{"openTab": "`+base+`one.html"},
		{"goto": "`+base+`two.html"},
		{"wait": "#late"},
		{"goto": {"url": "`+base+`three.html", "waitUntil": "domcontentloaded"}},
		{"pageFunction": "() => { window.mark = 'from-first'; return document.querySelectorAll('li').length }"}
	]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	if out.Context == nil || out.Context.URL != base+"three.html" || out.Context.Title != "Page three" {
		t.Fatalf("context = %s", jsonString(out.Context))
	}
	if got := out.Steps[4].Output; jsonString(got) != "3" {
		t.Errorf("pageFunction output = %s, want 3", jsonString(got))
	}
	if !strings.HasPrefix(out.Tab, "t") || len(out.Steps) != 5 {
		t.Fatalf("tab %q, %d steps", out.Tab, len(out.Steps))
	}
	for _, s := range out.Steps {
		if s.Status != StatusOK {
			t.Errorf("step %s status %s", s.Action, s.Status)
		}
	}

	// A second invocation with the alias continues in the same tab: the
	// page still holds what the first one left in it.
	again := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"pageFunction":"window.mark + ' ' + location.pathname"}]}`)
	mustOK(t, again)
	if got := jsonString(again.Steps[0].Output); got != `"from-first /three.html"` {
		t.Errorf("second invocation saw %s", got)
	}
	if again.Navigated {
		t.Error("a command that only read the page reports navigated")
	}
}

func TestHistoryAndReload(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[
		{"openTab": "`+base+`one.html"},
		{"goto": "`+base+`three.html"},
		{"back": true},
		{"pageFunction": "location.pathname"},
		{"forward": true},
		{"pageFunction": "() => { window.before = 1; return location.pathname }"},
		{"reload": true},
		{"pageFunction": "typeof window.before"}
	]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	want := []string{`"/one.html"`, `"/three.html"`, `"undefined"`}
	for i, step := range []int{3, 5, 7} {
		if got := jsonString(out.Steps[step].Output); got != want[i] {
			t.Errorf("step %d = %s, want %s", step+1, got, want[i])
		}
	}
	bad := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"forward":true}]}`)
	if bad.OK() || bad.Steps[0].ErrorType != "NavigationError" || !strings.Contains(bad.Steps[0].Error, "no history entry") {
		t.Errorf("forward at the end of history: %s", bad.JSON())
	}
}

func TestNavigationErrors(t *testing.T) {
	port, _ := freePort()
	out := runJSON(t, `{"steps":[{"openTab":"about:blank"},{"goto":"http://127.0.0.1:`+port+`/"}]}`)
	closeTabAfter(t, out)
	if out.OK() || out.Steps[1].ErrorType != "NavigationError" || !strings.Contains(out.Steps[1].Error, "ERR_CONNECTION_REFUSED") {
		t.Fatalf("refused navigation: %s", out.JSON())
	}
	if out.Errors[0].Step != 2 || out.Errors[0].Type != TypeExecution {
		t.Errorf("errors = %s", jsonString(out.Errors))
	}
	noScheme := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"goto":"not a url"}]}`)
	if noScheme.OK() || noScheme.Steps[0].ErrorType != "StepValidationError" {
		t.Errorf("url without scheme: %s", noScheme.JSON())
	}
}

func TestOptionalStepIsSkippedAndFailureStops(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[
		{"openTab": "`+base+`one.html"},
		{"wait": {"selector": "#never"}, "optional": true, "timeout": 300},
		{"wait": "#never", "timeout": 300},
		{"pageFunction": "1"}
	]}`)
	closeTabAfter(t, out)
	if out.Status != StatusError || len(out.Steps) != 3 {
		t.Fatalf("want error after 3 steps: %s", out.JSON())
	}
	if s := out.Steps[1]; s.Status != StatusSkipped || !strings.Contains(s.Error, "#never") {
		t.Errorf("optional step: %s", jsonString(s))
	}
	s := out.Steps[2]
	if s.Status != StatusError || s.ErrorType != "TimeoutError" || jsonString(s.Params) != `"#never"` {
		t.Errorf("failed step: %s", jsonString(s))
	}
	if len(out.Errors) != 1 || out.Errors[0].Step != 3 || out.Errors[0].Action != "wait" {
		t.Errorf("errors = %s", jsonString(out.Errors))
	}
}

func TestInvalidSelectorFailsAtOnce(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`one.html"},{"wait":"[[[bad"}]}`)
	closeTabAfter(t, out)
	// The step timeout is 30 s; an invalid selector must be reported as a
	// syntax error, not as a timeout.
	if out.OK() || out.Steps[1].ErrorType != "InvalidSelectorError" {
		t.Fatalf("invalid selector: %s", out.JSON())
	}
}

func TestWaitTextAndURL(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[
		{"openTab": "`+base+`two.html"},
		{"wait": {"text": "arrived"}},
		{"wait": {"url": "two.html"}},
		{"wait": {"urlPattern": "/tw[o]\\.html$"}},
		{"wait": {"text": "never there"}, "timeout": 300}
	]}`)
	closeTabAfter(t, out)
	if len(out.Steps) != 5 || out.Steps[3].Status != StatusOK {
		t.Fatalf("%s", out.JSON())
	}
	if s := out.Steps[4]; s.ErrorType != "TimeoutError" || !strings.Contains(s.Error, "never there") {
		t.Errorf("text timeout: %s", jsonString(s))
	}
}

func TestPageFunctionForms(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[
		{"openTab": "`+base+`three.html"},
		{"pageFunction": "document.title"},
		{"pageFunction": "(a = 2) => a * 21"},
		{"pageFunction": {"fn": "async () => { await new Promise(r => setTimeout(r, 10)); return [1, 'x', null] }"}},
		{"pageFunction": {"expression": "const n = 5; n * 2"}},
		{"pageFunction": "() => { throw new Error('kaboom') }"}
	]}`)
	closeTabAfter(t, out)
	want := []string{`"Page three"`, `42`, `[1,"x",null]`, `10`}
	for i, w := range want {
		if got := jsonString(out.Steps[i+1].Output); got != w {
			t.Errorf("step %d = %s, want %s", i+2, got, w)
		}
	}
	last := out.Steps[5]
	if last.ErrorType != "JavaScriptError" || !strings.Contains(last.Error, "kaboom") || !strings.Contains(last.Error, "throw new Error") {
		t.Errorf("throwing function: %s", jsonString(last))
	}
	broken := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"pageFunction":"() => { return document.querySelector('a) }"}]}`)
	if broken.OK() || !strings.Contains(broken.Steps[0].Error, "unterminated") {
		t.Errorf("shell-mangled source: %s", broken.JSON())
	}
}

func TestUnknownTabIsConnectionError(t *testing.T) {
	out := runJSON(t, `{"tab":"t9999","steps":[{"pageFunction":"1"}]}`)
	if out.Error == nil || out.Error.Type != TypeConnection || !strings.Contains(out.Error.Message, "unknown tab") || !strings.Contains(out.Error.Message, "openTab") {
		t.Fatalf("%s", out.JSON())
	}
}

func TestChromeMissingOrFailingLaunch(t *testing.T) {
	port, _ := freePort()
	opts := testOptions(t)
	opts.Endpoint = chrome.Endpoint{Port: atoi(port)}
	run := func() *Output {
		_, out := RunJSON(t.Context(), []byte(`{"steps":[{"openTab":"about:blank"}]}`), opts)
		return out
	}
	failing := filepath.Join(t.TempDir(), "chrome")
	os.WriteFile(failing, []byte("#!/bin/sh\necho 'cannot open display' >&2\nexit 3\n"), 0o755)
	t.Setenv(chrome.EnvChromePath, failing)
	out := run()
	if out.Error == nil || out.Error.Type != TypeConnection || !strings.Contains(out.Error.Message, "cannot open display") {
		t.Errorf("launch fails: %s", out.JSON())
	}
}

func TestRecipeSandbox(t *testing.T) {
	t.Run("step limit", func(t *testing.T) {
		out := runRecipe(t, Program{Source: []byte("x = 0\nwhile True:\n    x += 1\n"), MaxSteps: 100_000})
		if out.OK() || len(out.Errors) != 1 || !strings.Contains(out.Errors[0].Error, "too many steps") {
			t.Fatalf("%s", out.JSON())
		}
		if !strings.HasPrefix(out.Errors[0].Location, "recipe.star:") {
			t.Errorf("location = %q", out.Errors[0].Location)
		}
	})
	t.Run("timeout cancels a blocking builtin", func(t *testing.T) {
		out := runRecipe(t, Program{Source: []byte("sleep(600000)\n"), Timeout: 300 * time.Millisecond})
		if out.OK() || out.Steps[0].ErrorType != "TimeoutError" {
			t.Fatalf("%s", out.JSON())
		}
	})
	t.Run("timeout cancels the interpreter", func(t *testing.T) {
		out := runRecipe(t, Program{Source: []byte("def spin():\n    while True:\n        pass\nspin()\n"), Timeout: 200 * time.Millisecond, MaxSteps: 1 << 62})
		if out.OK() || !strings.Contains(out.Errors[0].Error, "timeout") {
			t.Fatalf("%s", out.JSON())
		}
	})
	t.Run("a caller that cancels stops the interpreter, and is named", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(200*time.Millisecond, cancel)
		out := Run(ctx, Program{Name: "recipe.star", Source: []byte("def spin():\n    while True:\n        pass\nspin()\n"), MaxSteps: 1 << 62}, testOptions(t))
		if out.OK() || len(out.Errors) != 1 || !strings.Contains(out.Errors[0].Error, "the caller cancelled the command") || strings.Contains(out.Errors[0].Error, "timeout") || out.Errors[0].ErrorType == "TimeoutError" {
			t.Fatalf("%s", out.JSON())
		}
	})
	t.Run("no tab", func(t *testing.T) {
		out := runRecipe(t, Program{Source: []byte("goto('https://example.com')\n")})
		if out.OK() || out.Steps[0].ErrorType != "StepValidationError" || !strings.Contains(out.Steps[0].Error, "open_tab") {
			t.Fatalf("%s", out.JSON())
		}
	})
}

func TestRecipeErrorsCarryLocationAndBacktrace(t *testing.T) {
	src := "def check(n):\n    if n > 1:\n        fail('too big: %d' % n)\n\ndef main():\n    check(2)\n\nmain()\n"
	out := runRecipe(t, Program{Name: "flow.star", Source: []byte(src)})
	if out.OK() || len(out.Errors) != 1 {
		t.Fatalf("%s", out.JSON())
	}
	e := out.Errors[0]
	if e.Error != "too big: 2" || e.Location != "flow.star:3:13" || !strings.Contains(e.Backtrace, "flow.star:6:10: in main") {
		t.Errorf("error = %s", jsonString(e))
	}
	syntaxErr := runRecipe(t, Program{Name: "bad.star", Source: []byte("goto(\n")})
	if syntaxErr.Error == nil || syntaxErr.Error.Type != TypeParse || !strings.HasPrefix(syntaxErr.Error.Location, "bad.star:2") {
		t.Errorf("syntax error: %s", syntaxErr.JSON())
	}
	undefined := runRecipe(t, Program{Name: "u.star", Source: []byte("gooto('x')\n")})
	if undefined.Error == nil || !strings.Contains(undefined.Error.Message, "did you mean goto") {
		t.Errorf("undefined name: %s", undefined.JSON())
	}
}

func TestRecipeStepsResultArgsAndPrint(t *testing.T) {
	base := pagesURL(t)
	src := `t = open_tab(args["base"] + "three.html")
n = page_function("document.querySelectorAll('li').length")
print("items", n)
r = goto(args["base"] + "one.html")
result = {"items": n, "title": r.title, "tab": t.tab, "missing": r.get("nothing")}
`
	out := runRecipe(t, Program{Source: []byte(src), Args: map[string]string{"base": base}})
	mustOK(t, out)
	closeTabAfter(t, out)
	if got := jsonString(out.Result); got != `{"items":3,"title":"Page one","tab":"`+out.Tab+`","missing":null}` {
		t.Errorf("result = %s", got)
	}
	if jsonString(out.Log) != `["items 3"]` {
		t.Errorf("log = %s", jsonString(out.Log))
	}
	if len(out.Steps) != 3 || out.Steps[1].At != "recipe.star:2" || out.Steps[2].At != "recipe.star:4" {
		t.Fatalf("step positions: %s", jsonString(out.Steps))
	}
	if strings.Contains(string(out.JSON()), `"console":null`) {
		t.Errorf("an empty field is printed as null: %s", out.JSON())
	}
}

// TestRecipeMisspelledResultFieldFails: a step's record refuses a field
// its output type does not have (r.naviagted), naming the nearest one, at
// the line that read it — where it used to read as None and let the recipe
// take the wrong branch.
func TestRecipeMisspelledResultFieldFails(t *testing.T) {
	base := pagesURL(t)
	src := `t = open_tab(args["base"] + "one.html")
r = click(text = "to two")
if r.naviagted:
    fail("unreachable")
`
	out := runRecipe(t, Program{Source: []byte(src), Args: map[string]string{"base": base}})
	closeTabAfter(t, out)
	if out.OK() || len(out.Errors) != 1 || !strings.Contains(out.Errors[0].Error, `record has no attribute "naviagted"`) ||
		!strings.Contains(out.Errors[0].Error, "did you mean .navigated?") ||
		!strings.HasPrefix(out.Errors[0].Location, "recipe.star:3") {
		t.Fatalf("misspelled field: %s", out.JSON())
	}
	if len(out.Steps) != 2 || out.Steps[1].Status != StatusOK {
		t.Errorf("the click itself ran once and succeeded: %s", jsonString(out.Steps))
	}
}

func TestRecipeLoad(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "lib.star"), []byte("def double(x):\n    return 2 * x\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "sub", "more.star"), []byte("load('../lib.star', 'double')\nquad = lambda x: double(double(x))\n"), 0o644)
	ok := runRecipe(t, Program{Dir: dir, Source: []byte("load('lib.star', 'double')\nload('@stdlib/wait.star', 'no_spinner')\nresult = [double(21), no_spinner('.s')]\n")})
	mustOK(t, ok)
	if got := jsonString(ok.Result); got != `[42,"() =\u003e !document.querySelector(\".s\")"]` && got != `[42,"() => !document.querySelector(\".s\")"]` {
		t.Errorf("result = %s", got)
	}
	for name, src := range map[string]string{
		"parent dir":     "load('../etc.star', 'x')\n",
		"absolute":       "load('/etc/passwd.star', 'x')\n",
		"not star":       "load('lib.py', 'x')\n",
		"unknown root":   "load('@evil/x.star', 'x')\n",
		"nested escapes": "load('sub/more.star', 'quad')\n",
	} {
		out := runRecipe(t, Program{Dir: dir, Source: []byte(src)})
		if out.OK() {
			t.Errorf("%s: load allowed: %s", name, out.JSON())
		}
	}
	fromJSON := runRecipe(t, Program{Source: []byte("load('lib.star', 'double')\n")})
	if fromJSON.OK() || !strings.Contains(jsonString(fromJSON.Errors), "only recipes run from a file") {
		t.Errorf("load without a dir: %s", fromJSON.JSON())
	}
}

func TestCompiledSourceRunsTheSame(t *testing.T) {
	base := pagesURL(t)
	first := runJSON(t, `{"steps":[{"openTab":"`+base+`one.html"}]}`)
	mustOK(t, first)
	closeTabAfter(t, first)
	command := `{"tab":"` + first.Tab + `","timeout":4000,"steps":[
		{"goto":"` + base + `two.html"},{"wait":{"text":"arrived"}},{"pageFunction":"document.getElementById('late').textContent"},
		{"wait":{"selector":"#nope"},"optional":true,"timeout":200}]}`
	reset := func() { mustOK(t, runJSON(t, `{"tab":"`+first.Tab+`","steps":[{"goto":"`+base+`one.html"}]}`)) }
	reset()
	fromJSON := runJSON(t, command)
	reset()
	src := compileForTest(t, command)
	fromStar := runRecipe(t, Program{Name: "command.json", Source: []byte(src), Tab: first.Tab, FromJSON: true})
	millis := regexp.MustCompile(`\d+ms`)
	normalize := func(o *Output) string {
		for _, s := range o.Steps {
			if m, ok := s.Output.(map[string]any); ok {
				delete(m, "elapsed")
			}
		}
		return millis.ReplaceAllString(string(o.JSON()), "Nms")
	}
	if a, b := normalize(fromJSON), normalize(fromStar); a != b {
		t.Errorf("JSON run:\n%s\ncompiled run:\n%s", a, b)
	}
}

func TestRemoteEndpoint(t *testing.T) {
	c := browsertest.Require(t)
	base := pagesURL(t)
	v, err := chrome.Version(t.Context(), c.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	for name, ep := range map[string]string{
		"ws":   v.WebSocketDebuggerURL,
		"http": "http://127.0.0.1:" + strconv.Itoa(c.Port),
	} {
		t.Run(name, func(t *testing.T) {
			out := runJSON(t, `{"steps":[{"openTab":{"url":"`+base+`one.html","endpoint":"`+ep+`"}}]}`)
			mustOK(t, out)
			closeTabAfter(t, out)
			// The alias remembers the endpoint: the next command only names the tab.
			again := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"pageFunction":"document.title"}]}`)
			mustOK(t, again)
			if jsonString(again.Steps[0].Output) != `"Page one"` {
				t.Errorf("second command: %s", again.JSON())
			}
		})
	}
}
