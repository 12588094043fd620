package builtins

import (
	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/lang"
)

func init() {
	register(map[string]ActionFunc{
		"selectOption": selectOption,
		"check":        func(c *Call) (any, error) { return setChecked(c, true) },
		"uncheck":      func(c *Call) (any, error) { return setChecked(c, false) },
		"focus":        focus,
		"upload":       upload,
	})
}

// selectOption handles select_option(selector|ref|text|label = …, value |
// label | option_label | index | values = …).
func selectOption(c *Call) (any, error) {
	t, optLabel, err := selectTargetArg(c)
	if err != nil {
		return nil, err
	}
	wants, err := selectWants(c, optLabel)
	if err != nil {
		return nil, err
	}
	p, t, o, err := actionPage(c, t)
	if err != nil {
		return nil, err
	}
	res, err := p.SelectOption(c.Ctx, t, wants, o)
	if err != nil {
		return nil, err
	}
	warnAll(c, res.Warnings)
	registerNewTabs(c, res.NewTabs)
	return res, nil
}

// selectTargetArg reads the <select> to act on. label is the option's label
// when another key (or the positional argument) names the <select>, and
// the <select>'s own label otherwise.
func selectTargetArg(c *Call) (browser.Target, string, error) {
	keys := options[lang.SelectOptionOptions](c).Target
	pos := positionalTarget(c)
	label := ""
	named := !pos.IsZero() || keys.Selector != "" || keys.Ref != "" || keys.Text != "" || len(keys.Selectors) > 0
	if keys.Label != "" && named {
		label, keys.Label = keys.Label, ""
	}
	t, err := parseTarget(targetSource{who: c.Action.Builtin(), kinds: actionTargetKinds(c.Action)}, pos, keys)
	return t, label, err
}

// selectWants reads which options to select: exactly one of value,
// label/option_label (optLabel), index or values.
func selectWants(c *Call, optLabel string) ([]browser.SelectWant, error) {
	var wants []browser.SelectWant
	given := 0
	o := options[lang.SelectOptionOptions](c)
	if o.Value != nil {
		wants, given = append(wants, browser.OptionAny(string(*o.Value))), given+1
	}
	if o.OptionLabel != "" {
		optLabel = o.OptionLabel
	}
	if optLabel != "" {
		wants, given = append(wants, browser.OptionLabel(optLabel)), given+1
	}
	if o.Index != nil {
		i := *o.Index
		if i < 0 {
			return nil, invalid("select_option: index must be 0 or more, not %d", i)
		}
		wants, given = append(wants, browser.OptionIndex(i)), given+1
	}
	if o.Values != nil {
		for _, s := range o.Values {
			wants = append(wants, browser.OptionAny(s))
		}
		given++
	}
	switch {
	case given == 0 && o.Label != "":
		return nil, invalid(`select_option got label but no option: with only label, label names the <select>; name the <select> with selector or ref and the option with label, or give value, index or values`).
			WithAdvice(forExample(`{"selectOption": {"selector": "#plan", "label": "Pro"}}`))
	case given == 0:
		return nil, invalid("select_option needs an option: value, label, index or values").
			WithAdvice(forExample(`{"selectOption": {"selector": "#plan", "value": "pro"}}`))
	case given > 1:
		return nil, invalid("select_option takes one of value, label, index or values, not several")
	case len(wants) == 0:
		return nil, invalid("select_option: values is empty")
	}
	return wants, nil
}

// setChecked implements check (want true) and uncheck (want false).
func setChecked(c *Call, want bool) (any, error) {
	p, t, o, err := actionTarget(c)
	if err != nil {
		return nil, err
	}
	res, err := p.SetChecked(c.Ctx, t, want, o)
	if err != nil {
		return nil, err
	}
	warnAll(c, res.Warnings)
	registerNewTabs(c, res.NewTabs)
	return res, nil
}

func focus(c *Call) (any, error) {
	p, t, o, err := actionTarget(c)
	if err != nil {
		return nil, err
	}
	res, err := p.Focus(c.Ctx, t, o)
	if err != nil {
		return nil, err
	}
	warnAll(c, res.Warnings)
	registerNewTabs(c, res.NewTabs)
	return res, nil
}

// upload handles upload(selector|ref|label = …, files = "a.txt" | [...]).
func upload(c *Call) (any, error) {
	files, err := filesArg(c)
	if err != nil {
		return nil, err
	}
	p, t, o, err := actionTarget(c)
	if err != nil {
		return nil, err
	}
	res, err := p.Upload(c.Ctx, t, files, browser.UploadOptions{ActionOptions: o, AllowedDirs: c.Env.UploadDirs})
	if err != nil {
		return nil, err
	}
	warnAll(c, res.Warnings)
	registerNewTabs(c, res.NewTabs)
	return res, nil
}

// filesArg reads files: one path or a list of paths.
func filesArg(c *Call) ([]string, error) {
	files := options[lang.UploadOptions](c).Files
	if files == nil {
		return nil, invalid("upload needs files").WithAdvice(forExample(`{"upload": {"selector": "input[type=file]", "files": ["report.pdf"]}}`))
	}
	if len(files) == 0 {
		return nil, invalid("upload: files is empty; give at least one path")
	}
	return files, nil
}
