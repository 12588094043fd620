package builtins

import (
	"reflect"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/lang"
)

// TestParseTarget is the one target parser's table: every form a step
// names its element by, and each malformed one refused with what to do.
func TestParseTarget(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	src := targetSource{who: "click", kinds: "selector, ref, text or x/y"}
	for _, c := range []struct {
		name string
		pos  browser.Target
		keys lang.Target
		want browser.Target
		err  string
	}{
		{name: "nothing"},
		{name: "positional selector", pos: browser.NormalizeTarget("#buy"), want: browser.Target{Selector: "#buy"}},
		{name: "positional ref", pos: browser.NormalizeTarget(" s1e4 "), want: browser.Target{Ref: "s1e4"}},
		{name: "selector", keys: lang.Target{Selector: "#a"}, want: browser.Target{Selector: "#a"}},
		{name: "ref-like selector is a ref", keys: lang.Target{Selector: "s2e9"}, want: browser.Target{Ref: "s2e9"}},
		{name: "ref", keys: lang.Target{Ref: "s1e4"}, want: browser.Target{Ref: "s1e4"}},
		{name: "text within exact", keys: lang.Target{Text: "Buy", WithinSelector: "#cart", Exact: true}, want: browser.Target{Text: "Buy", Within: "#cart", Exact: true}},
		{name: "label", keys: lang.Target{Label: "Email"}, want: browser.Target{Label: "Email"}},
		{name: "selectors", keys: lang.Target{Selectors: []string{"#a", ".b"}}, want: browser.Target{Selectors: []string{"#a", ".b"}}},
		{name: "point", keys: lang.Target{X: f(10), Y: f(0)}, want: browser.Target{Point: &browser.Point{X: 10, Y: 0}}},
		{name: "half a point", keys: lang.Target{X: f(10)}, err: "click: give both x and y"},
		{name: "only y", keys: lang.Target{Y: f(10)}, err: "click: give both x and y"},
		{name: "point off any viewport", keys: lang.Target{X: f(1e9), Y: f(1)}, err: "outside any viewport"},
		{name: "bad ref", keys: lang.Target{Ref: "abc"}, err: `click: ref "abc" is not a ref like s1e4`},
		{name: "two keys", keys: lang.Target{Selector: "#a", Text: "Go"}, err: "click got several targets (selector, text): give one of selector, ref, text or x/y"},
		{name: "ref and ref-like selector", keys: lang.Target{Ref: "s1e4", Selector: "s1e5"}, err: "several targets (ref, selector)"},
		{name: "text and point", keys: lang.Target{Text: "Go", X: f(1), Y: f(2)}, err: "several targets (text, x/y)"},
		{name: "positional and key", pos: browser.NormalizeTarget("#a"), keys: lang.Target{Selector: "#b"}, err: "several targets (the positional value, selector)"},
		{name: "positional and text", pos: browser.NormalizeTarget("s1e4"), keys: lang.Target{Text: "Go"}, err: "several targets (the positional value, text)"},
	} {
		got, err := parseTarget(src, c.pos, c.keys)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.name, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err == "" && !reflect.DeepEqual(got, c.want):
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestActionTargetKinds: the "give one of" list of a message is the
// action's own targets from the catalog.
func TestActionTargetKinds(t *testing.T) {
	for name, want := range map[string]string{
		"click":  "selector, ref, text, selectors or x/y",
		"type":   "selector, ref or label",
		"fill":   "selector, ref, text or label",
		"scroll": "selector or ref",
	} {
		a, ok := lang.LookupAction(name)
		if !ok {
			t.Fatalf("no action %s", name)
		}
		if got := actionTargetKinds(a); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}
