package browser

import (
	"context"
	"fmt"
	"time"
)

// captureWait bounds how long a hover with CaptureResult waits for menus
// and tooltips to appear; it returns earlier once something has appeared
// and holds still.
const captureWait = 500 * time.Millisecond

// HoverOptions tune a hover (spec §9.5).
type HoverOptions struct {
	ActionOptions
	// Duration is how long to hold the mouse there before returning.
	Duration time.Duration
	// CaptureResult reports the menus, tooltips and popovers that appeared.
	CaptureResult bool
}

// HoverResult is the outcome of a hover.
type HoverResult struct {
	Hovered bool `json:"hovered"`
	TargetReport
	// CapturedResult lists what the hover revealed (with CaptureResult).
	CapturedResult *HoverCapture `json:"capturedResult,omitempty"`
	Effect
	// Warnings are notes for the step result.
	Warnings []string `json:"-"`
}

// HoverCapture is what a hover revealed.
type HoverCapture struct {
	VisibleElements []CapturedElement `json:"visibleElements"`
}

// CapturedElement is one element a hover revealed, with a ref to act on it.
type CapturedElement struct {
	Role string `json:"role"`
	Name string `json:"name,omitempty"`
	Text string `json:"text,omitempty"`
	Ref  string `json:"ref"`
}

// Hover moves the mouse over the target (real mouseMoved events, so CSS
// :hover and mouseenter handlers run), holds it there for Duration and,
// with CaptureResult, reports the menus, tooltips and popovers that
// appeared because of it.
func (p *Page) Hover(ctx context.Context, t Target, o HoverOptions) (*HoverResult, error) {
	res := &HoverResult{Hovered: true}
	pt, el, err := p.hoverPoint(ctx, t, o, res)
	if err != nil {
		return nil, err
	}
	if el != nil {
		defer el.release()
	}
	if o.CaptureResult {
		if err := p.hoverPrepare(ctx, el, pt); err != nil {
			return nil, fmt.Errorf("hover: record the page before: %w", err)
		}
	}
	w, err := p.watch(ctx)
	if err != nil {
		return nil, err
	}
	top, err := p.toTop(ctx, pt)
	if err != nil {
		w.stop()
		return nil, fmt.Errorf("hover: locate the frame: %w", err)
	}
	if err := p.in.mouseMove(ctx, top, 0); err != nil {
		w.stop()
		return nil, err
	}
	if o.Duration > 0 {
		if err := Sleep(ctx, o.Duration); err != nil {
			w.stop()
			return nil, err
		}
	}
	if o.CaptureResult {
		capture, err := p.hoverCapture(ctx, max(captureWait-o.Duration, 100*time.Millisecond))
		if err != nil && KindOf(err) != KindContextDestroyed {
			w.stop()
			return nil, fmt.Errorf("hover: capture what appeared: %w", err)
		}
		res.CapturedResult = capture
	}
	res.Effect = w.finish(ctx, SettleWindow)
	if res.Effect.Warning != "" {
		res.Warnings = append(res.Warnings, res.Effect.Warning)
	}
	return res, nil
}

// hoverPoint finds where to put the mouse: the target point, or the
// visible centre of the target element once it is actionable.
func (p *Page) hoverPoint(ctx context.Context, t Target, o HoverOptions, res *HoverResult) (Point, *Element, error) {
	if t.Point != nil {
		return *t.Point, nil, nil
	}
	ao := o.ActionOptions
	ao.prep = "read"
	a, err := p.WaitActionable(ctx, t, "hover", ao)
	if err != nil {
		return Point{}, nil, err
	}
	res.TargetReport = p.actionReport(ctx, a)
	if a.AutoForced {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the element was not ready (%s); hovered anyway after the actionability timeout", a.Reason))
	}
	pt, ok := pointOf(a)
	if !ok {
		a.El.release()
		return Point{}, nil, Errorf(KindElementNotFound, "%s has no visible point to hover: %s", t, a.Reason).
			WithHint("make it visible first (open its container, scroll), or hover a point with x and y")
	}
	return pt, a.El, nil
}

// pointOf is the actionable point of an element, or its box centre.
func pointOf(a *Actionable) (Point, bool) {
	if a.Point != nil {
		return *a.Point, true
	}
	if a.Box != nil && a.Box["width"] > 0 && a.Box["height"] > 0 {
		return Point{X: a.Box["x"] + a.Box["width"]/2, Y: a.Box["y"] + a.Box["height"]/2}, true
	}
	return Point{}, false
}

func (p *Page) hoverPrepare(ctx context.Context, el *Element, pt Point) error {
	if el != nil {
		return el.Call(ctx, nil, `(el) => `+epHoverPrepare.js()+`(el, null)`)
	}
	return p.engineCall(ctx, nil, epHoverPrepare, nil, pt)
}

// hoverCapture collects the elements that appeared since hoverPrepare.
func (p *Page) hoverCapture(ctx context.Context, wait time.Duration) (*HoverCapture, error) {
	var out struct {
		HoverCapture
		Seq *seqJSON `json:"seq"`
	}
	if err := p.engineCall(ctx, &out, epHoverCapture, map[string]any{"wait": wait.Milliseconds(), "seq": p.seqArg()}); err != nil {
		return nil, err
	}
	p.storeSeq(out.Seq)
	if out.VisibleElements == nil {
		out.VisibleElements = []CapturedElement{}
	}
	return &out.HoverCapture, nil
}
