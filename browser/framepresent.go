package browser

import (
	"context"
	"strings"
)

// framePresent adds to c.Present the refs of want that were taken inside
// frames and are still in their frame's document and shown. The top
// document's engine answers only for its own refs, so without this a
// capture scoped away from a frame (a sidebar ad, an embed) had the diff
// list the frame's elements as removed. A frame that is gone leaves its
// refs out: they are removed.
func (p *Page) framePresent(ctx context.Context, want []string, c *Capture) {
	if len(want) == 0 {
		return
	}
	have := map[string]bool{}
	for _, r := range c.Present {
		have[r] = true
	}
	if c.Viewport != nil {
		for _, e := range c.Viewport.Elements {
			have[e.Ref] = true
		}
	}
	groups := map[string][]string{}
	var order []string
	for _, r := range want {
		fr, ok := p.refFrame(r)
		if have[r] || !ok {
			continue
		}
		key := strings.Join(fr.Chain, "/")
		if _, seen := groups[key]; !seen {
			order = append(order, key)
		}
		groups[key] = append(groups[key], r)
	}
	if len(order) == 0 {
		return
	}
	home := p.currentFrameRef()
	defer p.setFrameRef(home)
	for _, key := range order {
		refs := groups[key]
		p.setFrameRef(home)
		if p.enterRefFrame(ctx, refs[0]) != nil {
			continue
		}
		var present []string
		if p.engineCall(ctx, &present, epPresentRefs, refs) == nil {
			c.Present = append(c.Present, present...)
		}
	}
}
