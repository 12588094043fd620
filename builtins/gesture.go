package builtins

import (
	"strings"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/lang"
	"github.com/cdp-skill/cdp-skill/lang/stepopt"
)

func init() {
	register(map[string]ActionFunc{
		"hover":  hover,
		"drag":   drag,
		"scroll": scroll,
	})
}

// hover handles hover("#menu"), hover(ref = …, duration = 500,
// capture_result = True) and hover(x = …, y = …).
func hover(c *Call) (any, error) {
	p, t, ao, err := actionTarget(c)
	if err != nil {
		return nil, err
	}
	opts := options[lang.HoverOptions](c)
	o := browser.HoverOptions{ActionOptions: ao, Duration: opts.Duration, CaptureResult: opts.CaptureResult}
	res, err := p.Hover(c.Ctx, t, o)
	if err != nil {
		return nil, err
	}
	warnAll(c, res.Warnings)
	registerNewTabs(c, res.NewTabs)
	return res, nil
}

// drag handles drag(source = …, target = …, method =, steps =, delay =,
// value =).
func drag(c *Call) (any, error) {
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	opts := options[lang.DragOptions](c)
	src, err := dragEndArg("source", opts.Source)
	if err != nil {
		return nil, err
	}
	if src.IsZero() {
		return nil, invalid("drag needs a source: %s", dragEndForms)
	}
	dst, err := dragEndArg("target", opts.Target)
	if err != nil {
		return nil, err
	}
	o, err := dragOptions(c, opts)
	if err != nil {
		return nil, err
	}
	if dst.IsZero() && o.Value == nil {
		return nil, invalid("drag needs a target: %s", dragEndForms)
	}
	if err := applyDialog(c, p); err != nil {
		return nil, err
	}
	res, err := p.Drag(c.Ctx, src, dst, o)
	if err != nil {
		return nil, err
	}
	warnAll(c, res.Warnings)
	registerNewTabs(c, res.NewTabs)
	return res, nil
}

const dragEndForms = `a selector, a ref, {"selector"|"ref": …, "offsetX": …, "offsetY": …} or {"x": …, "y": …}`

func dragOptions(c *Call, opts *lang.DragOptions) (browser.DragOptions, error) {
	o := browser.DragOptions{Method: strings.ToLower(strings.TrimSpace(opts.Method)), Steps: opts.Steps, Delay: opts.Delay, Value: opts.Value}
	var err error
	if o.ActionOptions, err = actionOptions(c); err != nil {
		return o, err
	}
	if o.Steps < 1 || o.Steps > browser.MaxDragSteps {
		return o, invalid("drag: steps must be between 1 and %d, not %d", browser.MaxDragSteps, o.Steps)
	}
	return o, nil
}

// dragEndArg reads a drag source or target through the target parser: a
// selector or ref string, or a dict {selector|ref|text, offsetX, offsetY}
// or {x, y} (nil: not given).
func dragEndArg(name string, given *stepopt.DragEnd) (browser.DragEnd, error) {
	var e browser.DragEnd
	if given == nil {
		return e, nil
	}
	src := targetSource{who: "drag: " + name, kinds: "selector, ref, text or x/y"}
	var pos browser.Target
	if given.Positional != "" {
		pos = browser.NormalizeTarget(given.Positional)
	}
	keys := lang.Target{Selector: given.Selector, Ref: given.Ref, Text: given.Text, X: given.X, Y: given.Y}
	var err error
	if e.Target, err = parseTarget(src, pos, keys); err != nil {
		return e, err
	}
	if e.IsZero() {
		return e, invalid("drag: %s must be %s", name, dragEndForms)
	}
	e.OffsetX, e.OffsetY = given.OffsetX, given.OffsetY
	return e, nil
}

// scroll handles scroll("top"|"bottom"|selector|ref), scroll(delta_y = …),
// scroll(x = …, y = …) and scroll(selector = …, delta_y = …).
func scroll(c *Call) (any, error) {
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	o, err := scrollOptions(c)
	if err != nil {
		return nil, err
	}
	res, err := p.Scroll(c.Ctx, o)
	if err != nil {
		return nil, err
	}
	warnAll(c, res.Warnings)
	return res, nil
}

func scrollOptions(c *Call) (browser.ScrollOptions, error) {
	var o browser.ScrollOptions
	if c.Args.Pos != nil {
		s, err := posString(c, `"top", "bottom", a selector or a ref`)
		if err != nil {
			return o, err
		}
		switch low := strings.ToLower(strings.TrimSpace(s)); low {
		case "":
			return o, invalid(`scroll: give "top", "bottom", a selector or a ref`)
		case "top", "bottom":
			o.To = low
		default:
			o.Target = browser.NormalizeTarget(s)
		}
	}
	opts := options[lang.ScrollOptions](c)
	if opts.To != "" {
		if o.To != "" || !o.Target.IsZero() {
			return o, invalid("scroll got where to twice: give the positional value or to, not both")
		}
		o.To = strings.ToLower(strings.TrimSpace(opts.To))
	}
	if err := scrollTargetArgs(opts, &o); err != nil {
		return o, err
	}
	if opts.DeltaX != nil || opts.DeltaY != nil {
		o.Delta = &browser.Point{}
		if opts.DeltaX != nil {
			o.Delta.X = *opts.DeltaX
		}
		if opts.DeltaY != nil {
			o.Delta.Y = *opts.DeltaY
		}
	}
	o.X, o.Y = opts.X, opts.Y
	return o, nil
}

// scrollTargetArgs reads the selector= and ref= keywords.
func scrollTargetArgs(opts *lang.ScrollOptions, o *browser.ScrollOptions) error {
	src := targetSource{who: "scroll", kinds: "the positional value, to, selector or ref"}
	if o.To != "" && (opts.Selector != "" || opts.Ref != "") {
		return invalid("scroll got several targets (to, %s): give one of %s", describeTargets(browser.Target{Selector: opts.Selector, Ref: opts.Ref}), src.kinds)
	}
	t, err := parseTarget(src, o.Target, *opts.TargetFields())
	if err != nil {
		return err
	}
	o.Target = t
	return nil
}
