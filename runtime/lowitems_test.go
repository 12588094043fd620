package runtime

import (
	"strings"
	"testing"
)

// TestLowHostileInputsAreRefused (issue 31, Low): values that made no
// sense were accepted, or an error hid inside an ok answer; each is now a
// step error that names the value and what to give instead.
func TestLowHostileInputsAreRefused(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`forms.html"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	tab := `{"tab":"` + out.Tab + `","steps":[`
	for _, tc := range []struct{ name, steps, want string }{
		{"negative x", `{"click":{"x":-5,"y":10}}`, "x"},
		{"negative limit", `{"query":{"selector":"input","limit":-5}}`, "limit"},
		{"invalid selector", `{"queryAll":{"a":"[[["}}`, "selector"},
		{"object fill in pipeline", `{"pipeline":[{"find":"input","fill":{"x":1}}]}`, "fill"},
		{"string pipeline op", `{"pipeline":["#email"]}`, "not an operation object"},
		{"empty closeTab", `{"closeTab":""}`, "closeTab"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := runJSON(t, tab+tc.steps+`]}`)
			if o.OK() || !strings.Contains(strings.ToLower(string(o.JSON())), strings.ToLower(tc.want)) {
				t.Errorf("%s: %s", tc.steps, o.JSON())
			}
		})
	}
	// The tab is still there (an empty closeTab closed nothing).
	mustOK(t, runJSON(t, tab+`{"pageFunction":"1"}]}`))
}
