package browser

import (
	"context"
	"fmt"
)

// pointerEnd is one end of a pointer action: its target, and how far its
// point is from the element's centre (or from the point target).
type pointerEnd struct {
	Target
	offset Point
	// kind is the end's verb for its actionability check and messages
	// ("drop"); the action's kind when "".
	kind string
}

// actOnTwo runs a two-ended pointer action (a drag) whose first end is s:
// it resolves the second end (action.to) the same way, measures the first
// again (bringing the second into view may have scrolled it), reveals both
// through the frames on the way, checks that nothing in the page around
// the frame covers either, and runs the rest of the template with one
// watch around the whole act.
func (p *Page) actOnTwo(ctx context.Context, s *acting, ac action) (*acting, error) {
	to, err := p.resolveEnd(ctx, *ac.to, ac)
	if err != nil {
		return nil, err
	}
	defer to.release()
	s.to = to
	s.warnings = append(s.warnings, to.warnings...)
	to.warnings = nil
	if err := p.remeasure(ctx, s, ac); err != nil {
		return nil, err
	}
	if s.hasPoint && to.hasPoint && p.Frames().InChild(ctx) {
		if err := p.revealInFrames(ctx, dragRect(s.local, to.local)); err != nil {
			return nil, fmt.Errorf("%s: %w", ac.kind, err)
		}
	}
	for i, e := range []*acting{s, to} {
		if !e.hasPoint {
			continue
		}
		endAc := ac
		if i == 1 && ac.to.kind != "" {
			endAc.kind = ac.to.kind
		}
		if e.at, err = p.pointUncovered(ctx, e.t, e.local, endAc); err != nil {
			return nil, err
		}
	}
	return p.actOn(ctx, s, ac)
}

// remeasure moves an element end's point by as much as its element moved
// since its check. An element that left the page meanwhile (the page
// re-rendered it when the other end scrolled into view) is a
// DetachedError before any input: the template looks it up again.
func (p *Page) remeasure(ctx context.Context, s *acting, ac action) error {
	a := s.ready
	if a == nil || a.Box == nil || !s.hasPoint {
		return nil
	}
	var r *struct{ X, Y float64 }
	if err := a.El.Call(ctx, &r, `(el) => el.isConnected ? `+epRectOf.js()+`(el) : null`); err != nil {
		return detached(s, ac, "lookup", err)
	}
	if r == nil {
		return &DetachedError{Kind: KindStaleElement, Action: ac.kind, Phase: "lookup", Target: s.t.String(),
			Err: fmt.Errorf("%s was replaced while the other end was brought into view", s.t)}
	}
	s.local.X += r.X - a.Box["x"]
	s.local.Y += r.Y - a.Box["y"]
	return nil
}
