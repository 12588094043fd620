package browser

import "context"

// setTransparentBackground makes the page's default background
// transparent (for screenshots with omitBackground), or restores it. The
// raw call is needed because cdproto omits an alpha of 0.
func (p *Page) setTransparentBackground(ctx context.Context, on bool) error {
	params := map[string]any{}
	if on {
		params["color"] = map[string]any{"r": 0, "g": 0, "b": 0, "a": 0}
	}
	return p.sess.Call(ctx, "Emulation.setDefaultBackgroundColorOverride", params, nil)
}
