package lang

import "slices"

// targetParams are the ways an action names its element (spec §6).
var targetParams = []Param{
	{Name: "selector", Type: "string", Doc: "CSS selector (open shadow roots are searched too)", Target: true},
	{Name: "ref", Type: "string", Doc: "ref from a snapshot, e.g. s1e4", Target: true},
	{Name: "text", Type: "string", Doc: "visible text or accessible name (buttons first, then links, then other clickables)", Target: true},
	{Name: "exact", Type: "bool", Doc: "text/label must match the whole string", Target: true},
}

// targetsExcept is targetParams without the named keys, for an action
// that gives one of those names another meaning (type's text).
func targetsExcept(names ...string) []Param {
	var out []Param
	for _, p := range targetParams {
		if !slices.Contains(names, p.Name) {
			out = append(out, p)
		}
	}
	return out
}

var actionParams = []Param{
	{Name: "force", Type: "bool", Doc: "skip the actionability checks"},
	{Name: "stable", Type: "bool", Doc: "also wait until the element stops moving"},
	{Name: "dialog", Type: "string|dict", Doc: "how to answer a dialog the action opens: accept | dismiss | {accept, promptText}"},
}

func withParams(groups ...[]Param) []Param {
	var out []Param
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

func init() {
	register(
		&Action{Name: "click", Positional: "string", Visual: true,
			Params: withParams(targetParams, []Param{
				{Name: "selectors", Type: "list", Doc: "selectors tried in order", Target: true},
				{Name: "withinSelector", Type: "string", Doc: "with text: search inside this element", Target: true},
				{Name: "x", Type: "number", Doc: "viewport x (with y: click a point)", Target: true},
				{Name: "y", Type: "number", Doc: "viewport y", Target: true},
				{Name: "jsClick", Type: "bool", Doc: "click with element.click() only"},
				{Name: "nativeOnly", Type: "bool", Doc: "never fall back to element.click()"},
				{Name: "doubleClick", Type: "bool", Doc: "double click"},
				{Name: "button", Type: "string", Doc: "left | right | middle"},
				{Name: "modifiers", Type: "string|list", Doc: "held keys: Control, Alt, Meta, Shift, ControlOrMeta (list or \"Control+Shift\")"},
				{Name: "scrollUntilVisible", Type: "bool|dict", Doc: "scroll down until the element exists (lazy content); {maxScrolls, distance}"},
				{Name: "waitAfter", Type: "bool|dict", Doc: "after the click wait until the DOM is quiet: {timeout, stableTime} in ms"},
			}, actionParams),
			Doc: "click an element (real mouse events, verified; falls back to a JavaScript click)"},
		&Action{Name: "fill", Positional: "string|dict", MapForm: true, Visual: true,
			Params: withParams(targetParams, []Param{
				{Name: "label", Type: "string", Doc: "the field's label text", Target: true},
				{Name: "value", Type: "string|number|bool", Doc: "the value"},
				{Name: "fields", Type: "dict", Doc: "batch: {selector or ref or label: value}"},
				{Name: "clear", Type: "bool", Doc: "replace the current value (default true)"},
				{Name: "react", Type: "bool", Doc: "set the value with the native setter and input/change events"},
			}, actionParams),
			Doc: "put a value into a field and verify it landed; a map fills several fields; a string fills the focused field"},
		&Action{Name: "type", Star: "type_text", Positional: "string", Visual: true,
			Params: withParams(targetsExcept("text"), []Param{
				{Name: "label", Type: "string", Doc: "the field's label text", Target: true},
				{Name: "text", Type: "string", Doc: "the characters to type (not a target here; the positional string is the same)"},
				{Name: "value", Type: "string", Doc: "alias of text"},
				{Name: "delay", Type: "int", Doc: "ms between keystrokes"},
			}, actionParams),
			Doc: "type text key by key (for autocomplete and editors); focuses the target (selector, ref or label) first when given"},
		&Action{Name: "press", Positional: "string", Visual: true,
			Params: withParams(targetParams, []Param{
				{Name: "key", Type: "string", Doc: "key or combo: Enter, Escape, ArrowDown, Control+a, ControlOrMeta+Enter"},
				{Name: "times", Type: "int", Doc: "press it this many times"},
			}, actionParams),
			Doc: "press a key or key combination (on the focused element, or focus the target first)"},
	)
}

func init() {
	register(&Action{Name: "dialog", Positional: "string|bool|dict",
		Params: []Param{
			{Name: "action", Type: "string", Doc: "accept | dismiss"},
			{Name: "accept", Type: "bool", Doc: "true accepts, false dismisses"},
			{Name: "promptText", Type: "string", Doc: "text a prompt() receives when accepted"},
		},
		Doc: "set how alert/confirm/prompt/beforeunload dialogs are answered for the rest of the command (default: accept)"})
}
