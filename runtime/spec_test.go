package runtime

import (
	"strings"
	"testing"
)

// Tests of the spec's wire format (reference/cdp-skill-spec.md), each
// through the JSON interface on a real page.

// TestSpecTypeTakesSelectorTextDelay: §9.3 — type's options are selector,
// text (what to type) and delay; value is an alias and the string form
// types into the focused field.
func TestSpecTypeTakesSelectorTextDelay(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[
		{"openTab": "`+base+`spec.html"},
		{"type": {"selector": "#q", "text": "ab", "delay": 30}},
		{"type": {"text": "c"}},
		{"type": "d"},
		{"type": {"label": "City", "value": "Oslo"}},
		{"pageFunction": "[q.value, city.value, keys.q, keys.city, document.activeElement.id]"}
	]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	if got := jsonString(out.Steps[5].Output); got != `["abcd","Oslo",4,4,"city"]` {
		t.Fatalf("page state after typing = %s", got)
	}
	if got := stepOutput(t, out, 1)["typed"]; got != 2.0 {
		t.Errorf("typed = %v, want 2", got)
	}

	for _, tt := range []struct{ step, want string }{
		{`{"type": {"selector": "#q", "text": "a", "value": "b"}}`, "two texts"},
		{`{"type": {"selector": "#q"}}`, "type needs text"},
	} {
		bad := runJSON(t, `{"tab":"`+out.Tab+`","steps":[`+tt.step+`]}`)
		if bad.OK() || !strings.Contains(bad.Steps[0].Error, tt.want) {
			t.Errorf("%s: %s", tt.step, bad.JSON())
		}
	}
	again := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"pageFunction":"q.value + '|' + keys.q"}]}`)
	if got := jsonString(again.Steps[0].Output); got != `"abcd|4"` {
		t.Errorf("a refused type step typed anyway: %s", got)
	}
}
