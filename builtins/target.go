package builtins

import (
	"strings"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/lang"
)

// targetArg reads the element an action is for: the positional string (a
// ref or a CSS selector) or the target keys of the action's options.
func targetArg(c *Call) (browser.Target, error) {
	var keys lang.Target
	if o, ok := c.Args.Opts.(lang.Targeted); ok {
		keys = *o.TargetFields()
	}
	return parseTarget(targetSource{who: c.Action.Builtin(), kinds: actionTargetKinds(c.Action)}, positionalTarget(c), keys)
}

// positionalTarget is the element the positional string names (a ref or
// a CSS selector), or none.
func positionalTarget(c *Call) browser.Target {
	if s, ok := starlark.AsString(c.Args.Pos); ok && c.Args.Pos != nil {
		return browser.NormalizeTarget(s)
	}
	return browser.Target{}
}

// targetSource names, for parseTarget's messages, whose target is read and
// the forms it accepts.
type targetSource struct {
	// who starts the messages: "click", "drag: source".
	who string
	// kinds lists the accepted forms: "selector, ref or text".
	kinds string
}

// parseTarget is the one target parser: the element a step names by its
// positional value (pos, already a ref or selector) or by the target keys
// (keys: selector, ref, text, label, selectors, x and y, with exact and
// withinSelector qualifying text and label). It refuses a malformed ref,
// half a point, a point outside any viewport and several targets at once.
// A zero Target means none was named: the caller says whether one is
// needed.
func parseTarget(src targetSource, pos browser.Target, keys lang.Target) (browser.Target, error) {
	t := browser.Target{
		Selector: keys.Selector, Ref: keys.Ref, Text: keys.Text, Label: keys.Label,
		Selectors: keys.Selectors, Exact: keys.Exact, Within: keys.WithinSelector,
	}
	if keys.X != nil || keys.Y != nil {
		if keys.X == nil || keys.Y == nil {
			return t, invalid("%s: give both x and y (a point is x and y together)", src.who)
		}
		t.Point = &browser.Point{X: *keys.X, Y: *keys.Y}
	}
	if !pos.IsZero() {
		if named := describeTargets(t); named != "" {
			return t, invalid("%s got several targets (the positional value, %s): give one of %s", src.who, named, src.kinds)
		}
		t.Ref, t.Selector = pos.Ref, pos.Selector
	}
	if browser.IsRef(t.Selector) && t.Ref == "" {
		t.Ref, t.Selector = t.Selector, ""
	}
	if t.Ref != "" && !browser.IsRef(t.Ref) {
		return t, invalid("%s: ref %q is not a ref like s1e4: take one from a snapshot", src.who, t.Ref)
	}
	if t.Point != nil {
		if err := checkPoint(src.who, *t.Point); err != nil {
			return t, err
		}
	}
	if named := describeTargets(t); strings.Contains(named, ",") {
		return t, invalid("%s got several targets (%s): give one of %s", src.who, named, src.kinds)
	}
	return t, nil
}

// actionTargetKinds lists the targets an action accepts, for messages:
// "selector, ref, text or x/y".
func actionTargetKinds(a *lang.Action) string {
	var kinds []string
	for _, k := range lang.TargetKeys {
		switch {
		case k == "exact" || k == "withinSelector" || k == "y" || !a.IsTarget(k):
		case k == "x":
			kinds = append(kinds, "x/y")
		default:
			kinds = append(kinds, k)
		}
	}
	return orList(kinds)
}

// orList joins words as "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// describeTargets lists the targets t names: "ref, selector".
func describeTargets(t browser.Target) string {
	var parts []string
	if t.Ref != "" {
		parts = append(parts, "ref")
	}
	if t.Selector != "" {
		parts = append(parts, "selector")
	}
	if len(t.Selectors) > 0 {
		parts = append(parts, "selectors")
	}
	if t.Text != "" {
		parts = append(parts, "text")
	}
	if t.Label != "" {
		parts = append(parts, "label")
	}
	if t.Point != nil {
		parts = append(parts, "x/y")
	}
	return strings.Join(parts, ", ")
}

// actionOptions reads force and stable; strict mode forbids auto-force.
func actionOptions(c *Call) (browser.ActionOptions, error) {
	o := browser.ActionOptions{NoAutoForce: c.Env.Strict}
	if a, ok := c.Args.Opts.(lang.Actor); ok {
		o.Force, o.Stable = a.ActingFields().Force, a.ActingFields().Stable
		return o, nil
	}
	var err error
	if o.Force, err = c.Args.Bool("force", false); err != nil {
		return o, err
	}
	if o.Stable, err = c.Args.Bool("stable", false); err != nil {
		return o, err
	}
	return o, nil
}

// needTarget fails when no target was given.
func needTarget(c *Call, t browser.Target) error {
	if t.IsZero() {
		return invalid("%s needs a target: a selector or ref (%s(\"#id\") / %s(\"s1e4\")), text=, or label=", c.Action.Builtin(), c.Action.Builtin(), c.Action.Builtin())
	}
	return nil
}

// actionTarget reads what every element action starts with: the target
// (which must be given), the action options and the dialog= option; it
// returns the page to act on.
func actionTarget(c *Call) (*browser.Page, browser.Target, browser.ActionOptions, error) {
	t, err := targetArg(c)
	if err != nil {
		return nil, t, browser.ActionOptions{}, err
	}
	return actionPage(c, t)
}

// actionPage is actionTarget for a target the caller read itself.
func actionPage(c *Call, t browser.Target) (*browser.Page, browser.Target, browser.ActionOptions, error) {
	if err := needTarget(c, t); err != nil {
		return nil, t, browser.ActionOptions{}, err
	}
	o, err := actionOptions(c)
	if err != nil {
		return nil, t, o, err
	}
	p, err := c.Env.Page()
	if err != nil {
		return nil, t, o, err
	}
	return p, t, o, applyDialog(c, p)
}
