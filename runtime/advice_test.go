package runtime

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/browser/suggest"
)

func TestStarlarkStepIsTheBuiltinCall(t *testing.T) {
	cases := []struct {
		step suggest.Step
		want string
	}{
		{browser.Reload, "reload()"},
		{browser.CloseTab, "close_tab()"},
		{suggest.Step{Name: "closeTab", Value: "t2"}, `close_tab("t2")`},
		{suggest.Step{Name: "press", Value: "ArrowRight"}, `press("ArrowRight")`},
		{suggest.Step{Name: "fill", Value: suggest.Args{{Key: "ref", Value: "…"}, {Key: "value", Value: "35"}}}, `fill(ref = "…", value = "35")`},
		{suggest.Step{Name: "screenshot", Value: suggest.Args{{Key: "region", Value: suggest.Args{{Key: "x", Value: 0}, {Key: "width", Value: 800}}}}},
			`screenshot(region = {"x": 0, "width": 800})`},
		// A step the catalog does not know stays as JSON, never a wrong call.
		{suggest.Step{Name: "nosuchstep", Value: true}, `{"nosuchstep":true}`},
	}
	for _, c := range cases {
		if got := StarlarkStep(c.step); got != c.want {
			t.Errorf("%s: got %s, want %s", c.step.JSON(), got, c.want)
		}
	}
}

