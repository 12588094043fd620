package browser

import (
	"context"
	"math"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
)

// focusedIframeJS is the iframe of the document that holds the keyboard
// focus (through open shadow roots), or null when an element of the
// document itself, or nothing, holds it.
const focusedIframeJS = `(() => {
  let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  return a && (a.localName === 'iframe' || a.localName === 'frame') ? a : null;
})()`

// focusedFrameWait bounds the wait for the focused frame's JavaScript
// context (a frame that holds focus has loaded; this only covers a
// context not yet reported).
const focusedFrameWait = 200 * time.Millisecond

// enterFocusedFrame moves the step into the frame that holds the keyboard
// focus when the step's document passed it on to one of its iframes (a
// click on a widget in a frame, then a target-less type or press): the
// keys land there, so the action's watch must be armed in that document
// to wait for what they set off (a widget's throttled filter). It leaves
// the step where it is when focus is in the step's own document or
// cannot be followed.
func (p *Page) enterFocusedFrame(ctx context.Context) {
	for range maxFrameDepth {
		ref := p.focusedFrame(ctx)
		if ref == nil || !moveTo(ctx, ref) {
			return
		}
	}
}

// focusedFrame is the frame (a child of the frame of ctx) whose iframe
// holds the keyboard focus, nil when none does or it cannot be reached.
func (p *Page) focusedFrame(ctx context.Context) *frameRef {
	id := p.focusedIframe(ctx)
	if id == "" {
		return nil
	}
	ref, err := p.frameRefWait(ctx, id, focusedFrameWait)
	if err != nil {
		return nil
	}
	ref.topDocuments = p.Documents()
	ref.parent = p.frameIn(ctx)
	return ref
}

// focusedIframe is the frame of the iframe in the step's document that
// holds the keyboard focus ("" when none does).
func (p *Page) focusedIframe(ctx context.Context) cdp.FrameID {
	sess, ctxID := p.exec(ctx)
	res, err := cdp.Call(ctx, sess, runtime.Evaluate, runtime.EvaluateParams{Expression: focusedIframeJS, ContextID: ctxID})
	if err != nil || res.ExceptionDetails != nil || res.Result == nil || res.Result.ObjectID == "" {
		return ""
	}
	defer p.release(ctx, res.Result.ObjectID)
	d, err := cdp.Call(ctx, sess, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: res.Result.ObjectID})
	if err != nil || d.Node == nil {
		return ""
	}
	return d.Node.FrameID
}

// focusInFrames replaces an activeElement that is an iframe (the page
// passed the focus on to a frame's element) with the element that holds
// the focus inside that frame, through nested frames, naming its frame's
// URL (its box converted to the top-level viewport). The iframe's own
// report stays when the frame cannot be followed or holds the focus
// itself.
func (p *Page) focusInFrames(ctx context.Context, active map[string]any) map[string]any {
	ctx = inFrame(ctx, nil)
	for range maxFrameDepth {
		if tag, _ := active["tag"].(string); tag != "iframe" && tag != "frame" {
			return active
		}
		ref := p.focusedFrame(ctx)
		if ref == nil {
			return active
		}
		ctx = inFrame(ctx, ref)
		var inner PageContext
		if p.engineCall(ctx, &inner, epContext) != nil || inner.ActiveElement == nil {
			return active
		}
		active = inner.ActiveElement
		active["frame"] = inner.URL
		if m, err := p.frameTransform(ctx); err == nil {
			boxToTop(m, active)
		}
	}
	return active
}

// boxToTop converts the box of an element report made in a frame
// ({x, y, width, height} in that frame's viewport) to the top-level
// viewport, where the agent's coordinates are, through m, the frame's
// transform (frameTransform: the frames' offsets and transforms).
func boxToTop(m affine, report map[string]any) {
	b, ok := report["box"].(map[string]any)
	if !ok {
		return
	}
	x, _ := b["x"].(float64)
	y, _ := b["y"].(float64)
	w, _ := b["width"].(float64)
	h, _ := b["height"].(float64)
	a, c := m.apply(Point{x, y}), m.apply(Point{x + w, y + h})
	report["box"] = map[string]any{"x": math.Round(min(a.X, c.X)), "y": math.Round(min(a.Y, c.Y)),
		"width": math.Round(math.Abs(c.X - a.X)), "height": math.Round(math.Abs(c.Y - a.Y))}
}
