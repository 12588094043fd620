package builtins

import (
	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/lang"
)

func init() {
	register(map[string]ActionFunc{"frame": frame})
}

// frame lists frames or moves the rest of the command into one:
// frame("top"), frame("s1e4") (the iframe's ref), frame("iframe#x") (or a
// name or URL part), frame(0), frame(name = "…"), frame(url = "…"),
// frame(frame_id = "…"), frame(list = True).
func frame(c *Call) (any, error) {
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	o := options[lang.FrameOptions](c)
	if o.List {
		return p.Frames().List(c.Ctx)
	}
	var spec browser.FrameSpec
	switch v := c.Args.Pos.(type) {
	case nil:
	case starlark.String:
		if string(v) == "top" || string(v) == "main" {
			spec.Top = true
		} else {
			spec.Any = string(v)
		}
	case starlark.Int:
		n, err := toInt(v)
		if err != nil {
			return nil, invalid("frame index %v", err)
		}
		spec.Index = &n
	default:
		return nil, invalid("frame takes \"top\", the iframe's ref or selector, or an index, not %s", v.Type())
	}
	if o.Selector != "" {
		spec.Selector = o.Selector
	}
	if o.Index != nil {
		spec.Index = o.Index
	}
	spec.Name, spec.FrameID, spec.URL = o.Name, o.FrameID, o.URL
	if !spec.Top && spec.Any == "" && spec.Selector == "" && spec.Index == nil && spec.Name == "" && spec.FrameID == "" && spec.URL == "" {
		return nil, invalid(`frame needs "top", the iframe's ref, a selector, index, name, url or frameId, or list`).
			WithAdvice(forExample(`{"frame": "top"}`, `{"frame": {"list": true}}`))
	}
	sel, info, warnings, err := p.Frames().Resolve(c.Ctx, spec)
	if err != nil {
		return nil, err
	}
	// The command's later steps run there; the next command starts in the
	// top document again (spec §19.12).
	c.Env.SelectFrame(sel)
	for _, w := range warnings {
		c.Warn("%s", w)
	}
	return map[string]any{"frame": info}, nil
}
