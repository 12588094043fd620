package lang

import "github.com/cdp-skill/cdp-skill/lang/stepopt"

// SelectOptionOptions are selectOption's parameters.
type SelectOptionOptions struct {
	Target      `keys:"selector ref text label exact" docs:"label=the option's label; when no selector, ref or text names the <select>, the <select>'s own label (then give value, index or values)"`
	OptionLabel string        `step:"optionLabel" doc:"the option's label (unambiguous spelling, usable with label= targeting the <select>)" example:"\"Pro plan\""`
	Value       *stepopt.Text `step:"value" type:"string|number" doc:"the option's value (failing that, its label)" example:"\"pro\""`
	Values      stepopt.Texts `step:"values" type:"list" doc:"several options (values or labels) of a multiple <select>; the others are deselected" example:"[\"red\", \"blue\"]"`
	Index       *int          `step:"index" doc:"the option's 0-based position" example:"2"`
	Acting
}

// ControlOptions are the parameters of check, uncheck and focus.
type ControlOptions struct {
	Target `keys:"selector ref text label exact" docs:"label=the control's label text"`
	Acting
}

// UploadOptions are upload's parameters.
type UploadOptions struct {
	Target `keys:"selector ref text label exact" docs:"label=the control's label text"`
	Files  stepopt.Strings `step:"files" type:"string|list" doc:"path or paths of the files; they must lie under the working directory or a directory listed in CDP_SKILL_UPLOAD_DIRS" example:"[\"report.pdf\"]"`
	Acting
}

func init() {
	register(
		&Action{Name: "selectOption", Verb: "Selected", Positional: "string", Visual: true, LooksUpFirst: true, LabelNamesOption: true, Options: SelectOptionOptions{},
			Example: `{"selectOption": {"selector": "#plan", "value": "pro"}}`,
			Doc:     "select options of a native <select> (fires input and change, verifies the selection); custom: click it open, then its option"},
		&Action{Name: "check", Verb: "Checked", Positional: "string", Visual: true, LooksUpFirst: true, Options: ControlOptions{},
			Example: `{"check": {"label": "I agree"}}`,
			Doc:     "make a checkbox, radio or switch checked, or an ARIA control carrying aria-checked (menu item, option, tree item) (clicks it, or its label, only when it is not; verifies the state)"},
		&Action{Name: "uncheck", Verb: "Unchecked", Positional: "string", Visual: true, LooksUpFirst: true, Options: ControlOptions{},
			Example: `{"uncheck": "#newsletter"}`,
			Doc:     "make a checkbox or switch unchecked, or an ARIA control carrying aria-checked (clicks it only when it is checked; verifies the state)"},
		&Action{Name: "focus", Verb: "Focused", Positional: "string", Visual: true, LooksUpFirst: true, Options: ControlOptions{},
			Example: `{"focus": "#search"}`,
			Doc:     "move keyboard focus to an element and verify it has it"},
		&Action{Name: "upload", Verb: "Uploaded", Positional: "string", Visual: true, Options: UploadOptions{},
			Example: `{"upload": {"selector": "input[type=file]", "files": ["report.pdf"]}}`,
			Doc:     "set the files of an <input type=file>, or of the file chooser a button opens, and verify the page sees them"},
	)
}
