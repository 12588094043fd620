package lang

import (
	"time"

	"github.com/cdp-skill/cdp-skill/lang/stepopt"
)

// ClickOptions are click's parameters.
type ClickOptions struct {
	Target      `keys:"selector ref text exact selectors withinSelector x y" docs:"x=viewport x (with y: click a point)"`
	JSClick     bool            `step:"jsClick" doc:"click with element.click() only"`
	NativeOnly  bool            `step:"nativeOnly" doc:"never fall back to element.click()"`
	DoubleClick bool            `step:"doubleClick" doc:"double click"`
	Button      string          `step:"button" doc:"left | right | middle" default:"left"`
	Modifiers   stepopt.Strings `step:"modifiers" type:"string|list" doc:"held keys: Control, Alt, Meta, Shift, ControlOrMeta (list or \"Control+Shift\")" example:"\"Shift\""`
	// ScrollUntilVisible scrolls down until the target exists first.
	ScrollUntilVisible *ScrollUntil `step:"scrollUntilVisible" type:"bool|dict" doc:"scroll (the page and every scroll container: virtualised lists, feeds in a panel) until the element exists (lazy content): down, and up from where a scroller stood when it was not at its top; {maxScrolls, distance}" example:"{\"maxScrolls\": 5}"`
	// WaitAfter waits for the DOM to go quiet after the click.
	WaitAfter *WaitQuiet `step:"waitAfter" type:"bool|dict" doc:"after the click wait until the DOM is quiet: {timeout, stableTime} in ms" example:"true"`
	Acting
}

// ScrollUntil bounds click's scrollUntilVisible.
type ScrollUntil struct {
	MaxScrolls int     `step:"maxScrolls" doc:"scrolls before giving up (0: the default)"`
	Distance   float64 `step:"distance" doc:"pixels per scroll (0: the default)"`
}

// WaitQuiet is click's waitAfter.
type WaitQuiet struct {
	Timeout    int `step:"timeout" doc:"ms to wait at most" default:"5000"`
	StableTime int `step:"stableTime" doc:"ms without DOM changes that count as quiet" default:"300"`
}

// FillOptions are fill's parameters (the positional value is a string for
// the focused field or a map for a batch).
type FillOptions struct {
	Target `keys:"selector ref text label exact"`
	Value  *stepopt.Text  `step:"value" type:"string|number|bool" doc:"the value" example:"\"a@b.c\""`
	Fields stepopt.Fields `step:"fields" type:"dict" doc:"batch: {selector or ref or label: value}" example:"{\"#email\": \"a@b.c\"}"`
	Clear  bool           `step:"clear" doc:"replace the current value" default:"true"`
	React  bool           `step:"react" doc:"set the value with the native setter and input/change events"`
	Acting
}

// TypeOptions are type's parameters: text is what to type, not a target.
type TypeOptions struct {
	Target `keys:"selector ref label exact"`
	Text   string `step:"text" doc:"the characters to type (not a target here; the positional string is the same)" example:"\"hello\""`
	Value  string `step:"value" doc:"alias of text"`
	// Delay is the pause between keystrokes.
	Delay time.Duration `step:"delay" type:"int" doc:"ms between keystrokes" default:"0"`
	Acting
}

// PressOptions are press's parameters.
type PressOptions struct {
	Target `keys:"selector ref text exact"`
	Key    string `step:"key" doc:"key or combo: Enter, Escape, ArrowDown, Control+a, ControlOrMeta+Enter" example:"\"Enter\""`
	Times  int    `step:"times" doc:"press it this many times" default:"1"`
	Acting
}

// DialogOptions are dialog's parameters.
type DialogOptions struct {
	Action     string `step:"action" doc:"accept | dismiss" example:"\"dismiss\""`
	Accept     *bool  `step:"accept" doc:"true accepts, false dismisses"`
	PromptText string `step:"promptText" doc:"text a prompt() receives when accepted" example:"\"yes\""`
}

func init() {
	register(
		&Action{Name: "click", Positional: "string", Visual: true, LooksUpFirst: true, Verb: "Clicked", Options: ClickOptions{},
			Example: `{"click": "s1e4"}`,
			Doc:     "click an element (real mouse events, verified; falls back to a JavaScript click)"},
		&Action{Name: "fill", Positional: "string|dict", MapForm: true, PositionalIs: "fields", Visual: true, LooksUpFirst: true, Verb: "Filled", Options: FillOptions{},
			Example: `{"fill": {"label": "Email", "value": "a@b.c"}}`,
			Doc:     "put a value into a field and verify it landed (a code or rich-text editor is filled with its own keys and a paste, a role=slider with its arrow keys); a map fills several fields; a string fills the focused field"},
		&Action{Name: "type", Star: "type_text", Positional: "string", Visual: true, LooksUpFirst: true, Verb: "Typed", Options: TypeOptions{},
			Example: `{"type": {"selector": "#search", "text": "shoes"}}`,
			Doc:     "type text key by key (for autocomplete and editors); focuses the target (selector, ref or label) first when given"},
		&Action{Name: "press", Positional: "string", Visual: true, Verb: "Pressed", Options: PressOptions{},
			Example: `{"press": "Enter"}`,
			Doc:     "press a key or key combination (on the focused element, or focus the target first)"},
	)
}

func init() {
	register(&Action{Name: "dialog", Positional: "string|bool|dict", Options: DialogOptions{},
		Example: `{"dialog": "dismiss"}`,
		Doc:     "set how alert/confirm/prompt/beforeunload dialogs are answered for the rest of the command (default: accept)"})
}
