package lang

func init() {
	registerFunctions(
		&Function{Name: "configure", Params: []string{"timeout", "capture", "strict", "stop_on_error"},
			Doc: "set the default step timeout (ms), post-command capture settings, strict mode (no automatic fallbacks) and stop_on_error (default True; False reports a failed step, returns None and goes on) for the rest of the program"},
		&Function{Name: "with_hooks", Params: []string{"body", "ready_when", "settled_when", "observe"},
			Doc: "call body() with these hooks applied to every action inside it that does not set its own"},
		&Function{Name: "fail", Params: []string{"message"},
			Doc: "stop the program with an error message"},
		&Function{Name: "url", Doc: "the current page URL"},
		&Function{Name: "title", Doc: "the current page title"},
		&Function{Name: "js", Params: []string{"source"},
			Doc: "evaluate JavaScript (function or expression) in the page and return its value"},
		&Function{Name: "exists", Params: []string{"selector"}, Doc: "whether a CSS selector matches an element"},
		&Function{Name: "count", Params: []string{"selector"}, Doc: "how many elements a CSS selector matches"},
		&Function{Name: "text", Params: []string{"selector"}, Doc: "the visible text of the first match (None when none)"},
		&Function{Name: "value", Params: []string{"selector"}, Doc: "the value of the first matching form field (None when none)"},
		&Function{Name: "attr", Params: []string{"selector", "name"}, Doc: "an attribute of the first match (None when absent)"},
	)
}
