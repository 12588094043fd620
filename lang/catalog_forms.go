package lang

// fieldLabelParam targets a form control by its label text.
var fieldLabelParam = Param{Name: "label", Type: "string", Doc: "the control's label text", Target: true}

func init() {
	register(
		&Action{Name: "selectOption", Verb: "Selected", Positional: "string", Visual: true,
			Params: withParams(targetParams, []Param{
				{Name: "label", Type: "string", Doc: "the option's label; when no selector, ref or text names the <select>, the <select>'s own label (then give value, index or values)", Target: true},
				{Name: "optionLabel", Type: "string", Doc: "the option's label (unambiguous spelling, usable with label= targeting the <select>)"},
				{Name: "value", Type: "string|number", Doc: "the option's value (failing that, its label)"},
				{Name: "values", Type: "list", Doc: "several options (values or labels) of a multiple <select>; the others are deselected"},
				{Name: "index", Type: "int", Doc: "the option's 0-based position"},
			}, actionParams),
			Doc: "select options of a native <select> (fires input and change, verifies the selection); custom dropdowns are clicked open instead"},
		&Action{Name: "check", Verb: "Checked", Positional: "string", Visual: true,
			Params: withParams(targetParams, []Param{fieldLabelParam}, actionParams),
			Doc:    "make a checkbox, radio or switch checked (clicks it, or its label, only when it is not; verifies the state)"},
		&Action{Name: "uncheck", Verb: "Unchecked", Positional: "string", Visual: true,
			Params: withParams(targetParams, []Param{fieldLabelParam}, actionParams),
			Doc:    "make a checkbox or switch unchecked (clicks it only when it is checked; verifies the state)"},
		&Action{Name: "focus", Verb: "Focused", Positional: "string", Visual: true,
			Params: withParams(targetParams, []Param{fieldLabelParam}, actionParams),
			Doc:    "move keyboard focus to an element and verify it has it"},
		&Action{Name: "upload", Verb: "Uploaded", Positional: "string", Visual: true,
			Params: withParams(targetParams, []Param{
				fieldLabelParam,
				{Name: "files", Type: "string|list", Doc: "path or paths of the files; they must lie under the working directory or a directory listed in CDP_SKILL_UPLOAD_DIRS"},
			}, actionParams),
			Doc: "set the files of an <input type=file>, or of the file chooser a button opens, and verify the page sees them"},
	)
}
