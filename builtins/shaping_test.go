package builtins

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/lang"
)

// TestGetBoxShapeFollowsTheInput: get_box answers one box for one ref
// given as a string, and boxes keyed by ref for a list (even of one) or
// refs=; repeats are asked once; nothing given is an error.
func TestGetBoxShapeFollowsTheInput(t *testing.T) {
	for _, tc := range []struct {
		args   string
		refs   string
		single bool
		err    string
	}{
		{`"s1e4"`, "s1e4", true, ""},
		{`ref = "s1e4"`, "s1e4", true, ""},
		{`["s1e4"]`, "s1e4", false, ""},
		{`refs = ["s1e4", "s1e5", "s1e4"]`, "s1e4 s1e5", false, ""},
		{`"s1e4", refs = ["s1e5"]`, "s1e4 s1e5", false, ""},
		{`"s1e4", ref = "s1e5"`, "s1e4 s1e5", false, ""},
		{``, "", false, "get_box needs refs"},
		{`[1]`, "", false, "must be a list of strings"},
	} {
		c, err := call(t, "getBox", tc.args)
		if err != nil {
			t.Fatalf("get_box(%s): %v", tc.args, err)
		}
		refs, single, err := refsArg(c)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("get_box(%s): error %v, want %q", tc.args, err, tc.err)
			}
		case err != nil:
			t.Errorf("get_box(%s): %v", tc.args, err)
		case strings.Join(refs, " ") != tc.refs || single != tc.single:
			t.Errorf("get_box(%s): refs %q single %v, want %q %v", tc.args, refs, single, tc.refs, tc.single)
		}
	}
}

// TestSelectWantsTakeOneKindOfOption: select_option takes exactly one of
// value, label (with the <select> named otherwise), option_label, index or
// values, and says which forms exist when none or several are given.
func TestSelectWantsTakeOneKindOfOption(t *testing.T) {
	for _, tc := range []struct {
		args, want, err string
	}{
		{`selector = "#plan", value = "pro"`, `[{"any":"pro"}]`, ""},
		{`selector = "#plan", value = 3`, `[{"any":"3"}]`, ""},
		{`selector = "#plan", label = "Pro"`, `[{"label":"Pro"}]`, ""},
		{`label = "Plan", option_label = "Pro"`, `[{"label":"Pro"}]`, ""},
		{`selector = "#plan", index = 2`, `[{"index":2}]`, ""},
		{`selector = "#c", values = ["red", 2]`, `[{"any":"red"},{"any":"2"}]`, ""},
		{`selector = "#plan"`, "", "select_option needs an option"},
		{`label = "Plan"`, "", "select_option got label but no option"},
		{`selector = "#plan", value = "a", index = 1`, "", "not several"},
		{`selector = "#plan", index = -1`, "", "index must be 0 or more"},
		{`selector = "#c", values = []`, "", "values is empty"},
	} {
		c, err := call(t, "selectOption", tc.args)
		if err != nil {
			t.Fatalf("select_option(%s): %v", tc.args, err)
		}
		_, optLabel, err := selectTargetArg(c)
		if err != nil {
			t.Fatalf("select_option(%s): target: %v", tc.args, err)
		}
		wants, err := selectWants(c, optLabel)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("select_option(%s): error %v, want %q", tc.args, err, tc.err)
			}
			continue
		}
		if got := jsonOf(wants); err != nil || got != tc.want {
			t.Errorf("select_option(%s) = %s (%v), want %s", tc.args, got, err, tc.want)
		}
	}
}

