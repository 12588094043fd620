package builtins

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/lang"
)

// call builds the Call a builtin receives for action(pos, **kwargs), with
// kwargs written as Starlark source ("scroll_until_visible = {…}").
func call(t *testing.T, action string, kwargs string) (*Call, error) {
	t.Helper()
	a, ok := lang.LookupAction(action)
	if !ok {
		a, ok = lang.ActionForBuiltin(action)
	}
	if !ok {
		t.Fatalf("no action %s", action)
	}
	var pos starlark.Tuple
	var kw []starlark.Tuple
	capture := starlark.NewBuiltin("f", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		pos, kw = args, kwargs
		return starlark.None, nil
	})
	if _, err := starlark.ExecFile(&starlark.Thread{}, "t.star", "f("+kwargs+")", starlark.StringDict{"f": capture}); err != nil {
		t.Fatalf("f(%s): %v", kwargs, err)
	}
	args, err := NewArgs(a, pos, kw)
	if err != nil {
		return nil, err
	}
	return &Call{Action: a, Args: args, Env: &Env{}}, nil
}

// TestOptionsDecoding: keywords are decoded into the action's options
// struct with its defaults; nested dicts take camelCase or snake_case keys
// and refuse others; a wrong type is refused with the parameter's name.
func TestOptionsDecoding(t *testing.T) {
	for _, tc := range []struct {
		action, kwargs string
		check          func(o any) bool
		err            string
	}{
		{"click", `text = "Go", scroll_until_visible = {"max_scrolls": 5}`,
			func(o any) bool {
				su := o.(*lang.ClickOptions).ScrollUntilVisible
				return su != nil && su.MaxScrolls == 5
			}, ""},
		{"click", `text = "Go", scroll_until_visible = {"maxScrolls": 5, "distance": 300}`,
			func(o any) bool {
				su := o.(*lang.ClickOptions).ScrollUntilVisible
				return su.MaxScrolls == 5 && su.Distance == 300
			}, ""},
		{"click", `text = "Go", scroll_until_visible = {"maxScroll": 5}`, nil, `scroll_until_visible has no key "maxScroll" (did you mean "maxScrolls"?)`},
		{"click", `text = "Go", scroll_until_visible = True`,
			func(o any) bool { return o.(*lang.ClickOptions).ScrollUntilVisible != nil }, ""},
		{"click", `text = "Go", scroll_until_visible = False`,
			func(o any) bool { return o.(*lang.ClickOptions).ScrollUntilVisible == nil }, ""},
		{"click", `text = "Go", wait_after = True`,
			func(o any) bool {
				w := o.(*lang.ClickOptions).WaitAfter
				return w.Timeout == 5000 && w.StableTime == 300
			}, ""},
		{"click", `text = "Go", wait_after = {"stable_time": 50}`,
			func(o any) bool {
				w := o.(*lang.ClickOptions).WaitAfter
				return w.Timeout == 5000 && w.StableTime == 50
			}, ""},
		{"click", `button = 3`, nil, "click: button must be a string, not int"},
		{"click", `js_click = "yes"`, nil, "click: js_click must be True or False, not string"},
		{"click", `text = "Go", modifiers = 3`, nil, "click: modifiers must be a string or array, not int"},
		{"click", `text = "Go", max_scrolls = 5`, nil, `unexpected keyword argument "max_scrolls"`},
		{"press", `key = "Enter"`, func(o any) bool { return o.(*lang.PressOptions).Times == 1 }, ""},
		{"fill", `label = "Email", value = 3`, func(o any) bool { f := o.(*lang.FillOptions); return f.Clear && f.Value != nil }, ""},
		{"drag", `source = "#a", target = "#b", steps = 2.5`, nil, "drag: steps must be a whole number"},
		{"drag", `source = "#a", target = "#b", delay = "2s"`, func(o any) bool { return o.(*lang.DragOptions).Delay == 2*time.Second }, ""},
		{"wait", `ms = 250`, func(o any) bool { ms := o.(*lang.WaitOptions).MS; return ms != nil && *ms == 250*time.Millisecond }, ""},
		{"wait", `ms = -1`, nil, "wait: ms must be a non-negative number"},
		{"snapshot", ``, func(o any) bool {
			s := o.(*lang.SnapshotOptions)
			return s.IncludeText && s.PreserveRefs && s.InlineLimit == 9000 && s.PierceShadow
		}, ""},
		{"snapshot_search", `near = {"x": 1, "y": 2, "radius": 3}`, func(o any) bool {
			n := o.(*lang.SnapshotSearchOptions).Near
			return *n.X == 1 && *n.Y == 2 && n.Radius == 3
		}, ""},
		{"snapshot_search", `near = {"x": 1, "y": 2, "r": 3}`, nil, `snapshot_search: near has no key "r"`},
		{"snapshot_search", `near = [1, 2]`, nil, "snapshot_search: near must be an object, not list"},
		{"snapshot_search", `near = {}`, func(o any) bool { n := o.(*lang.SnapshotSearchOptions).Near; return n != nil && n.X == nil }, ""},
		{"click", `text = "Go", scroll_until_visible = {}`, func(o any) bool { return o.(*lang.ClickOptions).ScrollUntilVisible == nil }, ""},
		{"page_function", `fn = "() => 1", await_promise = True`, func(o any) bool { return o.(*lang.PageFunctionOptions).Await }, ""},
		{"poll", `fn = lambda: True`, func(o any) bool { return o.(*lang.PollOptions).Fn.Fn != nil }, ""},
		{"poll", `fn = 3`, nil, "poll: fn must be a JavaScript string, not int"},
		{"poll", `fn = ""`, nil, "poll: fn is empty"},
		{"route", `handler = {"abort": True}`, nil, "route: handler must be a Starlark function (recipes only), not dict"},
		{"extract", `selector = "#t"`, func(o any) bool { e := o.(*lang.ExtractOptions); return e.Limit == 100 && e.Headers == nil }, ""},
		{"elements_at", `x = 1, y = 2`, func(o any) bool {
			e := o.(*lang.ElementsAtOptions)
			return *e.X == 1 && e.Radius == nil && e.Limit == nil
		}, ""},
		{"elements_at", `x = float("nan"), y = 2`, nil, "elements_at: x must be a finite number"},
		{"chrome_status", ``, func(o any) bool { return o.(*lang.ChromeStatusOptions).AutoLaunch }, ""},
	} {
		c, err := call(t, tc.action, tc.kwargs)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s(%s): error %v, want %q", tc.action, tc.kwargs, err, tc.err)
			}
		case err != nil:
			t.Errorf("%s(%s): %v", tc.action, tc.kwargs, err)
		case !tc.check(c.Args.Opts):
			t.Errorf("%s(%s): decoded %+v", tc.action, tc.kwargs, c.Args.Opts)
		}
	}
}

