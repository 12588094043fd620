package builtins

import (
	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/lang"
)

func init() {
	register(map[string]ActionFunc{"dialog": dialogStep})
}

// parseDialogPolicy reads "accept", "dismiss", True/False, or
// {accept: bool, promptText: str} / {action: "accept"|"dismiss", promptText}.
func parseDialogPolicy(v starlark.Value) (browser.DialogPolicy, error) {
	var pol browser.DialogPolicy
	switch x := v.(type) {
	case starlark.String:
		switch string(x) {
		case "accept":
		case "dismiss":
			pol.Dismiss = true
		default:
			return pol, invalid("dialog %q is not accept or dismiss", string(x))
		}
		return pol, nil
	case starlark.Bool:
		pol.Dismiss = !bool(x)
		return pol, nil
	case starlark.Mapping:
		if a, found, _ := x.Get(starlark.String("accept")); found {
			b, ok := a.(starlark.Bool)
			if !ok {
				return pol, invalid("dialog.accept must be true or false")
			}
			pol.Dismiss = !bool(b)
		}
		if a, found, _ := x.Get(starlark.String("action")); found {
			inner, err := parseDialogPolicy(a)
			if err != nil {
				return pol, err
			}
			pol.Dismiss = inner.Dismiss
		}
		if t, found, _ := x.Get(starlark.String("promptText")); found {
			s, ok := starlark.AsString(t)
			if !ok {
				return pol, invalid("dialog.promptText must be a string")
			}
			pol.PromptText = s
		}
		return pol, nil
	}
	return pol, invalid("dialog must be accept, dismiss, or {accept, promptText}, not %s", v.Type())
}

// applyDialog applies an action's dialog= option for the action's duration
// (restored when the step ends).
func applyDialog(c *Call, p *browser.Page) error {
	v, ok := c.Args.Value("dialog")
	if a, declared := c.Args.Opts.(lang.Actor); declared {
		v, ok = a.ActingFields().Dialog, a.ActingFields().Dialog != nil
	}
	if !ok {
		return nil
	}
	pol, err := parseDialogPolicy(v)
	if err != nil {
		return err
	}
	old := p.Dialogs().SetPolicy(pol)
	c.OnDone(func() { p.Dialogs().SetPolicy(old) })
	return nil
}

// dialogStep sets how dialogs are answered for the rest of the command.
func dialogStep(c *Call) (any, error) {
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	o := options[lang.DialogOptions](c)
	v := c.Args.Pos
	if v == nil {
		if o.Action != "" {
			v = starlark.String(o.Action)
		} else {
			d := starlark.NewDict(2)
			if o.Accept != nil {
				d.SetKey(starlark.String("accept"), starlark.Bool(*o.Accept))
			}
			if o.PromptText != "" {
				d.SetKey(starlark.String("promptText"), starlark.String(o.PromptText))
			}
			v = d
		}
	}
	pol, err := parseDialogPolicy(v)
	if err != nil {
		return nil, err
	}
	p.Dialogs().SetPolicy(pol)
	out := map[string]any{"dialogs": map[bool]string{false: "accept", true: "dismiss"}[pol.Dismiss]}
	if pol.PromptText != "" {
		out["promptText"] = pol.PromptText
	}
	return out, nil
}
