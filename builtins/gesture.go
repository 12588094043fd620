package builtins

import (
	"strings"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/lang"
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

// dragEndArg reads a drag source or target: a selector or ref string, or a
// dict {selector|ref|text, offsetX, offsetY} or {x, y}.
func dragEndArg(name string, v starlark.Value) (browser.DragEnd, error) {
	var e browser.DragEnd
	if v == nil {
		return e, nil
	}
	if s, isStr := starlark.AsString(v); isStr {
		if strings.TrimSpace(s) == "" {
			return e, invalid("drag: %s is empty", name)
		}
		e.Target = browser.NormalizeTarget(s)
		return e, nil
	}
	m, isMap := v.(starlark.IterableMapping)
	if !isMap {
		return e, invalid("drag: %s must be %s, not %s", name, dragEndForms, v.Type())
	}
	return dragEndMap(name, m)
}

// dragEndKeys maps the accepted keys of a drag end dict (JSON and Starlark
// spellings) to their field.
var dragEndKeys = map[string]string{
	"selector": "selector", "ref": "ref", "text": "text",
	"x": "x", "y": "y",
	"offsetX": "offsetX", "offset_x": "offsetX", "offsetY": "offsetY", "offset_y": "offsetY",
}

func dragEndMap(name string, m starlark.IterableMapping) (browser.DragEnd, error) {
	var e browser.DragEnd
	nums := map[string]float64{}
	for _, item := range m.Items() {
		k, _ := starlark.AsString(item[0])
		field, known := dragEndKeys[k]
		if !known {
			return e, invalid("drag: %s has no key %q; use selector, ref, text, offsetX, offsetY, or x and y", name, k)
		}
		switch field {
		case "selector", "ref", "text":
			s, isStr := starlark.AsString(item[1])
			if !isStr {
				return e, invalid("drag: %s.%s must be a string, not %s", name, k, item[1].Type())
			}
			switch field {
			case "selector":
				e.Selector = s
			case "ref":
				e.Ref = s
			default:
				e.Text = s
			}
		default:
			f, isNum := starlark.AsFloat(item[1])
			if !isNum {
				return e, invalid("drag: %s.%s must be a number, not %s", name, k, item[1].Type())
			}
			nums[field] = f
		}
	}
	return finishDragEnd(name, e, nums)
}

// finishDragEnd checks that a drag end names exactly one thing.
func finishDragEnd(name string, e browser.DragEnd, nums map[string]float64) (browser.DragEnd, error) {
	if browser.IsRef(e.Selector) {
		e.Ref, e.Selector = e.Selector, ""
	}
	if e.Ref != "" && !browser.IsRef(e.Ref) {
		return e, invalid("drag: %s ref %q is not a ref like s1e4: take one from a snapshot", name, e.Ref)
	}
	_, hasX := nums["x"]
	_, hasY := nums["y"]
	if hasX != hasY {
		return e, invalid("drag: %s needs both x and y", name)
	}
	if hasX {
		e.Point = &browser.Point{X: nums["x"], Y: nums["y"]}
		if err := checkPoint("drag: "+name, *e.Point); err != nil {
			return e, err
		}
	}
	e.OffsetX, e.OffsetY = nums["offsetX"], nums["offsetY"]
	n := 0
	for _, set := range []bool{e.Selector != "", e.Ref != "", e.Text != "", e.Point != nil} {
		if set {
			n++
		}
	}
	switch {
	case n == 0:
		return e, invalid("drag: %s must be %s", name, dragEndForms)
	case n > 1:
		return e, invalid("drag: %s names several things: give one of selector, ref, text or x/y", name)
	}
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
	sel, ref := opts.Selector, opts.Ref
	if sel == "" && ref == "" {
		return nil
	}
	if !o.Target.IsZero() || o.To != "" || (sel != "" && ref != "") {
		return invalid("scroll got several targets: give one of the positional value, selector or ref")
	}
	if ref != "" {
		if !browser.IsRef(ref) {
			return invalid("scroll: ref %q is not a ref like s1e4: take one from a snapshot", ref)
		}
		o.Target = browser.Target{Ref: ref}
		return nil
	}
	o.Target = browser.NormalizeTarget(sel)
	return nil
}
