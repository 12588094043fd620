package builtins

import (
	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/browser/state"
)

func init() {
	register(map[string]ActionFunc{"frame": frame})
}

// frame lists frames or switches into one: frame("top"), frame("s1e4") (the
// iframe's ref), frame("iframe#x") (or a name or URL part), frame(0),
// frame(name = "…"), frame(url = "…"), frame(frame_id = "…"),
// frame(list = True).
func frame(c *Call) (any, error) {
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	list, err := c.Args.Bool("list", false)
	if err != nil {
		return nil, err
	}
	if list {
		return p.Frames(c.Ctx)
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
	if c.Args.Has("selector") {
		if spec.Selector, err = c.Args.String("selector"); err != nil {
			return nil, err
		}
	}
	if c.Args.Has("index") {
		n, err := c.Args.Int("index", 0)
		if err != nil {
			return nil, err
		}
		spec.Index = &n
	}
	if spec.Name, err = c.Args.String("name"); err != nil {
		return nil, err
	}
	if spec.FrameID, err = c.Args.String("frameId"); err != nil {
		return nil, err
	}
	if spec.URL, err = c.Args.String("url"); err != nil {
		return nil, err
	}
	if !spec.Top && spec.Any == "" && spec.Selector == "" && spec.Index == nil && spec.Name == "" && spec.FrameID == "" && spec.URL == "" {
		return nil, invalid(`frame needs "top", the iframe's ref, a selector, index, name, url or frameId, or {"list": true}`)
	}
	info, warnings, err := p.SwitchFrame(c.Ctx, spec)
	if err != nil {
		return nil, err
	}
	// Later commands on this tab start in this frame too.
	keep := state.TabFrame{}
	if !spec.Top {
		keep = state.TabFrame{Chain: p.FrameChain(), URL: info.URL}
	}
	if err := state.SaveTabFrame(c.Env.Tab().TargetID, keep); err != nil {
		c.Warn("the frame choice is not kept for later commands: %v", err)
	}
	for _, w := range warnings {
		c.Warn("%s", w)
	}
	return map[string]any{"frame": info}, nil
}
