package runtime

import (
	"strings"
	"testing"
)

// TestActionsHaveTheirEffectExactlyOnce is the audit of the promise: on a
// page built like a real one (sticky header, sidebar, toast, backdrop,
// shadow DOM, a re-rendering widget, a todo input), every answer that says
// ok had exactly its effect, once, and every error had none.
func TestActionsHaveTheirEffectExactlyOnce(t *testing.T) {
	url := pagesURL(t) + "effects.html"
	out := runJSON(t, `{"steps":[{"openTab":"`+url+`"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	tab := out.Tab
	cases := []struct {
		name, setup, step string
		// effect is the one counter the step must bump once; "" means it
		// must fail with errType and bump none.
		effect, errType string
	}{
		{"exact text beats a longer one", "", `{"click":{"text":"Completed"}}`, "completed", ""},
		{"two Delete buttons are ambiguous", "", `{"click":{"text":"Delete"}}`, "", "AmbiguousTargetError"},
		{"a button beats a header link", "", `{"click":{"text":"Sign in"}}`, "formSignin", ""},
		{"an ARIA button by text", "", `{"click":{"text":"Archive"}}`, "archive", ""},
		{"a button in a shadow root by text", "", `{"click":{"text":"Subscribe"}}`, "subscribe", ""},
		{"never through a backdrop", "backdrop.style.display = 'block'", `{"click":"#under"}`, "", "ElementInterceptedError"},
		{"a toggle whose state lags runs once", "", `{"click":"#bold"}`, "bold", ""},
		{"a disabled button is never forced", "", `{"click":{"selector":"#off","timeout":1200}}`, "", "TimeoutError"},
		{"the visible twin, not the hidden one", "", `{"click":".twin"}`, "twinShown", ""},
		{"covered by its own decoration: clicked once", "", `{"click":"#decorated"}`, "decorated", ""},
		{"a todo input that consumes the value", "", `{"fill":{"selector":"#todo","value":"Milk"}}`, "todo", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			steps := `{"goto":"` + url + `"}`
			if c.setup != "" {
				steps += `, {"pageFunction":"() => { ` + c.setup + `; return true; }"}`
			}
			mustOK(t, runJSON(t, `{"tab":"`+tab+`","capture":"none","steps":[`+steps+`]}`))
			res := runJSON(t, `{"tab":"`+tab+`","capture":"none","timeout":8000,"steps":[`+c.step+`]}`)
			got := pageJSON(t, tab, "() => effects")
			want := "{}"
			if c.effect != "" {
				want = `{"` + c.effect + `":1}`
			}
			errType := ""
			if len(res.Steps) > 0 {
				errType = res.Steps[0].ErrorType
			}
			if got != want || res.OK() != (c.effect != "") || errType != c.errType {
				t.Fatalf("status %s, effects %s (want %s)\n%s", res.Status, got, want, res.JSON())
			}
		})
	}
	// A rewritten value is an error, and says so without echoing it.
	mustOK(t, runJSON(t, `{"tab":"`+tab+`","capture":"none","steps":[{"goto":"`+url+`"}]}`))
	res := runJSON(t, `{"tab":"`+tab+`","capture":"none","steps":[{"fill":{"selector":"#nick","value":"Robert"}}]}`)
	if res.OK() || !strings.Contains(res.Steps[0].Error, "did not take") {
		t.Fatalf("a truncated fill: %s", res.JSON())
	}
}
