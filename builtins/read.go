package builtins

import (
	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/lang"
)

func init() {
	register(map[string]ActionFunc{
		"queryAll":   queryAll,
		"inspect":    inspect,
		"extract":    extract,
		"getDom":     getDom,
		"getBox":     getBox,
		"elementsAt": elementsAt,
		"formState":  formState,
		"validate":   validate,
		"submit":     submit,
		"assert":     assertStep,
		"console":    consoleStep,
	})
}

// selectorArg reads the element a read step is for: the positional string
// or selector= (a CSS selector or a ref).
func selectorArg(c *Call, examples ...string) (string, error) {
	var sel string
	var err error
	if o, ok := c.Args.Opts.(interface{ SelectorField() string }); ok {
		sel = o.SelectorField()
	} else if sel, err = c.Args.String("selector"); err != nil {
		return "", err
	}
	if c.Args.Pos != nil && c.Args.Pos != starlark.None {
		if sel != "" {
			return "", invalid("%s got a selector twice: give it positionally or as selector=, not both", c.Action.Builtin())
		}
		if sel, err = posString(c, "a CSS selector or a ref"); err != nil {
			return "", err
		}
	}
	if sel == "" {
		return "", invalid("%s needs a selector", c.Action.Builtin()).WithAdvice(forExample(examples...))
	}
	return sel, nil
}

// queryAll runs each entry of {label: selector or query object} as an
// independent query; an entry that fails carries {error, errorType}. The
// step fails only when every entry failed.
func queryAll(c *Call) (any, error) {
	data, err := FromStarlark(orNone(c.Args.Pos))
	m, ok := data.(*lang.Object)
	if err != nil || !ok || len(m.Keys) == 0 {
		return nil, invalid("query_all takes a map of label to selector or query").
			WithAdvice(forExample(`{"queryAll": {"buttons": "button", "links": {"role": "link", "limit": 5}}}`))
	}
	qa, _ := lang.LookupAction("query")
	out := &lang.Object{Values: map[string]any{}}
	var firstErr error
	for _, label := range m.Keys {
		res, err := queryEntry(c, qa, m.Values[label])
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			res = map[string]any{"error": err.Error(), "errorType": string(browser.KindOf(err))}
		}
		out.Keys = append(out.Keys, label)
		out.Values[label] = res
	}
	if firstErr != nil && !anySucceeded(out) {
		return nil, firstErr
	}
	return out, nil
}

func orNone(v starlark.Value) starlark.Value {
	if v == nil {
		return starlark.None
	}
	return v
}

func anySucceeded(o *lang.Object) bool {
	for _, k := range o.Keys {
		if _, failed := o.Values[k].(map[string]any); !failed {
			return true
		}
	}
	return false
}

// queryEntry runs one queryAll entry through the query builtin.
func queryEntry(c *Call, qa *lang.Action, v any) (any, error) {
	var pos starlark.Tuple
	var kwargs []starlark.Tuple
	switch x := v.(type) {
	case string:
		pos = starlark.Tuple{starlark.String(x)}
	case *lang.Object:
		for _, k := range x.Keys {
			sv, err := ToStarlark(x.Values[k])
			if err != nil {
				return nil, err
			}
			kwargs = append(kwargs, starlark.Tuple{starlark.String(lang.SnakeCase(k)), sv})
		}
	default:
		return nil, invalid("a query_all entry must be a selector or a query object, not %T", v)
	}
	args, err := NewArgs(qa, pos, kwargs)
	if err != nil {
		return nil, err
	}
	sub := &Call{Ctx: c.Ctx, Env: c.Env, Thread: c.Thread, Action: qa, Args: args, Poller: c.Poller}
	res, err := query(sub)
	c.Warnings = append(c.Warnings, sub.Warnings...)
	return res, err
}

// inspect handles inspect(selectors = […], limit = n).
func inspect(c *Call) (any, error) {
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	io := options[lang.InspectOptions](c)
	o := browser.InspectOptions{Selectors: io.Selectors, Limit: io.Limit}
	res, err := p.Inspect(c.Ctx, o)
	if err != nil {
		return nil, err
	}
	return Shaped{inspectOutput(res), inspectFields}, nil
}

