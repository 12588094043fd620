package lang

// The read steps (spec §11.4–11.14): they observe the page and change
// nothing, except submit.
func init() {
	register(
		&Action{Name: "queryAll", Positional: "dict", MapForm: true,
			Doc: "several queries at once: {label: selector or query object, …}; the answer is keyed by label"},
		&Action{Name: "inspect",
			Params: []Param{
				{Name: "selectors", Type: "list", Doc: "more CSS selectors to count"},
				{Name: "limit", Type: "int", Doc: "with selectors: also the text of up to this many matches of each"},
			},
			Doc: "a quick page overview: title, URL and counts of links, buttons, inputs, headings, images and forms"},
		&Action{Name: "extract", Positional: "string",
			Params: []Param{
				{Name: "selector", Type: "string", Doc: "CSS selector or ref of the table or list (or of an element holding one)"},
				{Name: "type", Type: "string", Doc: "auto (default) | table | list"},
				{Name: "limit", Type: "int", Doc: "maximum rows or items (default 100)"},
				{Name: "offset", Type: "int", Doc: "rows or items to skip first, for paging (default 0; a truncated answer gives the next page's step)"},
				{Name: "headers", Type: "bool", Doc: "tables: true takes the first row as headers, false takes no header row (default: <thead>, else a first row of <th>)"},
			},
			Doc: "read a table (headers, rows, column types) or a list (items, nested lists as {text, items}) as data"},
		&Action{Name: "getDom", Positional: "string",
			Params: []Param{
				{Name: "selector", Type: "string", Doc: "CSS selector or ref (default: the whole document)"},
				{Name: "outer", Type: "bool", Doc: "false returns innerHTML (default true: outerHTML)"},
			},
			Doc: "raw HTML of the page or of an element; over 50 KB it goes to a file and the answer has its path and the first 2 KB"},
		&Action{Name: "getBox", Positional: "string|list",
			Params: []Param{
				{Name: "ref", Type: "string", Doc: "one ref"},
				{Name: "refs", Type: "list", Doc: "several refs"},
			},
			Doc: "viewport boxes of refs: {x, y, width, height, center}, or error not found | stale | hidden (with box); a list or refs= answers boxes keyed by ref"},
		&Action{Name: "elementsAt", Positional: "list",
			Params: []Param{
				{Name: "x", Type: "number", Doc: "viewport x"},
				{Name: "y", Type: "number", Doc: "viewport y"},
				{Name: "radius", Type: "number", Doc: "find the elements within this many px of the point instead (default 50 when limit is given)"},
				{Name: "limit", Type: "int", Doc: "nearby search: maximum elements (default 20)"},
			},
			Doc: "the element at a point with a ref (a list of {x, y}: several points); with radius, the visible elements near the point, closest first"},
		&Action{Name: "formState", Positional: "string",
			Params: []Param{
				{Name: "selector", Type: "string", Doc: "CSS selector or ref of the form"},
			},
			Doc: "the fields of a form: name, type, label, value (passwords masked), required, valid, disabled"},
		&Action{Name: "validate", Positional: "string",
			Params: []Param{
				{Name: "selector", Type: "string", Doc: "CSS selector or ref of the field"},
			},
			Doc: "the HTML5 validation state of a field: valid, message and the validity flags"},
		&Action{Name: "submit", Verb: "Submitted", Positional: "string", Visual: true,
			Params: []Param{
				{Name: "selector", Type: "string", Doc: "CSS selector or ref of the form, or of a button or field in it"},
			},
			Doc: "submit a form with requestSubmit (its submit handlers run) and wait for the navigation it starts; a page handler that cancels it (preventDefault) gives prevented: true and a warning; an invalid form is not submitted and the step fails listing the invalid fields"},
		&Action{Name: "assert",
			Params: []Param{
				{Name: "url", Type: "dict", Doc: "{contains | equals | startsWith | endsWith | matches: value} on the page URL"},
				{Name: "text", Type: "string", Doc: "text that must appear in the element's text"},
				{Name: "selector", Type: "string", Doc: "with text: the element to look in (default body)"},
				{Name: "caseSensitive", Type: "bool", Doc: "with text: match case (default true)"},
			},
			Doc: "check the URL and/or text on the page; the step fails listing each failed condition with the actual value"},
		&Action{Name: "console",
			Params: []Param{
				{Name: "limit", Type: "int", Doc: "most recent messages to return (default 50)"},
				{Name: "level", Type: "string", Doc: "only this level: error | warning | info | log | debug"},
				{Name: "type", Type: "string", Doc: "only this type: console (console.* calls) | exception (uncaught errors) | log (browser messages)"},
				{Name: "since", Type: "number", Doc: "only messages after this time (ms since the epoch)"},
				{Name: "stackTrace", Type: "bool", Doc: "include stack traces"},
				{Name: "clear", Type: "bool", Doc: "empty the buffer after reading"},
			},
			Doc: "console messages and uncaught errors captured during this command (each command starts empty)"},
	)
}
