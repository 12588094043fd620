package lang

import (
	"github.com/cdp-skill/cdp-skill/lang/stepopt"
)

// SnapshotOptions are snapshot's parameters.
type SnapshotOptions struct {
	Root          string `step:"root" doc:"CSS selector or role=<role> to snapshot (default: <main>, else the body)" example:"\"#results\""`
	Detail        string `step:"detail" doc:"full (default) | interactive | summary" example:"\"interactive\""`
	Mode          string `step:"mode" doc:"ai (default: refs on interactive elements) | plain (no refs)" example:"\"plain\""`
	ViewportOnly  bool   `step:"viewportOnly" doc:"only what is in the viewport"`
	PierceShadow  bool   `step:"pierceShadow" doc:"include open shadow roots" default:"true"`
	IncludeFrames bool   `step:"includeFrames" doc:"show each iframe's content under its line, cross-origin ones too" default:"true"`
	IncludeText   bool   `step:"includeText" doc:"keep text lines" default:"true"`
	MaxDepth      int    `step:"maxDepth" doc:"DOM depth limit (0: the default, 50)" example:"10"`
	MaxElements   int    `step:"maxElements" doc:"element limit; beyond it the snapshot says truncated" example:"500"`
	InlineLimit   int    `step:"inlineLimit" doc:"bytes returned inline; the whole snapshot goes to a file" default:"9000"`
	PreserveRefs  bool   `step:"preserveRefs" doc:"keep earlier refs" default:"true"`
	Since         string `step:"since" doc:"snapshot id: answer {unchanged: true} when the page renders the same" example:"\"s3\""`
}

// SnapshotSearchOptions are snapshotSearch's parameters.
type SnapshotSearchOptions struct {
	Text    string `step:"text" doc:"case-insensitive substring of name, value or text" example:"\"Checkout\""`
	Pattern string `step:"pattern" doc:"regular expression (case-insensitive)" example:"\"^Order #\\\\d+\""`
	Role    string `step:"role" doc:"only this role" example:"\"button\""`
	Exact   bool   `step:"exact" doc:"text must equal the name"`
	// Near keeps elements whose centre is near a point.
	Near    *Near  `step:"near" doc:"{x, y, radius}: element centres within radius px of the point" example:"{\"x\": 200, \"y\": 300, \"radius\": 50}"`
	Limit   int    `step:"limit" doc:"maximum matches" default:"10"`
	Context int    `step:"context" doc:"ancestor levels in each match's path" default:"2"`
	Root    string `step:"root" doc:"CSS selector to search under (default: the body)" example:"\"#sidebar\""`
}

// Near is a point and a radius in viewport CSS pixels.
type Near struct {
	X      *float64 `step:"x" doc:"viewport x"`
	Y      *float64 `step:"y" doc:"viewport y"`
	Radius float64  `step:"radius" doc:"px around the point (0: the default, 100)"`
}

// QueryOptions are query's parameters.
type QueryOptions struct {
	Selector  string               `step:"selector" doc:"CSS selector" example:"\"table tr\""`
	Role      stepopt.Strings      `step:"role" type:"string|list" doc:"ARIA role (or list of roles) instead of a selector" example:"\"link\""`
	Roles     []string             `step:"roles" doc:"several roles" example:"[\"button\", \"link\"]"`
	Name      string               `step:"name" doc:"role mode: accessible name contains this" example:"\"Next\""`
	NameExact bool                 `step:"nameExact" doc:"role mode: name must equal name"`
	NameRegex string               `step:"nameRegex" doc:"role mode: name matches this regular expression" example:"\"^Page \\\\d+$\""`
	Checked   *bool                `step:"checked" doc:"role mode: checked state"`
	Disabled  *bool                `step:"disabled" doc:"role mode: disabled state"`
	Level     int                  `step:"level" doc:"role mode: heading level" example:"2"`
	Limit     int                  `step:"limit" doc:"maximum results" default:"10"`
	CountOnly bool                 `step:"countOnly" doc:"only the count"`
	Output    *stepopt.QueryOutput `step:"output" type:"string|list|dict" doc:"text | html | href | value | tag | name | role, a list of them, or {attributes: [...]}" example:"[\"text\", \"href\"]"`
	Clean     bool                 `step:"clean" doc:"normalize whitespace of text" default:"true"`
	Metadata  bool                 `step:"metadata" doc:"add tag, attributes and box"`
}

func init() {
	register(
		&Action{Name: "snapshot", SizesOwnOutput: true, PrintsTree: true, Positional: "string", Options: SnapshotOptions{},
			Example: `{"snapshot": {"detail": "interactive"}}`,
			Doc:     "the ARIA snapshot of the page, with refs on interactive elements"},
		&Action{Name: "snapshotSearch", Positional: "string", Options: SnapshotSearchOptions{},
			Example: `{"snapshotSearch": {"text": "Add to cart", "role": "button"}}`,
			Doc:     "find any text the snapshot shows, without a full snapshot: each match has a ref, and the controls (with refs) of the card, row or article it is in"},
		&Action{Name: "query", Positional: "string", Options: QueryOptions{},
			Example: `{"query": {"role": "link", "name": "Next"}}`,
			Doc:     "find elements by CSS selector or role and read text, attributes, accessible name or role"},
	)
}
