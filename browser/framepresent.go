package browser

import (
	"context"
	"slices"
	"strings"
)

// framePresent adds to c.Present the refs of want that were taken inside
// frames and are still in their frame's document and shown. The top
// document's engine answers only for its own refs, so without this a
// capture scoped away from a frame (a sidebar ad, an embed) had the diff
// list the frame's elements as removed. A frame that is gone, or whose
// iframe is gone or hidden, leaves its refs out: they are removed.
func (p *Page) framePresent(ctx context.Context, want []string, c *Capture) {
	if len(want) == 0 {
		return
	}
	shown := map[string]bool{}
	for _, r := range c.Present {
		shown[r] = true
	}
	if c.Viewport != nil {
		for _, e := range c.Viewport.Elements {
			shown[e.Ref] = true
		}
	}
	groups := p.frameGroups(want, shown)
	if len(groups) == 0 {
		return
	}
	asked := map[string]bool{}
	for _, r := range want {
		asked[r] = true
	}
	home := p.frameIn(ctx)
	for _, g := range groups {
		if g.owner != "" && asked[g.owner] && !shown[g.owner] {
			continue // its iframe is gone or hidden: so is what it showed
		}
		ctx := inFrame(ctx, home)
		if p.enterRefFrame(ctx, g.refs[0]) != nil {
			continue
		}
		var present []string
		if p.engineCall(ctx, &present, epPresentRefs, g.refs) == nil {
			c.Present = append(c.Present, present...)
			for _, r := range present {
				shown[r] = true
			}
		}
	}
}

// frameRefGroup is the refs of want taken in one frame, and the ref of
// the iframe that holds it.
type frameRefGroup struct {
	chain []string
	owner string
	refs  []string
}

// frameGroups groups the refs of want that were taken inside frames and
// are not in shown by their frame, outer frames first (a nested frame's
// iframe is a ref of its parent frame).
func (p *Page) frameGroups(want []string, shown map[string]bool) []*frameRefGroup {
	rec := p.refFramesRecord()
	p.mu.Lock()
	frames := rec.LookupAll(want)
	p.mu.Unlock()
	byChain := map[string]*frameRefGroup{}
	var groups []*frameRefGroup
	for _, r := range want {
		fr, ok := frames[r]
		if shown[r] || !ok {
			continue
		}
		key := strings.Join(fr.Chain, "/")
		g := byChain[key]
		if g == nil {
			g = &frameRefGroup{chain: fr.Chain, owner: fr.Owner}
			byChain[key] = g
			groups = append(groups, g)
		}
		g.refs = append(g.refs, r)
	}
	slices.SortStableFunc(groups, func(a, b *frameRefGroup) int { return len(a.chain) - len(b.chain) })
	return groups
}
