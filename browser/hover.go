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
	ac := action{kind: "hover", opts: o.ActionOptions, pointer: true, act: func(ctx context.Context, s *acting) error {
		if err := p.in.mouseMove(ctx, s.at, 0); err != nil {
			return err
		}
		if o.Duration <= 0 {
			return nil
		}
		return Sleep(ctx, o.Duration)
	}}
	var capture *HoverCapture
	if o.CaptureResult {
		ac.prepare = func(ctx context.Context, s *acting) error {
			if err := p.hoverPrepare(ctx, s); err != nil {
				return fmt.Errorf("hover: record the page before: %w", err)
			}
			return nil
		}
		move := ac.act
		ac.act = func(ctx context.Context, s *acting) error {
			if err := move(ctx, s); err != nil {
				return err
			}
			var err error
			capture, err = p.hoverCapture(ctx, max(captureWait-o.Duration, 100*time.Millisecond))
			if err != nil && KindOf(err) != KindContextDestroyed {
				return fmt.Errorf("hover: capture what appeared: %w", err)
			}
			return nil
		}
	}
	s, err := p.perform(ctx, t, ac)
	if err != nil {
		return nil, err
	}
	return &HoverResult{Hovered: true, TargetReport: s.report, CapturedResult: capture, Effect: s.effect, Warnings: s.warnings}, nil
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

func (p *Page) hoverPrepare(ctx context.Context, s *acting) error {
	if el := s.el(); el != nil {
		return el.call(ctx, nil, epHoverPrepare, nil)
	}
	return p.engineCall(ctx, nil, epHoverPrepare, nil, *s.t.Point)
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
