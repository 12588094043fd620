package lang

import (
	"time"

	"github.com/cdp-skill/cdp-skill/lang/stepopt"
)

// Loading says when a navigation counts as done.
type Loading struct {
	WaitUntil string `step:"waitUntil" doc:"commit | domcontentloaded | load | networkidle" default:"load" example:"\"networkidle\""`
}

// GotoOptions are goto's parameters.
type GotoOptions struct {
	URL string `step:"url" doc:"URL to load" example:"\"https://example.com\""`
	Loading
}

// ReloadOptions are reload's parameters.
type ReloadOptions struct {
	Loading
	IgnoreCache bool `step:"ignoreCache" doc:"bypass the HTTP cache"`
}

// WaitOptions are wait's parameters.
type WaitOptions struct {
	MS         *time.Duration `step:"ms" type:"int" doc:"milliseconds to wait" example:"500"`
	Selector   string         `step:"selector" doc:"CSS selector to wait for (visible)" example:"\"#done\""`
	Hidden     bool           `step:"hidden" doc:"with selector: wait until it is gone or hidden"`
	Text       string         `step:"text" doc:"text to wait for in the page" example:"\"Saved\""`
	URL        string         `step:"url" doc:"wait until the URL contains this" example:"\"/done\""`
	URLPattern string         `step:"urlPattern" doc:"wait until the URL matches this regular expression" example:"\"/orders/\\\\d+\""`
}

// SleepOptions are sleep's parameters.
type SleepOptions struct {
	MS time.Duration `step:"ms" type:"int" doc:"milliseconds" default:"0" example:"500"`
}

// PageFunctionOptions are pageFunction's parameters.
type PageFunctionOptions struct {
	Fn         string        `step:"fn" doc:"JavaScript function, e.g. \"() => document.title\"" example:"\"() => document.title\""`
	Expression string        `step:"expression" doc:"bare JavaScript expression (alias of fn)" example:"\"document.title\""`
	Await      bool          `step:"await" doc:"accepted for compatibility: a returned promise is always awaited" default:"true"`
	Refs       *stepopt.Refs `step:"refs" type:"bool|list" doc:"pass elements: true → one object {ref: element}; a list of refs → those elements as arguments" example:"[\"s1e4\"]"`
	Serialize  *bool         `step:"serialize" doc:"omitted: JSON values as they are, values JSON cannot carry (Date, Map, Element, NaN, undefined…) tagged {type, …}; true: the spec's {type, value} around every value; false: what JSON.stringify makes of it"`
}

// PollOptions are poll's parameters.
type PollOptions struct {
	Fn        Hook          `step:"fn" type:"hook" doc:"predicate: JavaScript (or, in recipes, a Starlark function)" example:"\"() => !!document.querySelector('#done')\""`
	Interval  time.Duration `step:"interval" doc:"ms between evaluations" default:"100"`
	Serialize bool          `step:"serialize" doc:"true: the spec's {type, value} around every value (JavaScript predicates)"`
}

// LoadingFields returns the waitUntil option of an options struct.
func (l *Loading) LoadingFields() *Loading { return l }

func init() {
	register(
		&Action{Name: "goto", Navigates: true, Verb: "Navigated", Positional: "string", Visual: true, Options: GotoOptions{},
			Example: `{"goto": "https://example.com"}`,
			Doc:     "load a URL in the current tab"},
		&Action{Name: "back", Navigates: true, Verb: "Went back", Visual: true, Options: Loading{}, Example: `{"back": true}`,
			Doc: "go back one history entry"},
		&Action{Name: "forward", Navigates: true, Verb: "Went forward", Visual: true, Options: Loading{}, Example: `{"forward": true}`,
			Doc: "go forward one history entry"},
		&Action{Name: "reload", Navigates: true, Verb: "Reloaded", Visual: true, Options: ReloadOptions{}, Example: `{"reload": {"ignoreCache": true}}`,
			Doc: "reload the page"},
		&Action{Name: "wait", Verb: "Waited", Positional: "int|string", PositionalMS: true, Visual: true, Options: WaitOptions{},
			Example: `{"wait": {"text": "Saved"}}`,
			Doc:     "wait for a time, a selector, a text or a URL"},
		&Action{Name: "sleep", Positional: "int|string", PositionalMS: true, NoTab: true, Options: SleepOptions{},
			Example: `{"sleep": 500}`,
			Doc:     "pause for a number of milliseconds"},
		&Action{Name: "pageFunction", Positional: "string", Options: PageFunctionOptions{},
			Example: `{"pageFunction": "() => document.title"}`,
			Doc:     "run JavaScript in the page and return its value"},
		&Action{Name: "poll", Positional: "hook", Options: PollOptions{},
			Example: `{"poll": "() => document.querySelectorAll('.row').length > 3"}`,
			Doc:     "evaluate a predicate until it is truthy or the step timeout; reports resolved, value, elapsed"},
	)
}
