package browser

import (
	"context"
	"fmt"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
)

// revealInFrames scrolls every document up the frame chain so that rect
// (in the current frame's viewport) is visible in the top-level viewport:
// an element in view inside its iframe is not reachable by input events
// while the iframe itself is scrolled out of the page. Nothing moves when
// actions run in the main frame or the rect is already visible.
func (p *Page) revealInFrames(ctx context.Context, rect dom.Rect) error {
	p.mu.Lock()
	f := p.frame
	p.mu.Unlock()
	for ; f != nil; f = f.parent {
		parentSess, parentCtx := p.sess, runtime.ExecutionContextID(0)
		if f.parent != nil {
			parentSess, parentCtx = f.parent.sess, f.parent.ctxID
		}
		owner, err := cdp.Call(ctx, parentSess, dom.GetFrameOwner, dom.GetFrameOwnerParams{FrameID: f.id})
		if err != nil {
			return frameGoneError(f, "find its iframe element", err)
		}
		inset, err := contentInset(ctx, parentSess, parentCtx, owner.BackendNodeID)
		if err != nil {
			return frameGoneError(f, "measure its iframe element", err)
		}
		r := dom.Rect{X: rect.X + inset.X, Y: rect.Y + inset.Y, Width: max(rect.Width, 1), Height: max(rect.Height, 1)}
		if _, err := cdp.Call(ctx, parentSess, dom.ScrollIntoViewIfNeeded, dom.ScrollIntoViewIfNeededParams{BackendNodeID: owner.BackendNodeID, Rect: &r}); err != nil {
			return frameGoneError(f, "scroll its iframe into view", err)
		}
		off, err := p.iframeOffset(ctx, f)
		if err != nil {
			return err
		}
		rect.X, rect.Y = rect.X+off.X, rect.Y+off.Y
	}
	return nil
}

// contentInset is where an iframe's content starts inside its border box
// (its border and padding).
func contentInset(ctx context.Context, s *Session, ctxID runtime.ExecutionContextID, node cdp.BackendNodeID) (Point, error) {
	obj, err := cdp.Call(ctx, s, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: node, ExecutionContextID: ctxID})
	if err != nil {
		return Point{}, fmt.Errorf("resolve the iframe element: %w", err)
	}
	defer cdp.Call(context.Background(), s, runtime.ReleaseObject, runtime.ReleaseObjectParams{ObjectID: obj.Object.ObjectID})
	res, err := cdp.Call(ctx, s, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: `function() { const s = getComputedStyle(this);
			return {x: this.clientLeft + parseFloat(s.paddingLeft), y: this.clientTop + parseFloat(s.paddingTop)}; }`,
		ObjectID:      obj.Object.ObjectID,
		ReturnByValue: ptr(true),
	})
	if err != nil {
		return Point{}, fmt.Errorf("measure the iframe element: %w", err)
	}
	var pt Point
	if res.Result != nil {
		jsonUnmarshal(res.Result.Value, &pt)
	}
	return pt, nil
}

// dragRect is the box spanning both ends of a drag, with a margin.
func dragRect(a, b Point) dom.Rect {
	const margin = 20
	x0, y0 := min(a.X, b.X)-margin, min(a.Y, b.Y)-margin
	return dom.Rect{X: x0, Y: y0, Width: max(a.X, b.X) + margin - x0, Height: max(a.Y, b.Y) + margin - y0}
}
