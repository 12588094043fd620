package runtime

import (
	"strings"
	"testing"
)

// TestHiddenTargetSaysWhyAndWhatShowsIt: a click on a text that exists
// but is hidden says where it is hidden and which ref to hover or click
// first (with that step in nextActions), for a :hover menu, a closed
// <details>, another tab panel and a collapsed section; spelling advice
// stays for a text nothing on the page has.
func TestHiddenTargetSaysWhyAndWhatShowsIt(t *testing.T) {
	tab, _ := openShop(t, "help.html")
	cases := []struct {
		text, why, action, opener string
	}{
		{"Smart bulbs", "in a menu that opens on hover over link \"Products\"", "hover", "Products"},
		{"Return policy", "in a collapsed section (a closed <details>) opened by", "click", "Returns"},
		{"Download manual", "in another tab panel, shown by tab \"Specs\"", "click", "Specs"},
		{"Warranty terms", "in a collapsed section opened by button \"More questions\"", "click", "More questions"},
	}
	for _, c := range cases {
		out := runJSON(t, `{"tab":"`+tab+`","steps":[{"click":{"text":"`+c.text+`","timeout":1000}}]}`)
		if out.OK() || len(out.Steps) != 1 {
			t.Fatalf("%s: %s", c.text, out.JSON())
		}
		msg := out.Steps[0].Error
		mustContain(t, msg, `"`+c.text+`" is on the page but hidden`, c.why)
		if strings.Contains(msg, "spelling") {
			t.Errorf("%s: spelling advice for a text that exists: %q", c.text, msg)
		}
		if len(out.NextActions) == 0 || jsonString(out.NextActions[0].Step) == "" {
			t.Fatalf("%s: no next action: %s", c.text, out.JSON())
		}
		step := out.NextActions[0].Step
		ref, _ := step[c.action].(string)
		if ref == "" || !strings.Contains(msg, "("+ref+")") || !strings.Contains(out.NextActions[0].Why, c.opener) {
			t.Errorf("%s: next action %s does not %s %q", c.text, jsonString(out.NextActions[0]), c.action, c.opener)
		}
	}
	// Following the advice works: show the tab panel, then the click
	// reaches the button (its handler runs once).
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"click":{"text":"Download manual","timeout":1000}}]}`)
	next := out.NextActions[0].Step
	data := `{"tab":"` + tab + `","steps":[` + jsonString(next) + `,{"click":{"text":"Download manual"}}]}`
	mustOK(t, runJSON(t, data))
	if got := pageValue(t, tab, "() => window.manuals"); got != "1" {
		t.Errorf("the manual button ran %s times, want 1", got)
	}
	// Hidden with nothing that shows it: said so, no step suggested.
	out = runJSON(t, `{"tab":"`+tab+`","steps":[{"click":{"text":"Secret button","timeout":1000}}]}`)
	mustContain(t, out.Steps[0].Error, `"Secret button" is on the page but hidden`, "display: none", "take a snapshot")
	// A text no element has keeps the spelling advice.
	out = runJSON(t, `{"tab":"`+tab+`","steps":[{"click":{"text":"Smart bulbz","timeout":1000}}]}`)
	mustContain(t, out.Steps[0].Error, "no element matches", "spelling")
}
