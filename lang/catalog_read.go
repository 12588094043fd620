package lang

import "github.com/cdp-skill/cdp-skill/lang/stepopt"

// Selecting is the element a read step is for: selector= or the positional
// string (a CSS selector or a ref).
type Selecting struct {
	Selector string `step:"selector" doc:"CSS selector or ref" example:"\"#main\""`
}

// SelectorField returns the selector of an options struct that embeds
// Selecting.
func (s *Selecting) SelectorField() string { return s.Selector }

// InspectOptions are inspect's parameters.
type InspectOptions struct {
	Selectors []string `step:"selectors" doc:"more CSS selectors to count" example:"[\".card\", \"nav a\"]"`
	Limit     int      `step:"limit" doc:"with selectors: also the text of up to this many matches of each" example:"3"`
}

// ExtractOptions are extract's parameters.
type ExtractOptions struct {
	Selecting `docs:"selector=CSS selector or ref of the table or list (or of an element holding one)"`
	Type      string `step:"type" doc:"auto (default) | table | list" example:"\"table\""`
	Limit     int    `step:"limit" doc:"maximum rows or items" default:"100"`
	Offset    int    `step:"offset" doc:"rows or items to skip first, for paging (a truncated answer gives the next page's step)" default:"0"`
	Headers   *bool  `step:"headers" doc:"tables: true takes the first row as headers, false takes no header row (default: <thead>, else a first row of <th>)"`
}

// GetDOMOptions are getDom's parameters.
type GetDOMOptions struct {
	Selecting `docs:"selector=CSS selector or ref (default: the whole document)"`
	Outer     bool `step:"outer" doc:"false returns innerHTML (true: outerHTML)" default:"true"`
}

// GetBoxOptions are getBox's parameters.
type GetBoxOptions struct {
	Ref  string   `step:"ref" doc:"one ref" example:"\"s1e4\""`
	Refs []string `step:"refs" doc:"several refs" example:"[\"s1e4\", \"s1e5\"]"`
}

// ElementsAtOptions are elementsAt's parameters.
type ElementsAtOptions struct {
	X      *float64 `step:"x" doc:"viewport x" example:"100"`
	Y      *float64 `step:"y" doc:"viewport y" example:"200"`
	Radius *float64 `step:"radius" doc:"find the elements within this many px of the point instead (default 50 when limit is given)" example:"50"`
	Limit  *int     `step:"limit" doc:"nearby search: maximum elements" default:"20"`
}

// FormStateOptions are formState's parameters.
type FormStateOptions struct {
	Selecting `docs:"selector=CSS selector or ref of the form"`
}

// ValidateOptions are validate's parameters.
type ValidateOptions struct {
	Selecting `docs:"selector=CSS selector or ref of the field"`
}

// SubmitOptions are submit's parameters.
type SubmitOptions struct {
	Selecting `docs:"selector=CSS selector or ref of the form, or of a button or field in it"`
}

// AssertOptions are assert's parameters.
type AssertOptions struct {
	URL           stepopt.URLChecks `step:"url" type:"dict" doc:"{contains | equals | startsWith | endsWith | matches: value} on the page URL" example:"{\"contains\": \"/done\"}"`
	Text          *string           `step:"text" doc:"text that must appear in the element's text" example:"\"Thank you\""`
	Selector      string            `step:"selector" doc:"with text: the element to look in (default body)" example:"\"#status\""`
	CaseSensitive bool              `step:"caseSensitive" doc:"with text: match case" default:"true"`
}

// ConsoleOptions are console's parameters.
type ConsoleOptions struct {
	Limit      int     `step:"limit" doc:"most recent messages to return" default:"50"`
	Level      string  `step:"level" doc:"only this level: error | warning | info | log | debug" example:"\"error\""`
	Type       string  `step:"type" doc:"only this type: console (console.* calls) | exception (uncaught errors) | log (browser messages)" example:"\"exception\""`
	Since      float64 `step:"since" doc:"only messages after this time (ms since the epoch)" example:"1700000000000"`
	StackTrace bool    `step:"stackTrace" doc:"include stack traces"`
	Clear      bool    `step:"clear" doc:"empty the buffer after reading"`
}

// The read steps (spec §11.4–11.14): they observe the page and change
// nothing, except submit.
func init() {
	register(
		&Action{Name: "queryAll", Positional: "dict", MapForm: true,
			Example: `{"queryAll": {"buttons": "button", "links": {"role": "link", "limit": 5}}}`,
			Doc:     "several queries at once: {label: selector or query object, …}; the answer is keyed by label"},
		&Action{Name: "inspect", Options: InspectOptions{}, Example: `{"inspect": true}`,
			Doc: "a quick page overview: title, URL and counts of links, buttons, inputs, headings, images and forms"},
		&Action{Name: "extract", Positional: "string", Options: ExtractOptions{},
			Example: `{"extract": {"selector": "#prices", "type": "table"}}`,
			Doc:     "read a table (headers, rows, column types) or a list (items, nested lists as {text, items}) as data"},
		&Action{Name: "getDom", SizesOwnOutput: true, Positional: "string", Options: GetDOMOptions{}, Example: `{"getDom": "#main"}`,
			Doc: "raw HTML of the page or of an element; over 50 KB it goes to a file and the answer has its path and the first 2 KB"},
		&Action{Name: "getBox", Positional: "string|list", Options: GetBoxOptions{}, Example: `{"getBox": ["s1e4", "s1e5"]}`,
			Doc: "viewport boxes of refs: {x, y, width, height, center}, or error not found | stale | hidden (with box); a list or refs= answers boxes keyed by ref"},
		&Action{Name: "elementsAt", Positional: "list", Options: ElementsAtOptions{}, Example: `{"elementsAt": {"x": 100, "y": 200}}`,
			Doc: "the element at a point with a ref (a list of {x, y}: several points); with radius, the visible elements near the point, closest first"},
		&Action{Name: "formState", Positional: "string", Options: FormStateOptions{}, Example: `{"formState": "#signup"}`,
			Doc: "the fields of a form: name, type, label, value (passwords masked), required, valid, disabled"},
		&Action{Name: "validate", Positional: "string", Options: ValidateOptions{}, Example: `{"validate": "#email"}`,
			Doc: "the HTML5 validation state of a field: valid, message and the validity flags"},
		&Action{Name: "submit", Verb: "Submitted", Positional: "string", Visual: true, Options: SubmitOptions{},
			Example: `{"submit": "#signup"}`,
			Doc:     "submit a form with requestSubmit (its submit handlers run) and wait for the navigation it starts; a page handler that cancels it (preventDefault) gives prevented: true and a warning; an invalid form is not submitted: the output is {submitted: false, valid: false, errors} and a warning lists the invalid fields"},
		&Action{Name: "assert", Options: AssertOptions{}, Example: `{"assert": {"url": {"contains": "/done"}, "text": "Thank you"}}`,
			Doc: "check the URL and/or text on the page; the step fails listing each failed condition with the actual value"},
		&Action{Name: "console", Options: ConsoleOptions{}, Example: `{"console": {"level": "error"}}`,
			Doc: "console messages and uncaught errors captured during this command (each command starts empty)"},
	)
}
