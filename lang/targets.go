package lang

import "github.com/cdp-skill/cdp-skill/lang/stepopt"

// Target holds the keys that name the element an action is for (spec §6).
// An options struct embeds it with keys:"…" listing the keys the action
// accepts; the others stay empty.
type Target struct {
	Selector       string   `step:"selector,target" doc:"CSS selector (open shadow roots are searched too)" example:"\"#submit\""`
	Ref            string   `step:"ref,target" doc:"ref from a snapshot, e.g. s1e4" example:"\"s1e4\""`
	Text           string   `step:"text,target" doc:"visible text or accessible name (buttons first, then links, then other clickables)" example:"\"Sign in\""`
	Label          string   `step:"label,target" doc:"the field's label text" example:"\"Email\""`
	Exact          bool     `step:"exact,target" doc:"text/label must match the whole string"`
	Selectors      []string `step:"selectors,target" doc:"selectors tried in order" example:"[\"#a\", \".b\"]"`
	WithinSelector string   `step:"withinSelector,target" doc:"with text: search inside this element" example:"\"#form\""`
	X              *float64 `step:"x,target" doc:"viewport x (with y: act on a point)" example:"120"`
	Y              *float64 `step:"y,target" doc:"viewport y" example:"80"`
}

// TargetFields returns the target keys of an options struct that embeds
// Target.
func (t *Target) TargetFields() *Target { return t }

// Targeted is an options struct with target keys.
type Targeted interface{ TargetFields() *Target }

// Acting holds the options every element action accepts.
type Acting struct {
	Force  bool                  `step:"force" doc:"skip the actionability checks"`
	Stable bool                  `step:"stable" doc:"also wait until the element stops moving"`
	Dialog *stepopt.DialogAnswer `step:"dialog" type:"string|dict" doc:"how to answer a dialog the action opens: accept | dismiss | {accept, promptText}" example:"\"dismiss\""`
}

// ActingFields returns the acting options of an options struct.
func (a *Acting) ActingFields() *Acting { return a }

// Actor is an options struct with the acting options.
type Actor interface{ ActingFields() *Acting }