// inspectOutput keys the custom counts by selector, in the order asked: a
// count, or {count, values} when a limit asked for texts.
func inspectOutput(res *browser.Inspection) any {
	out := &lang.Object{Keys: []string{"title", "url", "elements"},
		Values: map[string]any{"title": res.Title, "url": res.URL, "elements": res.Elements}}
	if len(res.Custom) == 0 {
		return out
	}
	custom := &lang.Object{Values: map[string]any{}}
	for _, sc := range res.Custom {
		var v any = sc.Count
		if sc.Values != nil {
			v = map[string]any{"count": sc.Count, "values": sc.Values}
		}
		if _, dup := custom.Values[sc.Selector]; !dup {
			custom.Keys = append(custom.Keys, sc.Selector)
		}
		custom.Values[sc.Selector] = v
	}
	out.Keys = append(out.Keys, "custom")
	out.Values["custom"] = custom
	return out
}

// extract handles extract(selector, type =, limit =, headers =).
func extract(c *Call) (any, error) {
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	var o browser.ExtractOptions
	if o.Selector, err = selectorArg(c, `{"extract": "#prices"}`, `{"extract": {"selector": "#prices", "type": "table"}}`); err != nil {
		return nil, err
	}
	eo := options[lang.ExtractOptions](c)
	o.Type, o.Limit, o.Offset, o.Headers = eo.Type, eo.Limit, eo.Offset, eo.Headers
	if o.Offset < 0 {
		return nil, invalid("extract offset must be 0 or more, not %d", o.Offset)
	}
	return p.Extract(c.Ctx, o)
}

// getDom handles get_dom() (the document), get_dom("sel") and
// get_dom(selector =, outer = False).
func getDom(c *Call) (any, error) {
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	var o browser.DOMOptions
	if b, isBool := c.Args.Pos.(starlark.Bool); isBool {
		if !b {
			return nil, invalid("get_dom(False) asks for nothing: give True (the whole document) or a selector")
		}
		c.Args.Pos = nil
	}
	do := options[lang.GetDOMOptions](c)
	if c.Args.Pos != nil || do.Selector != "" {
		if o.Selector, err = selectorArg(c, `{"getDom": "#main"}`, `{"getDom": true}`); err != nil {
			return nil, err
		}
	}
	o.Inner = !do.Outer
	return p.GetDOM(c.Ctx, o)
}

// getBox handles get_box("s1e4") and ref= (the box of that ref), and
// get_box(["s1e4", "s1e5"]) and refs= (boxes keyed by ref, even for one).
// The shape follows the input's form, not how many distinct refs it held.
func getBox(c *Call) (any, error) {
	refs, single, err := refsArg(c)
	if err != nil {
		return nil, err
	}
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	boxes, err := p.GetBox(c.Ctx, refs)
	if err != nil {
		return nil, err
	}
	if single {
		return boxes[0], nil
	}
	out := &lang.Object{Values: map[string]any{}}
	for _, b := range boxes {
		out.Keys = append(out.Keys, b.Ref)
		out.Values[b.Ref] = b
	}
	return out, nil
}