// A recipe whose page crashed is told to call reload() or close_tab(), not
// to write {"reload":true}.
func TestCrashHintInARecipeIsBuiltinCalls(t *testing.T) {
	t.Setenv(browser.AllowSchemesEnv, "chrome") // chrome://crash is refused by default
	out := runJSON(t, `{"steps":[{"openTab":"`+pagesURL(t)+`one.html"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	crash := runRecipe(t, Program{Tab: out.Tab, Source: []byte("goto(\"chrome://crash\", timeout = 5000)\n")})
	if crash.OK() || len(crash.Steps) == 0 || crash.Steps[0].ErrorType != "PageCrashedError" {
		t.Fatalf("goto chrome://crash: %s", crash.JSON())
	}
	msg := crash.Steps[0].Error
	if !strings.Contains(msg, "reload it with reload()") || !strings.Contains(msg, "close it with close_tab()") || strings.Contains(msg, `{"reload"`) {
		t.Errorf("the recipe's crash hint: %s", msg)
	}
	back := runJSON(t, `{"tab":"`+out.Tab+`","timeout":10000,"steps":[{"reload":true},{"pageFunction":"document.title"}]}`)
	mustOK(t, back)
}

// The hints of an unknown tab and of a point outside the viewport name
// their steps in the program's syntax: a recipe is told open_tab() and
// get_box(…), a JSON command {"openTab":true} and {"getBox":…}; neither
// gets a step's camelCase name in prose.
func TestTabAndPointHintsAreInTheProgramsSyntax(t *testing.T) {
	const unknown = "t987654"
	recipe := runRecipe(t, Program{Tab: unknown, Source: []byte("snapshot()\n")})
	if recipe.Error == nil || !strings.Contains(recipe.Error.Message, "open one with open_tab()") || strings.Contains(recipe.Error.Message, "openTab") {
		t.Errorf("a recipe on an unknown tab: %s", recipe.JSON())
	}
	command := runJSON(t, `{"tab":"`+unknown+`","steps":[{"snapshot":true}]}`)
	if command.Error == nil || !strings.Contains(command.Error.Message, `open one with {"openTab":true}`) {
		t.Errorf("a JSON command on an unknown tab: %s", command.JSON())
	}

	out := runJSON(t, `{"steps":[{"openTab":"`+pagesURL(t)+`one.html"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	point := runRecipe(t, Program{Tab: out.Tab, Source: []byte("elements_at(x = 5000, y = 5000)\n")})
	if point.OK() || len(point.Steps) == 0 || !strings.Contains(point.Steps[0].Error, `get_box("…")`) || strings.Contains(point.Steps[0].Error, "getBox") {
		t.Errorf("a recipe's point outside the viewport: %s", point.JSON())
	}
	point = runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"elementsAt":{"x":5000,"y":5000}}]}`)
	if point.OK() || len(point.Steps) == 0 || !strings.Contains(point.Steps[0].Error, `{"getBox":"…"}`) {
		t.Errorf("a JSON command's point outside the viewport: %s", point.JSON())
	}
}

// The watchdog's answer tells a recipe to call list_tabs() and
// close_tab(), and a JSON command (no syntax set) the JSON steps.
func TestWatchdogHintIsInTheProgramsSyntax(t *testing.T) {
	for _, c := range []struct {
		syntax suggest.Syntax
		want   []string
	}{
		{StarlarkStep, []string{"run list_tabs() to check", "close it with close_tab()"}},
		{nil, []string{`run {"listTabs":true} to check`, `close it with {"closeTab":true}`}},
	} {
		w := newWatchdog()
		w.syntax = c.syntax
		w.arm(time.Minute, "step 1 (click)", 1, "click")
		out := w.output("t9")
		if len(out.Errors) != 1 {
			t.Fatalf("the watchdog's answer: %s", out.JSON())
		}
		msg := out.Errors[0].Error
		for _, want := range c.want {
			if !strings.Contains(msg, want) {
				t.Errorf("the watchdog's answer lacks %q: %s", want, msg)
			}
		}
	}
}

// The builtins' own usage hints suggest steps in the program's syntax too:
// each bad call below is told its example as a builtin call in a recipe
// and as a JSON step in a JSON command, never the other's.
func TestBuiltinUsageHintsAreInTheProgramsSyntax(t *testing.T) {
	out := runJSON(t, `{"steps":[{"openTab":"`+pagesURL(t)+`one.html"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	cases := []struct {
		recipe, json       string
		inRecipe, inJSON   string
		notRecipe, notJSON string
	}{
		{`wait_for_response(url = "")`, `{"waitForResponse":{"url":""}}`,
			`wait_for_response(url_regex = "/api/items/[0-9]+")`, `{"waitForResponse":{"urlRegex":"/api/items/[0-9]+"}}`, `{"waitForResponse"`, "wait_for_response("},
		{`har(path = "")`, `{"har":{"path":""}}`,
			`har("traffic.har")`, `{"har":"traffic.har"}`, `{"har"`, "har("},
		{`route(url = "/api")`, `{"route":{"url":"/api"}}`,
			`route(url = "*.png", abort = True)`, `{"route":{"url":"*.png","abort":true}}`, `{"route"`, "route("},
		{`screenshot("#chart")`, `{"screenshot":"#chart"}`,
			`screenshot(selector = "#chart")`, `{"screenshot":{"selector":"#chart"}}`, `{"screenshot"`, "screenshot("},
		{`submit(selector = "")`, `{"submit":{"selector":""}}`,
			`submit("#signup button[type=submit]")`, `{"submit":"#signup button[type=submit]"}`, `{"submit"`, "submit("},
		{`page_function("")`, `{"pageFunction":""}`,
			`page_function("() => document.title")`, `{"pageFunction":"() => document.title"}`, `{"pageFunction"`, "page_function("},
		{`press("")`, `{"press":""}`,
			`press("Control+a")`, `{"press":"Control+a"}`, `{"press"`, "press("},
	}
	for _, c := range cases {
		recipe := runRecipe(t, Program{Tab: out.Tab, Source: []byte(c.recipe + "\n")})
		if msg := answerError(recipe); !strings.Contains(msg, c.inRecipe) || strings.Contains(msg, c.notRecipe) {
			t.Errorf("recipe %s: %s", c.recipe, recipe.JSON())
		}
		command := runJSON(t, `{"tab":"`+out.Tab+`","steps":[`+c.json+`]}`)
		if msg := answerError(command); !strings.Contains(msg, c.inJSON) || strings.Contains(msg, c.notJSON) {
			t.Errorf("JSON %s: %s", c.json, command.JSON())
		}
	}
	noTab := runRecipe(t, Program{Source: []byte("snapshot()\n")})
	if msg := answerError(noTab); !strings.Contains(msg, `open_tab("<url>")`) || strings.Contains(msg, "openTab") {
		t.Errorf("a recipe with no tab: %s", noTab.JSON())
	}
}

// answerError is the text of an answer's failure: its first failed step's
// error, else the command's.
func answerError(out *Output) string {
	for _, s := range out.Steps {
		if s.Error != "" {
			return s.Error
		}
	}
	if out.Error != nil {
		return out.Error.Message
	}
	return ""
}

// TestStepErrorsNameTheStepInTheProgramsSyntax: a step's error that
// starts with the step's name writes it as the program does
// (waitForResponse in a JSON command, wait_for_response in a recipe),
// whichever layer wrote the message.
func TestStepErrorsNameTheStepInTheProgramsSyntax(t *testing.T) {
	out := runJSON(t, `{"steps":[{"openTab":"`+pagesURL(t)+`one.html"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	cases := []struct{ recipe, json, starName, jsonName string }{
		{`wait_for_response(url = "")`, `{"waitForResponse":{"url":""}}`, "wait_for_response", "waitForResponse"},
		{`page_function("")`, `{"pageFunction":""}`, "page_function", "pageFunction"},
		{`get_box([])`, `{"getBox":[]}`, "get_box", "getBox"},
		{`snapshot_search(text = "")`, `{"snapshotSearch":{"text":""}}`, "snapshot_search", "snapshotSearch"},
	}
	for _, c := range cases {
		recipe := answerError(runRecipe(t, Program{Tab: out.Tab, Source: []byte(c.recipe + "\n")}))
		if !strings.HasPrefix(recipe, c.starName+" ") {
			t.Errorf("recipe %s: %q", c.recipe, recipe)
		}
		command := answerError(runJSON(t, `{"tab":"`+out.Tab+`","steps":[`+c.json+`]}`))
		if !strings.HasPrefix(command, c.jsonName+" ") {
			t.Errorf("JSON %s: %q", c.json, command)
		}
	}
}

// TestCapturePathThatNamesAnElementIsRefused: a ref or an id selector
// given as the file path, positional or path=, fails the step and writes
// no file; screenshot suggests the element keys, pdf says it prints the
// page.
func TestCapturePathThatNamesAnElementIsRefused(t *testing.T) {
	out := runJSON(t, `{"steps":[{"openTab":"`+pagesURL(t)+`one.html"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	cases := []struct{ recipe, json, want string }{
		{`screenshot(path = "#chart")`, `{"screenshot":{"path":"#chart"}}`, "selector"},
		{`screenshot("s1e4")`, `{"screenshot":{"path":"s1e4"}}`, "ref"},
		{`pdf(path = "#report")`, `{"pdf":{"path":"#report"}}`, "whole page"},
		{`screenshot(path = "input#email")`, `{"screenshot":" #chart"}`, "selector"},
	}
	for _, c := range cases {
		for _, o := range []*Output{
			runRecipe(t, Program{Tab: out.Tab, Source: []byte(c.recipe + "\n")}),
			runJSON(t, `{"tab":"`+out.Tab+`","steps":[`+c.json+`]}`),
		} {
			msg := answerError(o)
			if !strings.Contains(msg, "takes a file path, not") || !strings.Contains(msg, c.want) || len(o.Steps) != 1 || o.Steps[0].ErrorType != "StepValidationError" {
				t.Errorf("%s: %s", c.recipe, o.JSON())
			}
		}
	}
}

// TestHARHintSaysWhereTheFileGoes: with no output directory set, a
// relative .har path is written under the current directory, and the
// usage hint says that directory (not "the output directory").
func TestHARHintSaysWhereTheFileGoes(t *testing.T) {
	out := runJSON(t, `{"steps":[{"openTab":"`+pagesURL(t)+`one.html"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	msg := answerError(runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"har":{"path":""}}]}`))
	if !strings.Contains(msg, "a relative path is written under "+wd+")") {
		t.Fatalf("har hint: %s", msg)
	}
}
