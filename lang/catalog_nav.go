package lang

var waitUntilParam = Param{Name: "waitUntil", Type: "string", Doc: "commit | domcontentloaded | load | networkidle (default load)"}

func init() {
	register(
		&Action{Name: "goto", Verb: "Navigated", Positional: "string", Visual: true,
			Params: []Param{{Name: "url", Type: "string", Doc: "URL to load"}, waitUntilParam},
			Doc:    "load a URL in the current tab"},
		&Action{Name: "back", Verb: "Went back", Visual: true, Params: []Param{waitUntilParam}, Doc: "go back one history entry"},
		&Action{Name: "forward", Verb: "Went forward", Visual: true, Params: []Param{waitUntilParam}, Doc: "go forward one history entry"},
		&Action{Name: "reload", Verb: "Reloaded", Visual: true,
			Params: []Param{waitUntilParam, {Name: "ignoreCache", Type: "bool", Doc: "bypass the HTTP cache"}},
			Doc:    "reload the page"},
		&Action{Name: "wait", Verb: "Waited", Positional: "int|string", Visual: true,
			Params: []Param{
				{Name: "ms", Type: "int", Doc: "milliseconds to wait"},
				{Name: "selector", Type: "string", Doc: "CSS selector to wait for (visible)"},
				{Name: "hidden", Type: "bool", Doc: "with selector: wait until it is gone or hidden"},
				{Name: "text", Type: "string", Doc: "text to wait for in the page"},
				{Name: "url", Type: "string", Doc: "wait until the URL contains this"},
				{Name: "urlPattern", Type: "string", Doc: "wait until the URL matches this regular expression"},
			},
			Doc: "wait for a time, a selector, a text or a URL"},
		&Action{Name: "sleep", Positional: "int|string", NoTab: true,
			Params: []Param{{Name: "ms", Type: "int", Doc: "milliseconds"}},
			Doc:    "pause for a number of milliseconds"},
		&Action{Name: "pageFunction", Positional: "string",
			Params: []Param{
				{Name: "fn", Type: "string", Doc: "JavaScript function, e.g. \"() => document.title\""},
				{Name: "expression", Type: "string", Doc: "bare JavaScript expression (alias of fn)"},
				{Name: "await", Type: "bool", Doc: "accepted for compatibility: a returned promise is always awaited"},
				{Name: "refs", Type: "bool|list", Doc: "pass elements: true → one object {ref: element}; a list of refs → those elements as arguments"},
				{Name: "serialize", Type: "bool", Doc: "omitted: JSON values as they are, values JSON cannot carry (Date, Map, Element, NaN, undefined…) tagged {type, …}; true: the spec's {type, value} around every value; false: what JSON.stringify makes of it"},
			},
			Doc: "run JavaScript in the page and return its value"},
		&Action{Name: "poll", Positional: "hook",
			Params: []Param{
				{Name: "fn", Type: "hook", Doc: "predicate: JavaScript (or, in recipes, a Starlark function)"},
				{Name: "interval", Type: "int|string", Doc: "ms between evaluations (default 100)"},
			},
			Doc: "evaluate a predicate until it is truthy or the step timeout; reports resolved, value, elapsed"},
	)
}
