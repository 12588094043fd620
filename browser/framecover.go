package browser

import (
	"context"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
)

// A pointer action inside an iframe checks its point in the frame's own
// document (act.js check, the press probe), which cannot see the page
// around the frame: a layer of the parent page over the iframe takes the
// press, and the frame never hears of it. frameCover checks the point in
// the top document too.

// coverOf is what the top document shows at a pointer action's top level
// point when that is not the action's frame (nil when it is): a layer of
// the page around the frame that would take the press.
func (p *Page) coverOf(ctx context.Context, at Point) (*pressHit, error) {
	f := p.frameIn(ctx)
	if f == nil {
		return nil, nil
	}
	hit, err := cdp.Call(ctx, p.sess, dom.GetNodeForLocation, dom.GetNodeForLocationParams{
		X: int64(at.X), Y: int64(at.Y), IgnorePointerEventsNone: ptr(false),
	})
	if err != nil || hit.BackendNodeID == 0 {
		// Nothing there the top renderer can name (the point is outside
		// its viewport): the frame's own checks decide.
		return nil, nil
	}
	if hit.FrameID == f.id {
		// Inside the action's frame (the same renderer): its own checks
		// see the rest.
		return nil, nil
	}
	top := cdp.FrameID(p.TargetID)
	if hit.FrameID != top && !p.isAncestor(f, hit.FrameID) {
		// Another frame (one inside the action's frame, in the same
		// renderer): the frame's own checks see its iframe element.
		return nil, nil
	}
	// In a document around the frame: fine only on the iframe element of
	// the chain's next frame, where the top renderer's hit test stops at
	// an out-of-process frame.
	for g := f; g != nil; g = g.parent {
		parentID := top
		if g.parent != nil {
			parentID = g.parent.id
		}
		if parentID != hit.FrameID {
			continue
		}
		owner, err := cdp.Call(ctx, p.sess, dom.GetFrameOwner, dom.GetFrameOwnerParams{FrameID: g.id})
		if err != nil || owner.BackendNodeID == hit.BackendNodeID {
			return nil, nil
		}
		break
	}
	return p.describeCover(ctx, hit.BackendNodeID), nil
}

// isAncestor says whether id is a frame above f.
func (p *Page) isAncestor(f *frameRef, id cdp.FrameID) bool {
	for g := f.parent; g != nil; g = g.parent {
		if g.id == id {
			return true
		}
	}
	return false
}

// describeCover names an element of the top document for the error: its
// short selector and text.
func (p *Page) describeCover(ctx context.Context, node cdp.BackendNodeID) *pressHit {
	h := &pressHit{Selector: "an element of the page around the frame"}
	obj, err := cdp.Call(ctx, p.sess, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: node})
	if err != nil || obj.Object == nil {
		return h
	}
	defer releaseIn(p.sess, obj.Object.ObjectID)
	res, err := cdp.Call(ctx, p.sess, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: `function() {
			const e = this.nodeType === 1 ? this : this.parentElement;
			if (!e) return {};
			let s = e.tagName.toLowerCase();
			if (e.id) s += '#' + e.id;
			else if (typeof e.className === 'string' && e.className.trim()) s += '.' + e.className.trim().split(/\s+/)[0];
			return {selector: s, name: (e.innerText || '').trim().replace(/\s+/g, ' ').slice(0, 60)};
		}`,
		ObjectID:      obj.Object.ObjectID,
		ReturnByValue: ptr(true),
	})
	if err == nil && res.Result != nil {
		var d pressHit
		if jsonUnmarshal(res.Result.Value, &d) == nil && d.Selector != "" {
			h = &d
		}
	}
	return h
}

// waitUncovered waits, up to the action's timeout, until the page around
// the action's frame no longer covers the point, and fails naming the
// cover when it still does.
func (p *Page) waitUncovered(ctx context.Context, s *acting, ac action) error {
	timeout := ac.opts.Timeout
	if timeout <= 0 {
		timeout = DefaultActionTimeout
	}
	deadline := time.Now().Add(timeout)
	for attempt := 0; ; attempt++ {
		cover, err := p.coverOf(ctx, s.at)
		if err != nil || cover == nil {
			return err
		}
		delay := retryDelays[min(attempt+1, len(retryDelays)-1)]
		if time.Now().Add(delay).After(deadline) || Sleep(ctx, delay) != nil {
			e := Errorf(KindElementIntercepted, "%s cannot be %s: in the page around its frame, %s covers it at (%.0f, %.0f), and a press there would reach that instead; nothing was done", s.t, pastTense(ac.kind), cover, s.at.X, s.at.Y)
			e.Details = map[string]any{"interceptedBy": cover}
			return e.WithHint("close or move what covers the frame first (it is in the top document: a snapshot shows it), or pass force: true to act under it anyway")
		}
	}
}
