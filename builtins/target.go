package builtins

import (
	"strings"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/lang"
)

// targetArg reads the element an action is for: the positional string (a
// ref or a CSS selector) or the selector/ref/text/label/selectors/x,y
// keywords.
func targetArg(c *Call) (browser.Target, error) {
	var t browser.Target
	if s, ok := starlark.AsString(c.Args.Pos); ok && c.Args.Pos != nil {
		t = browser.NormalizeTarget(s)
	}
	if o, ok := c.Args.Opts.(lang.Targeted); ok {
		return declaredTarget(c, t, o.TargetFields())
	}
	return argsTarget(c, t)
}

// declaredTarget completes t from the target keys of an options struct.
func declaredTarget(c *Call, t browser.Target, lt *lang.Target) (browser.Target, error) {
	for _, f := range []struct{ src, dst *string }{
		{&lt.Selector, &t.Selector}, {&lt.Ref, &t.Ref}, {&lt.Text, &t.Text},
		{&lt.Label, &t.Label}, {&lt.WithinSelector, &t.Within},
	} {
		if *f.src != "" {
			*f.dst = *f.src
		}
	}
	t.Exact = t.Exact || lt.Exact
	if len(lt.Selectors) > 0 {
		t.Selectors = lt.Selectors
	}
	if lt.X != nil || lt.Y != nil {
		if lt.X == nil || lt.Y == nil {
			return t, invalid("give both x and y")
		}
		t.Point = &browser.Point{X: *lt.X, Y: *lt.Y}
	}
	return checkTarget(c, t)
}

// argsTarget reads the target keywords of an action that lists its Params
// by hand (no options struct).
func argsTarget(c *Call, t browser.Target) (browser.Target, error) {
	var err error
	// has reads a keyword only where the catalog declares it a target:
	// type's text is what to type, not an element to find.
	has := func(name string) bool { return c.Action.IsTarget(name) && c.Args.Has(name) }
	str := func(name string, dst *string) {
		if err == nil && has(name) {
			*dst, err = c.Args.String(name)
		}
	}
	str("selector", &t.Selector)
	str("ref", &t.Ref)
	str("text", &t.Text)
	str("label", &t.Label)
	str("withinSelector", &t.Within)
	if err != nil {
		return t, err
	}
	if has("exact") {
		if t.Exact, err = c.Args.Bool("exact", false); err != nil {
			return t, err
		}
	}
	if v, ok := c.Args.Value("selectors"); ok && c.Action.IsTarget("selectors") {
		if t.Selectors, err = stringList(v, "selectors"); err != nil {
			return t, err
		}
	}
	if has("x") || has("y") {
		x, err := c.Args.Float("x", 0)
		if err != nil {
			return t, err
		}
		y, err := c.Args.Float("y", 0)
		if err != nil {
			return t, err
		}
		if !has("x") || !has("y") {
			return t, invalid("give both x and y")
		}
		t.Point = &browser.Point{X: x, Y: y}
	}
	return checkTarget(c, t)
}

// checkTarget refuses a malformed ref, an impossible point and several
// targets at once.
func checkTarget(c *Call, t browser.Target) (browser.Target, error) {
	if browser.IsRef(t.Selector) {
		t.Ref, t.Selector = t.Selector, ""
	}
	if t.Ref != "" && !browser.IsRef(t.Ref) {
		return t, invalid("ref %q is not a ref like s1e4: take one from a snapshot", t.Ref)
	}
	if t.Point != nil {
		if err := checkPoint(c.Action.Builtin(), *t.Point); err != nil {
			return t, err
		}
	}
	n := 0
	for _, set := range []bool{t.Ref != "", t.Selector != "", len(t.Selectors) > 0, t.Text != "", t.Label != "", t.Point != nil} {
		if set {
			n++
		}
	}
	if n > 1 {
		return t, invalid("%s got several targets (%s): give one of selector, ref, text, label, selectors or x/y", c.Action.Builtin(), describeTargets(t))
	}
	return t, nil
}

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
