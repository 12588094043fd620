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
//
// When an out-of-process frame moved, it then waits until the frame
// draws: a frame that was out of view is throttled (it does not render,
// and its renderer hit-tests input to nothing) until the parent's new
// layout reaches it, so a press sent at once is lost (seen: the move and
// the press dropped, only the release delivered).
func (p *Page) revealInFrames(ctx context.Context, rect dom.Rect) error {
	start := p.frameIn(ctx)
	// Every iframe is measured before any scrolls: scrolling inside an
	// out-of-process frame also scrolls its ancestors, from another
	// renderer and a moment later.
	var levels []frameLevel
	for f := start; f != nil; f = f.parent {
		l, err := p.measureLevel(ctx, f)
		if err != nil {
			return err
		}
		levels = append(levels, l)
	}
	moved := false
	for _, l := range levels {
		r := dom.Rect{X: rect.X + l.box.Inset.X, Y: rect.Y + l.box.Inset.Y, Width: max(rect.Width, 1), Height: max(rect.Height, 1)}
		if _, err := cdp.Call(ctx, l.sess, dom.ScrollIntoViewIfNeeded, dom.ScrollIntoViewIfNeededParams{BackendNodeID: l.owner, Rect: &r}); err != nil {
			return frameGoneError(l.frame, "scroll its iframe into view", err)
		}
		off, err := p.iframeOffset(ctx, l.frame)
		if err != nil {
			return err
		}
		// A frame that moved moves every frame inside it.
		moved = moved || (off != l.box.Content && start.localRootUpTo(l.frame))
		rect.X, rect.Y = rect.X+off.X, rect.Y+off.Y
	}
	if moved {
		p.waitFrameDrawn(ctx)
	}
	return nil
}

// frameLevel is one iframe of the chain from the current frame up: its
// element in the parent document and where it was before scrolling.
type frameLevel struct {
	frame *frameRef
	sess  *Session
	owner cdp.BackendNodeID
	box   iframeBox
}

// measureLevel finds f's iframe element in its parent and measures it.
func (p *Page) measureLevel(ctx context.Context, f *frameRef) (frameLevel, error) {
	l := frameLevel{frame: f, sess: p.sess}
	parentCtx := runtime.ExecutionContextID(0)
	if f.parent != nil {
		l.sess, parentCtx = f.parent.sess, f.parent.ctxID
	}
	owner, err := cdp.Call(ctx, l.sess, dom.GetFrameOwner, dom.GetFrameOwnerParams{FrameID: f.id})
	if err != nil {
		return l, frameGoneError(f, "find its iframe element", err)
	}
	l.owner = owner.BackendNodeID
	if l.box, err = measureIframe(ctx, l.sess, parentCtx, l.owner); err != nil {
		return l, frameGoneError(f, "measure its iframe element", err)
	}
	return l, nil
}

// localRootUpTo reports whether a frame from f up to (and including)
// outer has its own renderer: then input reaches f through the browser's
// routing, which follows what was last drawn.
func (f *frameRef) localRootUpTo(outer *frameRef) bool {
	for ; f != nil; f = f.parent {
		if f.localRoot() {
			return true
		}
		if f == outer {
			break
		}
	}
	return false
}

// waitFrameDrawn waits for two animation frames of the current frame's
// document, which run only once it is no longer throttled. Bounded: a
// page that never renders (a background tab) does not hold the action.
func (p *Page) waitFrameDrawn(ctx context.Context) {
	const expr = `new Promise((done) => { requestAnimationFrame(() => requestAnimationFrame(() => done(true))); setTimeout(() => done(false), 500); })`
	sess, ctxID := p.exec(ctx)
	evaluate(ctx, sess, runtime.EvaluateParams{Expression: expr, ContextID: ctxID, ReturnByValue: ptr(true), AwaitPromise: ptr(true)}, expr)
}

// iframeBox is an iframe element's content inset (border and padding) and
// where its content starts in its document's viewport.
type iframeBox struct {
	Inset   Point `json:"inset"`
	Content Point `json:"content"`
}

// measureIframe reads an iframe element's content inset and position.
func measureIframe(ctx context.Context, s *Session, ctxID runtime.ExecutionContextID, node cdp.BackendNodeID) (iframeBox, error) {
	obj, err := cdp.Call(ctx, s, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: node, ExecutionContextID: ctxID})
	if err != nil {
		return iframeBox{}, fmt.Errorf("resolve the iframe element: %w", err)
	}
	defer cdp.Call(context.Background(), s, runtime.ReleaseObject, runtime.ReleaseObjectParams{ObjectID: obj.Object.ObjectID})
	res, err := cdp.Call(ctx, s, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: `function() { const s = getComputedStyle(this), r = this.getBoundingClientRect();
			const x = this.clientLeft + parseFloat(s.paddingLeft), y = this.clientTop + parseFloat(s.paddingTop);
			return {inset: {x, y}, content: {x: r.left + x, y: r.top + y}}; }`,
		ObjectID:      obj.Object.ObjectID,
		ReturnByValue: ptr(true),
	})
	if err != nil {
		return iframeBox{}, fmt.Errorf("measure the iframe element: %w", err)
	}
	var box iframeBox
	if res.Result != nil {
		jsonUnmarshal(res.Result.Value, &box)
	}
	return box, nil
}

// dragRect is the box spanning both ends of a drag, with a margin.
func dragRect(a, b Point) dom.Rect {
	const margin = 20
	x0, y0 := min(a.X, b.X)-margin, min(a.Y, b.Y)-margin
	return dom.Rect{X: x0, Y: y0, Width: max(a.X, b.X) + margin - x0, Height: max(a.Y, b.Y) + margin - y0}
}
