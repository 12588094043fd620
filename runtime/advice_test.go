package runtime

import (
	"strings"
	"testing"

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
