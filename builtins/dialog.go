package builtins

import (
	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/lang"
	"github.com/cdp-skill/cdp-skill/lang/stepopt"
)

func init() {
	register(map[string]ActionFunc{"dialog": dialogStep})
}

// dialogPolicy is the browser's policy for a dialog answer.
func dialogPolicy(d stepopt.DialogAnswer) browser.DialogPolicy {
	return browser.DialogPolicy{Dismiss: d.Dismiss, PromptText: d.PromptText}
}

// applyDialog applies an action's dialog= option for the action's duration
// (restored when the step ends).
func applyDialog(c *Call, p *browser.Page) error {
	a, declared := c.Args.Opts.(lang.Actor)
	if !declared || a.ActingFields().Dialog == nil {
		return nil
	}
	old := p.Dialogs().SetPolicy(dialogPolicy(*a.ActingFields().Dialog))
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
	var answer stepopt.DialogAnswer
	switch {
	case c.Args.Pos != nil:
		if err := lang.DecodeValue(&answer, c.Args.Pos); err != nil {
			return nil, invalid("dialog %v", err)
		}
	case o.Action != "":
		if err := answer.DecodeOption(o.Action); err != nil {
			return nil, invalid("dialog: action %v", err)
		}
	case o.Accept != nil:
		answer.Dismiss = !*o.Accept
	}
	if c.Args.Pos == nil && o.PromptText != "" {
		answer.PromptText = o.PromptText
	}
	pol := dialogPolicy(answer)
	p.Dialogs().SetPolicy(pol)
	out := map[string]any{"dialogs": map[bool]string{false: "accept", true: "dismiss"}[pol.Dismiss]}
	if pol.PromptText != "" {
		out["promptText"] = pol.PromptText
	}
	return out, nil
}