// TestDragEndsAndScrollTargets: a drag end is a selector, a ref, or a dict
// naming exactly one thing with optional offsets, in either spelling; a
// scroll takes one target only.
func TestDragEndsAndScrollTargets(t *testing.T) {
	for _, tc := range []struct {
		args, want, err string
	}{
		{`source = "s1e4", target = "#b"`, "ref=s1e4 → selector=#b", ""},
		{`source = {"selector": "#a", "offset_x": 5}, target = {"x": 10, "y": 20}`, "selector=#a+5,0 → point=10,20", ""},
		{`source = {"ref": "s1e4", "offsetY": -3}, target = {"text": "Done"}`, "ref=s1e4+0,-3 → text=Done", ""},
		{`source = {"selector": "#a", "ref": "s1e4"}, target = "#b"`, "", "source got several targets (ref, selector)"},
		{`source = {"x": 10}, target = "#b"`, "", "source: give both x and y"},
		{`source = {"sel": "#a"}, target = "#b"`, "", `has no key "sel"`},
		{`source = {"ref": "abc"}, target = "#b"`, "", "is not a ref like s1e4"},
		{`source = "  ", target = "#b"`, "", "source is empty"},
	} {
		var src, dst browser.DragEnd
		c, err := call(t, "drag", tc.args)
		if err == nil { // a malformed dict fails decoding already
			o := options[lang.DragOptions](c)
			if src, err = dragEndArg("source", o.Source); err == nil {
				dst, err = dragEndArg("target", o.Target)
			}
		}
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("drag(%s): error %v, want %q", tc.args, err, tc.err)
			}
			continue
		}
		if got := dragEndString(src) + " → " + dragEndString(dst); err != nil || got != tc.want {
			t.Errorf("drag(%s) = %s (%v), want %s", tc.args, got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		args, err string
	}{
		{`"top", selector = "#list"`, "several targets"},
		{`selector = "#list", ref = "s1e4"`, "several targets"},
		{`ref = "list"`, "is not a ref like s1e4"},
		{`""`, `give "top", "bottom", a selector or a ref`},
	} {
		c, err := call(t, "scroll", tc.args)
		if err != nil {
			t.Fatalf("scroll(%s): %v", tc.args, err)
		}
		if _, err := scrollOptions(c); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("scroll(%s): error %v, want %q", tc.args, err, tc.err)
		}
	}
	c, _ := call(t, "scroll", `selector = "#list", delta_y = 300`)
	if o, err := scrollOptions(c); err != nil || o.Target.Selector != "#list" || o.Delta == nil || o.Delta.Y != 300 || o.Delta.X != 0 {
		t.Errorf("scroll(selector, delta_y) = %+v, %v", o, err)
	}
}

func dragEndString(e browser.DragEnd) string {
	var s string
	switch {
	case e.Ref != "":
		s = "ref=" + e.Ref
	case e.Selector != "":
		s = "selector=" + e.Selector
	case e.Text != "":
		s = "text=" + e.Text
	case e.Point != nil:
		s = fmt.Sprintf("point=%g,%g", e.Point.X, e.Point.Y)
	}
	if e.OffsetX != 0 || e.OffsetY != 0 {
		s += fmt.Sprintf("+%g,%g", e.OffsetX, e.OffsetY)
	}
	return s
}

// TestInspectOutputKeysCountsBySelector: inspect's custom counts are keyed
// by selector in the order asked, a count alone or {count, values} when
// texts were asked for; without custom selectors there is no custom key.
func TestInspectOutputKeysCountsBySelector(t *testing.T) {
	res := &browser.Inspection{Title: "T", URL: "http://x/", Custom: []browser.SelectorCount{
		{Selector: ".b", Count: 2}, {Selector: ".a", Count: 1, Values: []string{"one"}},
	}}
	data, _ := json.Marshal(inspectOutput(res))
	if got := string(data); !strings.HasPrefix(got, `{"title":"T","url":"http://x/","elements":`) ||
		!strings.HasSuffix(got, `"custom":{".b":2,".a":{"count":1,"values":["one"]}}}`) {
		t.Errorf("inspect output = %s", got)
	}
	res.Custom = nil
	if data, _ := json.Marshal(inspectOutput(res)); strings.Contains(string(data), "custom") {
		t.Errorf("no custom selectors, yet %s", data)
	}
}

// TestAssertURLChecksKeepTheirOrder: assert's url conditions are read in
// the order given; an unknown condition or a non-string value is refused
// when the options are decoded.
func TestAssertURLChecksKeepTheirOrder(t *testing.T) {
	c, err := call(t, "assert", `url = {"startsWith": "http", "contains": "/done"}`)
	if err != nil {
		t.Fatal(err)
	}
	checks := options[lang.AssertOptions](c).URL
	if jsonOf(checks) != `[{"Op":"startsWith","Value":"http"},{"Op":"contains","Value":"/done"}]` {
		t.Errorf("checks = %s", jsonOf(checks))
	}
	for args, want := range map[string]string{
		`url = {"has": "x"}`:  `assert: url has no condition "has"`,
		`url = {"equals": 3}`: "assert: url equals must be a string, not int",
		`url = {}`:            "must be a condition",
	} {
		if _, err := call(t, "assert", args); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("assert(%s): %v, want %q", args, err, want)
		}
	}
}
