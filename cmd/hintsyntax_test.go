package cmd

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// The same failure (a full-page screenshot taller than Chrome can capture)
// tells each frontend the steps to take instead in its own syntax: a JSON
// command JSON steps, a recipe builtin calls, an MCP client the tool and
// its arguments.
func TestHintStepsAreWrittenInEachFrontendsSyntax(t *testing.T) {
	cs := mcpSession(t)
	base := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte(`<!doctype html><title>Tall</title><body style="margin:0"><div style="height:20000px">tall</div>`))
	}))
	open := call(t, cs, "tabs", map[string]any{"action": "open", "url": base})
	tab, _ := open.out["tab"].(string)
	if open.isError || tab == "" {
		t.Fatalf("open: %s", open.text)
	}
	t.Cleanup(func() { cli(t, t.TempDir(), nil, `{"steps":[{"closeTab":"`+tab+`"}]}`) })

	stepError := func(t *testing.T, out map[string]any) string {
		t.Helper()
		msg := fmt.Sprint(result{out: out}.field("steps", "0", "error"))
		if !strings.Contains(msg, "more than the 16384-pixel limit") {
			t.Fatalf("want the too-big screenshot error, got %v", out)
		}
		return msg
	}
	cases := []struct {
		name     string
		answer   func(t *testing.T) map[string]any
		want     []string
		notWants []string
	}{
		{"json command", func(t *testing.T) map[string]any {
			return cli(t, t.TempDir(), nil, `{"tab":"`+tab+`","steps":[{"screenshot":{"fullPage":true}}]}`).out
		}, []string{`({"screenshot":true})`, `({"screenshot":{"region":{"x":0,"y":0,"width":800,"height":600}}})`}, []string{"screenshot()", "tool with"}},
		{"recipe", func(t *testing.T) map[string]any {
			return call(t, cs, "run_recipe", map[string]any{"tab": tab, "source": "screenshot(full_page = True)\n"}).out
		}, []string{"(screenshot())", `(screenshot(region = {"x": 0, "y": 0, "width": 800, "height": 600}))`}, []string{`{"screenshot"`, "tool with"}},
		{"mcp tool", func(t *testing.T) map[string]any {
			return call(t, cs, "observe", map[string]any{"tab": tab, "steps": []any{map[string]any{"screenshot": map[string]any{"fullPage": true}}}}).out
		}, []string{`(the observe tool with {"tab":"` + tab + `","steps":[{"screenshot":true}]})`,
			`(the observe tool with {"tab":"` + tab + `","steps":[{"screenshot":{"region":{"x":0,"y":0,"width":800,"height":600}}}]})`}, []string{"screenshot()"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg := stepError(t, c.answer(t))
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("the hint does not say %s: %s", w, msg)
				}
			}
			for _, w := range c.notWants {
				if strings.Contains(msg, w) {
					t.Errorf("the hint says %s, another frontend's syntax: %s", w, msg)
				}
			}
		})
	}
}