// TestTargetFromOptions: the target an action reads from its options
// struct — a ref given as a selector becomes a ref, a point needs both
// coordinates inside any viewport, two targets are refused, and type's
// text is what to type, never an element.
func TestTargetFromOptions(t *testing.T) {
	for _, tc := range []struct {
		action, kwargs string
		want           string // the target's fields, as %+v would show a few
		err            string
	}{
		{"click", `selector = "s3e7"`, "ref=s3e7", ""},
		{"click", `"#go"`, "selector=#go", ""},
		{"click", `ref = "abc"`, "", `ref "abc" is not a ref like s1e4`},
		{"click", `x = 10, y = 20`, "point=10,20", ""},
		{"click", `x = 10`, "", "give both x and y"},
		{"click", `x = 10, y = 1e9`, "", "outside any viewport"},
		{"click", `selector = "#a", text = "Go"`, "", "several targets (selector, text)"},
		{"click", `text = "Go", within_selector = "#form", exact = True`, "text=Go within=#form exact", ""},
		{"type_text", `text = "hello"`, "", ""},
		{"type_text", `label = "Email", text = "hello"`, "label=Email", ""},
		{"check", `label = "I agree"`, "label=I agree", ""},
	} {
		c, err := call(t, tc.action, tc.kwargs)
		if err != nil {
			t.Fatalf("%s(%s): %v", tc.action, tc.kwargs, err)
		}
		tgt, err := targetArg(c)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s(%s): error %v, want %q", tc.action, tc.kwargs, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s(%s): %v", tc.action, tc.kwargs, err)
			continue
		}
		var got []string
		add := func(k, v string) {
			if v != "" {
				got = append(got, k+"="+v)
			}
		}
		add("selector", tgt.Selector)
		add("ref", tgt.Ref)
		add("text", tgt.Text)
		add("label", tgt.Label)
		add("within", tgt.Within)
		if tgt.Point != nil {
			got = append(got, "point="+strings.TrimSpace(strings.Join([]string{ftoa(tgt.Point.X), ftoa(tgt.Point.Y)}, ",")))
		}
		if tgt.Exact {
			got = append(got, "exact")
		}
		if s := strings.Join(got, " "); s != tc.want {
			t.Errorf("%s(%s): target %q, want %q", tc.action, tc.kwargs, s, tc.want)
		}
	}
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// BenchmarkNewArgsClick measures validating and decoding a click's keywords
// into its options struct (what every click now pays before acting).
func BenchmarkNewArgsClick(b *testing.B) {
	a, _ := lang.LookupAction("click")
	kw := []starlark.Tuple{
		{starlark.String("text"), starlark.String("Go")},
		{starlark.String("exact"), starlark.True},
		{starlark.String("button"), starlark.String("left")},
		{starlark.String("scroll_until_visible"), starlark.True},
	}
	for b.Loop() {
		if _, err := NewArgs(a, nil, kw); err != nil {
			b.Fatal(err)
		}
	}
}