// refsArg reads the refs of get_box, without repeats. single is true when
// exactly one ref came as a string (positional or ref=) and no list was
// given: the answer is then a box rather than a map.
func refsArg(c *Call) ([]string, bool, error) {
	var refs []string
	scalars, lists := 0, 0
	if s, ok := starlark.AsString(c.Args.Pos); ok && c.Args.Pos != nil {
		refs = append(refs, s)
		scalars++
	} else if c.Args.Pos != nil && c.Args.Pos != starlark.None {
		l, err := stringList(c.Args.Pos, "get_box refs")
		if err != nil {
			return nil, false, err
		}
		refs = append(refs, l...)
		lists++
	}
	o := options[lang.GetBoxOptions](c)
	if o.Ref != "" {
		refs = append(refs, o.Ref)
		scalars++
	}
	if o.Refs != nil {
		refs = append(refs, o.Refs...)
		lists++
	}
	if len(refs) == 0 {
		return nil, false, invalid("get_box needs refs").WithAdvice(forExample(`{"getBox": "s1e4"}`, `{"getBox": ["s1e4", "s1e5"]}`))
	}
	seen := map[string]bool{}
	var out []string
	for _, r := range refs {
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out, scalars == 1 && lists == 0, nil
}

// elementsAt handles elements_at(x =, y =) (one point), elements_at([{x,
// y}, …]) (a batch) and elements_at(x =, y =, radius =, limit =) (nearby).
func elementsAt(c *Call) (any, error) {
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	if c.Args.Pos != nil && c.Args.Pos != starlark.None {
		return elementsBatch(c, p)
	}
	eo := options[lang.ElementsAtOptions](c)
	if eo.X == nil || eo.Y == nil {
		return nil, invalid("elements_at needs a point, a list of points, or x, y and radius for the elements near it").
			WithAdvice(forExample(`{"elementsAt": {"x": 100, "y": 200}}`, `{"elementsAt": {"x": 100, "y": 200, "radius": 20}}`))
	}
	pt := browser.Point{X: *eo.X, Y: *eo.Y}
	if err := checkPoint("elements_at", pt); err != nil {
		return nil, err
	}
	if eo.Radius == nil && eo.Limit == nil {
		return p.ElementAt(c.Ctx, pt)
	}
	o := browser.NearOptions{Radius: 50, Limit: 20}
	if eo.Radius != nil {
		o.Radius = *eo.Radius
	}
	if eo.Limit != nil {
		o.Limit = *eo.Limit
	}
	return p.ElementsNear(c.Ctx, pt, o)
}

// elementsBatch answers {count, elements} for a list of points; count is
// how many points found an element.
func elementsBatch(c *Call, p *browser.Page) (any, error) {
	pts, err := pointList(c.Args.Pos)
	if err != nil {
		return nil, err
	}
	res, err := p.ElementsAt(c.Ctx, pts)
	if err != nil {
		return nil, err
	}
	count := 0
	for _, e := range res {
		if e.Error == "" {
			count++
		}
	}
	return map[string]any{"count": count, "elements": res}, nil
}

// pointList reads a list of {x, y} points.
func pointList(v starlark.Value) ([]browser.Point, error) {
	data, err := FromStarlark(v)
	list, ok := data.([]any)
	if err != nil || !ok {
		return nil, invalid("elements_at takes a list of {x, y} points, not %s", v.Type())
	}
	pts := make([]browser.Point, 0, len(list))
	for i, item := range list {
		o, ok := item.(*lang.Object)
		if !ok {
			return nil, invalid("elements_at point %d must be {x, y}", i)
		}
		x, okx := number(o.Values["x"])
		y, oky := number(o.Values["y"])
		if !okx || !oky {
			return nil, invalid("elements_at point %d needs numbers x and y", i)
		}
		pts = append(pts, browser.Point{X: x, Y: y})
	}
	return pts, nil
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case interface{ Float64() (float64, error) }:
		f, err := n.Float64()
		return f, err == nil
	case float64:
		return n, true
	}
	return 0, false
}

func formState(c *Call) (any, error) {
	sel, err := selectorArg(c, `{"formState": "#signup"}`)
	if err != nil {
		return nil, err
	}
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	return p.FormState(c.Ctx, sel)
}

func validate(c *Call) (any, error) {
	sel, err := selectorArg(c, `{"validate": "#email"}`)
	if err != nil {
		return nil, err
	}
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	return p.Validate(c.Ctx, sel)
}

// submit submits a form; an invalid form fails the step (the error's
// details carry the invalid fields).
func submit(c *Call) (any, error) {
	sel, err := selectorArg(c, `{"submit": "#signup"}`, `{"submit": "#signup button[type=submit]"}`)
	if err != nil {
		return nil, err
	}
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	res, err := p.Submit(c.Ctx, sel)
	if err != nil {
		return nil, err
	}
	warnAll(c, res.Warnings)
	registerNewTabs(c, res.NewTabs)
	return res, nil
}

// assertStep handles assert(url = {op: value, …}, text =, selector =,
// case_sensitive =).
func assertStep(c *Call) (any, error) {
	ao := options[lang.AssertOptions](c)
	o := browser.AssertOptions{Text: ao.Text, Selector: ao.Selector, CaseSensitive: ao.CaseSensitive}
	for _, u := range ao.URL {
		o.URL = append(o.URL, browser.URLCheck(u))
	}
	if o.Selector != "" && o.Text == nil {
		return nil, invalid("assert: selector only goes with text (the element the text must appear in)")
	}
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	return p.Assert(c.Ctx, o)
}

// consoleStep handles console(limit =, level =, type =, since =,
// stack_trace =, clear =).
func consoleStep(c *Call) (any, error) {
	co := options[lang.ConsoleOptions](c)
	o := browser.ConsoleOptions{Limit: co.Limit, Level: co.Level, Type: co.Type, Since: co.Since,
		StackTrace: co.StackTrace, Clear: co.Clear}
	// Messages from before this run (an earlier command's, or the ones
	// Chrome replays when the session attaches) are not this run's.
	o.Since = max(o.Since, float64(c.Env.Started.UnixMilli()-1))
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	return p.Console().Read(c.Ctx, o)
}
