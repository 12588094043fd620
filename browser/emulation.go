package browser

import (
	"context"
	"sync"
)

// Emulation is what a tab emulates: the viewport (device metrics, touch,
// user agent), the geolocation and its permission, and the page
// background. The viewport and geolocation last as long as the command
// that set them (see Page.Park). Reach it by Page.Emulation.
type Emulation struct {
	p *Page
	// geoOrigins are the origins SetGeolocation granted the permission to
	// ("" = every origin), for ClearGeolocation to revoke; guarded by mu.
	mu         sync.Mutex
	geoOrigins []string
}

// setTransparentBackground makes the page's default background
// transparent (for screenshots with omitBackground), or restores it. The
// raw call is needed because cdproto omits an alpha of 0.
func (e *Emulation) setTransparentBackground(ctx context.Context, on bool) error {
	params := map[string]any{}
	if on {
		params["color"] = map[string]any{"r": 0, "g": 0, "b": 0, "a": 0}
	}
	return e.p.sess.Call(ctx, "Emulation.setDefaultBackgroundColorOverride", params, nil)
}
